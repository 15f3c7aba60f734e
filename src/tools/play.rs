//! `crownhead play`: a person plays the engine in the terminal, one line at a time on stdin, so
//! it works the same when stdin is a pipe (the tests drive it that way). The board is drawn with
//! rank and file letters (and, for english, the square numbers of each row), the last move below
//! it. Moves are typed in either notation; an illegal move is explained with the legal moves
//! listed. Commands: undo, hint, flip, new, save FILE, resign, draw, help, quit.
//!
//! A draw offer is put to the engine's search: it accepts when its score for itself is level
//! (within 0.10 of a man) or worse, and says which. With `--tc` the engine keeps a clock; yours is
//! not kept.

use super::format_score;
use super::matches::parse_tc;
use crate::bitboard::{Color, Square};
use crate::game::{EndReason, Game, GameResult, Outcome};
use crate::moves::Move;
use crate::notation::move_text::{default_style, short_text, MoveError};
use crate::notation::quote::{printable_lines, quote};
use crate::pdn::PdnGame;
use crate::position::Position;
use crate::search::{Clock, Limits, Score, SearchControl, SearchOptions, Searcher};
use crate::variant::Variant;
use clap::Args;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The score (centi-men, engine's view) at or below which the engine accepts a draw.
pub(crate) const DRAW_ACCEPT: i32 = 10;

/// The arguments of `crownhead play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Your colour: white or black.
    #[arg(long, default_value = "white", value_parser = ["white", "black"])]
    pub color: String,
    /// The engine's clock: seconds plus increment, e.g. 300+2.
    #[arg(long, conflicts_with_all = ["depth", "movetime"])]
    pub tc: Option<String>,
    /// The engine searches to this depth.
    #[arg(long, conflicts_with = "movetime", value_parser = super::args::depth)]
    pub depth: Option<u32>,
    /// The engine thinks this many milliseconds a move (default 1000).
    #[arg(long, value_parser = super::args::millis)]
    pub movetime: Option<u64>,
}

const HELP: &str = "Type a move (11-15, 22x15, c3-d4, c3:e5) or a command:
  undo       take back your last move (and the engine's reply)
  hint       ask the engine for a move
  flip       turn the board round
  new        start a new game
  save FILE  save the game as PDN
  resign     give up the game
  draw       offer a draw
  help       this text
  quit       leave";

struct Session {
    variant: Variant,
    human: Color,
    game: Game,
    flipped: bool,
    searcher: Searcher,
    limits: Limits,
    engine_clock: Option<(Duration, Duration)>,
    announced: bool,
    /// The board changed since it was last drawn.
    dirty: bool,
}

/// What the loop does after a typed line.
enum Reply {
    /// Nothing to say (an empty line).
    Nothing,
    /// Say this and read the next line.
    Say(String),
    /// Say goodbye and end.
    Quit,
}

/// Runs `crownhead play` on stdin and stdout.
pub fn run(args: PlayArgs) -> Result<(), String> {
    let mut s = Session::new(&args)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    say(
        &mut out,
        &format!(
            "Crownhead: {} draughts. You play {}. Type help for commands.",
            s.variant, s.human
        ),
    )?;
    let mut bytes = Vec::new();
    loop {
        if s.engine_to_move() {
            let text = s.engine_move();
            say(&mut out, &text)?;
            continue;
        }
        s.show(&mut out)?;
        write!(out, "{}> ", s.human)
            .and_then(|_| out.flush())
            .map_err(|e| e.to_string())?;
        let Some(line) = read_line(&mut input, &mut bytes)? else {
            // End of input: end the prompt's line and leave.
            return say(&mut out, "");
        };
        match s.answer(&line) {
            Reply::Nothing => {}
            Reply::Say(text) => say(&mut out, &text)?,
            Reply::Quit => return say(&mut out, "Bye."),
        }
    }
}

/// Writes one reply line and flushes it. Typed text is quoted where a reply shows it;
/// `printable_lines` is the last guard that no control character typed (an escape sequence, a
/// NUL) is echoed to the terminal raw.
fn say(out: &mut dyn Write, text: &str) -> Result<(), String> {
    writeln!(out, "{}", printable_lines(text))
        .and_then(|_| out.flush())
        .map_err(|e| e.to_string())
}

/// Reads one typed line, trimmed; `None` at end of input. Read as bytes: a line that is not
/// UTF-8 is read with its bad bytes replaced and then refused like any other text that is not a
/// move, instead of ending the game.
fn read_line(input: &mut dyn BufRead, bytes: &mut Vec<u8>) -> Result<Option<String>, String> {
    bytes.clear();
    if input.read_until(b'\n', bytes).map_err(|e| e.to_string())? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(bytes).trim().to_string()))
}

