//! Perft's fast paths: counting the legal moves of a position without building them, and building
//! the positions after each move without `Move` values or Zobrist keys. Both rest on the same
//! capture walker as the public generator, so the rules are still decided in one place; the tests
//! below check them against `generate` and `Position::play`.

use super::jumps::{
    capturing_pieces, each_man_capture_dir, kings_can_capture, prey_of_men, walk_pieces, ChildSink,
};
use super::{Board, Counting};
use crate::bitboard::{BitIter, Bitboard, Dir, Side};
use crate::variant::{CaptureFacts, Rules};

/// Men's first jumps, found in bulk: one shift per direction finds every man's landing square.
/// Most captures are single jumps; only the men in `walk`, which can jump again (found in bulk
/// too) or are crowned on the way in russian, need their trees walked one by one.
struct FirstJumps {
    empty: Bitboard,
    men: Bitboard,
    them: Bitboard,
    /// Whether some man can jump.
    any: bool,
    /// The men whose trees must be walked.
    walk: Bitboard,
}

impl FirstJumps {
    #[inline(always)]
    fn new<R: Rules, S: Side>(b: &Board) -> FirstJumps {
        let empty = b.empty();
        let men = b.us & !b.kings;
        let prey = prey_of_men::<R>(b.them, b.kings);
        let mut j = FirstJumps {
            empty,
            men,
            them: prey,
            any: false,
            walk: 0,
        };
        let mut any = 0;
        each_man_capture_dir::<R, S>(|d| any |= j.lands(d));
        if any != 0 {
            j.any = true;
            // Where a man that has just jumped in direction `d` could jump again: in any
            // direction but back (over the piece just taken), so over any opponent piece onto
            // an empty square (its origin lies back there). Exact but for the crowning rule: a
            // man crowned on the way stops (english) or goes on as a king (russian, walked); a
            // man that is crowned only where the move ends (brazilian) jumps on as a man.
            let mut walk = 0;
            each_man_capture_dir::<R, S>(|d| {
                let mut again = if R::CROWNING_ENDS_CAPTURE || R::CROWNED_ONLY_AT_END {
                    0
                } else {
                    S::CROWN
                };
                each_man_capture_dir::<R, S>(|d2| {
                    if d2 != d.opposite() {
                        again |= d2.step_back(d2.step_back(empty) & prey);
                    }
                });
                if R::CROWNING_ENDS_CAPTURE {
                    again &= !S::CROWN;
                }
                walk |= d.step_back(d.step_back(j.lands(d) & again));
            });
            j.walk = walk;
        }
        j
    }

    /// Every man's landing square after a first jump in direction `d`.
    #[inline(always)]
    fn lands(&self, d: Dir) -> Bitboard {
        d.step(d.step(self.men) & self.them) & self.empty
    }

    /// Every man's landing square after a first jump in direction `d` over a piece of `prey`
    /// (a subset of the pieces men may take).
    #[inline(always)]
    fn lands_over(&self, d: Dir, prey: Bitboard) -> Bitboard {
        d.step(d.step(self.men) & prey) & self.empty
    }

    /// The landings in direction `d` that end a move: those of the men not walked.
    #[inline(always)]
    fn final_lands(&self, d: Dir) -> Bitboard {
        self.lands(d) & !d.step(d.step(self.walk))
    }
}

/// The number of legal moves of the side `S` to move on `b`. `scratch` holds the positions of
/// the sequences that must be walked one by one; it is cleared on each use.
#[inline(always)]
pub(crate) fn count_leaf<R: Rules, S: Side>(
    b: &Board,
    counting: Counting,
    scratch: &mut Vec<Board>,
) -> u64 {
    if !R::FREE_CAPTURES {
        return ranked_count::<R, S>(b, counting, scratch);
    }
    if !R::MEN_CAPTURE_BACKWARDS && R::CROWNING_ENDS_CAPTURE && b.us & b.kings == 0 {
        return forward_men_count::<S>(b);
    }
    let first = FirstJumps::new::<R, S>(b);
    let kings = b.us & b.kings;
    let mut n = 0;
    if first.any {
        each_man_capture_dir::<R, S>(|d| n += first.final_lands(d).count_ones() as u64);
    }
    if first.walk | kings != 0 {
        n += count_walked::<R, S>(b, &first, counting, scratch);
    }
    if n != 0 {
        return n;
    }
    quiet_count::<R, S>(first.men, kings, first.empty)
}

