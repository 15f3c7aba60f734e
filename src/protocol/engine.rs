//! The engine layer between protocol text and the search: the game being analysed, the option
//! values, the `Searcher`, and the one search thread (which also runs the other long commands,
//! such as `perft`). The reader thread calls in here and never blocks on a search, so it can
//! answer `isready`, `ping` and `stop` while one runs.
//!
//! Thread policy: the search thread takes the `Searcher` lock for the whole search; the reader
//! only takes it when no search runs (option changes and `new_game` are refused while
//! searching), so it never waits on it. The search thread raises `finished` *before* it reports
//! the final move, so a client that reacts to `bestmove`/`done` with a new `go` never finds the
//! engine busy.

use super::options::{Effect, OptionSpec, Settings, Value};
use super::ProtocolError;
use crate::game::Game;
use crate::platform::Instant;
use crate::search::{Limits, Score, SearchControl, SearchInfo, SearchOutcome, Searcher};
use crate::variant::Variant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the search thread reports to a dialect.
pub enum Report<'a> {
    /// Progress.
    Info(&'a SearchInfo),
    /// The end of the search: the move to play.
    Done(&'a SearchOutcome),
}

/// The callback through which a dialect turns reports into lines.
pub type Reporter = Box<dyn FnMut(Report) + Send>;

struct Job {
    control: Arc<SearchControl>,
    /// Whether the search ends by itself (not `infinite`); a ponder search ends by itself only
    /// after its ponderhit.
    ends_by_itself: bool,
    finished: Arc<AtomicBool>,
    /// The thread, or `None` where the job ran on the caller's (`platform::THREADS`).
    handle: Option<JoinHandle<()>>,
}

/// The state behind both dialects.
pub struct Engine {
    /// The option values.
    pub settings: Settings,
    /// The game whose current position the next search analyses.
    pub game: Game,
    searcher: Arc<Mutex<Searcher>>,
    job: Option<Job>,
    /// The outside signals that every search's control reads (`SearchControl::with_signals`).
    signals: Option<fn(&SearchControl)>,
    /// Per variant (by `Variant::file_code`): whether `database_hint` has spoken for it.
    database_hinted: [bool; Variant::ALL.len()],
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default options at the default variant's start position.
    pub fn new() -> Engine {
        Engine::with_eval_file(None)
    }

    /// `new`, with a weights file that plays in place of its variant's embedded weights
    /// (`crownhead --eval-file`).
    pub fn with_eval_file(eval_file: Option<Arc<crate::learned::Learned>>) -> Engine {
        let mut settings = Settings::defaults();
        settings.search.eval_file = eval_file;
        let searcher = Searcher::new(settings.search.clone());
        let mut engine = Engine {
            game: Game::start(settings.variant),
            settings,
            searcher: Arc::new(Mutex::new(searcher)),
            job: None,
            signals: None,
            database_hinted: [false; Variant::ALL.len()],
        };
        // The default directory: databases built once are used without configuration. Its
        // absence is no error (the path is empty, so nothing can fail but a bad directory).
        if let Err(e) = engine.use_databases() {
            log::warn!("{e}");
        }
        engine
    }

    /// Lets every search read `stop` and `ponderhit` from outside through `read`, as where the
    /// search runs on the caller's thread (the browser) and no other thread can set the flags.
    pub fn set_signals(&mut self, read: fn(&SearchControl)) {
        self.signals = Some(read);
    }

    /// A control for a new search or task, reading the outside signals if any.
    fn control(&self, pondering: bool) -> Arc<SearchControl> {
        let control = SearchControl::new(pondering);
        Arc::new(match self.signals {
            Some(read) => control.with_signals(read),
            None => control,
        })
    }

    /// Whether a search is running (and has not yet reported its move).
    pub fn searching(&self) -> bool {
        self.job
            .as_ref()
            .is_some_and(|j| !j.finished.load(Ordering::SeqCst))
    }

    /// Commands that need the searcher wait for a search that was told to stop (a GUI may send
    /// `stop` and `go` back to back, as Stockfish allows) and are refused during any other.
    fn refuse_if_searching(&mut self, command: &str) -> Result<(), ProtocolError> {
        if self.job.as_ref().is_some_and(|j| j.control.stopped()) {
            self.wait();
        }
        if self.searching() {
            Err(ProtocolError::Busy(command.to_string()))
        } else {
            Ok(())
        }
    }

    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher> {
        // A search that panicked leaves the lock poisoned; its state is still usable.
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Applies an option value (already checked against its range) and its side effects.
    pub fn set_option(&mut self, spec: &OptionSpec, value: Value) -> Result<(), ProtocolError> {
        self.refuse_if_searching("setoption")?;
        self.wait();
        let before = self.settings.clone();
        match (spec.apply)(&mut self.settings, value) {
            Effect::None => {}
            Effect::Search => {
                let options = self.settings.search.clone();
                let result = self.searcher().set_options(options);
                if let Err(e) = result {
                    self.settings = before;
                    return Err(ProtocolError::Resource(e.to_string()));
                }
            }
            Effect::Variant => {
                self.game = Game::start(self.settings.variant);
                self.searcher().new_game();
            }
            Effect::ClearHash => self.searcher().new_game(),
            Effect::Databases => {
                if let Err(e) = self.use_databases() {
                    self.settings = before;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Uses the endgame databases that `settings.egtb_path` names (docs/EGTB.md): the default
    /// directory when empty (nothing if no databases are there), none for `off`, else the path
    /// given, which must hold databases of at least one variant.
    fn use_databases(&mut self) -> Result<(), ProtocolError> {
        let path = self.settings.egtb_path.trim().to_string();
        let dir = match path.as_str() {
            "off" => None,
            "" => crate::egtb::default_dir().ok().filter(|d| {
                crate::variant::Variant::ALL
                    .iter()
                    .any(|&v| crate::egtb::pieces_on_disk(d, v) > 0)
            }),
            _ => Some(std::path::PathBuf::from(&path)),
        };
        let result = self.searcher().set_databases(dir.as_deref());
        match result {
            Ok(found) => {
                for db in found {
                    log::info!(
                        "endgame databases: {} up to {} pieces under {}",
                        db.variant(),
                        db.pieces(),
                        db.dir().display()
                    );
                }
                Ok(())
            }
            Err(e) => Err(ProtocolError::Resource(format!("EGTBPath: {e}"))),
        }
    }

    /// The one line that suggests `crownhead egtb build`, said the first time a search of a
    /// variant runs with the default database directory (`EGTBPath` empty) and no databases of
    /// that variant in it: a user who has not read docs/EGTB.md learns that the engine can solve
    /// its endings. `None` after that, and when the user has set `EGTBPath` (a choice made).
    pub fn database_hint(&mut self) -> Option<String> {
        let variant = self.settings.variant;
        let hinted = &mut self.database_hinted[usize::from(variant.file_code())];
        if *hinted || !self.settings.egtb_path.trim().is_empty() {
            return None;
        }
        *hinted = true;
        if self.searcher().databases(variant).is_some() {
            return None;
        }
        let dir = crate::egtb::default_dir().ok()?;
        Some(format!(
            "no endgame databases for {variant} in {}: `crownhead egtb build --variant {variant} \
             --pieces 5` solves every ending of up to 5 pieces there (about a minute on 2 cores, \
             182 MB; 6 pieces: 16 minutes, 3.2 GB), used from the engine's next start",
            dir.display()
        ))
    }

    /// A new game: the searcher forgets what it learnt.
    pub fn new_game(&mut self) -> Result<(), ProtocolError> {
        self.refuse_if_searching("new game")?;
        self.wait();
        self.searcher().new_game();
        Ok(())
    }

    /// Starts searching the current position of `self.game` on the search thread. With no legal
    /// move there is nothing to search: the empty result is reported at once, here.
    pub fn go(
        &mut self,
        limits: Limits,
        ponder: bool,
        mut report: Reporter,
    ) -> Result<(), ProtocolError> {
        self.refuse_if_searching("go")?;
        self.wait();
        let game = self.game.clone();
        if game.legal_moves().is_empty() {
            let none = SearchOutcome {
                best: None,
                ponder: None,
                score: Score::ZERO,
                depth: 0,
                nodes: 0,
            };
            report(Report::Done(&none));
            return Ok(());
        }
        let control = self.control(ponder);
        let ends_by_itself = !limits.infinite;
        let finished = Arc::new(AtomicBool::new(false));
        let searcher = Arc::clone(&self.searcher);
        let (c, f) = (Arc::clone(&control), Arc::clone(&finished));
        let handle = spawn("search", move || {
            search_thread(searcher, game, limits, c, f, report)
        })
        .map_err(|e| ProtocolError::Busy(format!("go (cannot start the search thread: {e})")))?;
        self.job = Some(Job {
            control,
            ends_by_itself,
            finished,
            handle,
        });
        Ok(())
    }

    /// Runs `task` on the engine's thread, where a search would run: the reader goes on
    /// answering (`isready`) meanwhile, `stop`, `quit` and a new game reach the task through the
    /// control it is given, and at the end of input it may finish, as a `go depth` may. The
    /// task calls its second argument just before its last line of output, so that a client
    /// answering that line with a new command never finds the engine busy. Refused while a
    /// search or another task runs.
    pub fn run_task(
        &mut self,
        command: &str,
        task: impl FnOnce(&SearchControl, &dyn Fn()) + Send + 'static,
    ) -> Result<(), ProtocolError> {
        self.refuse_if_searching(command)?;
        self.wait();
        let control = self.control(false);
        let finished = Arc::new(AtomicBool::new(false));
        let (c, f) = (Arc::clone(&control), Arc::clone(&finished));
        let handle = spawn(command, move || {
            let done = || f.store(true, Ordering::SeqCst);
            let run = std::panic::AssertUnwindSafe(|| task(&c, &done));
            if std::panic::catch_unwind(run).is_err() {
                log::error!("a task on the engine thread panicked");
            }
            done();
        })
        .map_err(|e| ProtocolError::Busy(format!("{command} (cannot start a thread: {e})")))?;
        self.job = Some(Job {
            control,
            ends_by_itself: true,
            finished,
            handle,
        });
        Ok(())
    }

    /// Asks the running search, if any, to stop and report its move.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.control.stop();
        }
    }

    /// Ends the running search's ponder: it becomes a timed search.
    pub fn ponderhit(&self) {
        if let Some(job) = &self.job {
            job.control.ponderhit();
        }
    }

    /// Waits until the search thread, if any, has ended.
    pub fn wait(&mut self) {
        if let Some(handle) = self.job.take().and_then(|j| j.handle) {
            let _ = handle.join();
        }
    }

    /// At the end of input: a search that ends by itself (`go depth 12` piped in by a script)
    /// is allowed to finish and report its move; an infinite or pondering one is stopped.
    pub fn finish_input(&mut self) {
        let runs_on = self
            .job
            .as_ref()
            .is_some_and(|j| j.ends_by_itself && !j.control.pondering());
        if runs_on {
            self.wait();
        }
        self.shutdown();
    }

    /// Stops any search and waits for it a little; a search that does not stop in time dies with
    /// the process.
    pub fn shutdown(&mut self) {
        self.stop();
        let deadline = Instant::now() + Duration::from_millis(500);
        while self.searching() && Instant::now() < deadline {
            crate::platform::pause();
        }
        if !self.searching() {
            self.wait();
        }
    }

    /// The evaluation that plays (option `Eval`) of the current position broken down by term,
    /// from the side to move's point of view, in hundredths of a man.
    pub fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        let variant = self.game.variant();
        let pos = self.game.position();
        match self.settings.search.learned(variant) {
            None => crate::eval::handwritten::evaluate_terms(variant, pos),
            Some(learned) => crate::with_rules!(variant, R => learned.terms::<R>(pos)),
        }
    }
}

/// Runs `job` on a thread of its own, or on the caller's where there are no threads (the
/// browser): then it has ended when this returns.
fn spawn(
    name: &str,
    job: impl FnOnce() + Send + 'static,
) -> std::io::Result<Option<JoinHandle<()>>> {
    if !crate::platform::THREADS {
        job();
        return Ok(None);
    }
    let handle = std::thread::Builder::new().name(name.into()).spawn(job)?;
    Ok(Some(handle))
}

/// The body of the search thread.
fn search_thread(
    searcher: Arc<Mutex<Searcher>>,
    game: Game,
    limits: Limits,
    control: Arc<SearchControl>,
    finished: Arc<AtomicBool>,
    mut report: Reporter,
) {
    let run = std::panic::AssertUnwindSafe(|| {
        let mut s = searcher.lock().unwrap_or_else(|e| e.into_inner());
        s.search(&game, &limits, &control, &mut |info| {
            report(Report::Info(info))
        })
    });
    let outcome = std::panic::catch_unwind(run).unwrap_or_else(|_| {
        // A bug in the search must not leave the client without a move: play any legal one.
        log::error!("the search panicked; answering with the first legal move");
        let best = game.legal_moves().first().copied();
        SearchOutcome {
            best,
            ponder: None,
            score: Score::ZERO,
            depth: 0,
            nodes: 0,
        }
    });
    // UCI and Hub forbid the final move before `stop` (or `ponderhit`) in an infinite or ponder
    // search, even if the search ended early (a forced win, a depth cap).
    while (limits.infinite || control.pondering()) && !control.stopped() {
        control.refresh();
        crate::platform::pause();
    }
    finished.store(true, Ordering::SeqCst);
    report(Report::Done(&outcome));
}
