//! The functions the WebAssembly exports, one for each call of the JavaScript module
//! (`web/engine/crownhead_web.js`, which wraps them in the API a page and the worker use), by
//! the conventions of abi.rs: text arguments as `(ptr, len)` buffers from `buffer_alloc`, text
//! answers in the answer buffer, `FAILED` with the error's message as the answer, `Game` and
//! `Session` objects as handles. The module is their only caller and keeps to those conventions;
//! everything else (a bad variant, FEN, move or handle) is an error, never a crash.

use crate::abi::{self, take_text, Handles};
use crate::rules::{self, Error, Game};
use crate::session::Session;
use std::cell::RefCell;

/// What a call that failed returns; its answer is the error's message. Every other return value
/// is not negative: `OK` (0) for a call answering text or nothing, a handle (from 1) for a
/// constructor, 1 or 0 for `session_line`.
const FAILED: i32 = -1;
const OK: i32 = 0;

thread_local! {
    static GAMES: RefCell<Handles<Game>> = const { RefCell::new(Handles::new("Game")) };
    static SESSIONS: RefCell<Handles<Session>> = const { RefCell::new(Handles::new("Session")) };
}

/// A call's outcome as its return value, leaving its text or error message as the answer.
fn answer(result: Result<String, Error>) -> i32 {
    match result {
        Ok(text) => {
            abi::set_answer(text);
            OK
        }
        Err(message) => {
            abi::set_answer(message);
            FAILED
        }
    }
}

/// A call's value (a handle, a flag), or `FAILED` with the error's message as the answer.
fn value(result: Result<i32, Error>) -> i32 {
    result.unwrap_or_else(|message| {
        abi::set_answer(message);
        FAILED
    })
}

/// A text argument; an omitted one reads as empty.
fn text(ptr: usize, len: usize) -> String {
    // SAFETY: the module passes 0 or a buffer of `buffer_alloc(len)` it has written (abi.rs).
    unsafe { take_text(ptr, len) }.unwrap_or_default()
}

/// An optional text argument.
fn optional_text(ptr: usize, len: usize) -> Option<String> {
    // SAFETY: as in `text`.
    unsafe { take_text(ptr, len) }
}

fn game<R>(handle: u32, f: impl FnOnce(&mut Game) -> Result<R, Error>) -> Result<R, Error> {
    abi::with(&GAMES, handle, f)
}

// ---- The rules (rules.rs) ----

#[no_mangle]
pub extern "C" fn variants() -> i32 {
    answer(Ok(rules::variants()))
}

#[no_mangle]
pub extern "C" fn layout(variant_ptr: usize, variant_len: usize) -> i32 {
    answer(rules::layout(&text(variant_ptr, variant_len)))
}

#[no_mangle]
pub extern "C" fn square_name(variant_ptr: usize, variant_len: usize, square: u32) -> i32 {
    answer(rules::square_name(&text(variant_ptr, variant_len), square))
}

#[no_mangle]
pub extern "C" fn classify(variant_ptr: usize, variant_len: usize, before: i32, after: i32) -> i32 {
    answer(rules::classify(
        &text(variant_ptr, variant_len),
        before,
        after,
    ))
}

#[no_mangle]
pub extern "C" fn parse_pdn(text_ptr: usize, text_len: usize) -> i32 {
    answer(Ok(rules::parse_pdn_text(&text(text_ptr, text_len))))
}

#[no_mangle]
pub extern "C" fn game_new(
    variant_ptr: usize,
    variant_len: usize,
    fen_ptr: usize,
    fen_len: usize,
) -> i32 {
    let variant = text(variant_ptr, variant_len);
    let fen = optional_text(fen_ptr, fen_len);
    value(Game::new(&variant, fen).map(|g| GAMES.with(|t| t.borrow_mut().insert(g)) as i32))
}

#[no_mangle]
pub extern "C" fn game_free(handle: u32) {
    GAMES.with(|t| t.borrow_mut().remove(handle));
}

#[no_mangle]
pub extern "C" fn game_fen(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.fen())))
}

#[no_mangle]
pub extern "C" fn game_variant(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.variant())))
}

