//! Crownhead in the browser: the engine's library compiled to WebAssembly, with two faces.
//! `Session` speaks Hub, one line in and lines out, for the Web Worker (`crownhead-worker.js`);
//! the rules (`variants`, `Game`, `parsePdn`, ...) serve a page on its main thread, so that no
//! second implementation of the rules is written in JavaScript. docs/WEB.md describes both.

mod json;
mod rules;
mod session;

pub use rules::{classify, layout, parse_pdn_text, square_name, variants, Game};
pub use session::Session;
