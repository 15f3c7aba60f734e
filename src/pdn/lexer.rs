//! The PDN tokenizer: turns file text into tags, move texts, comments and results. It is
//! deliberately forgiving, because real files are written by hand and by many programs: move
//! numbers in any form (`1.`, `1...`, `12.` glued to the move as in `1.11-15`, or bare), odd
//! whitespace, annotation marks (`!`, `?!`), NAGs (`$1`), `;` line comments, nested variations and
//! the Russian results (`2-0`, `1-1`, `0-2`) are all accepted.

use super::{Broken, PdnWarning};
use crate::game::GameResult;

/// One piece of PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// `[Name "value"]`.
    Tag(String, String),
    /// A move's text with its number and annotation marks stripped.
    Move(String),
    /// `{...}` or `; ...`: the text inside.
    Comment(String),
    /// A game result; `None` for `*` (unknown or unfinished).
    Result(Option<GameResult>),
}

/// Reads a result token (`1-0`, `0-1`, `1/2-1/2`, the Russian `2-0`, `1-1`, `0-2`, `*`), or
/// `None` when `word` is not a result. None of these can be a move: square 0 does not exist and
/// a move never starts and ends on the same square.
pub(crate) fn parse_result(word: &str) -> Option<Option<GameResult>> {
    match word {
        "1-0" | "2-0" => Some(Some(GameResult::WhiteWins)),
        "0-1" | "0-2" => Some(Some(GameResult::BlackWins)),
        "1/2-1/2" | "½-½" | "1-1" | "0.5-0.5" => Some(Some(GameResult::Draw)),
        // `0-0` (a double forfeit in some tournament files) says nothing about the board.
        "*" | "0-0" => Some(None),
        _ => None,
    }
}

/// Splits PDN text into tokens. Never fails: what is broken is read past and reported as a
/// warning with its line. A tag cut off before its `]` is dropped; a `{` or `(` never closed ends
/// before the next line that holds a tag, so that the games after it are still read.
pub(crate) fn tokenize(text: &str) -> (Vec<Token>, Vec<PdnWarning>) {
    let chars: Vec<char> = text.chars().collect();
    let lines = Lines::new(&chars);
    let mut tokens = Vec::new();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            // Ctrl-Z ends old DOS files; it is no part of a move.
            _ if c.is_whitespace() || c == '\u{1a}' => i += 1,
            '[' => {
                let (tag, next) = read_tag(&chars, i + 1);
                match tag {
                    Tag::Read(token) => tokens.extend(token),
                    Tag::Unclosed(token) => {
                        warnings.push(lines.warn(i, Broken::UnclosedTag(snippet(&chars, i, next))));
                        tokens.extend(token);
                    }
                    Tag::CutOff => {
                        warnings.push(lines.warn(i, Broken::CutOffTag(snippet(&chars, i, next))))
                    }
                }
                i = next;
            }
            '{' => {
                let (end, closed) = comment_end(&chars, i + 1);
                let text: String = chars[i + 1..end].iter().collect();
                tokens.push(Token::Comment(text.trim().to_string()));
                if !closed {
                    let until = (end < chars.len()).then(|| lines.of(end));
                    warnings.push(lines.warn(i, Broken::UnclosedComment { until }));
                }
                // Past the `}`; a comment never closed ends where the tag line starts.
                i = if closed { end + 1 } else { end };
            }
            // `;` to the end of the line is a comment too.
            ';' => {
                let end = find(&chars, i + 1, '\n');
                let text: String = chars[i + 1..end].iter().collect();
                tokens.push(Token::Comment(text.trim().to_string()));
                i = end + 1;
            }
            '(' => {
                let (next, closed) = skip_variation(&chars, i + 1);
                if !closed {
                    let until = (next < chars.len()).then(|| lines.of(next));
                    warnings.push(lines.warn(i, Broken::UnclosedVariation { until }));
                }
                i = next;
            }
            // A stray closing bracket (from a broken variation) is noise.
            ')' | ']' | '}' => i += 1,
            _ => {
                let start = i;
                while i < chars.len()
                    && !chars[i].is_whitespace()
                    && !"[{(;)\u{1a}".contains(chars[i])
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                tokens.extend(classify(&word));
            }
        }
    }
    (tokens, warnings)
}

/// Line numbers of character indices.
struct Lines {
    /// The index at which each line starts.
    starts: Vec<usize>,
}

