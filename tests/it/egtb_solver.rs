//! The endgame databases checked against an independent solver and against positions whose
//! values are known by hand.
//!
//! The independent solver (`naive`) shares nothing with the builder but the public move
//! generator: it lists every placement of up to 4 pieces by its own recursion over the squares,
//! keys positions by their raw bitboards in a hash map, joins each to its successors through
//! `Variant::legal_moves` and `Position::play`, and iterates to a fixpoint with the definition
//! of the values and distances (docs/EGTB.md) taken literally: at pass k a position is won at k
//! if a move reaches a position lost at k - 1 or less, lost at k if every move reaches a position
//! won at k - 1 or less; what never settles is drawn. It uses no slices, no index, no mirror and
//! no un-moves.

use crownhead::egtb::{self, BuildOptions, Probe, Tablebase, Value};
use crownhead::{parse_fen, Color, Position, Variant};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The databases of up to `PIECES` pieces of `variant`, built once per test binary.
const PIECES: u32 = 4;

fn tables(variant: Variant) -> Tablebase {
    static DIRS: [OnceLock<PathBuf>; Variant::ALL.len()] =
        [const { OnceLock::new() }; Variant::ALL.len()];
    let slot = Variant::ALL.iter().position(|&v| v == variant).unwrap();
    let dir = DIRS[slot].get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("egtb-solver-{}", std::process::id()))
            .join(variant.name());
        let _ = std::fs::remove_dir_all(&dir);
        let opts = BuildOptions {
            dir: dir.clone(),
            variant,
            pieces: PIECES,
            only: None,
            exact: false,
        };
        egtb::build(&opts, &mut |_| {}).unwrap();
        dir
    });
    Tablebase::new(dir, variant)
}

/// Every placement of 1 to `max` pieces (no man on its crowning row), with each side to move.
fn all_positions(max: u32) -> Vec<Position> {
    // kinds: white man, white king, black man, black king.
    fn place(sq: u32, left: u32, pieces: [u64; 4], out: &mut Vec<Position>) {
        if sq == 32 || left == 0 {
            let [wm, wk, bm, bk] = pieces;
            if wm | wk | bm | bk != 0 {
                for side in [Color::White, Color::Black] {
                    out.push(
                        Position::new(wm | wk, bm | bk, wk | bk, side).expect("a valid position"),
                    );
                }
            }
            return;
        }
        place(sq + 1, left, pieces, out);
        let bit = crownhead::Square::from_index(sq as u8).bit();
        for kind in 0..4 {
            // Row 8 (squares 1-4) crowns White's men; row 1 (29-32) Black's.
            if (kind == 0 && sq < 4) || (kind == 2 && sq >= 28) {
                continue;
            }
            let mut p = pieces;
            p[kind] |= bit;
            place(sq + 1, left - 1, p, out);
        }
    }
    let mut out = Vec::new();
    place(0, max, [0; 4], &mut out);
    out
}

fn key(p: &Position) -> u128 {
    p.pieces(Color::White) as u128
        | (p.pieces(Color::Black) as u128) << 40
        | (p.kings() as u128) << 80
        | (p.side() as u128) << 120
}