/// `count_leaf` where some captures take precedence over others or men do not take every
/// piece (`!Rules::FREE_CAPTURES`): every capture is walked, and the walker keeps the best.
#[inline(never)]
fn ranked_count<R: Rules, S: Side>(b: &Board, counting: Counting, scratch: &mut Vec<Board>) -> u64 {
    let kings = b.us & b.kings;
    let empty = b.empty();
    if kings == 0 || !kings_can_capture::<R>(kings, b.them, empty) {
        // Only men capture. Where each of them makes a single jump and every single jump of a
        // man ranks alike (`single_jumps_tie`), all are legal: counted in bulk, as for russian.
        let first = FirstJumps::new::<R, S>(b);
        if !first.any {
            return quiet_count::<R, S>(first.men, kings, empty);
        }
        if first.walk == 0 && single_jumps_tie::<R>() {
            let mut n = 0;
            each_man_capture_dir::<R, S>(|d| n += first.final_lands(d).count_ones() as u64);
            return n;
        }
        if first.walk == 0 && single_jumps_over_kings_first::<R>() {
            // Spanish: the jumps over a king outrank the rest, so where there are any, they
            // are the legal moves; otherwise every jump is.
            let (mut all, mut over_kings) = (0, 0);
            each_man_capture_dir::<R, S>(|d| {
                all += first.lands(d).count_ones() as u64;
                over_kings += first.lands_over(d, first.them & b.kings).count_ones() as u64;
            });
            return if over_kings != 0 { over_kings } else { all };
        }
    }
    let from = capturing_pieces::<R, S>(b);
    scratch.clear();
    let mut sink = ChildSink::new(*b, scratch, counting == Counting::Unique);
    walk_pieces::<R, S, _>(b, from & !b.kings, from & b.kings, &mut sink);
    scratch.len() as u64
}

/// Whether a man's single jump over a man ranks as one over a king (or men take no kings), so
/// that all single jumps by men rank alike: true but for spanish, which prefers kings. Folded
/// to a constant for each variant.
#[inline(always)]
fn single_jumps_tie<R: Rules>() -> bool {
    !R::MEN_TAKE_KINGS
        || R::capture_rank(&single_jump_facts(false)) == R::capture_rank(&single_jump_facts(true))
}

/// Whether a man's single jump over a king ranks above one over a man (spanish: the most
/// pieces, then the most kings), so that where single jumps are all there is, those over kings
/// are the legal ones. Folded to a constant for each variant.
#[inline(always)]
fn single_jumps_over_kings_first<R: Rules>() -> bool {
    R::MEN_TAKE_KINGS
        && R::capture_rank(&single_jump_facts(true)) > R::capture_rank(&single_jump_facts(false))
}

/// The facts of a man's single jump, over a king or over a man.
#[inline(always)]
fn single_jump_facts(king: bool) -> CaptureFacts {
    CaptureFacts {
        taken: 1,
        kings_taken: u32::from(king),
        by_king: false,
        first_king_at: if king { 0 } else { u32::MAX },
        kings_at: u32::from(king),
    }
}

/// `count_leaf` when the side `S` to move has men only, which capture forwards only and stop
/// when crowned (english): the common case, with a shorter test for multi-jumps than
/// `FirstJumps` (from the landing squares only) and no kings to look at.
#[inline(always)]
fn forward_men_count<S: Side>(b: &Board) -> u64 {
    let empty = b.empty();
    let [d0, d1] = S::FORWARD;
    let l0 = d0.step(d0.step(b.us) & b.them) & empty;
    let l1 = d1.step(d1.step(b.us) & b.them) & empty;
    if l0 | l1 == 0 {
        return ((d0.step(b.us) & empty).count_ones() + (d1.step(b.us) & empty).count_ones())
            as u64;
    }
    forward_jumps::<S>(l0, l1, b.them, empty)
}

