//! The engine behind the library's three functions: one `protocol::Engine` (the option values,
//! the searcher and its thread, as for the text protocols), the game history that `set
//! gamehist` sends, and the flag that says a `getmove` is running.
//!
//! Thread policy: a host calls `getmove` on a thread of its own and may call `enginecommand`
//! from another meanwhile. `getmove` holds the engine's lock only to start the search, to stop
//! it and to join its thread, never while it runs, so every command is answered at once during
//! a search; commands that would change the engine under a running search (`set hashsize`,
//! `set gametype`...) are refused then, with a reply that says so. A second `getmove` while one
//! runs is refused too. Locks are never nested, so no order between them can deadlock.

use super::cbmove::CBmove;
use super::frame::{read_board, write_board, Board8x8, BoardError};
use super::timing::{self, TimeError, CB_RESET_MOVES};
use super::{status, CB_DRAW, CB_LOSS, CB_UNKNOWN, CB_WIN};
use crate::bitboard::{Color, Square};
use crate::game::{Game, GameResult, Outcome};
use crate::notation::move_text::default_style;
use crate::protocol::engine::{Report, Reporter};
use crate::protocol::options::{self, Value};
use crate::protocol::Engine;
use crate::search::{Limits, Score, SearchOutcome};
use crate::variant::Variant;
use crate::Position;
use std::ffi::c_int;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often `getmove` looks at `*playnow` (and passes progress to the status text) while the
/// search runs: well inside the 50 ms in which a stop must take effect.
const POLL: Duration = Duration::from_millis(1);

/// The move overhead of the library (option `MoveOverhead`, kept back from a clock on every
/// move): the host calls in-process, with no pipe between, so far less than a text protocol's.
const MOVE_OVERHEAD_MS: i64 = 10;

/// The environment variable that chooses the variant a new session plays (`21`, `25`,
/// `english`, `russian`): CheckerBoard learns the variant only by asking `get gametype`.
pub const GAMETYPE_VARIABLE: &str = "CROWNHEAD_GAMETYPE";

/// Why `getmove` (or `islegal`) could not answer.
#[derive(Clone, Debug, PartialEq)]
pub enum CallError {
    /// A pointer argument that must not be null was.
    Null(&'static str),
    /// The board or the colour.
    Board(BoardError),
    /// `maxtime`.
    Time(TimeError),
    /// Another `getmove` is running.
    Busy,
    /// The search could not start or ended without a move (with why).
    Search(String),
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Null(what) => write!(f, "{what} is a null pointer"),
            CallError::Board(e) => write!(f, "bad board: {e}"),
            CallError::Time(e) => write!(f, "{e}"),
            CallError::Busy => write!(f, "another getmove is running; call one at a time"),
            CallError::Search(why) => write!(f, "search failed: {why}"),
        }
    }
}

impl std::error::Error for CallError {}

impl From<BoardError> for CallError {
    fn from(e: BoardError) -> Self {
        CallError::Board(e)
    }
}

impl From<TimeError> for CallError {
    fn from(e: TimeError) -> Self {
        CallError::Time(e)
    }
}

/// What `getmove` did: the value it returns, and the move it played (none without a legal move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// `CB_WIN`, `CB_LOSS`, `CB_DRAW` or `CB_UNKNOWN`, from the mover's view.
    pub result: c_int,
    /// The move, for the host's `CBmove`.
    pub mv: Option<CBmove>,
}

/// The game histories kept between calls.
#[derive(Default)]
pub(super) struct History {
    /// The game that the last `set gamehist` sent, for the next `getmove`.
    pub(super) sent: Option<Game>,
    /// The game after the last move played, which the next `getmove` continues if its board
    /// is one opponent's move on (for hosts that do not send `set gamehist`).
    pub(super) played: Option<Game>,
}

/// Clears the running flag when `getmove` ends, however it ends.
struct Running<'a>(&'a AtomicBool);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// What the search thread passes to `getmove`'s thread.
enum Event {
    Progress(String),
    Done(SearchOutcome),
}

