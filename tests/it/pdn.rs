//! PDN reading on real-looking files: several games in both variants, tags, FEN setups, comments,
//! variations, odd spacing and move-number forms, Russian results, Latin-1 text, and an illegal
//! move whose error names the game, the move number and the text.

use crownhead::pdn::{decode, parse_games, read_games, PdnProblem};
use crownhead::{GameResult, Variant};

const MIXED: &str = r#"[Event "ACF Nationals"]
[Date "2019.08.10"]
[Round "3"]
[White "Smith, J."]
[Black "Jones, K."]
[GameType "21"]
[Result "1/2-1/2"]

1. 12-16 22-18 2. 10-14 26-22 {the Double Corner} 3. 9-13 18x9 (3... 11-15 4. 18x11)
3... 5x14 4.22x17 $1 13x22 5. 25x9 ; a line comment
5... 6x13 6.  31-26 7-10!? 7. 23-18  1/2-1/2

[Event "Casual"]
[GameType "21"]
[FEN "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"]
1...   15-11 {odd spacing}   2.   22x8 24-19 *

[Event "Чемпионат России"]
[White "Иванов"]
[Black "Петров"]
[GameType "25"]
1.c3-b4 b6-c5 2.e3-f4 f6-e5 3.b2-c3 {x and colon alike} e7-f6 4.f4-g5 h6xf4 2-0

[Event "Club game, numeric russian"]
[GameType "25,W,8,8,A0,0"]
1. 24-19 11-16 2. 22-17 9-13 1-1
"#;

#[test]
fn reads_several_games_in_both_variants() {
    let games = read_games(MIXED, None).unwrap();
    assert_eq!(games.len(), 4);

    let g = &games[0];
    assert_eq!(g.game.variant(), Variant::English);
    assert_eq!(g.tag("white"), Some("Smith, J."));
    assert_eq!(
        g.game.moves().len(),
        14,
        "the variation 3... 11-15 is skipped"
    );
    assert_eq!(g.result, Some(GameResult::Draw));
    assert_eq!(g.comments[3].as_deref(), Some("the Double Corner"));
    assert_eq!(g.comments[9].as_deref(), Some("a line comment"));

    let g = &games[1];
    assert_eq!(g.game.moves().len(), 3);
    assert_eq!(g.result, None);
    assert!(g.game.start_position().kings() != 0);

    let g = &games[2];
    assert_eq!(g.game.variant(), Variant::Russian);
    assert_eq!(g.tag("Black"), Some("Петров"));
    assert_eq!(g.game.moves().len(), 8);
    assert_eq!(g.result, Some(GameResult::WhiteWins), "2-0 is White's win");

    let g = &games[3];
    assert_eq!(g.game.variant(), Variant::Russian);
    assert_eq!(g.result, Some(GameResult::Draw), "1-1 is a draw");
}

#[test]
fn games_without_result_or_game_type() {
    // No results at all: the next tag section starts the next game. No GameType: the variant is
    // guessed from the notation (algebraic: russian) or given by the caller.
    let text = "[Event \"a\"]\n1. c3-d4 d6-c5\n[Event \"b\"]\n1. 11-15 23-19 2. 8-11\n";
    let games = read_games(text, None).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game.variant(), Variant::Russian);
    assert_eq!(games[1].game.variant(), Variant::English);
    assert_eq!(games[1].game.moves().len(), 3);
    let games = read_games("1. 22-18 11-15 *", Some(Variant::Russian)).unwrap();
    assert_eq!(games[0].game.variant(), Variant::Russian);
}

#[test]
fn an_illegal_move_names_the_game_the_move_and_the_text() {
    let text = format!("{MIXED}\n[Event \"Blitz\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 19-14 1-0\n");
    let results = parse_games(&text, None);
    assert_eq!(results.len(), 5);
    assert!(
        results[..4].iter().all(Result::is_ok),
        "the other games are still read"
    );
    let err = results[4].as_ref().unwrap_err();
    assert_eq!(err.game, 5);
    match &err.problem {
        PdnProblem::Move { number, text, .. } => {
            assert_eq!(*number, 2);
            assert_eq!(text, "19-14");
        }
        other => panic!("{other:?}"),
    }
    let message = err.to_string();
    for needle in ["game 5", "Ann - Bob", "Blitz", "move 2", "19-14"] {
        assert!(message.contains(needle), "{needle} missing in: {message}");
    }
    assert!(read_games(&text, None).is_err());
}

#[test]
fn bad_tags_are_errors_not_panics() {
    let bad = parse_games(
        "[GameType \"20\"]\n1. 32-28 *\n[FEN \"X:W1\"]\n1. 1-2 *",
        None,
    );
    assert!(matches!(
        bad[0].as_ref().unwrap_err().problem,
        PdnProblem::GameType(_)
    ));
    assert!(matches!(
        bad[1].as_ref().unwrap_err().problem,
        PdnProblem::Fen(_)
    ));
    // The GameType error lists every variant's number, so that a user sees which ones to use.
    let message = bad[0].as_ref().unwrap_err().to_string();
    for variant in Variant::ALL {
        let named = format!("{} {}", variant.game_type(), variant.name());
        assert!(message.contains(&named), "{named} missing from: {message}");
    }
    for junk in [
        "",
        "[",
        "{",
        "((((",
        "1. 2. 3.",
        "x-x",
        "[GameType \"25\"] 1. zz-9 *",
        "\u{FEFF}1-0",
    ] {
        let _ = parse_games(junk, None);
    }
}

#[test]
fn latin1_and_utf8_bytes() {
    let latin1 = b"[Event \"Tournoi de Gen\xE8ve\"]\n[GameType \"21\"]\n1. 11-15 23-19 *\n";
    let text = decode(latin1);
    let games = read_games(&text, None).unwrap();
    assert_eq!(games[0].tag("Event"), Some("Tournoi de Genève"));
    let utf8 = "\u{FEFF}[Event \"Genève\"]\n1. 11-15 *".as_bytes();
    assert_eq!(
        read_games(&decode(utf8), None).unwrap()[0].tag("Event"),
        Some("Genève")
    );
}

#[test]
fn written_games_read_back() {
    let games = read_games(MIXED, None).unwrap();
    let text = crownhead::pdn::write_games(&games);
    let again = read_games(&text, None).unwrap();
    assert_eq!(again.len(), games.len());
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(a.game.moves(), b.game.moves());
        assert_eq!(a.game.start_position(), b.game.start_position());
        assert_eq!(a.result, b.result);
    }
}