/// The number of capture sequences of men of the side `S` that capture forwards only and stop
/// when crowned (english), given their first landings `l0` and `l1` in the two forward
/// directions, over `them` onto `empty`.
#[inline(always)]
pub(super) fn forward_jumps<S: Side>(
    l0: Bitboard,
    l1: Bitboard,
    them: Bitboard,
    empty: Bitboard,
) -> u64 {
    if !jumps_again::<S>(l0 | l1, them, empty) {
        return (l0.count_ones() + l1.count_ones()) as u64;
    }
    forward_paths::<S>(l0, them, empty) + forward_paths::<S>(l1, them, empty)
}

/// Whether a man that captures forwards only and stops when crowned (english), standing on one
/// of `lands` after a jump, can jump again over `them` onto `empty`.
#[inline(always)]
pub(super) fn jumps_again<S: Side>(lands: Bitboard, them: Bitboard, empty: Bitboard) -> bool {
    let [d0, d1] = S::FORWARD;
    let go = lands & !S::CROWN;
    d0.step(d0.step(go) & them) & empty | d1.step(d1.step(go) & them) & empty != 0
}

/// The number of capture sequences of the men in `first.walk` and of the kings: the rare part
/// of `count_leaf`, kept out of line so that the common part stays small enough to inline.
#[inline(never)]
fn count_walked<R: Rules, S: Side>(
    b: &Board,
    first: &FirstJumps,
    counting: Counting,
    scratch: &mut Vec<Board>,
) -> u64 {
    let mut n = 0;
    let mut walk = first.walk;
    if !R::MEN_CAPTURE_BACKWARDS && R::CROWNING_ENDS_CAPTURE {
        each_man_capture_dir::<R, S>(|d| {
            n += forward_paths::<S>(first.lands(d) & d.step(d.step(walk)), b.them, first.empty)
        });
        walk = 0;
    }
    let kings = b.us & b.kings;
    if walk | kings != 0 {
        scratch.clear();
        let mut sink = ChildSink::new(*b, scratch, counting == Counting::Unique);
        walk_pieces::<R, S, _>(b, walk, kings, &mut sink);
        n += scratch.len() as u64;
    }
    n
}

/// The number of capture sequences that go on from the squares `at`, where men that have just
/// jumped stand, one each, when men capture forwards only and a crowned man stops (english).
/// Such a man's later jumps never come back to a square it left or a piece it took, so its tree
/// is a walk on the board as it stands, and all the men are walked together a level at a time.
/// Paths are moves here: each jump crosses two rows, so the captured set fixes the path.
#[inline(never)]
fn forward_paths<S: Side>(at: Bitboard, them: Bitboard, empty: Bitboard) -> u64 {
    if at == 0 {
        return 0;
    }
    let [d0, d1] = S::FORWARD;
    let go = at & !S::CROWN;
    let l0 = d0.step(d0.step(go) & them) & empty;
    let l1 = d1.step(d1.step(go) & them) & empty;
    let on = d0.step_back(d0.step_back(l0)) | d1.step_back(d1.step_back(l1));
    let mut n = (at & !on).count_ones() as u64;
    // Most trees end a level or two down: a call only where some man goes on.
    if l0 != 0 {
        n += forward_paths::<S>(l0, them, empty);
    }
    if l1 != 0 {
        n += forward_paths::<S>(l1, them, empty);
    }
    n
}

/// The number of quiet moves of `men` and `kings` onto `empty`.
#[inline(always)]
fn quiet_count<R: Rules, S: Side>(men: Bitboard, kings: Bitboard, empty: Bitboard) -> u64 {
    let mut n = 0;
    for d in S::FORWARD {
        n += (d.step(men) & empty).count_ones();
    }
    if kings != 0 {
        for d in Dir::ALL {
            let mut front = d.step(kings) & empty;
            while front != 0 {
                n += front.count_ones();
                front = if R::FLYING_KINGS {
                    d.step(front) & empty
                } else {
                    0
                };
            }
        }
    }
    n as u64
}