#[no_mangle]
pub extern "C" fn game_side_to_move(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.side_to_move())))
}

#[no_mangle]
pub extern "C" fn game_pieces(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.pieces())))
}

#[no_mangle]
pub extern "C" fn game_legal_moves(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.legal_moves())))
}

#[no_mangle]
pub extern "C" fn game_play(handle: u32, move_ptr: usize, move_len: usize) -> i32 {
    let mv = text(move_ptr, move_len);
    answer(game(handle, |g| g.play(&mv)))
}

#[no_mangle]
pub extern "C" fn game_undo(handle: u32) -> i32 {
    answer(game(handle, |g| g.undo().map(|()| String::new())))
}

#[no_mangle]
pub extern "C" fn game_moves(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.moves())))
}

#[no_mangle]
pub extern "C" fn game_result(handle: u32) -> i32 {
    answer(game(handle, |g| Ok(g.result())))
}

#[no_mangle]
pub extern "C" fn game_pdn(handle: u32, tags_ptr: usize, tags_len: usize) -> i32 {
    let tags = optional_text(tags_ptr, tags_len);
    answer(game(handle, |g| g.pdn(tags)))
}

// ---- Hub (session.rs) ----

/// A session; `flags` is 1 when the module has the page's shared flags to read.
#[no_mangle]
pub extern "C" fn session_new(flags: u32) -> i32 {
    let session = Session::new(flags != 0);
    SESSIONS.with(|t| t.borrow_mut().insert(session)) as i32
}

#[no_mangle]
pub extern "C" fn session_free(handle: u32) {
    SESSIONS.with(|t| t.borrow_mut().remove(handle));
}

/// 1 while the session goes on, 0 after `quit`.
#[no_mangle]
pub extern "C" fn session_line(handle: u32, line_ptr: usize, line_len: usize) -> i32 {
    let line = text(line_ptr, line_len);
    value(abi::with(&SESSIONS, handle, |s| Ok(s.line(&line) as i32)))
}

#[no_mangle]
pub extern "C" fn session_bench(handle: u32, depth: u32, hash_mb: usize) -> i32 {
    answer(abi::with(&SESSIONS, handle, |s| s.bench(depth, hash_mb)).map(|()| String::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` in a buffer as the module passes it.
    fn pass(text: &str) -> (usize, usize) {
        let ptr = abi::buffer_alloc(text.len());
        // SAFETY: the buffer has `text.len()` bytes of room.
        unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), ptr, text.len()) };
        (ptr as usize, text.len())
    }

    fn last_answer() -> String {
        // SAFETY: the answer buffer holds `answer_len()` bytes at `answer_ptr()`.
        let bytes = unsafe { std::slice::from_raw_parts(abi::answer_ptr(), abi::answer_len()) };
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn a_game_through_the_exports() {
        let (v, vl) = pass("russian");
        let (f, fl) = pass("W:W22:B1");
        let game = game_new(v, vl, f, fl);
        assert!(game >= 1, "{}", last_answer());
        let handle = game as u32;
        assert_eq!(game_fen(handle), OK);
        assert_eq!(last_answer(), "W:W22:B1");
        let (m, ml) = pass("a1-b2");
        assert_eq!(game_play(handle, m, ml), FAILED);
        assert!(
            last_answer().starts_with("illegal move 'a1-b2'"),
            "{}",
            last_answer()
        );
        assert_eq!(game_undo(handle), FAILED);
        assert_eq!(last_answer(), "no move to take back");
        let (m, ml) = pass("c3-d4");
        assert_eq!(game_play(handle, m, ml), OK);
        assert_eq!(last_answer(), "c3-d4");
        game_free(handle);
        game_free(handle);
        assert_eq!(game_fen(handle), FAILED);
        assert_eq!(last_answer(), "no such Game (freed, or never made)");
        let (v, vl) = pass("nope");
        assert_eq!(game_new(v, vl, 0, 0), FAILED);
        assert!(
            last_answer().starts_with("unknown variant 'nope'"),
            "{}",
            last_answer()
        );
    }
}
