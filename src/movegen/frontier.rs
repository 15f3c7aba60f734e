//! Perft's last two plies in bulk: the sum of the leaf counts of every next position, where most
//! of those positions are never built.
//!
//! After a quiet move from `from` to `to`, the opponent's pieces are unchanged and only two
//! squares change: `from` empties and `to` fills. If the opponent has no capture there, its move
//! count is its quiet count on the parent board plus the moves into `from`, less the moves into
//! `to`, and all of these sum over each direction's moves with a few popcounts. Whether the
//! opponent has a capture after a move is decided in bulk too (see `quiet_bulk`); those rare
//! positions, and every position where flying kings stand, are built and counted one by one.

use super::count::{capture_children, count_leaf, forward_jumps, jumps_again, quiet_children};
use super::{Board, Counting};
use crate::bitboard::{BitIter, Bitboard, Dir, Side};
use crate::variant::Rules;

/// The number of leaves two plies below `b`, the side `S` to move: the sum of `count_leaf` over
/// the positions after each legal move. `buffer` holds capture children, `scratch` is the leaf
/// count's.
#[inline(always)]
pub(crate) fn count_two_plies<R: Rules, S: Side>(
    b: &Board,
    counting: Counting,
    buffer: &mut Vec<Board>,
    scratch: &mut Vec<Board>,
) -> u64 {
    if !R::MEN_CAPTURE_BACKWARDS
        && R::CROWNING_ENDS_CAPTURE
        && !R::FLYING_KINGS
        && R::FREE_CAPTURES
        && b.us & b.kings == 0
    {
        // Men only, capturing forwards (english): single jumps straight from the bulk landings.
        let empty = b.empty();
        let [d0, d1] = S::FORWARD;
        let l0 = d0.step(d0.step(b.us) & b.them) & empty;
        let l1 = d1.step(d1.step(b.us) & b.them) & empty;
        if l0 | l1 == 0 {
            return quiet_bulk::<R, S>(b, counting, scratch);
        }
        if !jumps_again::<S>(l0 | l1, b.them, empty) {
            let mut sum = 0;
            for (d, lands) in [(d0, l0), (d1, l1)] {
                for to in BitIter(lands) {
                    let victim = d.step_back(to);
                    let child = b.after(d.step_back(victim), to, victim, to & S::CROWN != 0);
                    sum += count_leaf::<R, S::Other>(&child, counting, scratch);
                }
            }
            return sum;
        }
    }
    buffer.clear();
    capture_children::<R, S>(b, counting, buffer);
    let mut sum = 0;
    if !buffer.is_empty() {
        for child in buffer.iter() {
            sum += count_leaf::<R, S::Other>(child, counting, scratch);
        }
    } else if R::FLYING_KINGS && b.kings != 0 {
        // A flying king's moves and the rays it opens or closes are not worth doing in bulk.
        quiet_children::<R, S>(b, |child| {
            sum += count_leaf::<R, S::Other>(&child, counting, scratch);
        });
    } else {
        sum = quiet_bulk::<R, S>(b, counting, scratch);
    }
    sum
}

/// Whether a man of side `S` moves in direction `d`.
#[inline(always)]
fn forward<S: Side>(d: Dir) -> bool {
    d == S::FORWARD[0] || d == S::FORWARD[1]
}

/// Whether a man of side `S` captures in direction `d`.
#[inline(always)]
fn man_captures<R: Rules, S: Side>(d: Dir) -> bool {
    R::MEN_CAPTURE_BACKWARDS || forward::<S>(d)
}

/// Calls `f` with each direction and its index in `Dir::ALL`, unrolled so that every step inside
/// `f` is by a constant.
#[inline(always)]
fn each_dir(mut f: impl FnMut(usize, Dir)) {
    f(0, Dir::UpLeft);
    f(1, Dir::UpRight);
    f(2, Dir::DownLeft);
    f(3, Dir::DownRight);
}

