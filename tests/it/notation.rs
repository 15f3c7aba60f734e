//! Notation round trips and rejection: FEN and move text read back what they write, on many
//! positions reached by random play in both variants, and the corpora `positions/invalid_fens.txt`
//! and `positions/invalid_moves.txt` are rejected line by line with an error and no panic.

use crownhead::notation::fen::to_fen_styled;
use crownhead::notation::move_text::default_style;
use crownhead::{
    full_text, parse_fen, parse_move, short_text, to_fen, Counting, MoveError, Position,
    SquareStyle, Variant,
};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// A tiny deterministic xorshift generator, so the tests need no extra crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions reached by random play from the start, `games` games of up to `plies` plies.
fn random_positions(variant: Variant, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = XorShift(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = parse_fen(variant.start_fen()).unwrap();
        for _ in 0..plies {
            // A finished game's last position (no legal move, perhaps no pieces for the side to
            // move) is left out: FEN rightly refuses a side to move without pieces.
            let moves = variant.moves(&pos, Counting::Paths);
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    out
}

#[test]
fn fen_round_trips() {
    let mut n = 0;
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for pos in random_positions(v, 0x1234_5678 + i as u64, 150, 120) {
            let fen = to_fen(&pos);
            let back = parse_fen(&fen).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back, pos, "{fen}");
            assert_eq!(back.key(), pos.key(), "{fen}");
            assert_eq!(to_fen(&back), fen, "canonical form is stable");
            let alg = to_fen_styled(&pos, SquareStyle::Algebraic);
            assert_eq!(parse_fen(&alg).unwrap(), pos, "{alg}");
            // Quotes, whitespace and swapped colour groups are read too.
            let mut parts: Vec<&str> = fen.split(':').collect();
            parts.swap(1, 2);
            let swapped = format!("  \"{}\"  ", parts.join(":"));
            assert_eq!(parse_fen(&swapped).unwrap(), pos, "{swapped}");
            n += 1;
        }
    }
    assert!(n > 10_000, "{n} positions");
}

#[test]
fn move_text_round_trips() {
    let (mut moves, mut long_short) = (0, 0);
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for pos in random_positions(v, 0xDEAD_BEEF + i as u64, 100, 120) {
            let unique = v.moves(&pos, Counting::Unique);
            for m in v.moves(&pos, Counting::Paths) {
                for style in [SquareStyle::Numeric, SquareStyle::Algebraic] {
                    // The full path names exactly this path.
                    let full = full_text(&m, style);
                    let back = parse_move(&full, &pos, v)
                        .unwrap_or_else(|e| panic!("{}: {e}", to_fen(&pos)));
                    assert_eq!(back, m, "{full} in {}", to_fen(&pos));
                    // The short form names a move with the same effect.
                    let short = short_text(&m, &pos, v, style);
                    let back = parse_move(&short, &pos, v)
                        .unwrap_or_else(|e| panic!("{}: {e}", to_fen(&pos)));
                    assert!(back.same_effect(&m), "{short} in {}", to_fen(&pos));
                    // It is from-to unless another move shares the start and end.
                    let clash = unique
                        .iter()
                        .filter(|u| u.from() == m.from() && u.to() == m.to())
                        .count()
                        > 1;
                    if clash {
                        assert_eq!(short, full, "{}", to_fen(&pos));
                    } else {
                        assert_eq!(
                            short.split(['-', 'x', ':']).count(),
                            2,
                            "{short} in {}",
                            to_fen(&pos)
                        );
                    }
                    long_short += usize::from(clash);
                }
                moves += 1;
            }
        }
    }
    assert!(moves > 50_000, "{moves} moves");
    println!("{moves} moves, {long_short} short texts that needed the full path");
}

/// Decodes the escapes of the corpora: `\xNN`, `\u{HHHH}`, `\\`, and `<empty>` for "".
fn unescape(text: &str) -> String {
    if text == "<empty>" {
        return String::new();
    }
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).expect("\\xNN")));
            }
            Some('u') => {
                assert_eq!(chars.next(), Some('{'));
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).expect("\\u{...}"));
            }
            other => panic!("unknown escape \\{other:?} in {text}"),
        }
    }
    out
}