/// The state behind the library's functions.
pub struct Session {
    pub(super) engine: Mutex<Engine>,
    pub(super) history: Mutex<History>,
    pub(super) thinking: AtomicBool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session with the engine's default options, playing the variant that
    /// `CROWNHEAD_GAMETYPE` names, else English (CheckerBoard's own game).
    pub fn new() -> Session {
        let variant = std::env::var(GAMETYPE_VARIABLE)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(Variant::English);
        Session::with_variant(variant)
    }

    /// A session playing `variant`.
    pub fn with_variant(variant: Variant) -> Session {
        let mut engine = Engine::new();
        let set = |engine: &mut Engine, name: &str, value: Value| {
            let spec = options::find(name, false).expect("an option of the table");
            engine
                .set_option(spec, value)
                .expect("a valid value when idle");
        };
        set(&mut engine, "Variant", Value::Word(variant.name()));
        set(&mut engine, "MoveOverhead", Value::Int(MOVE_OVERHEAD_MS));
        Session {
            engine: Mutex::new(engine),
            history: Mutex::new(History::default()),
            thinking: AtomicBool::new(false),
        }
    }

    pub(super) fn engine(&self) -> MutexGuard<'_, Engine> {
        // A panic under the lock leaves the engine usable: nothing is half changed there.
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn history(&self) -> MutexGuard<'_, History> {
        self.history.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.engine().settings.variant
    }

    /// Whether a `getmove` is running.
    pub fn thinking(&self) -> bool {
        self.thinking.load(Ordering::SeqCst)
    }

    /// `getmove`: searches the position on `board` with `color` to move, plays the move found
    /// on `board` and returns it with the API's verdict. `playnow` is asked every millisecond
    /// whether to stop; `status` receives the status text. On an error `board` is unchanged.
    #[allow(clippy::too_many_arguments)]
    pub fn get_move(
        &self,
        board: &mut Board8x8,
        color: c_int,
        maxtime: f64,
        info: c_int,
        moreinfo: c_int,
        playnow: &dyn Fn() -> bool,
        status: &mut dyn FnMut(&str),
    ) -> Result<Played, CallError> {
        if self.thinking.swap(true, Ordering::SeqCst) {
            return Err(CallError::Busy);
        }
        let _running = Running(&self.thinking);
        let variant = self.variant();
        let position = read_board(board, color)?;
        let legal = variant.legal_moves(&position);
        if legal.is_empty() {
            status("Crownhead: no legal move; the side to move has lost");
            return Ok(Played {
                result: CB_LOSS,
                mv: None,
            });
        }
        let limits = timing::limits(maxtime, info, moreinfo, legal.len() == 1)?;
        let game = self.game_for(position, variant, info & CB_RESET_MOVES != 0);
        let style = default_style(variant);
        let start = Instant::now();
        let outcome = self.think(&game, limits, playnow, status)?;
        // The move as the full generator gives it, with its landing squares.
        let best = outcome
            .best
            .and_then(|b| legal.iter().copied().find(|m| m.same_effect(&b)))
            .unwrap_or(legal[0]);
        let mut after = game;
        after
            .play(best)
            .map_err(|e| CallError::Search(e.to_string()))?;
        write_board(after.position(), board);
        let end = after.outcome();
        let mut text = status::played(&best, &outcome, start.elapsed(), style);
        if let Some(end) = end {
            text.push_str(&format!("  game over: {} {}", end.result.pdn(), end.reason));
        }
        status(&text);
        let result = verdict(end, position.side(), outcome.score);
        self.history().played = Some(after);
        Ok(Played {
            result,
            mv: Some(CBmove::new(&position, &best)),
        })
    }

    /// Searches `game` on the engine's search thread within `limits`, passing its progress to
    /// `status` and stopping it when `playnow` says so; returns what it found once its thread
    /// has ended.
    fn think(
        &self,
        game: &Game,
        limits: Limits,
        playnow: &dyn Fn() -> bool,
        status: &mut dyn FnMut(&str),
    ) -> Result<SearchOutcome, CallError> {
        let style = default_style(game.variant());
        let (tx, rx) = mpsc::channel();
        let reporter: Reporter = Box::new(move |report| {
            let _ = tx.send(match report {
                Report::Info(info) => Event::Progress(status::thinking(info, style)),
                Report::Done(outcome) => Event::Done(outcome.clone()),
            });
        });
        {
            let mut engine = self.engine();
            engine.game = game.clone();
            engine
                .go(limits, false, reporter)
                .map_err(|e| CallError::Search(e.to_string()))?;
        }
        let mut stop_sent = false;
        let outcome = loop {
            if !stop_sent && playnow() {
                self.engine().stop();
                stop_sent = true;
            }
            match rx.recv_timeout(POLL) {
                Ok(Event::Progress(text)) => status(&text),
                Ok(Event::Done(outcome)) => break Ok(outcome),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    break Err(CallError::Search("no move came back".into()))
                }
            }
        };
        self.engine().wait();
        outcome
    }

    /// The game to search from `position`: the one `set gamehist` sent if it ends there, else
    /// the last game played on if one opponent's move leads from it to `position` (unless
    /// `reset`, `info`'s "new game" bit), else the position alone. Either stored game is used
    /// once.
    fn game_for(&self, position: Position, variant: Variant, reset: bool) -> Game {
        let (sent, played) = {
            let mut history = self.history();
            (history.sent.take(), history.played.take())
        };
        let fits = |g: &Game| g.variant() == variant;
        if let Some(game) = sent.filter(|g| fits(g) && *g.position() == position) {
            return game;
        }
        if let Some(mut game) = played.filter(|g| fits(g) && !reset) {
            let reply = game
                .legal_moves()
                .into_iter()
                .find(|m| game.position().play(m) == position);
            if let Some(m) = reply {
                if game.play(m).is_ok() {
                    return game;
                }
            }
        }
        Game::new(variant, position)
    }

    /// `islegal`: the move from PDN square `from` to `to` for `color` on `board`, if there is a
    /// legal one. Where several captures share both squares the first is taken, as the API's
    /// reference expects: `get movelist` is the API's answer to that ambiguity.
    pub fn is_legal(
        &self,
        board: &Board8x8,
        color: c_int,
        from: c_int,
        to: c_int,
    ) -> Result<Option<CBmove>, BoardError> {
        let position = read_board(board, color)?;
        let square = |n: c_int| u32::try_from(n).ok().and_then(Square::from_number);
        let (Some(from), Some(to)) = (square(from), square(to)) else {
            return Ok(None);
        };
        let legal = self.variant().legal_moves(&position);
        Ok(legal
            .iter()
            .find(|m| m.from() == from && m.to() == to)
            .map(|m| CBmove::new(&position, m)))
    }
}

