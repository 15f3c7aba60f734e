//! The draw rules of docs/RULES.md on `crownhead::Game`: for each rule, a game that triggers it
//! exactly at the right move (and not one move earlier) and a near-miss game that must not.
//!
//! Long games are played by a small deterministic driver: at each ply it takes a move of the kind
//! the test asks for (a king move, a man move, a crowning, a capture or a given text) such that
//! afterwards neither side has a capture (so no capture is ever forced) and no position occurs a
//! third time (the driver keeps its own count, independent of `Game`), preferring the least-seen
//! position and then the first move text. The ply at which each rule fires follows from
//! docs/RULES.md, "Draw rules": a "move" of a side is one ply of that side; "15 moves by both
//! sides" is 30 plies.

use crownhead::bitboard::MAIN_ROAD;
use crownhead::{Color, DrawRule, EndReason, Game, GameResult, Move, Outcome, Position, Variant};
use std::collections::HashMap;

const RU: Variant = Variant::Russian;
const EN: Variant = Variant::English;

/// What kind of move the driver plays at a ply.
#[derive(Clone, Copy, Debug)]
enum Pick {
    /// A quiet king move.
    King,
    /// A quiet man move that does not crown.
    Man,
    /// A man move that crowns.
    Crown,
    /// A capture.
    Capture,
    /// This move text.
    Text(&'static str),
}

struct Driver {
    game: Game,
    seen: HashMap<Position, usize>,
}

impl Driver {
    fn new(variant: Variant, fen: &str) -> Driver {
        let game = Game::from_fen(variant, fen).unwrap();
        let mut seen = HashMap::new();
        seen.insert(*game.position(), 1);
        Driver { game, seen }
    }

    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// The moves of `pos` at `ply` of the kind `pick` that leave both sides without a capture and
    /// satisfy `allowed`, with their resulting positions.
    fn candidates(&self, pos: &Position, ply: usize, plan: &Plan) -> Vec<(Move, Position)> {
        let v = self.game.variant();
        let pick = (plan.pick)(ply);
        v.legal_moves(pos)
            .into_iter()
            .filter(|m| {
                let king = pos.kings() & m.from().bit() != 0;
                match pick {
                    Pick::King => king && !m.is_capture(),
                    Pick::Man => !king && !m.is_capture() && !m.is_promotion(),
                    Pick::Crown => !king && m.is_promotion() && !m.is_capture(),
                    Pick::Capture => m.is_capture(),
                    Pick::Text(_) => false,
                }
            })
            .map(|m| (m, pos.play(&m)))
            .filter(|(_, next)| calm(v, next) && (plan.allowed)(ply, next))
            .collect()
    }

    /// Whether the plan can go on for `depth` more plies from `pos` (the look-ahead that keeps
    /// the driver out of dead ends).
    fn fits(&self, pos: &Position, ply: usize, depth: u32, plan: &Plan) -> bool {
        if depth == 0 || matches!((plan.pick)(ply), Pick::Text(_)) {
            return true;
        }
        self.candidates(pos, ply, plan)
            .iter()
            .any(|(_, next)| self.fits(next, ply + 1, depth - 1, plan))
    }

    /// Plays the next move of the plan.
    fn step(&mut self, plan: &Plan) {
        let pos = *self.game.position();
        let ply = self.ply() + 1;
        if let Pick::Text(t) = (plan.pick)(ply) {
            self.game
                .play_text(t)
                .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
        } else {
            // Least seen first; ties broken by a scrambled key, so the kings roam the board.
            let mut c: Vec<(usize, u64, Move, Position)> = self
                .candidates(&pos, ply, plan)
                .into_iter()
                .map(|(m, next)| {
                    (
                        self.seen.get(&next).copied().unwrap_or(0),
                        scramble(next.key() ^ ply as u64),
                        m,
                        next,
                    )
                })
                .filter(|c| c.0 < 2)
                .collect();
            c.sort_by_key(|c| (c.0, c.1));
            let Some((_, _, m, _)) = c
                .into_iter()
                .find(|c| self.fits(&c.3, ply + 1, LOOKAHEAD, plan))
            else {
                panic!(
                    "ply {ply}: no {:?} move fits in\n{}",
                    (plan.pick)(ply),
                    pos.diagram()
                );
            };
            self.game.play(m).unwrap();
        }
        *self.seen.entry(*self.game.position()).or_insert(0) += 1;
    }

