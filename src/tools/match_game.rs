//! One game of an engine match: the opening, then each engine in turn asked for a move under its
//! clock, every move checked and the result decided by `Game` (no legal move loses, every draw
//! rule of the variant), a move cap, and the optional score adjudication. An illegal move, a
//! crash or a time forfeit loses for the engine at fault. The game comes back as PDN with the
//! time, score and clock of every move and the reason for the result.

use super::engine::{EngineClient, Failure, Go, Reply};
use super::openings::Opening;
use crate::bitboard::Color;
use crate::game::{EndReason, GameResult, Outcome};
use crate::pdn::PdnGame;
use crate::variant::Variant;
use std::time::Duration;

/// How each move is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A clock per side: base time and increment.
    Clock {
        /// Time for the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move.
    Depth(u32),
}

impl Control {
    /// The PDN `TimeControl` value: `10+0.1` (seconds), `movetime 100ms` or `depth 3`.
    pub fn describe(&self) -> String {
        match self {
            Control::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            Control::MoveTime(t) => format!("movetime {}ms", t.as_millis()),
            Control::Depth(d) => format!("depth {d}"),
        }
    }
}

/// The `TimeControl` tag of a game: one control when both sides play under it, else each
/// side's.
fn describe_controls(controls: [Control; 2]) -> String {
    let [white, black] = controls.map(|c| c.describe());
    if white == black {
        white
    } else {
        format!("White {white}, Black {black}")
    }
}

/// Everything about a game that is the same for every game of the match (each side's time
/// control is given to `play_game`, since it follows the engine from colour to colour).
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The variant.
    pub variant: Variant,
    /// How long a move may overrun its clock or move time before it is a time forfeit.
    pub margin: Duration,
    /// How long a depth-limited move, a new game or a handshake may take.
    pub timeout: Duration,
    /// Moves per side after the opening before the game is drawn by the move cap.
    pub max_moves: u32,
    /// Draw when both engines report |score| <= cp for this many moves each: (moves, cp).
    pub draw_adjudication: Option<(u32, i32)>,
    /// A win when both engines agree one side is ahead by >= cp for this many moves each.
    pub resign_adjudication: Option<(u32, i32)>,
}

/// What an engine did wrong, if it lost by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It played an illegal move (or none when it had moves).
    Illegal,
    /// It crashed or closed its output.
    Crash,
    /// It ran out of time or hung.
    Time,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game with tags, per-move comments and result.
    pub pdn: PdnGame,
    /// Who won.
    pub result: GameResult,
    /// Why, in words.
    pub reason: String,
    /// The side whose engine lost by a fault, and the fault.
    pub fault: Option<(Color, Fault)>,
    /// The time each side's engine took for its moves, and how many it played, by colour.
    pub thinking: [Thinking; 2],
}

/// The time an engine took over the moves it played.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    /// Moves played (the opening's not counted).
    pub moves: u32,
    /// Their time, as the match measured it.
    pub time: Duration,
}

impl Thinking {
    /// Adds another tally.
    pub fn add(&mut self, other: Thinking) {
        self.moves += other.moves;
        self.time += other.time;
    }
}

/// How a game ended: the result, why in words, and the fault that decided it, if any.
type Ending = (GameResult, String, Option<(Color, Fault)>);

/// Score streaks for the optional adjudication, counted in plies.
#[derive(Default)]
struct Streaks {
    drawish: u32,
    white_ahead: u32,
    black_ahead: u32,
}

impl Streaks {
    /// Updates with one engine's score, from White's point of view (`None` breaks every streak).
    fn update(
        &mut self,
        white_score: Option<i32>,
        s: &GameSettings,
    ) -> Option<(GameResult, String)> {
        let Some(w) = white_score else {
            *self = Streaks::default();
            return None;
        };
        if let Some((moves, cp)) = s.draw_adjudication {
            self.drawish = if w.abs() <= cp { self.drawish + 1 } else { 0 };
            if self.drawish >= 2 * moves {
                return Some((
                    GameResult::Draw,
                    format!("adjudicated draw: both scores within {cp} cp for {moves} moves"),
                ));
            }
        }
        if let Some((moves, cp)) = s.resign_adjudication {
            self.white_ahead = if w >= cp { self.white_ahead + 1 } else { 0 };
            self.black_ahead = if w <= -cp { self.black_ahead + 1 } else { 0 };
            for (streak, winner) in [
                (self.white_ahead, Color::White),
                (self.black_ahead, Color::Black),
            ] {
                if streak >= 2 * moves {
                    let reason = format!(
                        "adjudicated: {} resigns, both engines agree by {cp} cp for {moves} moves",
                        winner.opponent()
                    );
                    return Some((GameResult::win_for(winner), reason));
                }
            }
        }
        None
    }
}