/// Pushes onto `out` the positions after each capture of the side `S` to move on `b`, each seen
/// from the opponent: single jumps straight from the bulk landings, the rest through the walker.
#[inline(always)]
pub(super) fn capture_children<R: Rules, S: Side>(
    b: &Board,
    counting: Counting,
    out: &mut Vec<Board>,
) {
    if !R::FREE_CAPTURES {
        let from = capturing_pieces::<R, S>(b);
        if from != 0 {
            let mut sink = ChildSink::new(*b, out, counting == Counting::Unique);
            walk_pieces::<R, S, _>(b, from & !b.kings, from & b.kings, &mut sink);
        }
        return;
    }
    let first = FirstJumps::new::<R, S>(b);
    if first.any {
        each_man_capture_dir::<R, S>(|d| {
            for to in BitIter(first.final_lands(d)) {
                let victim = d.step_back(to);
                // A man crowned here is a walked one in russian, so this is english's stop, or
                // the end of a brazilian man's move.
                out.push(b.after(d.step_back(victim), to, victim, to & S::CROWN != 0));
            }
        });
    }
    let kings = b.us & b.kings;
    let mut walk = first.walk;
    if !R::MEN_CAPTURE_BACKWARDS && R::CROWNING_ENDS_CAPTURE {
        for man in BitIter(walk) {
            forward_children::<S>(b, man, man, 0, first.empty, out);
        }
        walk = 0;
    }
    if walk | kings != 0 {
        let mut sink = ChildSink::new(*b, out, counting == Counting::Unique);
        walk_pieces::<R, S, _>(b, walk, kings, &mut sink);
    }
}

/// Pushes onto `out` the positions after each capture sequence that goes on from `at`, where the
/// man that left `from` stands after taking `taken`, when men capture forwards only and a
/// crowned man stops (english); returns whether it could jump at all. As in `forward_paths`,
/// such a man never meets a square it left or a piece it took again, and paths are moves.
fn forward_children<S: Side>(
    b: &Board,
    from: Bitboard,
    at: Bitboard,
    taken: Bitboard,
    empty: Bitboard,
    out: &mut Vec<Board>,
) -> bool {
    let mut any = false;
    for d in S::FORWARD {
        let victim = d.step(at) & b.them;
        let land = d.step(victim) & empty;
        if land == 0 {
            continue;
        }
        any = true;
        let taken = taken | victim;
        if land & S::CROWN != 0 {
            out.push(b.after(from, land, taken, true));
        } else if !forward_children::<S>(b, from, land, taken, empty, out) {
            out.push(b.after(from, land, taken, false));
        }
    }
    any
}

/// Replaces `out` with the positions after each legal move of the side `S` to move on `b`, each
/// seen from the opponent, counted as `counting` says.
#[inline]
pub(crate) fn children<R: Rules, S: Side>(b: &Board, counting: Counting, out: &mut Vec<Board>) {
    out.clear();
    capture_children::<R, S>(b, counting, out);
    if out.is_empty() {
        quiet_children::<R, S>(b, |child| out.push(child));
    }
}