/// `getmove`'s return value for `mover` after its move: the game's result if the move ended it
/// (the opponent cannot move, or a draw rule such as a threefold repetition), else a win or loss
/// the search has proved, else unknown.
fn verdict(end: Option<Outcome>, mover: Color, score: Score) -> c_int {
    match end.map(|o| o.result) {
        Some(GameResult::Draw) => CB_DRAW,
        Some(r) if r == GameResult::win_for(mover) => CB_WIN,
        Some(_) => CB_LOSS,
        None => match score.mate_moves() {
            Some(m) if m > 0 => CB_WIN,
            Some(_) => CB_LOSS,
            None => CB_UNKNOWN,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::frame::{board_of, color_code, CB_WHITE};
    use super::super::timing::CB_EXACT_TIME;
    use super::*;
    use crate::notation::fen::{parse_fen, to_fen};

    fn quiet(_: &str) {}

    fn play(
        session: &Session,
        fen: &str,
        maxtime: f64,
    ) -> (Result<Played, CallError>, Board8x8, Position) {
        let pos = parse_fen(fen).unwrap();
        let mut board = board_of(&pos);
        let r = session.get_move(
            &mut board,
            color_code(pos.side()),
            maxtime,
            CB_EXACT_TIME,
            0,
            &|| false,
            &mut quiet,
        );
        (r, board, pos)
    }

    #[test]
    fn getmove_plays_a_legal_move_on_the_board_in_both_variants() {
        for variant in Variant::ALL {
            let session = Session::with_variant(variant);
            let (played, board, before) = play(&session, variant.start_fen(), 0.05);
            let played = played.unwrap();
            let after = read_board(&board, color_code(before.side().opponent())).unwrap();
            let legal = variant.legal_moves(&before);
            let mv = legal.iter().find(|m| before.play(m) == after);
            let mv = mv.unwrap_or_else(|| panic!("{variant}: {} is no move away", to_fen(&after)));
            assert_eq!(played.mv, Some(CBmove::new(&before, mv)));
            assert_eq!(played.result, CB_UNKNOWN);
        }
    }

    #[test]
    fn getmove_returns_the_verdict_of_the_board() {
        let session = Session::with_variant(Variant::English);
        // White to move with no piece has lost; the board stays as it is.
        let before = board_of(&parse_fen("B::B1,2").unwrap());
        let mut board = before;
        let played = session.get_move(&mut board, CB_WHITE, 0.01, 0, 0, &|| false, &mut quiet);
        assert_eq!(
            played.unwrap(),
            Played {
                result: CB_LOSS,
                mv: None
            }
        );
        assert_eq!(board, before);
        // Black (king on 1) takes White's last piece: the game is won.
        let (played, _, _) = play(&session, "B:W6:BK1", 0.05);
        assert_eq!(played.unwrap().result, CB_WIN);
    }

    #[test]
    fn bad_input_leaves_the_board_alone() {
        let session = Session::with_variant(Variant::Russian);
        let start = board_of(&parse_fen(Variant::Russian.start_fen()).unwrap());
        let mut board = start;
        let r = session.get_move(&mut board, 7, 0.01, 0, 0, &|| false, &mut quiet);
        assert_eq!(r, Err(CallError::Board(BoardError::Color(7))));
        let r = session.get_move(&mut board, CB_WHITE, f64::NAN, 0, 0, &|| false, &mut quiet);
        assert!(matches!(r, Err(CallError::Time(_))), "{r:?}");
        assert_eq!(board, start);
        assert!(!session.thinking());
    }

    #[test]
    fn playnow_ends_a_long_search_at_once() {
        let session = Session::with_variant(Variant::Russian);
        let pos = parse_fen(Variant::Russian.start_fen()).unwrap();
        let mut board = board_of(&pos);
        let start = Instant::now();
        let asked = std::cell::Cell::new(None);
        let playnow = || {
            if start.elapsed() > Duration::from_millis(200) {
                asked.set(asked.get().or(Some(Instant::now())));
                true
            } else {
                false
            }
        };
        let played = session
            .get_move(&mut board, CB_WHITE, 60.0, 0, 0, &playnow, &mut quiet)
            .unwrap();
        let latency = asked.get().unwrap().elapsed();
        assert!(played.mv.is_some());
        assert!(latency < Duration::from_millis(50), "{latency:?}");
    }

    #[test]
    fn the_history_of_gamehist_or_of_the_last_move_is_continued() {
        let session = Session::with_variant(Variant::English);
        // Two kings shuffle: B:WK32:BK1 ... the history is the game so far.
        let start = parse_fen("B:WK32:BK1").unwrap();
        session.history().sent = Some(Game::new(Variant::English, start));
        let game = session.game_for(start, Variant::English, false);
        assert_eq!(game.positions().len(), 1);
        // A gamehist that ends elsewhere is not used.
        let other = parse_fen("B:WK31:BK1").unwrap();
        session.history().sent = Some(Game::new(Variant::English, other));
        assert_eq!(
            session.game_for(start, Variant::English, false).positions(),
            &[start]
        );
        // After a move played, the board one opponent's move on continues that game.
        let mut played = Game::new(Variant::English, start);
        played.play_text("1-6").unwrap();
        let reply = played.position().play(&played.legal_moves()[0]);
        session.history().played = Some(played.clone());
        assert_eq!(
            session
                .game_for(reply, Variant::English, false)
                .positions()
                .len(),
            3
        );
        session.history().played = Some(played);
        assert_eq!(
            session
                .game_for(reply, Variant::English, true)
                .positions()
                .len(),
            1
        );
    }
}
