//! Crownhead in the browser: the engine's library compiled to WebAssembly, with two faces.
//! `Session` speaks Hub, one line in and lines out, for the Web Worker (`crownhead-worker.js`);
//! the rules (`variants`, `Game`, `parsePdn`, ...) serve a page on its main thread, so that no
//! second implementation of the rules is written in JavaScript. docs/WEB.md describes both.
//!
//! The WebAssembly's exports (exports.rs) speak a small calling convention of numbers (abi.rs);
//! the JavaScript module `crownhead_web.js` beside this crate, written by hand, turns them into
//! the API the page and the worker call. No bindings generator is involved, so building for the
//! browser needs `cargo build` and nothing to install.

mod abi;
mod exports;
mod json;
mod rules;
mod session;
