//! What differs between a native build and the browser's (`wasm32`, in a Web Worker): the clock
//! and whether threads exist. Every `cfg` on the target lives here, so that the search and the
//! protocol layer read one clock and ask one question, and a native build is unchanged.
//!
//! In the browser `std::time::Instant` panics and `std::thread::spawn` fails, so the clock is
//! `web-time`'s (the page's `performance.now()`), and the search runs on the caller's thread:
//! the worker's own, with no pool, no coordinator and no sleeping.

/// A monotonic instant: `std`'s natively, the browser's `performance.now()` in WebAssembly.
#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
/// A monotonic instant: `std`'s natively, the browser's `performance.now()` in WebAssembly.
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;

/// Whether the search may start threads of its own. Without them the search runs on the
/// caller's thread, and a stop reaches it through the control's outside signals
/// (`SearchControl::with_signals`), which the search reads as it polls.
pub const THREADS: bool = cfg!(not(target_arch = "wasm32"));

/// Waits a moment (a millisecond) before looking at a flag again. Without threads no one else
/// can change a flag meanwhile but an outside signal, which is read at once: nothing to wait for.
pub fn pause() {
    if THREADS {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
