//! The functions the library exports, unmangled and with the platform's system calling
//! convention (`__stdcall` on 32-bit Windows, C elsewhere), as CheckerBoard's API declares
//! them. Each one checks its pointers, catches any panic (nothing unwinds into the host) and
//! hands the work to the one `Session` of the process.

use super::cbmove::CBmove;
use super::cbuf::{self, MAX_COMMAND, TEXT_SIZE};
use super::frame::Board8x8;
use super::session::{CallError, Played, Session};
use super::CB_UNKNOWN;
use std::ffi::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::LazyLock;

/// The session of the process: made on the first call, shared by every thread that calls.
static SESSION: LazyLock<Session> = LazyLock::new(Session::new);

/// `getmove`: searches the position on `board` with `color` (`CB_WHITE` or `CB_BLACK`) to move
/// for `maxtime` seconds (see `timing` for `info` and `moreinfo`), stopping early when
/// `*playnow` becomes non-zero; writes the position after its move into `board` and the move
/// into `*mv`, and keeps the status text `status` up to date meanwhile. Returns `CB_WIN`,
/// `CB_LOSS`, `CB_DRAW` or `CB_UNKNOWN` for the side that moved. On an error (a bad board or
/// colour, a null `board`, another `getmove` running) `board` is unchanged, `*mv` zeroed,
/// `status` says why and the value is `CB_UNKNOWN`. A side to move without a legal move has
/// lost: `CB_LOSS`, with `board` unchanged.
///
/// # Safety
/// `board` is null or points to a readable and writable `int[8][8]`; `status` is null or
/// writable for 1024 bytes; `playnow` is null or a readable `int` (which another thread may
/// set); `mv` is null or a writable `struct CBmove`. All stay valid until the call returns.
#[no_mangle]
pub unsafe extern "system" fn getmove(
    board: *mut Board8x8,
    color: c_int,
    maxtime: f64,
    status: *mut c_char,
    playnow: *const c_int,
    info: c_int,
    moreinfo: c_int,
    mv: *mut CBmove,
) -> c_int {
    let write_status = |text: &str| {
        if !status.is_null() {
            // SAFETY: writable for TEXT_SIZE bytes, as the caller promises.
            unsafe { cbuf::write(status, TEXT_SIZE, text) }
        }
    };
    // The host writes `*playnow` from its own thread as a plain int: a volatile read sees each
    // poll's current value, and an aligned int is read whole on every target.
    // SAFETY: readable while the call lasts, as the caller promises.
    let stop_asked = || !playnow.is_null() && unsafe { playnow.read_volatile() } != 0;
    let run = || -> Result<Played, CallError> {
        if board.is_null() {
            return Err(CallError::Null("board"));
        }
        // SAFETY: a valid, exclusive board for the call, as the caller promises.
        let board = unsafe { &mut *board };
        SESSION.get_move(
            board,
            color,
            maxtime,
            info,
            moreinfo,
            &stop_asked,
            &mut |t| write_status(t),
        )
    };
    let (result, played) = match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(played)) => (played.result, played.mv),
        Ok(Err(e)) => {
            write_status(&format!("Crownhead error: {e}"));
            (CB_UNKNOWN, None)
        }
        Err(_) => {
            write_status("Crownhead error: internal error (a bug); no move played");
            (CB_UNKNOWN, None)
        }
    };
    if !mv.is_null() {
        // SAFETY: a writable CBmove, as the caller promises.
        unsafe { mv.write(played.unwrap_or_default()) };
    }
    result
}

/// `enginecommand`: answers the command `command` into `reply` (at most 1023 bytes and a NUL).
/// Returns 1 when the command was handled, 0 when it was refused (the reply says why) or is
/// not one Crownhead has (the reply starts with `?`).
///
/// # Safety
/// `command` is null or a NUL-terminated string (read up to 4096 bytes); `reply` is null or
/// writable for 1024 bytes.
#[no_mangle]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    let run = || {
        if command.is_null() {
            return (false, "? no command (a null pointer)".to_string());
        }
        // SAFETY: a string the caller promises, read to its NUL or MAX_COMMAND bytes.
        let text = unsafe { cbuf::read(command, MAX_COMMAND) };
        let answer = SESSION.command(&text);
        (answer.handled, answer.text)
    };
    let (handled, text) = catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|_| (false, "? internal error (a bug)".to_string()));
    if !reply.is_null() {
        // SAFETY: writable for TEXT_SIZE bytes, as the caller promises.
        unsafe { cbuf::write(reply, TEXT_SIZE, &text) };
    }
    c_int::from(handled)
}

/// `islegal`: returns 1 and fills `*mv` if `color` has a legal move from PDN square `from` to
/// `to` on `board` (the first such capture if several take different pieces), else 0, also
/// for a bad board or colour.
///
/// # Safety
/// `board` is null or points to a readable `int[8][8]`; `mv` is null or a writable
/// `struct CBmove`.
#[no_mangle]
pub unsafe extern "system" fn islegal(
    board: *const Board8x8,
    color: c_int,
    from: c_int,
    to: c_int,
    mv: *mut CBmove,
) -> c_int {
    let run = || {
        if board.is_null() {
            return None;
        }
        // SAFETY: a valid board for the call, as the caller promises.
        let board = unsafe { &*board };
        SESSION.is_legal(board, color, from, to).ok().flatten()
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Some(cbmove)) => {
            if !mv.is_null() {
                // SAFETY: a writable CBmove, as the caller promises.
                unsafe { mv.write(cbmove) };
            }
            1
        }
        _ => 0,
    }
}
