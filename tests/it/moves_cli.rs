//! `crownhead moves` on stdin: one output line per input line, a bad line (a bad FEN, control
//! bytes, text that is not UTF-8) gets an error line with the bad text escaped, and the lines
//! after it are still read.

use crate::common;

/// `crownhead moves` on `input`: success, stdout, stderr.
fn moves(input: &[u8]) -> (bool, String, String) {
    let out = common::run_with_input(&["moves"], input);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_bad_line_gets_an_error_and_the_next_lines_are_read() {
    let input = b"W:W21:B1\x00\n\xff\xfeW:W22:B1\nW:W21-32:B1-12\r\nW:W20-32:B1-12\nW:W22:B1\n";
    let (ok, out, err) = moves(input);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines.len(), 6, "{out:?}");
    assert_eq!(lines[5], "", "{out:?}");
    assert!(
        lines[0].starts_with("error: ") && lines[0].contains("'1\\0'"),
        "{out:?}"
    );
    assert!(
        lines[1].starts_with("error: ") && lines[1].contains("not UTF-8"),
        "{out:?}"
    );
    assert_eq!(
        lines[2], "22-17 23-18 24-19 21-17 22-18 23-19 24-20",
        "{out:?}"
    );
    assert!(
        lines[3].starts_with("error: ") && lines[3].contains("13 pieces"),
        "{out:?}"
    );
    assert_eq!(lines[4], "22-17 22-18", "{out:?}");
    assert!(
        !out.contains(|c: char| c.is_control() && c != '\n'),
        "{out:?}"
    );
    assert!(
        !err.contains(|c: char| c.is_control() && c != '\n'),
        "{err:?}"
    );
}
