//! `crownhead moves` and `crownhead evaluate`: each reads FENs on stdin, one a line, and answers
//! each with one line of its own (the legal moves; the static evaluation), or an error line for
//! that FEN alone.

use crate::eval::{self, EvalChoice};
use crate::learned::{Learned, Weights};
use crate::movegen::Counting;
use crate::notation::fen::parse_fen_in;
use crate::notation::move_text::full_text;
use crate::notation::quote::quote;
use crate::notation::SquareStyle;
use crate::position::Position;
use crate::variant::Variant;
use std::io::{BufRead, Write};

/// `crownhead moves`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct MovesArgs {
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// List every jump path rather than every distinct move.
    #[arg(long)]
    pub paths: bool,
    /// Write squares algebraically (c3:e5) rather than numerically (22x15).
    #[arg(long)]
    pub algebraic: bool,
}

/// `crownhead evaluate`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct EvaluateArgs {
    /// russian, english, brazilian, pool, italian, spanish or czech.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// A weights file written by scripts/training/train_net.py.
    #[arg(long)]
    pub weights: Option<String>,
    /// Print the hand-written evaluation term by term, one JSON object a line.
    #[arg(long, conflicts_with = "weights")]
    pub json: bool,
}

/// Runs `crownhead moves`.
pub fn moves(args: MovesArgs) -> Result<(), String> {
    let MovesArgs {
        variant,
        paths,
        algebraic,
    } = args;
    let style = if algebraic {
        SquareStyle::Algebraic
    } else if variant.mirrored_numbering() {
        SquareStyle::Mirrored
    } else {
        SquareStyle::Numeric
    };
    let counting = if paths {
        Counting::Paths
    } else {
        Counting::Unique
    };
    each_fen_line(variant, |pos| {
        let moves = variant.moves(pos, counting);
        moves
            .iter()
            .map(|m| full_text(m, style))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// Runs `crownhead evaluate`: the learned evaluation of a weights file, or the hand-written one.
pub fn evaluate(args: EvaluateArgs) -> Result<(), String> {
    let variant = args.variant;
    if args.json {
        return each_fen_line(variant, |pos| hand_written_json(variant, pos));
    }
    let Some(path) = args.weights else {
        return each_fen_line(variant, |pos| {
            eval::evaluate(variant, pos, EvalChoice::HandWritten).to_string()
        });
    };
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let learned = Weights::parse(&bytes, variant)
        .and_then(Learned::new)
        .map_err(|e| format!("{path}: {e}"))?;
    each_fen_line(variant, |pos| {
        crate::with_rules!(variant, R => learned.model_eval::<R>(pos)).to_string()
    })
}

/// The hand-written evaluation by term as one line of JSON, for tools that read the terms
/// rather than parse a table: `{"total":T,"terms":{"material":M,...}}`, side to move's view,
/// the terms in the evaluation's order with a dead draw's cancelling term last, their values
/// summing to `total`. The names are the evaluation's own and need no escaping.
fn hand_written_json(variant: Variant, pos: &Position) -> String {
    let terms = eval::explain(variant, pos, EvalChoice::HandWritten);
    let total: i32 = terms.iter().map(|(_, v)| v).sum();
    let fields: Vec<String> = terms
        .iter()
        .map(|(name, v)| {
            debug_assert!(!name.contains(['"', '\\']), "{name}");
            format!("\"{name}\":{v}")
        })
        .collect();
    format!("{{\"total\":{total},\"terms\":{{{}}}}}", fields.join(","))
}

/// Answers each FEN line of stdin with one line: `answer` of the position, or an error. Lines
/// are read as bytes and decoded one by one, so that a line that is not UTF-8 is one bad line,
/// answered like a bad FEN, and the lines after it are still read.
fn each_fen_line(
    variant: Variant,
    mut answer: impl FnMut(&Position) -> String,
) -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| e.to_string())?
            == 0
        {
            break;
        }
        let raw = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let Ok(line) = std::str::from_utf8(raw) else {
            let shown = String::from_utf8_lossy(raw);
            writeln!(out, "error: not UTF-8 text: {}", quote(&shown))
                .and_then(|_| out.flush())
                .map_err(|e| e.to_string())?;
            continue;
        };
        let text = match parse_fen_in(variant, line) {
            Ok(pos) => answer(&pos),
            Err(e) => format!("error: {e}"),
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_fen;

    #[test]
    fn the_json_breakdown_lists_every_term_and_the_total() {
        // Two kings against one in russian: a dead draw, so the material lead is cancelled.
        let pos = parse_fen("W:WK29,K30:BK4").unwrap();
        let json = hand_written_json(Variant::Russian, &pos);
        assert!(
            json.starts_with("{\"total\":0,\"terms\":{\"material\":250,"),
            "{json}"
        );
        let terms = eval::explain(Variant::Russian, &pos, EvalChoice::HandWritten);
        let (last, rest) = terms.split_last().expect("terms");
        assert_eq!(last.0, "dead draw");
        let mut at = 0;
        for (name, _) in rest {
            let found = json[at..].find(&format!("\"{name}\":"));
            at += found.unwrap_or_else(|| panic!("{name} missing or out of order: {json}"));
        }
        let rest: i32 = rest.iter().map(|(_, v)| v).sum();
        assert!(rest >= 250, "{json}");
        assert!(
            json.ends_with(&format!(",\"dead draw\":{}}}}}", -rest)),
            "{json}"
        );
    }
}