impl Session {
    /// A new game with the engine set up as the flags say.
    fn new(args: &PlayArgs) -> Result<Session, String> {
        let human = if args.color == "black" {
            Color::Black
        } else {
            Color::White
        };
        let engine_clock = match &args.tc {
            Some(tc) => Some(parse_tc(tc)?),
            None => None,
        };
        Ok(Session {
            variant: args.variant,
            human,
            game: Game::start(args.variant),
            flipped: human == Color::Black,
            searcher: Searcher::new(SearchOptions::default()),
            limits: super::depth_or_movetime(args.depth, args.movetime, 1000),
            engine_clock,
            announced: false,
            dirty: true,
        })
    }

    /// The game goes on and it is the engine's turn.
    fn engine_to_move(&self) -> bool {
        self.game.outcome().is_none() && self.game.position().side() != self.human
    }

    /// Before the prompt: the result once when the game is over, else the board if it changed.
    fn show(&mut self, out: &mut dyn Write) -> Result<(), String> {
        if let Some(outcome) = self.game.outcome() {
            if !self.announced {
                say(out, &self.board())?;
                say(out, &result_text(&self.game, outcome, self.human))?;
                say(out, "Type new, undo, save FILE or quit.")?;
                self.announced = true;
            }
        } else if self.dirty {
            say(out, &self.board())?;
            self.dirty = false;
        }
        Ok(())
    }

    /// The answer to a typed line: a command, else a move.
    fn answer(&mut self, line: &str) -> Reply {
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        Reply::Say(match command.to_ascii_lowercase().as_str() {
            "" => return Reply::Nothing,
            "quit" | "exit" | "q" => return Reply::Quit,
            "help" | "?" => HELP.to_string(),
            "undo" | "takeback" => self.undo(),
            "hint" => self.hint(),
            "flip" => self.flip(),
            "new" => self.new_game(),
            "save" => self.save(rest.trim()),
            "resign" => self.resign(),
            "draw" => self.offer_draw(),
            _ => self.human_move(line),
        })
    }

    fn flip(&mut self) -> String {
        self.flipped = !self.flipped;
        self.dirty = true;
        "Board turned round.".to_string()
    }

    fn new_game(&mut self) -> String {
        self.game = Game::start(self.variant);
        self.searcher.new_game();
        self.announced = false;
        self.dirty = true;
        format!("New game. You play {}.", self.human)
    }

    fn resign(&mut self) -> String {
        let over = self.game.outcome().is_some();
        self.end_by(
            GameResult::win_for(self.human.opponent()),
            EndReason::Resignation,
        );
        if over {
            "The game is over."
        } else {
            "You resign."
        }
        .to_string()
    }

    fn style(&self) -> crate::SquareStyle {
        default_style(self.variant)
    }

    fn search(&mut self, limits: &Limits) -> (Option<Move>, Score, u32) {
        let control = SearchControl::new(false);
        let outcome = self
            .searcher
            .search(&self.game, limits, &control, &mut |_| {});
        (outcome.best, outcome.score, outcome.depth)
    }

