//! The opening sets in positions/ are legal: every line plays through crownhead::Game (or is a
//! valid FEN), no opening ends the game, and there are no duplicates.

use crownhead::tools::openings::{parse_openings, Opening};
use crownhead::Variant;
use std::collections::HashSet;

fn check(file: &str, variant: Variant, expected: usize) {
    let text = std::fs::read_to_string(format!("{}/positions/{file}", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let openings: Vec<Opening> =
        parse_openings(&text, variant).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(openings.len(), expected, "{file}");
    let mut seen = HashSet::new();
    for o in &openings {
        let game = o.game(variant);
        assert!(game.outcome().is_none(), "{file}: {} ends the game", o.name);
        assert!(
            seen.insert(*game.position()),
            "{file}: {} repeats a position",
            o.name
        );
    }
}

#[test]
fn english_three_move_ballots_are_legal() {
    check("english_3move.txt", Variant::English, 156);
}

#[test]
fn russian_openings_are_legal() {
    check("russian_openings.txt", Variant::Russian, 149);
}
