//! `crownhead match`: two engines, each in its own process, play a series of games. Each opening
//! is played twice with colours swapped (game 2k: the first engine has White; game 2k+1: Black),
//! openings taken in file order and cycled. `--first-game N` plays games N onwards of that
//! sequence, the same games with the same rounds as in a longer match: how a cluster driver
//! (scripts/tools/cluster) splits a match into one task per opening.
//!
//! `--concurrency K` runs K games at once, each worker thread with its own pair of engine
//! processes; an engine that failed is restarted before its next game. A progress line is
//! printed as each game ends, and the report at the end gives wins, draws and losses, Elo with
//! its 95% error bar, the SPRT state, and the faults of each engine.

use super::engine::{EngineClient, Failure, Protocol};
use super::match_game::{play_game, Control, Fault, GameRecord, GameSettings, Thinking};
use super::openings::{builtin, parse_openings, Opening};
use super::stats::{sprt_bounds, sprt_state, SprtState, Tally};
use crate::bitboard::Color;
use crate::game::GameResult;
use crate::variant::Variant;
use clap::Args;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The arguments of `crownhead match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine command, run with `sh -c` (`cmd` on Windows), so arguments and quotes work;
    /// give exactly two.
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2, value_parser = super::args::count::<usize>)]
    pub games: usize,
    /// Clock per side: seconds plus increment, e.g. `10+0.1` or `60`.
    #[arg(long, conflicts_with_all = ["movetime", "depth"])]
    pub tc: Option<String>,
    /// Fixed time per move in milliseconds.
    #[arg(long, conflicts_with = "depth", value_parser = super::args::millis)]
    pub movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_parser = super::args::depth)]
    pub depth: Option<u32>,
    /// The second engine's own clock, where it differs from the first's (time odds, or a
    /// clocked engine against one at a fixed time per move); the first keeps --tc, --movetime
    /// or --depth.
    #[arg(long, conflicts_with_all = ["second_movetime", "second_depth"])]
    pub second_tc: Option<String>,
    /// The second engine's own fixed time per move in milliseconds.
    #[arg(long, conflicts_with = "second_depth", value_parser = super::args::millis)]
    pub second_movetime: Option<u64>,
    /// The second engine's own fixed depth per move.
    #[arg(long, value_parser = super::args::depth)]
    pub second_depth: Option<u32>,
    /// Opening file (moves or FENs, one per line); default: the built-in set of the variant.
    #[arg(long)]
    pub openings: Option<String>,
    /// The index of the first game (from 0): plays games N to N + games - 1 of a longer match,
    /// with their openings, colours and rounds (one task of a cluster match).
    #[arg(long, default_value_t = 0)]
    pub first_game: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = super::args::concurrency)]
    pub concurrency: usize,
    /// Save every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<String>,
    /// Run an SPRT with these bounds, e.g. `0,10` or `-5,5`; the match stops when it decides.
    /// (A lower bound below 0 starts with a hyphen, which is a value here, not an option.)
    #[arg(long, allow_hyphen_values = true)]
    pub sprt: Option<String>,
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// The engines speak Hub rather than the UCI-style dialect.
    #[arg(long)]
    pub hub: bool,
    /// Moves per side after the opening before the game is drawn by the move cap.
    #[arg(long, default_value_t = 200, value_parser = super::args::count::<u32>)]
    pub max_moves: u32,
    /// Adjudicate a draw when both engines report |score| <= --draw-score for this many moves.
    #[arg(long, value_parser = super::args::count::<u32>)]
    pub draw_moves: Option<u32>,
    /// The score (centi-men) within which a draw is adjudicated.
    #[arg(long, default_value_t = 10)]
    pub draw_score: i32,
    /// Adjudicate a resignation when both engines agree by --resign-score for this many moves.
    #[arg(long, value_parser = super::args::count::<u32>)]
    pub resign_moves: Option<u32>,
    /// The margin (centi-men) by which both engines must agree for a resignation.
    #[arg(long, default_value_t = 600)]
    pub resign_score: i32,
    /// How far (ms) a move may overrun its clock or move time before it is a time forfeit.
    #[arg(long, default_value_t = 250)]
    pub margin: u64,
    /// How long (ms) a depth-limited move or a handshake may take before the engine is a loss.
    #[arg(long, default_value_t = 60_000, value_parser = super::args::millis)]
    pub timeout: u64,
}

/// Reads `10+0.1`, `10` or `1:30+1` (minutes:seconds) as base and increment.
pub(crate) fn parse_tc(text: &str) -> Result<(Duration, Duration), String> {
    let bad =
        || format!("bad time control '{text}' (expected e.g. 10+0.1, seconds plus increment)");
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |s: &str| -> Option<f64> {
        let v = match s.split_once(':') {
            Some((m, sec)) => {
                m.trim().parse::<f64>().ok()? * 60.0 + sec.trim().parse::<f64>().ok()?
            }
            None => s.trim().parse::<f64>().ok()?,
        };
        (v.is_finite() && (0.0..1e7).contains(&v)).then_some(v)
    };
    let (b, i) = (
        seconds(base).ok_or_else(bad)?,
        seconds(inc).ok_or_else(bad)?,
    );
    if b <= 0.0 && i <= 0.0 {
        return Err(bad());
    }
    Ok((Duration::from_secs_f64(b), Duration::from_secs_f64(i)))
}

/// The running totals, shared by the workers.
#[derive(Default)]
struct Totals {
    tally: Tally,
    done: usize,
    faults: [[u32; 3]; 2],
    /// Each engine's moves and their time, the first engine's first.
    thinking: [Thinking; 2],
    reasons: Vec<(String, u32)>,
    sprt_decided: Option<SprtState>,
}

fn fault_index(f: Fault) -> usize {
    match f {
        Fault::Illegal => 0,
        Fault::Crash => 1,
        Fault::Time => 2,
    }
}

/// Runs the match and prints its report.
pub fn run(args: MatchArgs) -> Result<(), String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine commands (got {})",
            args.engines.len()
        ));
    }
    if args.first_game.checked_add(args.games).is_none() {
        return Err("--first-game plus --games passes the largest game index".into());
    }
    let controls = parse_controls(&args)?;
    let sprt = parse_sprt(args.sprt.as_deref())?;
    let openings = load_openings(&args)?;
    let settings = GameSettings {
        variant: args.variant,
        margin: Duration::from_millis(args.margin),
        timeout: Duration::from_millis(args.timeout),
        max_moves: args.max_moves,
        draw_adjudication: args.draw_moves.map(|m| (m, args.draw_score)),
        resign_adjudication: args.resign_moves.map(|m| (m, args.resign_score)),
    };
    let protocol = if args.hub {
        Protocol::Hub
    } else {
        Protocol::Uci
    };
    // Each engine is started once before the first game: an engine that cannot start at all
    // makes the match meaningless, so it ends here with the engine named, not in a row of lost
    // games. The pair goes to the first worker.
    let started = start_both(&args.engines, protocol, &settings)?;
    let pdn = match &args.pdn {
        Some(path) => {
            Some(std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?)
        }
        None => None,
    };
    let state = MatchState {
        args: &args,
        openings: &openings,
        settings: &settings,
        controls,
        protocol,
        sprt,
        next: AtomicUsize::new(args.first_game),
        stop: AtomicBool::new(false),
        fatal: Mutex::new(None),
        totals: Mutex::new(Totals::default()),
        names: Mutex::new([started[0].id.clone(), started[1].id.clone()]),
        first_pair: Mutex::new(Some(started.map(Some))),
        pdn: Mutex::new(pdn),
    };
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.min(args.games) {
            scope.spawn(|| state.worker());
        }
    });
    state.finish()
}

/// How each engine's moves are bounded, the first engine's first: for the first, `--tc`, else
/// `--movetime`, else `--depth`, else 100 ms a move; the second the same unless one of the
/// `--second-` options gives its own.
fn parse_controls(args: &MatchArgs) -> Result<[Control; 2], String> {
    let first = parse_control(args.tc.as_deref(), args.movetime, args.depth)?
        .unwrap_or(Control::MoveTime(Duration::from_millis(100)));
    let second = parse_control(
        args.second_tc.as_deref(),
        args.second_movetime,
        args.second_depth,
    )?
    .unwrap_or(first);
    Ok([first, second])
}

/// One engine's control from its clock, move time or depth, the first given; `None` if none is.
fn parse_control(
    tc: Option<&str>,
    movetime: Option<u64>,
    depth: Option<u32>,
) -> Result<Option<Control>, String> {
    Ok(match (tc, movetime, depth) {
        (Some(tc), _, _) => {
            let (base, increment) = parse_tc(tc)?;
            Some(Control::Clock { base, increment })
        }
        (_, Some(ms), _) => Some(Control::MoveTime(Duration::from_millis(ms))),
        (_, _, Some(d)) => Some(Control::Depth(d)),
        _ => None,
    })
}

/// Reads `--sprt elo0,elo1` (elo0 < elo1).
fn parse_sprt(text: Option<&str>) -> Result<Option<(f64, f64)>, String> {
    let Some(text) = text else {
        return Ok(None);
    };
    let parts: Vec<f64> = text
        .split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    match parts.as_slice() {
        [a, b] if a < b => Ok(Some((*a, *b))),
        _ => Err(format!(
            "bad --sprt '{text}' (expected elo0,elo1 with elo0 < elo1)"
        )),
    }
}

/// The openings of `--openings`, else the variant's built-in set; never empty.
fn load_openings(args: &MatchArgs) -> Result<Vec<Opening>, String> {
    let openings = match &args.openings {
        Some(path) => parse_openings(&super::read_text(path)?, args.variant)
            .map_err(|e| format!("{path}: {e}"))?,
        None => builtin(args.variant),
    };
    if openings.is_empty() {
        return Err("no openings".into());
    }
    Ok(openings)
}

/// What the worker threads share: the match's fixed inputs and its running state. Every lock
/// is taken alone and briefly; a worker that panicked leaves its data usable (`into_inner`).
struct MatchState<'a> {
    args: &'a MatchArgs,
    openings: &'a [Opening],
    settings: &'a GameSettings,
    /// Each engine's time control, the first engine's first.
    controls: [Control; 2],
    protocol: Protocol,
    sprt: Option<(f64, f64)>,
    /// The index of the next game to play.
    next: AtomicUsize,
    /// Set when the SPRT has decided or no engine can run: no new game starts.
    stop: AtomicBool,
    /// Why the match stopped early, when neither engine could be (re)started.
    fatal: Mutex<Option<StartError>>,
    totals: Mutex<Totals>,
    /// The names the engines gave; each game's tags update them (self-play numbers them).
    names: Mutex<[String; 2]>,
    /// The engines started before the first game, for whichever worker comes first.
    first_pair: Mutex<Option<[Option<EngineClient>; 2]>>,
    /// The `--pdn` file, written one whole game at a time.
    pdn: Mutex<Option<std::fs::File>>,
}

/// Locks a mutex whose holder may have panicked: the totals and names stay meaningful.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl MatchState<'_> {
    /// One worker: plays games with its own pair of engines until none is left or the match
    /// stops, then quits its engines.
    fn worker(&self) {
        let mut engines: [Option<EngineClient>; 2] =
            lock(&self.first_pair).take().unwrap_or_default();
        while let Some(index) = self.next_game() {
            let opening = &self.openings[(index / 2) % self.openings.len()];
            let first_is_white = index.is_multiple_of(2);
            let known = lock(&self.names).clone();
            let record = match self.play_one(&mut engines, &known, opening, first_is_white) {
                Ok(record) => record,
                Err(e) => {
                    // Neither engine runs: no game can be played, by this worker or any.
                    lock(&self.fatal).get_or_insert(e);
                    self.stop.store(true, Ordering::SeqCst);
                    break;
                }
            };
            self.learn_names(&record, first_is_white);
            let record = with_round(record, index);
            self.count(index, &record, first_is_white);
            self.save(&record);
        }
        for e in engines.into_iter().flatten() {
            e.quit();
        }
    }

    /// Makes sure both engines run (restarting any that failed), then plays the game. An engine
    /// that cannot restart loses the game by a crash, its own fault whatever the other engine does;
    /// when neither can, no game can be played and the match must stop.
    fn play_one(
        &self,
        engines: &mut [Option<EngineClient>; 2],
        names: &[String; 2],
        opening: &Opening,
        first_is_white: bool,
    ) -> Result<GameRecord, StartError> {
        let (commands, s) = (&self.args.engines, self.settings);
        let mut failed = Vec::new();
        for i in 0..2 {
            if engines[i].is_none() {
                match EngineClient::start(&commands[i], self.protocol, s.variant, s.timeout) {
                    Ok(e) => engines[i] = Some(e),
                    Err(f) => failed.push((i + 1, commands[i].clone(), f)),
                }
            }
        }
        match failed.as_slice() {
            [] => {}
            [(n, _, f)] => {
                let first_failed = *n == 1;
                let color = if first_failed == first_is_white {
                    Color::White
                } else {
                    Color::Black
                };
                return Ok(no_start(names, first_is_white, color, f, opening, s));
            }
            _ => return Err(StartError { failed }),
        }
        if let [Some(a), Some(b)] = engines {
            // Self-play: tell the two apart in the PDN and the report.
            let same = a.id == b.id;
            a.name = if same {
                format!("{} (1)", a.id)
            } else {
                a.id.clone()
            };
            b.name = if same {
                format!("{} (2)", b.id)
            } else {
                b.id.clone()
            };
        }
        let [a, b] = engines;
        let (Some(a), Some(b)) = (a.as_mut(), b.as_mut()) else {
            unreachable!("both engines were just started")
        };
        let record = if first_is_white {
            play_game(a, b, opening, self.controls, s)
        } else {
            let [first, second] = self.controls;
            play_game(b, a, opening, [second, first], s)
        };
        if let Some((color, _)) = record.fault {
            // The engine at fault may be hung or gone: start it afresh for its next game.
            let i = if (color == Color::White) == first_is_white {
                0
            } else {
                1
            };
            if let Some(mut e) = engines[i].take() {
                e.kill();
            }
        }
        Ok(record)
    }

    /// The index of the next game, or `None` when all are taken or the match has stopped.
    fn next_game(&self) -> Option<usize> {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        let end = self.args.first_game + self.args.games;
        (index < end && !self.stop.load(Ordering::SeqCst)).then_some(index)
    }

    /// The names the engines gave, as the game's tags show them.
    fn learn_names(&self, record: &GameRecord, first_is_white: bool) {
        let (w, b) = (record.pdn.tag("White"), record.pdn.tag("Black"));
        let (first, second) = if first_is_white { (w, b) } else { (b, w) };
        let mut n = lock(&self.names);
        n[0] = first.unwrap_or(&n[0]).to_string();
        n[1] = second.unwrap_or(&n[1]).to_string();
    }

    /// Adds the game to the totals, prints the progress line and stops the match when the
    /// SPRT decides; all under one lock, so the lines come out in the order counted.
    fn count(&self, index: usize, record: &GameRecord, first_is_white: bool) {
        let mut t = lock(&self.totals);
        account(&mut t, record, first_is_white);
        let end = self.args.first_game + self.args.games;
        let line = progress_line(&t, index, end, record, self.sprt);
        println!("{line}");
        if let Some((e0, e1)) = self.sprt {
            let state = sprt_state(t.tally.llr(e0, e1));
            if state != SprtState::Continue {
                t.sprt_decided = Some(state);
                self.stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Appends the game to the `--pdn` file, if any. A failed write does not stop the match.
    fn save(&self, record: &GameRecord) {
        if let Some(file) = lock(&self.pdn).as_mut() {
            let _ = file
                .write_all(record.pdn.to_pdn().as_bytes())
                .and_then(|_| file.flush());
        }
    }

    /// Prints the report; an error if the match stopped because no engine could run.
    fn finish(self) -> Result<(), String> {
        let t = self.totals.into_inner().unwrap_or_else(|p| p.into_inner());
        let names = self.names.into_inner().unwrap_or_else(|p| p.into_inner());
        print!("{}", report(&t, &names, self.sprt));
        match self.fatal.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(format!("match stopped: {e}")),
            None => Ok(()),
        }
    }
}

/// The game with `Event` and `Round` leading its tags, as PDN's seven-tag roster has them.
fn with_round(mut record: GameRecord, index: usize) -> GameRecord {
    let tags = &mut record.pdn.tags;
    tags.retain(|(n, _)| n != "Event" && n != "Round");
    tags.insert(0, ("Event".into(), "crownhead match".into()));
    tags.insert(1, ("Round".into(), (index + 1).to_string()));
    record
}

/// Engines that could not be started, each with its own failure.
#[derive(Debug)]
pub(crate) struct StartError {
    /// (1-based engine number, command, what went wrong), for each engine that failed.
    pub failed: Vec<(usize, String, Failure)>,
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (k, (n, command, failure)) in self.failed.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "engine {n} '{command}' could not start: {}",
                failure.why()
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for StartError {}

impl From<StartError> for String {
    fn from(e: StartError) -> String {
        e.to_string()
    }
}

/// Starts both engines, each on its own; fails naming every engine that would not start.
fn start_both(
    commands: &[String],
    protocol: Protocol,
    s: &GameSettings,
) -> Result<[EngineClient; 2], StartError> {
    let [a, b] = [0, 1].map(|i| EngineClient::start(&commands[i], protocol, s.variant, s.timeout));
    match (a, b) {
        (Ok(a), Ok(b)) => Ok([a, b]),
        (a, b) => {
            let failed = [a.err(), b.err()]
                .into_iter()
                .enumerate()
                .filter_map(|(i, f)| f.map(|f| (i + 1, commands[i].clone(), f)))
                .collect();
            Err(StartError { failed })
        }
    }
}

/// The record of a game lost because an engine would not start; `names` are the engines' names
/// as last known (the first engine's first), so the report keeps calling them by those.
fn no_start(
    names: &[String; 2],
    first_is_white: bool,
    color: Color,
    failure: &Failure,
    opening: &Opening,
    s: &GameSettings,
) -> GameRecord {
    let mut pdn = crate::pdn::PdnGame::new(opening.game(s.variant));
    let (white, black) = if first_is_white {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    pdn.set_tag("White", white.clone());
    pdn.set_tag("Black", black.clone());
    let result = GameResult::win_for(color.opponent());
    let reason = format!(
        "{} could not start: {}",
        if color == Color::White { white } else { black },
        failure.why()
    );
    pdn.result = Some(result);
    pdn.end_comment = Some(reason.clone());
    pdn.set_tag("Termination", reason.clone());
    GameRecord {
        pdn,
        result,
        reason,
        fault: Some((color, Fault::Crash)),
        thinking: [Thinking::default(); 2],
    }
}

/// Adds a game to the totals, from the first engine's point of view.
fn account(t: &mut Totals, r: &GameRecord, first_is_white: bool) {
    t.done += 1;
    let first_color = if first_is_white {
        Color::White
    } else {
        Color::Black
    };
    match r.result {
        GameResult::Draw => t.tally.draws += 1,
        res if res == GameResult::win_for(first_color) => t.tally.wins += 1,
        _ => t.tally.losses += 1,
    }
    let engine_of = |color: Color| usize::from(color != first_color);
    if let Some((color, fault)) = r.fault {
        t.faults[engine_of(color)][fault_index(fault)] += 1;
    }
    for color in [Color::White, Color::Black] {
        t.thinking[engine_of(color)].add(r.thinking[color.index()]);
    }
    // Group endings by kind, without the engine names and moves that faults carry.
    let key = match r.fault {
        Some((_, Fault::Illegal)) => "illegal move".to_string(),
        Some((_, Fault::Crash)) => "crash".to_string(),
        Some((_, Fault::Time)) => "time forfeit".to_string(),
        None => r.reason.split(':').next().unwrap_or("").to_string(),
    };
    match t.reasons.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 += 1,
        None => t.reasons.push((key, 1)),
    }
}

fn elo_text(t: &Tally) -> String {
    match t.elo() {
        Some((elo, bar)) => format!("{elo:+.1} +/- {bar:.1}"),
        None => "-".into(),
    }
}

fn progress_line(
    t: &Totals,
    index: usize,
    games: usize,
    r: &GameRecord,
    sprt: Option<(f64, f64)>,
) -> String {
    let white = r.pdn.tag("White").unwrap_or("?");
    let black = r.pdn.tag("Black").unwrap_or("?");
    let mut line = format!(
        "Game {}/{games}: {white} - {black} {} ({}) | W {} D {} L {} | Elo {}",
        index + 1,
        r.result.pdn(),
        r.reason,
        t.tally.wins,
        t.tally.draws,
        t.tally.losses,
        elo_text(&t.tally)
    );
    if let Some((e0, e1)) = sprt {
        line.push_str(&format!(" | LLR {:.2}", t.tally.llr(e0, e1)));
    }
    line
}

fn report(t: &Totals, names: &[String; 2], sprt: Option<(f64, f64)>) -> String {
    let mut out = String::new();
    let tally = &t.tally;
    out.push_str(&format!(
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}\n",
        names[0],
        names[1],
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score(),
        tally.games()
    ));
    out.push_str(&format!(
        "Wins {} Draws {} Losses {} (first engine's view)\n",
        tally.wins, tally.draws, tally.losses
    ));
    out.push_str(&format!("Elo difference: {} (95%)\n", elo_text(tally)));
    if let Some((e0, e1)) = sprt {
        let llr = tally.llr(e0, e1);
        let (lo, hi) = sprt_bounds();
        let verdict = match t.sprt_decided.unwrap_or(sprt_state(llr)) {
            SprtState::Continue => "continue",
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
        };
        out.push_str(&format!(
            "SPRT: elo0 {e0} elo1 {e1}: LLR {llr:.2} bounds [{lo:.2}, {hi:.2}] {verdict}\n"
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let [illegal, crash, time] = t.faults[i];
        out.push_str(&format!(
            "Faults of {name}: illegal moves {illegal}, crashes {crash}, time forfeits {time}\n"
        ));
    }
    // The time each engine took, so that two controls meant to spend the same can be checked.
    for (i, name) in names.iter().enumerate() {
        let Thinking { moves, time } = t.thinking[i];
        let mean = if moves > 0 {
            time.as_secs_f64() / f64::from(moves)
        } else {
            0.0
        };
        out.push_str(&format!(
            "Time of {name}: {moves} moves in {:.1} s, {mean:.3} s a move\n",
            time.as_secs_f64()
        ));
    }
    let reasons: Vec<String> = t.reasons.iter().map(|(k, n)| format!("{k} {n}")).collect();
    out.push_str(&format!("Endings: {}\n", reasons.join(", ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("10+0.1").unwrap(),
            (Duration::from_secs(10), Duration::from_millis(100))
        );
        assert_eq!(
            parse_tc("1:30").unwrap(),
            (Duration::from_secs(90), Duration::ZERO)
        );
        for bad in ["", "x", "0", "-1+0", "1e99", "10+nan"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
