//! The one way to echo untrusted text (a FEN, a move, a command word, a file name) inside a
//! message. Every error type that quotes its input writes it through `quote`, so that a NUL, an
//! escape sequence or a carriage return sent by a client comes back as visible text (`\0`,
//! `\u{1b}`, `\r`) and never reaches a terminal or a GUI's line parser raw, and so that a
//! 64 KB line is echoed as a short one.

use std::borrow::Cow;
use std::fmt;

/// The most bytes of escaped text a quote shows; longer text is cut and ends in `...`.
pub const MAX_QUOTED: usize = 100;

/// Writes one character as it is shown: printable characters as they are, the rest (control
/// characters, invisible format characters, lone combining marks) with Rust's escapes, and a
/// backslash doubled so that `\0` typed as two characters cannot pass for a NUL. Quotes stay as
/// they are: the quote marks around the text are for reading, not for parsing back.
fn escape_char(c: char, out: &mut impl fmt::Write) -> fmt::Result {
    match c {
        '\'' | '"' => out.write_char(c),
        _ => write!(out, "{}", c.escape_debug()),
    }
}

/// Whether a character must not be printed raw: a control character or one that Rust's
/// `escape_debug` does not show as itself (invisible format characters, line separators).
fn hidden(c: char) -> bool {
    !matches!(c, '\'' | '"' | '\\') && c.escape_debug().len() > 1
}

/// The text with its hidden characters escaped and everything else, backslashes included, left
/// as it is: the last guard on a line of output that may carry text already quoted. A newline
/// is escaped too, since a protocol line must stay one line.
pub fn printable(text: &str) -> Cow<'_, str> {
    escape_hidden(text, false)
}

/// As `printable`, but for text of several lines shown to a person (a board, a help text, an
/// error on stderr): newlines are kept.
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    escape_hidden(text, true)
}

fn escape_hidden(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    let hide = |c: char| hidden(c) && !(keep_newlines && c == '\n');
    if !text.chars().any(hide) {
        return Cow::Borrowed(text);
    }
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hide(c) {
            s.extend(c.escape_debug());
        } else {
            s.push(c);
        }
    }
    Cow::Owned(s)
}

/// Text to echo in a message, shown as `'text'` with control characters escaped and cut to
/// `MAX_QUOTED` bytes.
///
/// ```
/// use crownhead::notation::quote::quote;
/// assert_eq!(quote("1\0").to_string(), r"'1\0'");
/// assert_eq!(quote("\u{1b}[2J").to_string(), r"'\u{1b}[2J'");
/// ```
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// Untrusted text as a message shows it; see `quote`.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("'")?;
        let mut shown = String::new();
        for c in self.0.chars() {
            let mut piece = String::new();
            escape_char(c, &mut piece)?;
            if shown.len() + piece.len() > MAX_QUOTED {
                shown.push_str("...");
                break;
            }
            shown.push_str(&piece);
        }
        f.write_str(&shown)?;
        f.write_str("'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_come_back_escaped() {
        assert_eq!(quote("a\0b").to_string(), r"'a\0b'");
        assert_eq!(quote("\r\n\t").to_string(), r"'\r\n\t'");
        assert_eq!(
            quote("\u{7f}\u{85}\u{202e}").to_string(),
            r"'\u{7f}\u{85}\u{202e}'"
        );
        assert_eq!(quote(r"c:\x").to_string(), r"'c:\\x'");
        // Printable text, quotes and the replacement character of undecodable bytes stay.
        assert_eq!(
            quote("c3:e5 'ok' \"ok\" é ♛ \u{fffd}").to_string(),
            "'c3:e5 'ok' \"ok\" é ♛ \u{fffd}'"
        );
        for text in ["\0", "\u{1b}[2J", "x\u{9b}y", "\u{2028}"] {
            assert!(
                !quote(text).to_string().contains(char::is_control),
                "{text:?}"
            );
            assert!(!printable(text).contains(char::is_control), "{text:?}");
            assert_ne!(printable(text), text, "{text:?}");
        }
        let clean = "W:W21,K30:B1-12 'a' \"b\" c:\\d é";
        assert!(matches!(printable(clean), Cow::Borrowed(t) if t == clean));
        assert_eq!(printable(r"'1\0' a\u{1}"), r"'1\0' a\u{1}");
        assert_eq!(printable("a\nb\r"), r"a\nb\r");
        assert_eq!(printable_lines("a\nb\r\u{1b}"), "a\nb\\r\\u{1b}");
    }

    #[test]
    fn long_text_is_cut() {
        let long = quote(&"x".repeat(100_000)).to_string();
        assert_eq!(long.len(), MAX_QUOTED + 5);
        assert!(long.ends_with("...'"));
        let nuls = quote(&"\0".repeat(1000)).to_string();
        assert!(nuls.len() <= MAX_QUOTED + 5, "{}", nuls.len());
        assert_eq!(
            quote(&"y".repeat(MAX_QUOTED)).to_string().len(),
            MAX_QUOTED + 2
        );
    }
}