/// Values and distances by the literal fixpoint (module docs), in the order of `positions`.
fn naive(variant: Variant, positions: &[Position]) -> Vec<Probe> {
    let slot: FxHashMap<u128, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i as u32))
        .collect();
    // Successors in one array (`first[i]..first[i + 1]`), and their reverse, the positions
    // one move before, so that each pass looks only at positions a settled one can change.
    let lists: Vec<Vec<u32>> = positions
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut out = Vec::new();
            for p in chunk {
                let moves = variant.legal_moves(p);
                out.push(moves.len() as u32);
                out.extend(moves.iter().map(|m| slot[&key(&p.play(m))]));
            }
            out
        })
        .collect();
    let mut first = vec![0u32];
    let mut succ = Vec::new();
    for list in &lists {
        let mut at = 0;
        while at < list.len() {
            let n = list[at] as usize;
            succ.extend_from_slice(&list[at + 1..at + 1 + n]);
            first.push(succ.len() as u32);
            at += 1 + n;
        }
    }
    drop(lists);
    let mut pred_first = vec![0u32; positions.len() + 1];
    for &c in &succ {
        pred_first[c as usize + 1] += 1;
    }
    for i in 0..positions.len() {
        pred_first[i + 1] += pred_first[i];
    }
    let mut pred = vec![0u32; succ.len()];
    let mut fill = pred_first.clone();
    for i in 0..positions.len() {
        for &c in &succ[first[i] as usize..first[i + 1] as usize] {
            pred[fill[c as usize] as usize] = i as u32;
            fill[c as usize] += 1;
        }
    }
    // 0 unsettled, 1 won, 2 lost; with the pass that settled it.
    let mut state = vec![(0u8, 0u16); positions.len()];
    let mut open: Vec<u32> = (0..positions.len() as u32).collect();
    for pass in 0u16.. {
        let settled: Vec<(u32, u8)> = open
            .par_iter()
            .filter_map(|&i| {
                let known = |c: &u32, v: u8| {
                    let (cv, cd) = state[*c as usize];
                    cv == v && cd < pass
                };
                let moves = &succ[first[i as usize] as usize..first[i as usize + 1] as usize];
                if moves.iter().any(|c| known(c, 2)) {
                    Some((i, 1))
                } else if moves.iter().all(|c| known(c, 1)) {
                    Some((i, 2)) // also a position without moves, at pass 0
                } else {
                    None
                }
            })
            .collect();
        if settled.is_empty() {
            break;
        }
        for &(i, v) in &settled {
            state[i as usize] = (v, pass);
        }
        // Only a position with a move to one just settled can settle at the next pass.
        open = settled
            .iter()
            .flat_map(|&(i, _)| {
                &pred[pred_first[i as usize] as usize..pred_first[i as usize + 1] as usize]
            })
            .copied()
            .filter(|&p| state[p as usize].0 == 0)
            .collect();
        open.sort_unstable();
        open.dedup();
    }
    state
        .into_iter()
        .map(|(v, d)| match v {
            1 => Probe {
                value: Value::Win,
                distance: d,
            },
            2 => Probe {
                value: Value::Loss,
                distance: d,
            },
            _ => Probe {
                value: Value::Draw,
                distance: 0,
            },
        })
        .collect()
}