impl Lines {
    fn new(chars: &[char]) -> Lines {
        let starts = std::iter::once(0)
            .chain(
                chars
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == '\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        Lines { starts }
    }

    /// The 1-based line of the character at `index`.
    fn of(&self, index: usize) -> usize {
        self.starts.partition_point(|&s| s <= index)
    }

    fn warn(&self, index: usize, problem: Broken) -> PdnWarning {
        PdnWarning {
            line: self.of(index),
            problem,
        }
    }
}

/// The text from `start` to `end` (at most one line and 40 characters), for a message.
fn snippet(chars: &[char], start: usize, end: usize) -> String {
    chars[start..end.min(chars.len())]
        .iter()
        .take_while(|c| **c != '\n')
        .take(40)
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// The index of `target` at or after `from`, or the end of the text.
fn find(chars: &[char], from: usize, target: char) -> usize {
    chars[from.min(chars.len())..]
        .iter()
        .position(|&c| c == target)
        .map_or(chars.len(), |p| from + p)
}

/// Whether the line starting at `start` holds a tag and nothing else: `[Name "value"]`.
fn is_tag_line(chars: &[char], start: usize) -> bool {
    let end = find(chars, start, '\n');
    let line: String = chars[start.min(end)..end].iter().collect();
    let line = line.trim();
    line.starts_with('[') && line.ends_with(']') && line.contains('"')
}

/// Where a comment whose `{` has been read ends: at its `}` (true), or, never closed, at the
/// start of the next line that holds a tag or the end of the text (false). A `}` beyond a tag
/// line belongs to a later game, so the tag line ends the comment first.
fn comment_end(chars: &[char], mut i: usize) -> (usize, bool) {
    while i < chars.len() {
        match chars[i] {
            '}' => return (i, true),
            '\n' if is_tag_line(chars, i + 1) => return (i + 1, false),
            _ => i += 1,
        }
    }
    (chars.len(), false)
}

/// Skips a variation whose `(` has been read, with nested variations and comments (which may
/// hold parentheses of their own); returns the index after its `)` and true, or, never closed,
/// the start of the next tag line (or the end of the text) and false.
fn skip_variation(chars: &[char], mut i: usize) -> (usize, bool) {
    let mut depth = 1;
    while i < chars.len() {
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (i + 1, true);
                }
            }
            '{' => match comment_end(chars, i + 1) {
                (end, true) => i = end,
                (end, false) => return (end, false),
            },
            '\n' if is_tag_line(chars, i + 1) => return (i + 1, false),
            _ => {}
        }
        i += 1;
    }
    (chars.len(), false)
}

/// A tag as read.
enum Tag {
    /// Complete (or nameless, `None`: `[ ]` is noise).
    Read(Option<Token>),
    /// Its quoted value is complete but no `]` closes it on its line: kept.
    Unclosed(Option<Token>),
    /// Cut off before its value ends (no closing quote or `]` on its line): dropped.
    CutOff,
}

