//! `Game`: a start position plus the moves played, with the draw counters after every move, and
//! the result by the rules (no legal move loses; the variant's draw rules; threefold repetition)
//! or by an event outside the board (agreement, resignation, time, an illegal move).

use crate::bitboard::Color;
use crate::moves::Move;
use crate::notation::fen::{parse_fen, FenError};
use crate::notation::move_text::{parse_move, MoveError};
use crate::position::Position;
use crate::variant::{DrawCounters, DrawRule, Variant};
use std::fmt;

/// Who won, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The win for one side.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The PDN result text, `1-0`, `0-1` or `1/2-1/2` (White's score first).
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move has no legal move (no pieces, or all blocked) and loses.
    NoLegalMove,
    /// A draw rule of the variant.
    Draw(DrawRule),
    /// Both sides agreed to a draw.
    Agreement,
    /// A side resigned.
    Resignation,
    /// A side ran out of time.
    Time,
    /// A side played an illegal move.
    IllegalMove,
    /// A side's engine crashed or stopped answering.
    Crash,
    /// A match runner's adjudication, such as a move cap.
    Adjudication,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::NoLegalMove => f.write_str("no legal move"),
            EndReason::Draw(rule) => write!(f, "{rule}"),
            EndReason::Agreement => f.write_str("draw by agreement"),
            EndReason::Resignation => f.write_str("resignation"),
            EndReason::Time => f.write_str("time forfeit"),
            EndReason::IllegalMove => f.write_str("illegal move"),
            EndReason::Crash => f.write_str("engine crash"),
            EndReason::Adjudication => f.write_str("adjudication"),
        }
    }
}

/// The end of a game: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub reason: EndReason,
}

/// A game: the start position and every move since, with the position and draw counters after
/// each move.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    positions: Vec<Position>,
    counters: Vec<DrawCounters>,
    moves: Vec<Move>,
    ended: Option<Outcome>,
}

impl Game {
    /// A game from `start`, with no history before it.
    pub fn new(variant: Variant, start: Position) -> Game {
        Game {
            variant,
            positions: vec![start],
            counters: vec![DrawCounters::default()],
            moves: vec![],
            ended: None,
        }
    }

    /// A game from the variant's start position.
    pub fn start(variant: Variant) -> Game {
        // The built-in start FENs are valid; a failure here is a bug, caught by the tests.
        let pos = parse_fen(variant.start_fen()).expect("built-in start FEN");
        Game::new(variant, pos)
    }

    /// A game from a PDN FEN.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, FenError> {
        Ok(Game::new(
            variant,
            crate::notation::fen::parse_fen_in(variant, fen)?,
        ))
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// Every position, from the start to the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The draw counters of the current position.
    pub fn counters(&self) -> DrawCounters {
        *self.counters.last().unwrap_or(&DrawCounters::default())
    }

    /// The legal moves in the current position (none once the game has ended by an event).
    pub fn legal_moves(&self) -> Vec<Move> {
        self.variant.legal_moves(self.position())
    }

    /// Plays a move, which must be legal in the current position.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let pos = *self.position();
        let legal = self.legal_moves();
        if !legal.iter().any(|m| m.same_effect(&mv)) {
            return Err(MoveError::Illegal {
                text: crate::full_text(&mv, crate::SquareStyle::Numeric),
                legal: legal
                    .iter()
                    .map(|m| crate::full_text(m, crate::SquareStyle::Numeric))
                    .collect(),
            });
        }
        self.push_unchecked(&pos, mv);
        Ok(())
    }

    /// Plays a move given as text (numeric or algebraic, shortest unambiguous form or full path).
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let pos = *self.position();
        let mv = parse_move(text, &pos, self.variant)?;
        self.push_unchecked(&pos, mv);
        Ok(mv)
    }

    fn push_unchecked(&mut self, pos: &Position, mv: Move) {
        let next = pos.play(&mv);
        let counters = self.counters().after(pos, &mv, &next);
        self.positions.push(next);
        self.counters.push(counters);
        self.moves.push(mv);
        self.ended = None;
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counters.pop();
        self.ended = None;
        Some(mv)
    }

    /// Ends the game by an event outside the board (agreement, resignation, time...).
    pub fn end(&mut self, outcome: Outcome) {
        self.ended = Some(outcome);
    }

    /// How many times the current position has occurred, counting this time.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        let window = self.counters().quiet_plies as usize;
        let n = self.positions.len();
        // Positions before the last capture or man move cannot recur; same side to move means
        // every second position.
        let first = n.saturating_sub(window + 1);
        self.positions[first..n]
            .iter()
            .rev()
            .step_by(2)
            .filter(|p| *p == current)
            .count()
    }

    /// The result, if the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.ended {
            return Some(o);
        }
        let pos = self.position();
        if !self.variant.has_legal_move(pos) {
            return Some(Outcome {
                result: GameResult::win_for(pos.side().opponent()),
                reason: EndReason::NoLegalMove,
            });
        }
        let draw = |rule| {
            Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::Draw(rule),
            })
        };
        if self.repetitions() >= 3 {
            return draw(DrawRule::Repetition);
        }
        if let Some(rule) = self.variant.draw_rule(&self.counters(), pos) {
            return draw(rule);
        }
        None
    }
}
