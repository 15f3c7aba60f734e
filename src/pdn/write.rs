//! Writing PDN: the tags (with `GameType`, a `FEN` tag when the game does not start from the
//! variant's start position, and `Result` kept in step with the result), then numbered move text
//! in the variant's usual notation, comments, and the result. Lines are wrapped at 79 columns so
//! the files read well in any editor and diff cleanly.

use super::{move_number, PdnGame};
use crate::notation::fen::{parse_fen, to_fen_in};
use crate::notation::move_text::{default_style, short_text};

const WIDTH: usize = 79;

/// Several games, separated by blank lines.
pub fn write_games(games: &[PdnGame]) -> String {
    games.iter().map(write_game).collect::<Vec<_>>().join("\n")
}

/// Escapes a tag value: `\` and `"` are backslash-escaped as PDN (and PGN) require.
fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment cannot hold `}`; it would end the comment early.
fn clean_comment(text: &str) -> String {
    text.replace('}', ")").replace('{', "(")
}

fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: String) {
    match tags.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        Some(slot) => slot.1 = value,
        None => tags.push((name.to_string(), value)),
    }
}

/// One game, ending with a blank line.
pub(crate) fn write_game(pdn: &PdnGame) -> String {
    let game = &pdn.game;
    let variant = game.variant();
    let result_text = pdn.result.map_or("*", |r| r.pdn());
    let mut tags = pdn.tags.clone();
    set_tag(&mut tags, "GameType", variant.game_type().to_string());
    let standard = parse_fen(variant.start_fen()).ok();
    if standard.as_ref() != Some(game.start_position()) {
        set_tag(&mut tags, "FEN", to_fen_in(variant, game.start_position()));
    } else {
        tags.retain(|(n, _)| !n.eq_ignore_ascii_case("FEN"));
    }
    set_tag(&mut tags, "Result", result_text.to_string());

    let mut out = String::new();
    for (name, value) in &tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    }
    out.push('\n');

    let style = default_style(variant);
    let first = game.start_position().side();
    let mut words: Vec<String> = Vec::new();
    for (i, mv) in game.moves().iter().enumerate() {
        let pos = &game.positions()[i];
        let number = move_number(variant, first, i);
        let text = short_text(mv, pos, variant, style);
        if pos.side() == variant.first_to_move() {
            words.push(format!("{number}."));
        } else if i == 0 || pdn.comments.get(i - 1).is_some_and(Option::is_some) {
            // After a comment, or at a start with the second player to move, the number is
            // repeated with dots so the reader knows whose move this is.
            words.push(format!("{number}..."));
        }
        words.push(text);
        if let Some(Some(c)) = pdn.comments.get(i) {
            words.push(format!("{{{}}}", clean_comment(c)));
        }
    }
    if let Some(c) = &pdn.end_comment {
        words.push(format!("{{{}}}", clean_comment(c)));
    }
    words.push(result_text.to_string());
    out.push_str(&wrap(&words));
    out.push_str("\n\n");
    out
}

/// Joins words with spaces, breaking lines before `WIDTH`. A comment's words may be broken too,
/// since whitespace inside a comment means nothing.
fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in words.iter().flat_map(|w| w.split(' ')) {
        if line_len > 0 && line_len + 1 + word.len() > WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, GameResult};
    use crate::pdn::{read_games, PdnGame};
    use crate::variant::Variant;

    #[test]
    fn round_trip_keeps_moves_tags_and_comments() {
        let mut game = Game::start(Variant::English);
        for m in ["11-15", "22-18", "15x22", "25x18", "8-11"] {
            game.play_text(m).unwrap();
        }
        let mut pdn = PdnGame::new(game);
        pdn.set_tag("Event", "Test \"quoted\"");
        pdn.result = Some(GameResult::Draw);
        pdn.comments[1] = Some("a {braced} note".into());
        pdn.end_comment = Some("adjourned".into());
        let text = pdn.to_pdn();
        assert!(text.contains("[GameType \"21\"]"), "{text}");
        assert!(
            text.contains(
                "1. 11-15 22-18 {a (braced) note} 2. 15x22 25x18 3. 8-11 {adjourned} 1/2-1/2"
            ),
            "{text}"
        );
        let back = read_games(&text, None).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].game.moves(), pdn.game.moves());
        assert_eq!(back[0].tag("Event"), Some("Test \"quoted\""));
        assert_eq!(back[0].result, Some(GameResult::Draw));
        assert_eq!(back[0].comments[1].as_deref(), Some("a (braced) note"));
    }

    #[test]
    fn setup_positions_get_a_fen_tag_and_dotted_numbers() {
        let mut game = Game::from_fen(Variant::Russian, "B:W21-32:B1-12").unwrap();
        game.play_text("f6-g5").unwrap();
        game.play_text("c3-d4").unwrap();
        let text = PdnGame::new(game).to_pdn();
        assert!(
            text.contains(
                "[FEN \"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]"
            ),
            "{text}"
        );
        assert!(text.contains("1... f6-g5 2. c3-d4 *"), "{text}");
        assert_eq!(read_games(&text, None).unwrap()[0].game.moves().len(), 2);
    }
}
