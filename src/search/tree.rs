//! What the search needs to know about a node besides its moves: draws in the tree (repetition
//! against the game history and the search path, the variant's counter rules), whether the side
//! to move can move at all, the transposition key that includes the draw counters when they
//! matter, and the conversion of decisive scores to and from the table.

use super::Score;
pub(crate) use crate::movegen::{has_legal_move, has_quiet_move};
use crate::position::Position;
use crate::variant::{DrawCounters, Rules};

/// How far ahead (in plies) a counter rule must be able to fire for the counters to become part
/// of the transposition key.
const COUNTER_HORIZON: u16 = 20;

/// The keys of the positions before the current one: the game's since its last irreversible
/// move, then the search path. Positions can repeat only within `quiet_plies` of each other.
pub(crate) struct KeyStack {
    keys: Vec<u64>,
}

impl KeyStack {
    /// The stack for a root whose game history (every position before the root) is `history`,
    /// of which only the last `window` plies can repeat.
    pub(crate) fn new(history: &[Position], window: usize) -> KeyStack {
        let first = history.len().saturating_sub(window);
        let mut keys: Vec<u64> = history[first..].iter().map(|p| p.key()).collect();
        keys.reserve(256);
        KeyStack { keys }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, key: u64) {
        self.keys.push(key);
    }

    #[inline(always)]
    pub(crate) fn pop(&mut self) {
        self.keys.pop();
    }

    /// Whether a position `quiet_plies` plies after the last irreversible move can repeat one
    /// before it (`repeated` looks at nothing otherwise).
    #[inline(always)]
    pub(crate) fn can_repeat(quiet_plies: u16) -> bool {
        quiet_plies >= 2
    }

    /// Whether `key` occurred before with the same side to move within the last `quiet_plies`
    /// plies. One earlier occurrence is enough to score a draw: the side that could avoid it
    /// would have, so a repetition in the tree means neither side can do better.
    #[inline]
    pub(crate) fn repeated(&self, key: u64, quiet_plies: u16) -> bool {
        // Most nodes follow a capture or a man's move: no need to look at the stack.
        if !Self::can_repeat(quiet_plies) {
            return false;
        }
        let n = self.keys.len();
        let limit = (quiet_plies as usize).min(n);
        let mut back = 2;
        while back <= limit {
            if self.keys[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }
}

/// What the counter rules say about a node, computed once per node: whether one has drawn it,
/// and its transposition key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeRules {
    /// A counter rule of the variant has drawn the position.
    pub(crate) drawn: bool,
    /// The transposition key (see `tt_key`).
    pub(crate) key: u64,
}

/// The counters `COUNTER_HORIZON` plies on: every counter at least as high as in `c`.
#[inline(always)]
fn soon(c: &DrawCounters) -> DrawCounters {
    let h = COUNTER_HORIZON;
    DrawCounters {
        quiet_plies: c.quiet_plies.saturating_add(h),
        balance_plies: c.balance_plies.saturating_add(h),
        ending_moves: c.ending_moves.saturating_add(h / 2),
        road_moves: c.road_moves.saturating_add(h / 2),
    }
}

/// The draw-rule status and transposition key of a node with one rule check in the common case.
/// Every counter rule fires once a counter reaches a threshold, so a rule that has not fired at
/// the higher counters of `soon` has not fired now either; only near a rule is the exact check
/// made (and the counters mixed into the key). Where the counters cannot matter at all (no
/// king on the board, most of the middlegame), there is no rule check.
#[inline]
pub(crate) fn node_rules<R: Rules>(pos: &Position, c: &DrawCounters) -> NodeRules {
    if !R::counters_matter(pos) || R::draw_rule(&soon(c), pos).is_none() {
        debug_assert!(R::draw_rule(c, pos).is_none());
        return NodeRules {
            drawn: false,
            key: pos.key(),
        };
    }
    NodeRules {
        drawn: R::draw_rule(c, pos).is_some(),
        key: mixed_key(pos, c),
    }
}

/// The transposition key: the position's key, with the draw counters mixed in when one of the
/// variant's counter rules could fire within `COUNTER_HORIZON` plies (then the same position
/// with other counters can have another value).
#[inline]
pub(crate) fn tt_key<R: Rules>(pos: &Position, c: &DrawCounters) -> u64 {
    node_rules::<R>(pos, c).key
}

/// The transposition key of a node within the endgame databases: the counters are mixed in
/// whenever they can matter at all, since a database score depends on them over the whole
/// distance of the win (up to 55 plies at 5 pieces), beyond `COUNTER_HORIZON`.
#[inline]
pub(crate) fn counters_key<R: Rules>(pos: &Position, c: &DrawCounters) -> u64 {
    if R::counters_matter(pos) {
        mixed_key(pos, c)
    } else {
        pos.key()
    }
}

/// The position's key with the counters `c` mixed in.
#[inline]
fn mixed_key(pos: &Position, c: &DrawCounters) -> u64 {
    let packed = c.quiet_plies as u64
        | (c.balance_plies as u64) << 16
        | (c.ending_moves as u64) << 32
        | (c.road_moves as u64) << 48;
    pos.key()
        ^ packed
            .wrapping_add(1)
            .wrapping_mul(0xA24B_AED4_963E_E407)
            .rotate_left(29)
}

/// A score as stored in the table: decisive scores measured from this node, not the root.
#[inline(always)]
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    // One test for the common case, a score that is not decisive.
    if (-Score::WIN_THRESHOLD..=Score::WIN_THRESHOLD).contains(&score) {
        score
    } else if score > 0 {
        score + ply as i32
    } else {
        score - ply as i32
    }
}