    fn engine_move(&mut self) -> String {
        let mut limits = self.limits.clone();
        if let Some((time, increment)) = self.engine_clock {
            limits = Limits {
                clock: Some(Clock {
                    time,
                    increment,
                    moves_to_go: None,
                }),
                ..Limits::default()
            };
        }
        let start = Instant::now();
        let (best, score, depth) = self.search(&limits);
        let elapsed = start.elapsed();
        if let Some((time, increment)) = &mut self.engine_clock {
            *time = time.saturating_sub(elapsed) + *increment;
        }
        let pos = *self.game.position();
        let Some(mv) = best.or_else(|| self.game.legal_moves().first().copied()) else {
            return "Crownhead has no move.".into();
        };
        let text = short_text(&mv, &pos, self.variant, self.style());
        let _ = self.game.play(mv);
        self.dirty = true;
        let mut line = format!(
            "Crownhead plays {text} ({} depth {depth}, {:.1}s",
            format_score(score),
            elapsed.as_secs_f64()
        );
        if let Some((time, _)) = self.engine_clock {
            line.push_str(&format!(", clock {:.1}s", time.as_secs_f64()));
        }
        line.push(')');
        line
    }

    fn human_move(&mut self, text: &str) -> String {
        if let Some(outcome) = self.game.outcome() {
            return format!(
                "The game is over ({}). Type new, undo, save FILE or quit.",
                outcome.reason
            );
        }
        let pos = *self.game.position();
        match self.game.play_text(text) {
            Ok(mv) => {
                self.dirty = true;
                format!(
                    "You play {}.",
                    short_text(&mv, &pos, self.variant, self.style())
                )
            }
            Err(MoveError::Syntax(t))
                if t.contains(['-', 'x', ':']) && t.contains(|c: char| c.is_ascii_digit()) =>
            {
                format!("{} is not a move: squares are dark squares, 1-32 or a name such as c3. Legal moves: {}", quote(&t), self.legal_list())
            }
            Err(MoveError::Syntax(t)) => {
                format!(
                    "{} is neither a move nor a command. Type help for the commands.",
                    quote(&t)
                )
            }
            Err(MoveError::Illegal { text, .. }) => {
                let capture = self.variant.has_capture(&pos);
                let why = if capture {
                    " (a capture is compulsory)"
                } else {
                    ""
                };
                format!(
                    "Illegal move {}{why}. Legal moves: {}",
                    quote(&text),
                    self.legal_list()
                )
            }
            Err(e @ MoveError::Ambiguous { .. }) => format!("{e}. Type the whole path."),
        }
    }