fn corpus(name: &str) -> Vec<(usize, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

#[test]
fn invalid_fens_are_rejected() {
    let lines = corpus("invalid_fens.txt");
    assert!(lines.len() >= 50);
    for (n, line) in lines {
        let fen = unescape(&line);
        match catch_unwind(|| parse_fen(&fen)) {
            Err(_) => panic!("invalid_fens.txt:{n}: parse_fen panicked on {fen:?}"),
            Ok(Ok(pos)) => panic!(
                "invalid_fens.txt:{n}: {fen:?} was accepted as {}",
                to_fen(&pos)
            ),
            Ok(Err(e)) => {
                // The message names the text and what is wrong.
                let msg = e.to_string();
                assert!(msg.contains("invalid FEN"), "{msg}");
                assert_eq!(e.fen, fen);
            }
        }
    }
}

#[test]
fn invalid_moves_are_rejected() {
    let lines = corpus("invalid_moves.txt");
    assert!(lines.len() >= 50);
    let mut kinds = [0; 3];
    for (n, line) in lines {
        let fields: Vec<&str> = line.split(';').collect();
        assert_eq!(
            fields.len(),
            4,
            "invalid_moves.txt:{n}: expected variant;fen;move;kind"
        );
        let variant: Variant = fields[0].parse().unwrap();
        let pos = parse_fen(fields[1]).unwrap_or_else(|e| panic!("invalid_moves.txt:{n}: {e}"));
        let text = unescape(fields[2]);
        let result = catch_unwind(AssertUnwindSafe(|| parse_move(&text, &pos, variant)));
        let err = match result {
            Err(_) => panic!("invalid_moves.txt:{n}: parse_move panicked on {text:?}"),
            Ok(Ok(m)) => panic!(
                "invalid_moves.txt:{n}: {text:?} was accepted as {}",
                full_text(&m, SquareStyle::Numeric)
            ),
            Ok(Err(e)) => e,
        };
        let style = default_style(variant);
        let legal: Vec<String> = variant
            .legal_moves(&pos)
            .iter()
            .map(|m| full_text(m, style))
            .collect();
        match (&err, fields[3]) {
            (MoveError::Syntax(_), "syntax") => kinds[0] += 1,
            (MoveError::Illegal { legal: listed, .. }, "illegal") => {
                // Every legal move is listed, written in full.
                let (mut a, mut b) = (listed.clone(), legal.clone());
                a.sort();
                b.sort();
                assert_eq!(a, b, "invalid_moves.txt:{n}");
                kinds[1] += 1;
            }
            (MoveError::Ambiguous { candidates, .. }, "ambiguous") => {
                assert!(
                    candidates.len() >= 2,
                    "invalid_moves.txt:{n}: {candidates:?}"
                );
                for c in candidates {
                    // Each candidate is a legal move in full, and naming it is not ambiguous.
                    assert!(legal.contains(c), "invalid_moves.txt:{n}: {c} is not legal");
                    assert!(
                        parse_move(c, &pos, variant).is_ok(),
                        "invalid_moves.txt:{n}: {c}"
                    );
                }
                let msg = err.to_string();
                assert!(candidates.iter().all(|c| msg.contains(c.as_str())), "{msg}");
                kinds[2] += 1;
            }
            (e, kind) => panic!("invalid_moves.txt:{n}: {text:?} gave {e:?}, expected {kind}"),
        }
    }
    assert!(
        kinds.iter().all(|&k| k >= 3),
        "each kind of error is exercised: {kinds:?}"
    );
}

/// Random text must never make the parsers panic.
#[test]
fn random_text_never_panics() {
    let mut rng = XorShift(0xC0FF_EE00_1234_5678);
    let alphabet: Vec<char> = "WBKwbk0123456789:,-x. \"'abcdefghi\u{0}\u{441}\u{2013}🂡"
        .chars()
        .collect();
    let start = parse_fen(Variant::Russian.start_fen()).unwrap();
    for _ in 0..20_000 {
        let len = rng.below(24);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let r = catch_unwind(|| {
            let _ = parse_fen(&text);
            for v in Variant::ALL {
                let _ = parse_move(&text, &start, v);
            }
        });
        assert!(r.is_ok(), "panicked on {text:?}");
    }
}
