//! Crownhead's end-to-end tests, one module per subject, linked into one test binary so that
//! `cargo test` links once rather than once per file. The modules that drive the built binary
//! (through `common` or `CARGO_BIN_EXE_crownhead`) need the `cli` feature, the CheckerBoard
//! module the `checkerboard` feature; without them those modules are left out, as
//! `required-features` left their binaries out before.

#[cfg(feature = "cli")]
#[allow(dead_code)] // each test module uses a part of the harness
mod common;

#[cfg(feature = "cli")]
mod analyze;
#[cfg(feature = "cli")]
mod bench_cli;
// `cli` too: its timing ceilings go through `common::SLACK`.
#[cfg(all(feature = "checkerboard", feature = "cli"))]
mod checkerboard;
#[cfg(feature = "cli")]
mod cli_ranges;
mod draw_rules;
#[cfg(feature = "cli")]
mod egtb_cli;
#[cfg(feature = "cli")]
mod egtb_search;
mod egtb_solver;
mod endgames;
#[cfg(feature = "cli")]
mod evaluate;
#[cfg(feature = "cli")]
mod learned_eval;
#[cfg(feature = "cli")]
mod match_tool;
#[cfg(feature = "cli")]
mod moves_cli;
mod notation;
#[cfg(feature = "cli")]
mod openings;
mod pdn;
mod perft_suite;
#[cfg(feature = "cli")]
mod play;
#[cfg(feature = "cli")]
mod protocol_control;
#[cfg(feature = "cli")]
mod protocol_fuzz;
#[cfg(feature = "cli")]
mod protocol_hub;
#[cfg(feature = "cli")]
mod protocol_uci;
mod rules;
mod search;
#[cfg(feature = "cli")]
mod selfplay;
#[cfg(feature = "cli")]
mod skill;
#[allow(dead_code)] // not every build of the tests has a timed test
mod slack;
mod tactics;
mod variant_rules;
#[cfg(feature = "cli")]
mod web_server;
