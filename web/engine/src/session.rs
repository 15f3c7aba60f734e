//! Hub in the Web Worker: the library's own protocol session (`crownhead::protocol::Session`),
//! fed one line at a time, its output lines passed to JavaScript. The search runs on the
//! worker's thread inside `line`, so a `stop` cannot arrive as a message while it runs: the
//! page's side of the worker writes it into a `SharedArrayBuffer` that the search reads as it
//! polls (`read_signals`).
//!
//! Both reach JavaScript through two functions the module imports from the JavaScript module
//! (`crownhead_web.js`), in the import module `crownhead_web`: `output(ptr, len)`, a line of
//! UTF-8 for the session's output function, and `flag(i)`, `Atomics.load(flags, i)` on the
//! session's `Int32Array`. Like the page's worker, a module holds one session at a time: the
//! latest one made owns the output function and the flags.

use crownhead::protocol::{DialectKind, Flow, Out, Session as Protocol};
use crownhead::search::SearchControl;
use std::cell::Cell;
use std::io::Write;

/// The JavaScript side, as the module imports it.
#[cfg(target_arch = "wasm32")]
mod host {
    #[link(wasm_import_module = "crownhead_web")]
    extern "C" {
        #[link_name = "output"]
        fn output_line(ptr: *const u8, len: usize);
        #[link_name = "flag"]
        fn read_flag(index: u32) -> i32;
    }

    /// Hands `line` to the latest session's output function (a throwing one loses the line).
    pub fn output(line: &str) {
        // SAFETY: the module reads `len` bytes at `ptr` during the call and keeps nothing.
        unsafe { output_line(line.as_ptr(), line.len()) }
    }

    /// `Atomics.load(flags, index)` on the latest session's flags.
    pub fn flag(index: u32) -> i32 {
        // SAFETY: the import takes and returns numbers only.
        unsafe { read_flag(index) }
    }
}

/// Natively (the crate's unit tests) there is no page: lines go nowhere and no flag is set.
#[cfg(not(target_arch = "wasm32"))]
mod host {
    pub fn output(_line: &str) {}

    pub fn flag(_index: u32) -> i32 {
        0
    }
}

thread_local! {
    /// Whether the latest session has the page's flags to read, and the number of its search
    /// now running.
    static SIGNALS: Cell<Signals> = const { Cell::new(Signals { flags: false, search: 0 }) };
}

/// The page's flags: `flags[0]` is the number of the last search to stop, `flags[1]` that of
/// the last search whose ponder was hit. Searches are numbered by the `go` lines, from 1, on
/// both sides, so that a stop meant for one search never stops the next.
#[derive(Clone, Copy)]
struct Signals {
    flags: bool,
    search: i32,
}

/// Reads the page's flags into a running search's control (`SearchControl::with_signals`).
fn read_signals(control: &SearchControl) {
    let s = SIGNALS.get();
    if s.flags {
        if host::flag(0) >= s.search {
            control.stop();
        }
        if host::flag(1) >= s.search {
            control.ponderhit();
        }
    }
}

/// Collects bytes into lines and hands each whole line to the output function.
#[derive(Default)]
struct Lines {
    pending: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            host::output(&String::from_utf8_lossy(&line[..end]));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A Hub session for the worker.
pub struct Session {
    protocol: Protocol,
}

impl Session {
    /// A session whose lines go to the output function, and which reads `stop` and
    /// `ponder-hit` from the flags during a search when `flags` (the module was given an
    /// `Int32Array` of 2 over a `SharedArrayBuffer`), or only between lines otherwise.
    pub fn new(flags: bool) -> Session {
        SIGNALS.set(Signals { flags, search: 0 });
        let out = Out::new(Box::new(Lines::default()));
        let mut protocol = Protocol::new(out, Some(DialectKind::Hub));
        protocol.engine().set_signals(read_signals);
        Session { protocol }
    }

    /// Handles one line of Hub; returns false after `quit`.
    pub fn line(&mut self, text: &str) -> bool {
        if text.split_whitespace().next() == Some("go") {
            let s = SIGNALS.get();
            SIGNALS.set(Signals {
                search: s.search + 1,
                ..s
            });
        }
        self.protocol.line(Ok(text.to_string())) == Flow::Continue
    }

    /// The bench (`crownhead bench --depth D --hash H --threads 1`): each position's line, then
    /// `Nodes: N  NPS: M`, through the output function; for comparing with the native build.
    pub fn bench(&mut self, depth: u32, hash_mb: usize) -> Result<(), String> {
        let mut print = |line: &str| {
            let _ = Lines::default().write_all(format!("{line}\n").as_bytes());
        };
        crownhead::search::bench::run(
            depth,
            1,
            hash_mb,
            crownhead::EvalChoice::Auto,
            None,
            None,
            &mut print,
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    }
}