/// A score read from the table, measured from the root again.
#[inline(always)]
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    if (-Score::WIN_THRESHOLD..=Score::WIN_THRESHOLD).contains(&score) {
        score
    } else if score > 0 {
        score - ply as i32
    } else {
        score + ply as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{DrawRules, English, Russian};
    use crate::{parse_fen, Variant};

    #[test]
    fn repetition_looks_back_two_plies_at_a_time() {
        let mut s = KeyStack::new(&[], 0);
        for k in [1, 2, 3, 4] {
            s.push(k);
        }
        assert!(s.repeated(3, 10));
        assert!(!s.repeated(4, 10), "the parent has the other side to move");
        assert!(!s.repeated(1, 2), "outside the quiet window");
        assert!(s.repeated(1, 4));
    }

    #[test]
    fn quiet_moves_and_blocked_sides() {
        let blocked = parse_fen("W:W29:B25,22").unwrap();
        assert!(!has_quiet_move(&blocked));
        assert!(!has_legal_move::<Russian>(&blocked));
        assert!(has_legal_move::<English>(
            &parse_fen(Variant::English.start_fen()).unwrap()
        ));
    }

    #[test]
    fn counters_enter_the_key_only_near_a_rule() {
        let pos = parse_fen("W:WK29,K30,K31:BK5").unwrap();
        let a = DrawCounters {
            ending_moves: 6,
            ..DrawCounters::default()
        };
        let b = DrawCounters {
            ending_moves: 7,
            ..DrawCounters::default()
        };
        assert_ne!(tt_key::<Russian>(&pos, &a), tt_key::<Russian>(&pos, &b));
        let start = parse_fen(Variant::Russian.start_fen()).unwrap();
        assert_eq!(
            tt_key::<Russian>(&start, &DrawCounters::default()),
            start.key()
        );
        assert_eq!(from_tt(to_tt(Score::win_in(9).0, 4), 4), Score::win_in(9).0);
    }

    #[test]
    fn table_scores_move_only_decisive_scores_by_the_ply() {
        let t = Score::WIN_THRESHOLD;
        for score in
            (-Score::INFINITE.0..=Score::INFINITE.0)
                .step_by(7)
                .chain([-t - 1, -t, t, t + 1])
        {
            for ply in [0, 1, 5, 127] {
                let p = ply as i32;
                let (to, from) = if score > t {
                    (score + p, score - p)
                } else if score < -t {
                    (score - p, score + p)
                } else {
                    (score, score)
                };
                assert_eq!(to_tt(score, ply), to, "{score} {ply}");
                assert_eq!(from_tt(score, ply), from, "{score} {ply}");
            }
        }
    }

    #[test]
    fn node_rules_agree_with_the_rule_and_the_key() {
        let pos = parse_fen("W:WK29,K30,K31:BK5").unwrap();
        for ending_moves in 0..20 {
            let c = DrawCounters {
                ending_moves,
                ..DrawCounters::default()
            };
            let r = node_rules::<Russian>(&pos, &c);
            assert_eq!(r.drawn, Russian::draw_rule(&c, &pos).is_some());
            assert_eq!(r.key, tt_key::<Russian>(&pos, &c));
        }
    }
}