/// Reads a tag whose `[` has been read: a name, then a quoted value (with `\"` and `\\`
/// escapes) or, tolerantly, bare text up to `]`; a tag ends with its line. Returns the tag and
/// the index to go on from.
fn read_tag(chars: &[char], mut i: usize) -> (Tag, usize) {
    let end_of_line = find(chars, i, '\n');
    while i < end_of_line && chars[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < end_of_line && !chars[i].is_whitespace() && chars[i] != '"' && chars[i] != ']' {
        i += 1;
    }
    let name: String = chars[start..i].iter().collect();
    while i < end_of_line && chars[i].is_whitespace() {
        i += 1;
    }
    let token = |value: String| (!name.is_empty()).then(|| Token::Tag(name.clone(), value));
    if i < end_of_line && chars[i] == '"' {
        i += 1;
        let mut value = String::new();
        while i < end_of_line && chars[i] != '"' {
            if chars[i] == '\\' && i + 1 < end_of_line {
                i += 1;
            }
            value.push(chars[i]);
            i += 1;
        }
        if i >= end_of_line {
            return (Tag::CutOff, end_of_line);
        }
        let close = find(chars, i, ']');
        if close < end_of_line {
            (Tag::Read(token(value)), close + 1)
        } else {
            (Tag::Unclosed(token(value)), end_of_line)
        }
    } else {
        let close = find(chars, i, ']');
        if close >= end_of_line {
            return (Tag::CutOff, end_of_line);
        }
        let value: String = chars[i..close].iter().collect();
        (Tag::Read(token(value.trim().to_string())), close + 1)
    }
}

/// Turns a word of move text into a token: a result, a move, or nothing (a move number, a NAG
/// or an annotation mark on its own).
fn classify(word: &str) -> Option<Token> {
    let word = word.trim_end_matches([',', ';']);
    if let Some(result) = parse_result(word) {
        return Some(Token::Result(result));
    }
    if word.starts_with('$') {
        return None;
    }
    let rest = strip_move_number(word);
    let rest = rest.trim_end_matches(['!', '?', '+', '.', ',']);
    if rest.is_empty() || rest.bytes().all(|b| b.is_ascii_digit()) {
        // A bare number is a move number written without its dot.
        return None;
    }
    if let Some(result) = parse_result(rest) {
        return Some(Token::Result(result));
    }
    Some(Token::Move(rest.to_string()))
}

/// `12.`, `12...`, `12…` and `1.11-15` lose their move number; a move such as `11-15` (digits not
/// followed by a dot) is left alone.
fn strip_move_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let after = &word[digits..];
    if digits == 0 || !(after.starts_with('.') || after.starts_with('…')) {
        return word;
    }
    after.trim_start_matches(['.', '…', ' '])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        tokenize(text)
            .0
            .into_iter()
            .filter_map(|t| match t {
                Token::Move(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn move_numbers_in_any_form() {
        assert_eq!(
            moves("1. 11-15 23-19 2.8-11 22-17 3... 9-13 12 17x10 4.11-15! $3"),
            ["11-15", "23-19", "8-11", "22-17", "9-13", "17x10", "11-15"]
        );
    }

    #[test]
    fn comments_variations_and_results() {
        let (toks, warnings) = tokenize("[Event \"A \\\"big\\\" one\"]\n1. c3-d4 {good (really)} (1. a3-b4 (1. e3-f4) {x)}) f6-g5 ; rest\n2-0");
        assert_eq!(
            toks,
            vec![
                Token::Tag("Event".into(), "A \"big\" one".into()),
                Token::Move("c3-d4".into()),
                Token::Comment("good (really)".into()),
                Token::Move("f6-g5".into()),
                Token::Comment("rest".into()),
                Token::Result(Some(GameResult::WhiteWins)),
            ]
        );
        assert_eq!(warnings, []);
    }

    fn warnings(text: &str) -> Vec<String> {
        tokenize(text).1.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_cut_off_tag_is_dropped_with_a_warning() {
        let (toks, _) = tokenize("[Event \"x\"]\n1. 11-15 *\n[Resu");
        assert_eq!(toks.len(), 3, "{toks:?}");
        assert_eq!(
            warnings("[Event \"x\"]\n1. 11-15 *\n[Resu"),
            ["line 3: tag '[Resu' is cut off (no closing '\"' or ']' on its line); ignored"]
        );
        // An open quote stops at the end of its line instead of swallowing the games after it.
        let (toks, w) = tokenize("[Event \"Open\n1. 11-15 *");
        assert_eq!(toks[0], Token::Move("11-15".into()));
        assert_eq!(w[0].line, 1);
        // A complete value without its `]` is kept.
        let (toks, w) = tokenize("[Event \"x\"\n1. 11-15");
        assert_eq!(toks[0], Token::Tag("Event".into(), "x".into()));
        assert!(w[0]
            .to_string()
            .starts_with("line 1: tag '[Event \"x\"' has no closing ']'"));
        // Bare values with their `]` are still read.
        assert_eq!(
            tokenize("[Event x y]").0,
            [Token::Tag("Event".into(), "x y".into())]
        );
    }

    #[test]
    fn unclosed_comments_and_variations_end_at_the_next_tag_line() {
        let text = "[A \"1\"]\n1. 11-15 {oops\n23-19 *\n[B \"2\"]\n1. 9-13 {fine} *";
        let (toks, _) = tokenize(text);
        assert_eq!(toks[2], Token::Comment("oops\n23-19 *".into()));
        assert_eq!(toks[3], Token::Tag("B".into(), "2".into()));
        assert_eq!(
            warnings(text),
            ["line 2: comment '{' is never closed; read as a comment up to the tag on line 4"]
        );
        assert_eq!(
            warnings("1. 11-15 (1. 9-13 {x)}\n\n*"),
            ["line 1: variation '(' is never closed; skipped to the end of the text"]
        );
        let (toks, w) = tokenize("1. 11-15 (1. 9-13\n[B \"2\"]\n1. 9-13 *");
        assert_eq!(toks[1], Token::Tag("B".into(), "2".into()));
        assert_eq!(w[0].problem, Broken::UnclosedVariation { until: Some(2) });
        assert_eq!(warnings("1. 11-15 {a}\n(b) {c\n}"), Vec::<String>::new());
    }

    #[test]
    fn broken_text_does_not_panic() {
        for text in [
            "[", "[Event", "{", "(", "1.", "[A \"b", "]}) 1...", "…", "1…", "[ ]", "\u{0}",
        ] {
            let _ = tokenize(text);
        }
    }
}