/// Plays one game between two running engines from `opening`, each side's engine under its
/// own control (`controls`: White's, then Black's).
pub fn play_game(
    white: &mut EngineClient,
    black: &mut EngineClient,
    opening: &Opening,
    controls: [Control; 2],
    s: &GameSettings,
) -> GameRecord {
    let mut game = opening.game(s.variant);
    let opening_plies = game.moves().len();
    let mut comments: Vec<Option<String>> = vec![None; opening_plies];
    if opening_plies > 0 {
        comments[opening_plies - 1] = Some(format!("end of opening {}", opening.name));
    }
    let names = [white.name.clone(), black.name.clone()];
    let mut clocks = Clocks::new(controls);
    let ending = match new_game(white, black, &names, s) {
        Some(ending) => ending,
        None => {
            let mut engines = [white, black];
            play_moves(
                &mut engines,
                &mut game,
                &mut comments,
                &names,
                &mut clocks,
                s,
            )
        }
    };
    let mut record = record(game, comments, ending, &names, opening, controls);
    record.thinking = clocks.thinking;
    record
}

/// Tells both engines a game starts; the forfeit of the first that fails, if one does.
fn new_game(
    white: &mut EngineClient,
    black: &mut EngineClient,
    names: &[String; 2],
    s: &GameSettings,
) -> Option<Ending> {
    for (color, engine) in [(Color::White, white), (Color::Black, black)] {
        if let Err(f) = engine.new_game(s.timeout) {
            return Some(forfeit(color, names, f));
        }
    }
    None
}

/// Each side's control and clock, and the time it has taken, by colour index.
struct Clocks {
    controls: [Control; 2],
    /// Time left, for a side under `Control::Clock`.
    left: [Duration; 2],
    thinking: [Thinking; 2],
}