    /// Plays the plan until the game ends or `max_ply` plies have been played; returns the ply
    /// and outcome of the end, if any.
    fn run(
        &mut self,
        max_ply: usize,
        pick: impl Fn(usize) -> Pick + 'static,
        allowed: impl Fn(usize, &Position) -> bool + 'static,
    ) -> Option<(usize, Outcome)> {
        let plan = Plan {
            pick: Box::new(pick),
            allowed: Box::new(allowed),
        };
        while self.ply() < max_ply {
            self.step(&plan);
            if let Some(o) = self.game.outcome() {
                return Some((self.ply(), o));
            }
        }
        None
    }
}

/// Plies of look-ahead when choosing a move.
const LOOKAHEAD: u32 = 2;

/// Which positions a plan accepts after the move of a ply.
type Allowed = Box<dyn Fn(usize, &Position) -> bool>;

/// What the driver plays at each ply, and which resulting positions it accepts.
struct Plan {
    pick: Box<dyn Fn(usize) -> Pick>,
    allowed: Allowed,
}

/// Neither side has a capture in `p`, so the next move is free.
fn calm(v: Variant, p: &Position) -> bool {
    !v.has_capture(p) && !v.has_capture(&p.with_side(p.side().opponent()))
}

/// A fixed bijective scramble of 64 bits (the splitmix64 finaliser).
fn scramble(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn draw(rule: DrawRule) -> Outcome {
    Outcome {
        result: GameResult::Draw,
        reason: EndReason::Draw(rule),
    }
}

fn any(_: usize, _: &Position) -> bool {
    true
}

fn kings(_: usize) -> Pick {
    Pick::King
}

/// Plays the texts one by one; returns the first end with its ply.
fn play_texts(d: &mut Driver, texts: &[&'static str]) -> Option<(usize, Outcome)> {
    for &t in texts {
        if let Some(end) = d.run(d.ply() + 1, move |_| Pick::Text(t), any) {
            return Some(end);
        }
    }
    None
}

fn lone_black_on_road(p: &Position) -> bool {
    p.pieces(Color::Black) & MAIN_ROAD != 0
}

// ---------------------------------------------------------------- threefold repetition

#[test]
fn repetition_russian() {
    let cycle = ["a3-b2", "a7-b8", "b2-a3", "b8-a7"];
    let mut d = Driver::new(RU, "W:WKa3,e1:BKa7,d8");
    let texts: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    // The start position comes back after 4 plies (twice) and 8 plies (three times).
    assert_eq!(
        play_texts(&mut d, &texts),
        Some((8, draw(DrawRule::Repetition)))
    );
}

#[test]
fn repetition_russian_near_miss_other_side_to_move() {
    // The start placement occurs three times, but the third time (after the white king's
    // a3-b2-c1-a3 triangle, a flying king's lost tempo) with Black to move: no draw.
    let mut d = Driver::new(RU, "W:WKa3,e1:BKa7,d8");
    let texts = [
        "a3-b2", "a7-b8", "b2-a3", "b8-a7", "a3-b2", "a7-b8", "b2-c1", "b8-a7", "c1-a3", "a7-b8",
        "a3-b2", "b8-a7",
    ];
    assert_eq!(play_texts(&mut d, &texts), None);
    let start = *d.game.start_position();
    assert_eq!(d.seen[&start], 2);
    assert_eq!(d.seen[&start.with_side(Color::Black)], 1);
}

#[test]
fn repetition_english() {
    let cycle = ["29-25", "1-5", "25-29", "5-1"];
    let mut d = Driver::new(EN, "W:WK29,21:BK1,12");
    let texts: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    assert_eq!(play_texts(&mut d, &texts[..7]), None);
    assert_eq!(
        play_texts(&mut d, &texts[7..]),
        Some((8, draw(DrawRule::Repetition)))
    );
}

#[test]
fn repetition_english_near_miss_man_move_between() {
    // The same king shuffle, but White plays the man 21-17 at ply 7: at ply 8, where the shuffle
    // alone would have drawn, the position is new. The position after the man move then comes
    // back at plies 11 and 15, and only then is the game drawn.
    let mut d = Driver::new(EN, "W:WK29,21:BK1,12");
    let texts = [
        "29-25", "1-5", "25-29", "5-1", "29-25", "1-5", "21-17", "5-1", "25-29", "1-5", "29-25",
        "5-1", "25-29", "1-5",
    ];
    assert_eq!(play_texts(&mut d, &texts), None);
    assert_eq!(
        play_texts(&mut d, &["29-25"]),
        Some((15, draw(DrawRule::Repetition)))
    );
}

// ---------------------------------------------------------------- english 40-move rule

#[test]
fn english_forty_moves() {
    let mut d = Driver::new(EN, "W:WK29,21:BK1,12");
    assert_eq!(
        d.run(200, kings, any),
        Some((80, draw(DrawRule::FortyMoves)))
    );
}

#[test]
fn english_forty_moves_near_miss_man_move_resets() {
    // Black's man moves at ply 50: the count starts again, so no draw at ply 80 but at 130.
    let mut d = Driver::new(EN, "W:WK29,21:BK1,12");
    let pick = |ply| if ply == 50 { Pick::Man } else { Pick::King };
    assert_eq!(
        d.run(200, pick, any),
        Some((130, draw(DrawRule::FortyMoves)))
    );
}

#[test]
fn english_has_no_russian_ending_rules() {
    // Two kings against one: a russian draw after White's 5th move (7.2.8), not in english.
    let mut d = Driver::new(EN, "W:WK30,K31:BK4");
    assert_eq!(d.run(40, kings, any), None);
}

// ---------------------------------------------------------------- russian 7.2.3

const EIGHT: &str = "W:WKe1,a3,h2,c1:BKd8,h6,f8,a7";

#[test]
fn russian_kings_only_fifteen_moves() {
    let mut d = Driver::new(RU, EIGHT);
    assert_eq!(
        d.run(100, kings, any),
        Some((30, draw(DrawRule::KingsOnlyFifteenMoves)))
    );
}

#[test]
fn russian_kings_only_near_miss_man_move_resets() {
    // A black man moves at ply 20: the 15 moves count again from there, to ply 50.
    let mut d = Driver::new(RU, EIGHT);
    let pick = |ply| if ply == 20 { Pick::Man } else { Pick::King };
    assert_eq!(
        d.run(100, pick, any),
        Some((50, draw(DrawRule::KingsOnlyFifteenMoves)))
    );
}

#[test]
fn russian_kings_only_near_miss_capture_resets() {
    // White's first move captures (a1 takes d4): from then on, 30 plies.
    let mut d = Driver::new(RU, "W:WKa1,a3,h2:BKd8,d4,h6,f8,a7");
    let pick = |ply| if ply == 1 { Pick::Capture } else { Pick::King };
    assert_eq!(
        d.run(100, pick, any),
        Some((31, draw(DrawRule::KingsOnlyFifteenMoves)))
    );
}

// ---------------------------------------------------------------- russian 7.2.4

#[test]
fn russian_three_kings_against_one() {
    // White to move: White's 15th move is ply 29. The lone king keeps off the main road.
    let mut d = Driver::new(RU, "W:WK30,K31,K32:BK13");
    let off_road = |_: usize, p: &Position| !lone_black_on_road(p);
    assert_eq!(
        d.run(100, kings, off_road),
        Some((29, draw(DrawRule::ThreeKingsAgainstKing)))
    );
}

#[test]
fn russian_three_kings_against_one_black_to_move() {
    // Black to move: White's 15th move is ply 30, where 15 moves of both sides with only kings
    // (7.2.3) are complete too; the specific rule, 7.2.4, is the reason given.
    let mut d = Driver::new(RU, "B:WK30,K31,K32:BK13");
    let off_road = |_: usize, p: &Position| !lone_black_on_road(p);
    assert_eq!(
        d.run(100, kings, off_road),
        Some((30, draw(DrawRule::ThreeKingsAgainstKing)))
    );
}

#[test]
fn russian_three_kings_near_miss_counted_from_the_crowning() {
    // Two kings and a man against a king; the man is crowned on White's 4th move (ply 7), when
    // the balance of three kings against one arises: White's 15th move after it is ply 37, not 29.
    let mut d = Driver::new(RU, "W:WK30,K31,6:BK21");
    let pick = |ply| if ply == 7 { Pick::Crown } else { Pick::King };
    let off_road = |_: usize, p: &Position| !lone_black_on_road(p);
    assert_eq!(
        d.run(100, pick, off_road),
        Some((37, draw(DrawRule::ThreeKingsAgainstKing)))
    );
}

#[test]
fn russian_three_kings_near_miss_not_a_lone_king() {
    // Three kings against a king and a man: 7.2.4 does not apply; at ply 30 it is 7.2.3.
    let mut d = Driver::new(RU, "W:WK30,K31,K32:BK13,1");
    let off_road = |_: usize, p: &Position| !lone_black_on_road(p);
    assert_eq!(
        d.run(100, kings, off_road),
        Some((30, draw(DrawRule::KingsOnlyFifteenMoves)))
    );
}

// ---------------------------------------------------------------- russian 7.2.5 and 7.2.6

#[test]
fn russian_four_pieces_thirty_moves() {
    // King and man each; men move now and then (so 7.2.3 never fires): 30 moves = ply 60.
    let mut d = Driver::new(RU, "W:WK30,21:BK3,12");
    let pick = |ply| {
        if [19, 22, 41, 48].contains(&ply) {
            Pick::Man
        } else {
            Pick::King
        }
    };
    assert_eq!(
        d.run(200, pick, any),
        Some((60, draw(DrawRule::LongEnding)))
    );
}

#[test]
fn russian_five_pieces_near_miss_crowning_resets() {
    // Five pieces with kings on both sides, but White crowns at ply 31: the balance changes, so
    // no draw at ply 60; 30 moves after the crowning is ply 91.
    let mut d = Driver::new(RU, "W:WK30,8:BK28,5,6");
    let pick = |ply| match ply {
        31 => Pick::Crown,
        10 | 26 | 50 | 70 | 88 => Pick::Man,
        _ => Pick::King,
    };
    assert_eq!(
        d.run(200, pick, any),
        Some((91, draw(DrawRule::LongEnding)))
    );
}

/// Men move on these plies (White on odd, Black on even ones), so that 7.2.3 never fires: the
/// gaps are under 30 plies. The men start on their back rows, far from each other.
const MEN_SCHEDULE: [usize; 4] = [29, 58, 87, 116];

#[test]
fn russian_six_pieces_sixty_moves() {
    // Six pieces: 60 moves = ply 120 (not 60, the 4-5 piece limit).
    let mut d = Driver::new(RU, "W:WK32,29,30:BK1,3,4");
    let pick = |ply| {
        if MEN_SCHEDULE.contains(&ply) {
            Pick::Man
        } else {
            Pick::King
        }
    };
    assert_eq!(
        d.run(300, pick, any),
        Some((120, draw(DrawRule::LongEnding)))
    );
}

#[test]
fn russian_eight_pieces_near_miss_no_long_ending() {
    // The same with a man more on each side: eight pieces, no such rule.
    let mut d = Driver::new(RU, "W:WK32,29,30,31:BK1,3,4,2");
    let pick = |ply| {
        if MEN_SCHEDULE.contains(&ply) {
            Pick::Man
        } else {
            Pick::King
        }
    };
    assert_eq!(d.run(125, pick, any), None);
}

// ---------------------------------------------------------------- russian 7.2.7

#[test]
fn russian_main_road() {
    // Three kings against a king that stays on the main road: White's 5th move is ply 9.
    let mut d = Driver::new(RU, "W:WK3,K12,K20:BK29");
    let on_road = |ply: usize, p: &Position| ply % 2 == 1 || lone_black_on_road(p);
    assert_eq!(
        d.run(100, kings, on_road),
        Some((9, draw(DrawRule::MainRoad)))
    );
}

#[test]
fn russian_main_road_near_miss_king_leaves_the_road() {
    // The lone king leaves the road at ply 6 and comes back at ply 8: the count restarts with
    // White's move at ply 9, so the draw comes at ply 17 (White's 5th move since the return).
    let mut d = Driver::new(RU, "W:WK3,K12,K20:BK29");
    let road = |ply: usize, p: &Position| ply % 2 == 1 || (ply == 6) != lone_black_on_road(p);
    assert_eq!(
        d.run(100, kings, road),
        Some((17, draw(DrawRule::MainRoad)))
    );
}

#[test]
fn russian_main_road_king_and_two_men() {
    // A king and two men against a king on the main road: the same 5 moves; man moves count.
    let mut d = Driver::new(RU, "W:WK3,21,28:BK29");
    let pick = |ply| {
        if ply == 3 || ply == 7 {
            Pick::Man
        } else {
            Pick::King
        }
    };
    let on_road = |ply: usize, p: &Position| ply % 2 == 1 || lone_black_on_road(p);
    assert_eq!(
        d.run(100, pick, on_road),
        Some((9, draw(DrawRule::MainRoad)))
    );
}

// ---------------------------------------------------------------- russian 7.2.8

#[test]
fn russian_small_ending() {
    // Two kings against one: White's 5th move is ply 9.
    let mut d = Driver::new(RU, "W:WK30,K31:BK4");
    assert_eq!(
        d.run(100, kings, any),
        Some((9, draw(DrawRule::SmallEnding)))
    );
    // A king against a king: White counts as the stronger side.
    let mut d = Driver::new(RU, "W:WK30:BK4");
    assert_eq!(
        d.run(100, kings, any),
        Some((9, draw(DrawRule::SmallEnding)))
    );
}

#[test]
fn russian_small_ending_after_a_capture() {
    // The ending arises by White's capture at ply 1; White's 5th move after it is ply 11.
    let mut d = Driver::new(RU, "W:WKa1,Kc1:BKh2,d4");
    let pick = |ply| if ply == 1 { Pick::Capture } else { Pick::King };
    assert_eq!(
        d.run(100, pick, any),
        Some((11, draw(DrawRule::SmallEnding)))
    );
}

#[test]
fn russian_small_ending_near_miss_crowning_resets() {
    // King and man against a king; the man is crowned at ply 5 (White's 3rd move): no draw at
    // ply 9, but at ply 15, White's 5th move since the crowning.
    let mut d = Driver::new(RU, "W:WK30,6:BK32");
    let pick = |ply| if ply == 5 { Pick::Crown } else { Pick::King };
    assert_eq!(
        d.run(100, pick, any),
        Some((15, draw(DrawRule::SmallEnding)))
    );
}

// ---------------------------------------------------------------- no legal move

#[test]
fn no_legal_move_loses() {
    // english: 15-11 leaves Black's man on 4 blocked by 8 and 11.
    let mut d = Driver::new(EN, "W:W8,15:B4");
    assert_eq!(
        play_texts(&mut d, &["15-11"]),
        Some((
            1,
            Outcome {
                result: GameResult::WhiteWins,
                reason: EndReason::NoLegalMove
            }
        ))
    );
    // russian: Black takes White's last piece.
    let mut d = Driver::new(RU, "B:We5:Bd6,a7");
    assert_eq!(
        play_texts(&mut d, &["d6:f4"]),
        Some((
            1,
            Outcome {
                result: GameResult::BlackWins,
                reason: EndReason::NoLegalMove
            }
        ))
    );
}
