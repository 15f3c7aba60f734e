//! The PDN tokenizer: turns file text into tags, move texts, comments and results. It is
//! deliberately forgiving, because real files are written by hand and by many programs: move
//! numbers in any form (`1.`, `1...`, `12.` glued to the move as in `1.11-15`, or bare), odd
//! whitespace, annotation marks (`!`, `?!`), NAGs (`$1`), `;` line comments, nested variations and
//! the Russian results (`2-0`, `1-1`, `0-2`) are all accepted.

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

/// Splits PDN text into tokens. Never fails: unbalanced brackets run to the end of the text.
pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            _ if c.is_whitespace() => i += 1,
            '[' => {
                let (token, next) = read_tag(&chars, i + 1);
                tokens.extend(token);
                i = next;
            }
            // `{...}` and `;` to the end of the line are both comments.
            '{' | ';' => {
                let close = if c == '{' { '}' } else { '\n' };
                let end = find(&chars, i + 1, close);
                let text: String = chars[i + 1..end].iter().collect();
                tokens.push(Token::Comment(text.trim().to_string()));
                i = end + 1;
            }
            '(' => i = skip_variation(&chars, i + 1),
            // A stray closing bracket (from a broken variation) is noise.
            ')' | ']' | '}' => i += 1,
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"[{(;)".contains(chars[i]) {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                tokens.extend(classify(&word));
            }
        }
    }
    tokens
}

/// The index of `target` at or after `from`, or the end of the text.
fn find(chars: &[char], from: usize, target: char) -> usize {
    chars[from.min(chars.len())..]
        .iter()
        .position(|&c| c == target)
        .map_or(chars.len(), |p| from + p)
}

/// Skips a variation whose `(` has been read, with nested variations and comments (which may
/// hold parentheses of their own); returns the index after its `)`.
fn skip_variation(chars: &[char], mut i: usize) -> usize {
    let mut depth = 1;
    while i < chars.len() && depth > 0 {
        match chars[i] {
            '(' => depth += 1,
            ')' => depth -= 1,
            '{' => i = find(chars, i + 1, '}'),
            _ => {}
        }
        i += 1;
    }
    i
}

/// Reads a tag whose `[` has been read: a name, then a quoted value (with `\"` and `\\`
/// escapes) or, tolerantly, bare text up to `]`.
fn read_tag(chars: &[char], mut i: usize) -> (Option<Token>, usize) {
    let end_of_line = find(chars, i, '\n');
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '"' && chars[i] != ']' {
        i += 1;
    }
    let name: String = chars[start..i].iter().collect();
    while i < chars.len() && chars[i].is_whitespace() && chars[i] != '\n' {
        i += 1;
    }
    let mut value = String::new();
    if i < chars.len() && chars[i] == '"' {
        i += 1;
        while i < chars.len() && chars[i] != '"' {
            if chars[i] == '\\' && i + 1 < chars.len() {
                i += 1;
            }
            value.push(chars[i]);
            i += 1;
        }
        i = find(chars, i, ']').min(end_of_line.max(i)) + 1;
    } else {
        let end = find(chars, i, ']').min(end_of_line);
        value = chars[i.min(end)..end]
            .iter()
            .collect::<String>()
            .trim()
            .to_string();
        i = end + 1;
    }
    let token = if name.is_empty() {
        None
    } else {
        Some(Token::Tag(name, value))
    };
    (token, i)
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
        let toks = tokenize("[Event \"A \\\"big\\\" one\"]\n1. c3-d4 {good (really)} (1. a3-b4 (1. e3-f4) {x)}) f6-g5 ; rest\n2-0");
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