impl Clocks {
    fn new(controls: [Control; 2]) -> Clocks {
        let base = |c: Control| match c {
            Control::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        Clocks {
            controls,
            left: controls.map(base),
            thinking: [Thinking::default(); 2],
        }
    }

    /// What to ask the engine to move with, and how long it may take before it forfeits.
    fn go(&self, side: Color, s: &GameSettings) -> (Go, Duration) {
        match self.controls[side.index()] {
            Control::Clock { increment, .. } => {
                let own = self.left[side.index()];
                // An opponent on a fixed time or depth has no clock: the engine is shown its
                // own time in its place (engines plan by their own clock).
                let other = match self.controls[side.opponent().index()] {
                    Control::Clock { .. } => self.left[side.opponent().index()],
                    _ => own,
                };
                let (white, black) = if side == Color::White {
                    (own, other)
                } else {
                    (other, own)
                };
                let go = Go::Clock {
                    white,
                    black,
                    increment,
                };
                (go, own + s.margin)
            }
            Control::MoveTime(t) => (Go::MoveTime(t), t + s.margin),
            Control::Depth(d) => (Go::Depth(d), s.timeout),
        }
    }

    /// Charges `side` for a move, adding the increment to its clock if it has one; returns the
    /// time left on that clock.
    fn charge(&mut self, side: Color, elapsed: Duration) -> Option<Duration> {
        self.thinking[side.index()].add(Thinking {
            moves: 1,
            time: elapsed,
        });
        let Control::Clock { increment, .. } = self.controls[side.index()] else {
            return None;
        };
        let clock = &mut self.left[side.index()];
        *clock = clock.saturating_sub(elapsed) + increment;
        Some(*clock)
    }
}

/// Plays moves from the game's position until the rules, the move cap, a fault or an
/// adjudication ends the game; each move's comment goes to `comments`.
fn play_moves(
    engines: &mut [&mut EngineClient; 2],
    game: &mut crate::Game,
    comments: &mut Vec<Option<String>>,
    names: &[String; 2],
    clocks: &mut Clocks,
    s: &GameSettings,
) -> Ending {
    let opening_plies = game.moves().len();
    let mut streaks = Streaks::default();
    loop {
        if let Some(ending) = rules_end(game, opening_plies, s) {
            return ending;
        }
        let side = game.position().side();
        let (go, budget) = clocks.go(side, s);
        let reply = match engines[side.index()].go(game, go, budget) {
            Ok(r) => r,
            Err(f) => return forfeit(side, names, f),
        };
        let Some(mv) = reply.mv else {
            return illegal_move(&reply, side, names);
        };
        let mut comment = move_comment(&reply);
        if let Some(left) = clocks.charge(side, reply.elapsed) {
            comment.push_str(&format!(" clk {:.3}s", left.as_secs_f64()));
        }
        // `mv` was matched against the legal moves, so this cannot fail.
        let _ = game.play(mv);
        comments.push(Some(comment));
        let white_score = reply
            .score
            .map(|cp| if side == Color::White { cp } else { -cp });
        if let Some((result, reason)) = streaks.update(white_score, s) {
            return (result, reason, None);
        }
    }
}

/// The end by the rules (no legal move, a draw rule) or by the move cap, if the game is over.
fn rules_end(game: &crate::Game, opening_plies: usize, s: &GameSettings) -> Option<Ending> {
    if let Some(Outcome { result, reason }) = game.outcome() {
        return Some((result, reason_text(reason, game), None));
    }
    if game.moves().len() - opening_plies >= 2 * s.max_moves as usize {
        return Some((
            GameResult::Draw,
            format!("move cap ({} moves)", s.max_moves),
            None,
        ));
    }
    None
}

/// The loss of the side whose engine answered with no legal move.
fn illegal_move(reply: &Reply, side: Color, names: &[String; 2]) -> Ending {
    let text = reply.text.as_deref().unwrap_or("(none)");
    // The engine's text, quoted: a broken engine may send anything.
    let reason = format!(
        "illegal move {} by {}",
        crate::notation::quote::quote(text),
        names[side.index()]
    );
    (
        GameResult::win_for(side.opponent()),
        reason,
        Some((side, Fault::Illegal)),
    )
}

/// A move's PDN comment: score (`+0.25`, `+M7`, `?`), `/depth` and time taken.
fn move_comment(reply: &Reply) -> String {
    let mut comment = match reply.score {
        Some(cp) if cp.abs() >= 9_000 => {
            format!("{}M{}", if cp > 0 { "+" } else { "-" }, 10_000 - cp.abs())
        }
        Some(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        None => "?".to_string(),
    };
    if let Some(d) = reply.depth {
        comment.push_str(&format!("/{d}"));
    }
    comment.push_str(&format!(" {:.3}s", reply.elapsed.as_secs_f64()));
    comment
}

/// The finished game as PDN, ended in `game` by `ending` if the rules did not end it.
fn record(
    mut game: crate::Game,
    comments: Vec<Option<String>>,
    (result, reason, fault): Ending,
    names: &[String; 2],
    opening: &Opening,
    controls: [Control; 2],
) -> GameRecord {
    if game.outcome().is_none() {
        let why = match fault {
            Some((_, Fault::Illegal)) => EndReason::IllegalMove,
            Some((_, Fault::Crash)) => EndReason::Crash,
            Some((_, Fault::Time)) => EndReason::Time,
            None => EndReason::Adjudication,
        };
        game.end(Outcome {
            result,
            reason: why,
        });
    }
    let mut pdn = PdnGame::new(game);
    pdn.comments = comments;
    pdn.result = Some(result);
    pdn.end_comment = Some(reason.clone());
    pdn.set_tag("White", names[0].clone());
    pdn.set_tag("Black", names[1].clone());
    pdn.set_tag("Opening", opening.name.clone());
    pdn.set_tag("TimeControl", describe_controls(controls));
    pdn.set_tag("Termination", reason.clone());
    GameRecord {
        pdn,
        result,
        reason,
        fault,
        thinking: [Thinking::default(); 2],
    }
}

/// The loss of the side whose engine failed.
fn forfeit(side: Color, names: &[String; 2], f: Failure) -> Ending {
    let name = &names[side.index()];
    let (fault, reason) = match &f {
        Failure::Timeout => (Fault::Time, format!("time forfeit by {name}")),
        Failure::Crash(why) => (Fault::Crash, format!("{name} crashed: {why}")),
    };
    (
        GameResult::win_for(side.opponent()),
        reason,
        Some((side, fault)),
    )
}

/// Why a game ended by the rules, in words.
fn reason_text(reason: EndReason, game: &crate::Game) -> String {
    match reason {
        EndReason::NoLegalMove => format!("{} has no legal move", game.position().side()),
        other => other.to_string(),
    }
}
