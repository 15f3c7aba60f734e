//! Hub in the Web Worker: the library's own protocol session (`crownhead::protocol::Session`),
//! fed one line at a time, its output lines passed to a JavaScript function. The search runs on
//! the worker's thread inside `line`, so a `stop` cannot arrive as a message while it runs: the
//! page's side of the worker writes it into a `SharedArrayBuffer` that the search reads as it
//! polls (`read_signals`).

use crownhead::protocol::{DialectKind, Flow, Out, Session as Protocol};
use crownhead::search::SearchControl;
use js_sys::{Function, Int32Array};
use std::cell::RefCell;
use std::io::Write;
use wasm_bindgen::prelude::*;

thread_local! {
    /// Where output lines go: the worker's function that posts them to the page.
    static OUTPUT: RefCell<Option<Function>> = const { RefCell::new(None) };
    /// The signals the page's side sets, and the number of the search now running.
    static SIGNALS: RefCell<Signals> = const { RefCell::new(Signals { flags: None, search: 0 }) };
}

/// The page's flags: `flags[0]` is the number of the last search to stop, `flags[1]` that of
/// the last search whose ponder was hit. Searches are numbered by the `go` lines, from 1, on
/// both sides, so that a stop meant for one search never stops the next.
struct Signals {
    flags: Option<Int32Array>,
    search: i32,
}

/// Reads the page's flags into a running search's control (`SearchControl::with_signals`).
fn read_signals(control: &SearchControl) {
    SIGNALS.with(|s| {
        let s = s.borrow();
        if let Some(flags) = &s.flags {
            let at = |i| js_sys::Atomics::load(flags, i).unwrap_or(0);
            if at(0) >= s.search {
                control.stop();
            }
            if at(1) >= s.search {
                control.ponderhit();
            }
        }
    });
}

/// Collects bytes into lines and hands each whole line to `OUTPUT`.
#[derive(Default)]
struct Lines {
    pending: Vec<u8>,
}

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            OUTPUT.with(|o| {
                if let Some(f) = o.borrow().as_ref() {
                    // A throwing listener must not stop the engine; the line is lost to it.
                    let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&text));
                }
            });
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A Hub session for the worker.
#[wasm_bindgen]
pub struct Session {
    protocol: Protocol,
}

#[wasm_bindgen]
impl Session {
    /// A session that calls `output(line)` for each line it writes, and reads `stop` and
    /// `ponder-hit` from `flags` (an `Int32Array` of 2 over a `SharedArrayBuffer`) during a
    /// search, or only between lines when `flags` is omitted.
    #[wasm_bindgen(constructor)]
    pub fn new(output: Function, flags: Option<Int32Array>) -> Session {
        OUTPUT.with(|o| *o.borrow_mut() = Some(output));
        SIGNALS.with(|s| *s.borrow_mut() = Signals { flags, search: 0 });
        let out = Out::new(Box::new(Lines::default()));
        let mut protocol = Protocol::new(out, Some(DialectKind::Hub));
        protocol.engine().set_signals(read_signals);
        Session { protocol }
    }

    /// Handles one line of Hub; returns false after `quit`.
    pub fn line(&mut self, text: &str) -> bool {
        if text.split_whitespace().next() == Some("go") {
            SIGNALS.with(|s| s.borrow_mut().search += 1);
        }
        self.protocol.line(Ok(text.to_string())) == Flow::Continue
    }

    /// The bench (`crownhead bench --depth D --hash H --threads 1`): each position's line, then
    /// `Nodes: N  NPS: M`, through the output function; for comparing with the native build.
    pub fn bench(&mut self, depth: u32, hash_mb: usize) -> Result<(), JsError> {
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
        .map_err(|e| JsError::new(&e.to_string()))
    }
}