/// `count_two_plies` when the side `S` to move has only quiet moves and no king flies.
#[inline(always)]
fn quiet_bulk<R: Rules, S: Side>(b: &Board, counting: Counting, scratch: &mut Vec<Board>) -> u64 {
    debug_assert!(!R::FLYING_KINGS || b.kings == 0);
    let empty = b.empty();
    let us = b.us;
    let (their_men, their_kings) = (b.them & !b.kings, b.them & b.kings);

    // The opponent's view of the parent board:
    // - `steps`: the squares its men would step onto, empty or not, per forward direction (its
    //   kings' steps are recomputed where it has kings, which is rare);
    // - `quiet`: its quiet move count here;
    // - `victim_to`: squares where a piece of ours arriving would be jumped onto a square that
    //   is empty now (the landing could also be `from`; that case is `behind` below);
    // - `land_from`: squares of ours that, once left, are landing squares of a jump;
    // - `lands[e]`: its jumps here, by landing square; they survive a move that neither takes
    //   the victim away (`from`) nor fills the landing square (`to`).
    let [f0, f1] = <S::Other as Side>::FORWARD;
    let steps = [f0.step(their_men), f1.step(their_men)];
    let mut quiet = (steps[0] & empty).count_ones() + (steps[1] & empty).count_ones();
    let mut capturers = [0; 4];
    let mut victim_to = 0;
    let mut land_from = 0;
    let mut lands = [0; 4];
    let mut threats = 0;
    if their_kings != 0 {
        for e in Dir::ALL {
            quiet += (e.step(their_kings) & empty).count_ones();
        }
    }
    each_dir(|i, e| {
        let cap = their_kings
            | if man_captures::<R, S::Other>(e) {
                their_men
            } else {
                0
            };
        capturers[i] = cap;
        let near = e.step(cap);
        victim_to |= near & e.step_back(empty);
        let beyond = e.step(near & us);
        // Only a square of ours can be left (this also drops the bits stepped off the board).
        land_from |= beyond & us;
        lands[i] = beyond & empty;
        threats |= lands[i];
    });

    let view = Opponent {
        empty,
        steps,
        their_kings,
        quiet: quiet as u64,
        capturers,
        victim_to,
        land_from,
        lands,
        threats,
    };
    let mut n = 0;
    n += moves_in_dir::<R, S>(b, &view, Dir::UpLeft, 0, counting, scratch);
    n += moves_in_dir::<R, S>(b, &view, Dir::UpRight, 1, counting, scratch);
    n += moves_in_dir::<R, S>(b, &view, Dir::DownLeft, 2, counting, scratch);
    n += moves_in_dir::<R, S>(b, &view, Dir::DownRight, 3, counting, scratch);
    n
}

/// What `quiet_bulk` knows of the opponent on the parent board.
struct Opponent {
    empty: Bitboard,
    steps: [Bitboard; 2],
    their_kings: Bitboard,
    quiet: u64,
    capturers: [Bitboard; 4],
    victim_to: Bitboard,
    land_from: Bitboard,
    lands: [Bitboard; 4],
    threats: Bitboard,
}

/// The leaves below the quiet moves of the side `S` in direction `d` (index `i` in `Dir::ALL`).
#[inline(always)]
fn moves_in_dir<R: Rules, S: Side>(
    b: &Board,
    view: &Opponent,
    d: Dir,
    i: usize,
    counting: Counting,
    scratch: &mut Vec<Board>,
) -> u64 {
    let kings = b.us & b.kings;
    let sources = kings | if forward::<S>(d) { b.us & !b.kings } else { 0 };
    if sources == 0 {
        return 0;
    }
    let to = d.step(sources) & view.empty;
    // Children with an opponent capture, by their `to` square: a jump over the piece that
    // arrived (onto an empty square, or back onto `from` by a piece behind it), a jump onto
    // `from`, or one of the parent board's jumps that the move leaves standing.
    let behind = d.step_back(view.capturers[3 - i]);
    let mut bad = to & (view.victim_to | behind | d.step(view.land_from));
    if view.threats != 0 {
        bad |= to & !killers(d, &view.lands);
    }
    let good = to & !bad;
    // Each good child: `quiet`, plus the opponent's steps into `from`, less those into `to`.
    let from = d.step_back(good);
    let mut plus = view.quiet * good.count_ones() as u64;
    let mut minus = 0;
    for step in view.steps {
        plus += (from & step).count_ones() as u64;
        minus += (good & step).count_ones() as u64;
    }
    if view.their_kings != 0 {
        for e in Dir::ALL {
            let step = e.step(view.their_kings);
            plus += (from & step).count_ones() as u64;
            minus += (good & step).count_ones() as u64;
        }
    }
    let mut n = plus - minus;
    if !R::MEN_CAPTURE_BACKWARDS
        && R::CROWNING_ENDS_CAPTURE
        && R::FREE_CAPTURES
        && view.their_kings == 0
    {
        // The opponent has men only, capturing forwards (english): its jumps in each child
        // come straight from its steps on the parent board.
        let [e0, e1] = <S::Other as Side>::FORWARD;
        for to in BitIter(bad) {
            let moved = to | d.step_back(to);
            let (ours, empty) = (b.us ^ moved, view.empty ^ moved);
            let l0 = e0.step(view.steps[0] & ours) & empty;
            let l1 = e1.step(view.steps[1] & ours) & empty;
            n += forward_jumps::<S::Other>(l0, l1, ours, empty);
        }
        return n;
    }
    for to in BitIter(bad) {
        let from = d.step_back(to);
        let king = (from & kings) | (to & S::CROWN) != 0;
        let child = b.after(from, to, 0, king);
        n += count_leaf::<R, S::Other>(&child, counting, scratch);
    }
    n
}