    fn legal_list(&self) -> String {
        let pos = self.game.position();
        let mut moves = self.game.legal_moves();
        crate::moves::dedup_same_effect(&mut moves);
        moves
            .iter()
            .map(|m| short_text(m, pos, self.variant, self.style()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn undo(&mut self) -> String {
        if !self
            .game
            .moves()
            .iter()
            .enumerate()
            .any(|(i, _)| self.game.positions()[i].side() == self.human)
        {
            return "Nothing to undo: you have not moved yet.".into();
        }
        let mut taken = 0;
        // Take back to the position before the person's last move.
        while let Some(_mv) = self.game.undo() {
            taken += 1;
            if self.game.position().side() == self.human {
                break;
            }
        }
        self.announced = false;
        self.dirty = true;
        format!(
            "Took back {taken} move{}.",
            if taken == 1 { "" } else { "s" }
        )
    }

    fn hint(&mut self) -> String {
        if self.game.outcome().is_some() {
            return "The game is over.".into();
        }
        let pos = *self.game.position();
        let limits = self.limits.clone();
        match self.search(&limits) {
            (Some(m), score, _) => format!(
                "Hint: {} ({})",
                short_text(&m, &pos, self.variant, self.style()),
                format_score(score)
            ),
            _ => "No move to suggest.".into(),
        }
    }

    fn offer_draw(&mut self) -> String {
        if self.game.outcome().is_some() {
            return "The game is over.".into();
        }
        let limits = self.limits.clone();
        let (_, score, _) = self.search(&limits);
        let engine_view = if self.game.position().side() == self.human {
            -score
        } else {
            score
        };
        if engine_view.0 <= DRAW_ACCEPT {
            let how = if engine_view.0 >= -DRAW_ACCEPT {
                "level"
            } else {
                "worse for itself"
            };
            let reply = format!(
                "Crownhead accepts the draw: its search finds the game {how} ({}).",
                format_score(engine_view)
            );
            self.end_by(GameResult::Draw, EndReason::Agreement);
            reply
        } else {
            format!(
                "Crownhead declines the draw: its search gives it {}.",
                format_score(engine_view)
            )
        }
    }

    fn end_by(&mut self, result: GameResult, reason: EndReason) {
        if self.game.outcome().is_none() {
            self.game.end(Outcome { result, reason });
            self.announced = false;
        }
    }

    fn save(&self, path: &str) -> String {
        if path.is_empty() {
            return "Usage: save FILE".into();
        }
        let mut pdn = PdnGame::new(self.game.clone());
        pdn.set_tag("Event", "crownhead play");
        let (you, engine) = ("You".to_string(), "Crownhead".to_string());
        let (white, black) = if self.human == Color::White {
            (you, engine)
        } else {
            (engine, you)
        };
        pdn.set_tag("White", white);
        pdn.set_tag("Black", black);
        if let Some(o) = self.game.outcome() {
            pdn.result = Some(o.result);
            pdn.end_comment = Some(o.reason.to_string());
        }
        match std::fs::write(path, pdn.to_pdn()) {
            Ok(()) => format!("Saved to {}.", quote(path)),
            Err(e) => format!("Cannot save to {}: {e}", quote(path)),
        }
    }

    fn board(&self) -> String {
        let last = self.game.moves().last().map(|m| {
            let pos = &self.game.positions()[self.game.moves().len() - 1];
            format!(
                "{} ({})",
                short_text(m, pos, self.variant, self.style()),
                pos.side()
            )
        });
        draw_board(
            self.game.position(),
            self.variant,
            self.flipped,
            last.as_deref(),
        )
    }
}

/// The result line: who won and why, by the rules.
fn result_text(game: &Game, outcome: Outcome, human: Color) -> String {
    let who = match outcome.result {
        GameResult::Draw => "Draw".to_string(),
        r if r == GameResult::win_for(human) => format!("You win ({human})"),
        _ => format!("Crownhead wins ({})", human.opponent()),
    };
    let why = match outcome.reason {
        EndReason::NoLegalMove => format!("{} has no legal move", game.position().side()),
        EndReason::Resignation => "resignation".into(),
        other => other.to_string(),
    };
    format!("Game over: {} {who}: {why}.", outcome.result.pdn())
}

/// The board as text: `w`/`W` White man/king, `b`/`B` Black man/king, `.` an empty dark square;
/// files and ranks around it, and for english the square numbers of each row on the right.
pub(crate) fn draw_board(
    pos: &Position,
    variant: Variant,
    flipped: bool,
    last: Option<&str>,
) -> String {
    let ranks: Vec<u32> = if flipped {
        (1..=8).collect()
    } else {
        (1..=8).rev().collect()
    };
    let files: Vec<u32> = if flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let letters: String = files
        .iter()
        .map(|f| format!(" {}", (b'a' + *f as u8) as char))
        .collect();
    let mut s = format!("   {letters}\n");
    for rank in &ranks {
        let mut line = format!(" {rank} ");
        let mut numbers = Vec::new();
        for file in &files {
            let c = match Square::from_file_rank(*file, *rank) {
                None => ' ',
                Some(sq) => {
                    numbers.push(format!("{:>2}", sq.number()));
                    match pos.piece_at(sq) {
                        None => '.',
                        Some(p) => match (p.color, p.king) {
                            (Color::White, false) => 'w',
                            (Color::White, true) => 'W',
                            (Color::Black, false) => 'b',
                            (Color::Black, true) => 'B',
                        },
                    }
                }
            };
            line.push(' ');
            line.push(c);
        }
        line.push_str(&format!("  {rank}"));
        if !variant.algebraic_notation() {
            line.push_str(&format!("    {}", numbers.join(" ")));
        }
        s.push_str(&line);
        s.push('\n');
    }
    s.push_str(&format!("   {letters}\n"));
    s.push_str("w/W white man/king, b/B black man/king\n");
    s.push_str(&format!("{} to move", pos.side()));
    if let Some(m) = last {
        s.push_str(&format!("; last move {m}"));
    }
    s
}
