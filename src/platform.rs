//! What differs between a native build and the browser's (`wasm32`, in a Web Worker): the clock
//! and whether threads exist. Every `cfg` on the target lives here, so that the search and the
//! protocol layer read one clock and ask one question, and a native build is unchanged.
//!
//! In the browser `std::time::Instant` panics and `std::thread::spawn` fails, so the clock is
//! the page's `performance.now()`, imported from the host (`browser_clock`), and the search
//! runs on the caller's thread: the worker's own, with no pool, no coordinator and no sleeping.

/// A monotonic instant: `std`'s natively, the browser's `performance.now()` in WebAssembly.
#[cfg(target_arch = "wasm32")]
pub use browser_clock::Instant;
/// A monotonic instant: `std`'s natively, the browser's `performance.now()` in WebAssembly.
#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

/// The browser's clock, as the one function the library imports from its host: `now` in the
/// import module `crownhead`, the milliseconds of `performance.now()` (web/engine's JavaScript
/// module passes it). An import of our own rather than a crate that binds `performance.now()`
/// through wasm-bindgen: then the built `.wasm` needs no bindings generator to run.
#[cfg(target_arch = "wasm32")]
mod browser_clock {
    use std::ops::Add;
    use std::time::Duration;

    #[link(wasm_import_module = "crownhead")]
    extern "C" {
        /// Milliseconds since the page's time origin, monotonic (`performance.now()`).
        fn now() -> f64;
    }

    /// A point in time: the time since the page's time origin.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// The current time.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the host gives any f64,
            // and a value that is no time (negative, NaN, infinite) reads as the origin.
            let ms = unsafe { now() };
            Instant(Duration::try_from_secs_f64(ms / 1000.0).unwrap_or(Duration::ZERO))
        }

        /// The time from `earlier` to this instant, zero if `earlier` is later (as `std`'s).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// The time since this instant.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;

        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }
}

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