fn agrees_with_the_naive_solver(variant: Variant, pieces: u32) {
    let base = tables(variant);
    let positions = all_positions(pieces);
    let expected = naive(variant, &positions);
    let mut checked = 0;
    let mut seen = [0u64; 3];
    for (pos, want) in positions.iter().zip(&expected) {
        // The databases hold the positions where both sides have a piece.
        if pos.pieces(Color::White) == 0 || pos.pieces(Color::Black) == 0 {
            continue;
        }
        let got = base.probe(pos).unwrap();
        assert_eq!(got, *want, "{variant} {}", crownhead::to_fen(pos));
        seen[want.value.code() as usize] += 1;
        checked += 1;
    }
    // Every stored position was compared: each slice stands for both sides to move (its
    // mirror), so twice the slices' sizes.
    let stored: u64 = egtb::material::all(pieces)
        .into_iter()
        .map(|m| egtb::Indexer::new(m).size())
        .sum();
    assert_eq!(checked, 2 * stored);
    // Each value occurs, or the comparison would show little.
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

// Up to 3 pieces in the default run (a second); up to 4 pieces, every position of both
// variants, takes about 16 s a variant on two cores (mostly the naive solver's hash lookups),
// so it is run on demand, as `.ci/run --full` does:
// `cargo test --release --test it egtb_solver -- --ignored`.

#[test]
fn english_agrees_with_the_naive_solver_to_3_pieces() {
    agrees_with_the_naive_solver(Variant::English, 3);
}

#[test]
fn russian_agrees_with_the_naive_solver_to_3_pieces() {
    agrees_with_the_naive_solver(Variant::Russian, 3);
}

#[test]
#[ignore = "about 16 s a variant; run with --ignored in release"]
fn english_agrees_with_the_naive_solver_to_4_pieces() {
    agrees_with_the_naive_solver(Variant::English, 4);
}

#[test]
#[ignore = "about 16 s a variant; run with --ignored in release"]
fn russian_agrees_with_the_naive_solver_to_4_pieces() {
    agrees_with_the_naive_solver(Variant::Russian, 4);
}

/// The five other variants' databases to 4 pieces (the builder is generic over the rules; about
/// 15 s a variant): `.ci/run --full`.
#[test]
#[ignore]
fn the_other_variants_agree_with_the_naive_solver_to_4_pieces() {
    for variant in Variant::ALL.into_iter().skip(2) {
        agrees_with_the_naive_solver(variant, 4);
    }
}

fn probe(variant: Variant, fen: &str) -> Probe {
    tables(variant).probe(&parse_fen(fen).unwrap()).unwrap()
}

const fn at(value: Value, distance: u16) -> Probe {
    Probe { value, distance }
}

/// A lone king in the single corner h8 (square 4) with the enemy king waiting: every move it has
/// walks into a capture, so it must give itself up and the game ends two plies on.
#[test]
fn a_cornered_king_must_give_itself_up() {
    // English: h8's only neighbour is g7 (8); after 4-8, White's king on f6 (11) jumps g7 and
    // lands on the h8 just left empty; Black has no piece and no move.
    assert_eq!(probe(Variant::English, "B:WK11:BK4"), at(Value::Loss, 2));
    // Russian: the king flies, so it has g7 and f6 (e5 is taken, and d4 behind it stops a
    // capture). On g7 the king on e5 takes it from a distance (f6 empty, h8 empty beyond); on f6
    // it takes it at once, landing on g7 or h8.
    assert_eq!(
        probe(Variant::Russian, "B:WK15,K18:BK4"),
        at(Value::Loss, 2)
    );
}

/// A king that wins at once by taking the last enemy piece: won at distance 1.
#[test]
fn a_king_wins_at_once_by_a_capture() {
    // d4 (18) jumps e5 (15) onto the empty f6 (11), in both variants.
    for variant in [Variant::Russian, Variant::English] {
        assert_eq!(
            probe(variant, "W:WK18:BK15"),
            at(Value::Win, 1),
            "{variant}"
        );
    }
    // From a1 (29) only a flying king reaches e5 along the main road, across b2, c3, d4.
    assert_eq!(probe(Variant::Russian, "W:WK29:BK15"), at(Value::Win, 1));
    assert_ne!(probe(Variant::English, "W:WK29:BK15"), at(Value::Win, 1));
}

/// A man that crowns and wins.
#[test]
fn a_man_crowns_and_wins() {
    // d6 (10) jumps c7 (6) onto b8 (1), row 8: it is crowned, and Black has nothing left.
    for variant in [Variant::Russian, Variant::English] {
        assert_eq!(probe(variant, "W:W10:B6"), at(Value::Win, 1), "{variant}");
    }
    // RULES.md: h6:f8:b4:e1 is the only move; crowned on f8 mid-capture, the new king goes on
    // and takes all three men in one move (russian). In English the crowning on f8 ends the
    // move with two Black men left, so the game cannot end at once.
    assert_eq!(probe(Variant::Russian, "W:W12:B8,14,26"), at(Value::Win, 1));
    assert_ne!(probe(Variant::English, "W:W12:B8,14,26").distance, 1);
}

/// The double corner: a lone English king in b8/a7 (squares 1 and 5) always has a square to go
/// to that the single enemy king does not attack, so it is never caught. Here c7 (6) would be
/// jumped from d6 (10), but a7 is safe; from a7 both b8 and b6 are open, and an enemy king
/// next to b8 on c7 would be jumped itself. Compare the single corner h8 above, lost.
#[test]
fn the_double_corner_draws() {
    assert_eq!(probe(Variant::English, "B:WK10:BK1"), at(Value::Draw, 0));
    assert_eq!(probe(Variant::English, "W:WK10:BK1"), at(Value::Draw, 0));
}

/// Russian: three kings cannot beat a lone king that holds the main road (a1-h8): it is never
/// cornered and any king that steps onto the road unguarded is taken (Petrov's triangle needs
/// the road). The game-theoretic value, no move-count rule applied, is a draw.
#[test]
fn three_kings_do_not_beat_the_main_road() {
    assert_eq!(
        probe(Variant::Russian, "B:WK1,K2,K3:BK29"),
        at(Value::Draw, 0)
    );
}

/// English two kings against one: the lengths of the shortest forced wins that
/// `scripts/oracles/kings_ending.py` (an independent retrograde solver in Python, written from
/// RULES.md) gives in `tests/it/endgames.rs`, in plies to the capture of the last king, which is
/// our distance.
#[test]
fn distances_agree_with_the_python_kings_ending_solver() {
    let cases = [
        ("B:WK31,K32:BK5", Value::Loss, 34),
        ("B:WK20,K28:BK1", Value::Loss, 34),
        ("B:WK3,K4:BK28", Value::Loss, 34),
        ("B:WK21,K29:BK32", Value::Loss, 34),
        ("W:WK1,K2:BK32", Value::Win, 33),
        ("B:WK29,K30:BK15", Value::Loss, 34),
        ("W:WK1:BK31,K32", Value::Loss, 30),
        ("W:WK5:BK20,K28", Value::Loss, 30),
    ];
    for (fen, value, plies) in cases {
        assert_eq!(probe(Variant::English, fen), at(value, plies), "{fen}");
    }
}