/// The `to` squares of moves in direction `d` after which none of the opponent's jumps `lands`
/// (by landing square, per direction in `Dir::ALL` order) is left: each jump needs the move to
/// fill its landing square or to take its victim away.
#[inline(never)]
fn killers(d: Dir, lands: &[Bitboard; 4]) -> Bitboard {
    let mut kill = !0;
    for (e, &l) in Dir::ALL.into_iter().zip(lands) {
        for land in BitIter(l) {
            kill &= land | d.step(e.step_back(land));
        }
    }
    kill
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::count::children;
    use crate::movegen::count::tests::random_positions;
    use crate::position::Position;
    use crate::variant::{Brazilian, Czech, English, Italian, Pool, Russian, Spanish, Variant};

    /// Checks `count_two_plies` against the leaf count of each child, in both conventions.
    fn check<R: Rules>(pos: &Position) {
        let b = Board::of(pos);
        let (mut buffer, mut scratch, mut kids) = (Vec::new(), Vec::new(), Vec::new());
        for counting in [Counting::Unique, Counting::Paths] {
            crate::with_side!(pos.side(), S => {
                children::<R, S>(&b, counting, &mut kids);
                let expected: u64 = kids
                    .iter()
                    .map(|c| count_leaf::<R, <S as Side>::Other>(c, counting, &mut scratch))
                    .sum();
                let n = count_two_plies::<R, S>(&b, counting, &mut buffer, &mut scratch);
                assert_eq!(n, expected, "{counting:?} {pos:?}");
            });
        }
    }

    #[test]
    fn bulk_two_plies_match_the_leaf_counts_in_random_games() {
        random_positions::<English>(Variant::English.start_fen(), 300, 3, check::<English>);
        random_positions::<Russian>(Variant::Russian.start_fen(), 300, 4, check::<Russian>);
        random_positions::<Brazilian>(Variant::Brazilian.start_fen(), 60, 5, check::<Brazilian>);
        random_positions::<Pool>(Variant::Pool.start_fen(), 60, 6, check::<Pool>);
        random_positions::<Italian>(Variant::Italian.start_fen(), 60, 7, check::<Italian>);
        random_positions::<Spanish>(Variant::Spanish.start_fen(), 60, 8, check::<Spanish>);
        random_positions::<Czech>(Variant::Czech.start_fen(), 60, 9, check::<Czech>);
    }

    #[test]
    fn bulk_two_plies_match_the_leaf_counts_with_kings() {
        for (i, fen) in crate::movegen::count::tests::KING_FENS.iter().enumerate() {
            random_positions::<English>(fen, 40, 30 + i as u64, check::<English>);
            random_positions::<Russian>(fen, 40, 40 + i as u64, check::<Russian>);
            random_positions::<Brazilian>(fen, 10, 50 + i as u64, check::<Brazilian>);
            random_positions::<Italian>(fen, 10, 60 + i as u64, check::<Italian>);
            random_positions::<Spanish>(fen, 10, 70 + i as u64, check::<Spanish>);
        }
    }
}