/// Calls `visit` with the position after each quiet move of the side `S` to move on `b`.
#[inline(always)]
pub(super) fn quiet_children<R: Rules, S: Side>(b: &Board, mut visit: impl FnMut(Board)) {
    let empty = b.empty();
    for d in S::FORWARD {
        for to in BitIter(d.step(b.us & !b.kings) & empty) {
            visit(b.after(d.step_back(to), to, 0, to & S::CROWN != 0));
        }
    }
    for king in BitIter(b.us & b.kings) {
        for d in Dir::ALL {
            let mut to = d.step(king) & empty;
            while to != 0 {
                visit(b.after(king, to, 0, true));
                to = if R::FLYING_KINGS {
                    d.step(to) & empty
                } else {
                    0
                };
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::movegen::generate;
    use crate::notation::fen::parse_fen;
    use crate::position::Position;
    use crate::variant::{Brazilian, Czech, English, Italian, Pool, Russian, Spanish, Variant};

    /// A small deterministic generator (xorshift64*), so the test needs no dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
        }
    }

    /// Checks `count_leaf` and `children` against `generate` and `Position::play` on `pos`, in
    /// both conventions.
    fn check<R: Rules>(pos: &Position) {
        let b = Board::of(pos);
        let mut moves = Vec::new();
        let mut boards = Vec::new();
        for counting in [Counting::Unique, Counting::Paths] {
            generate::<R>(pos, &mut moves, counting);
            let n =
                crate::with_side!(pos.side(), S => count_leaf::<R, S>(&b, counting, &mut boards));
            assert_eq!(n, moves.len() as u64, "count {counting:?} {pos:?}");
            crate::with_side!(pos.side(), S => children::<R, S>(&b, counting, &mut boards));
            let mut expected: Vec<Board> = moves.iter().map(|m| Board::of(&pos.play(m))).collect();
            let key = |x: &Board| (x.us, x.them, x.kings);
            expected.sort_by_key(key);
            boards.sort_by_key(key);
            assert_eq!(boards, expected, "children {counting:?} {pos:?}");
        }
    }

    /// Plays random games from `fen` and calls `check` on every position met.
    pub(in crate::movegen) fn random_positions<R: Rules>(
        fen: &str,
        games: usize,
        seed: u64,
        check: impl Fn(&Position),
    ) {
        let mut rng = Rng(seed);
        let start = parse_fen(fen).unwrap();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = start;
            for _ in 0..200 {
                check(&pos);
                generate::<R>(&pos, &mut moves, Counting::Paths);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves[rng.below(moves.len())]);
            }
        }
    }

    /// Plays random games from `fen` and checks every position met.
    fn random_games<R: Rules>(fen: &str, games: usize, seed: u64) {
        random_positions::<R>(fen, games, seed, check::<R>);
    }

    /// Crowded boards with kings of both sides, where multi-jumps and duplicate paths abound.
    pub(in crate::movegen) const KING_FENS: [&str; 6] = [
        "B:W17,18,24,25,26,27,28,29,32:B1,2,3,4,6,7,8,9,10,12,K30",
        "W:WK14,K23,25,27,31:B6,7,10,K19,K26",
        "W:WK15,K28:BK6,11,22,24",
        "W:WK24,K32:B8,16,17,18,19,28",
        "B:W14,15,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12",
        "W:WK1,K10,K21,K32,14,19:BK4,K29,K17,9,11,22,23",
    ];

    #[test]
    fn fast_paths_match_the_generator_in_random_games() {
        random_games::<English>(Variant::English.start_fen(), 300, 1);
        random_games::<Russian>(Variant::Russian.start_fen(), 300, 2);
        random_games::<Brazilian>(Variant::Brazilian.start_fen(), 100, 3);
        random_games::<Pool>(Variant::Pool.start_fen(), 100, 4);
        random_games::<Italian>(Variant::Italian.start_fen(), 100, 5);
        random_games::<Spanish>(Variant::Spanish.start_fen(), 100, 6);
        random_games::<Czech>(Variant::Czech.start_fen(), 100, 7);
    }

    #[test]
    fn spanish_men_jump_a_king_before_a_man() {
        // White men on 22 (c3) and 28 (h2): 22x15 over the king on 18, 28x19 over the man on
        // 24, each a single jump. Spanish takes the king (the most kings); brazilian either.
        let pos = parse_fen("W:W22,28:BK18,24,1").unwrap();
        let b = Board::of(&pos);
        let mut boards = Vec::new();
        let count = |spanish: bool, boards: &mut Vec<Board>| {
            crate::with_side!(pos.side(), S => if spanish {
                count_leaf::<Spanish, S>(&b, Counting::Unique, boards)
            } else {
                count_leaf::<Brazilian, S>(&b, Counting::Unique, boards)
            })
        };
        assert_eq!(count(true, &mut boards), 1);
        assert_eq!(count(false, &mut boards), 2);
        check::<Spanish>(&pos);
    }

    #[test]
    fn fast_paths_match_the_generator_with_kings() {
        for (i, fen) in KING_FENS.iter().enumerate() {
            random_games::<English>(fen, 40, 10 + i as u64);
            random_games::<Russian>(fen, 40, 20 + i as u64);
            random_games::<Brazilian>(fen, 15, 30 + i as u64);
            random_games::<Pool>(fen, 15, 40 + i as u64);
            random_games::<Italian>(fen, 15, 50 + i as u64);
            random_games::<Spanish>(fen, 15, 60 + i as u64);
            random_games::<Czech>(fen, 15, 70 + i as u64);
        }
    }
}
