//! One search thread's alpha-beta: principal-variation search with late-move reductions, static
//! pruning and razoring near the leaves, the single-reply, singular and threat extensions,
//! mate-distance pruning, draws in the tree, and a quiescence search that plays out every pending
//! capture (captures are compulsory, so a position with one is never evaluated statically).

use super::movestack::MoveStack;
use super::ordering::Ordering;
use super::shared::{Crumb, Shared};
use super::tree::{self, KeyStack};
use super::{tb, Score, MAX_PLY};
use crate::bitboard::Color;
use crate::egtb::Prober;
use crate::eval::handwritten::evaluate_for;
use crate::learned::Accumulators;
use crate::movegen::{
    capturers, has_capture, opponent_has_capture, quiet_steps, search_captures, search_moves,
};
use crate::moves::{self, Move};
use crate::position::Position;
use crate::tt::{self, move_code, Bound};
use crate::variant::{DrawCounters, Rules};
use std::marker::PhantomData;
use std::sync::LazyLock;

const INF: i32 = Score::INFINITE.0;
/// How often (in nodes) a thread looks at the clock and the stop flag.
const POLL_MASK: u64 = 1023;

/// The shallowest node whose late moves may be reduced.
const REDUCE_FROM_DEPTH: i32 = 3;
/// The first move index (counting from 0) that may be reduced: the first three moves in order
/// are always searched in full.
const REDUCE_FROM_INDEX: usize = 3;

/// A node with at least this depth and no move in the table is searched a ply shallower
/// (internal iterative reduction). Without a hash move its moves are ordered blind, so a full
/// search of it costs the most and tells the least; the shallower search is cheap, and it
/// leaves a best move in the table for the next iteration, which searches the node again with
/// its full depth. The evidence is in docs/TUNING.md.
const REDUCE_UNKNOWN_FROM_DEPTH: i32 = 4;

/// Static pruning near the leaves, per variant (see `static_cut`).
struct StaticPruning {
    /// A node with at most this depth whose static evaluation beats beta by `cut_margin` per
    /// ply of depth returns it...
    cut_depth: i32,
    cut_margin: i32,
    /// ... and one with at most this depth whose evaluation falls short of alpha by
    /// `razor_margin` per ply returns it (razoring).
    razor_depth: i32,
    razor_margin: i32,
}

/// `STATIC_PRUNING[variant]`: how deep, and by what margins, each variant prunes statically
/// (values chosen by self-play: docs/TUNING.md).
const STATIC_PRUNING: [StaticPruning; 2] = [
    StaticPruning {
        cut_depth: 6,
        cut_margin: 60,
        razor_depth: 4,
        razor_margin: 150,
    },
    StaticPruning {
        cut_depth: 6,
        cut_margin: 45,
        razor_depth: 4,
        razor_margin: 150,
    },
];

/// Whether a leaf (no depth left) whose side to move has no capture, but whose opponent would
/// have one, is searched one ply more, per variant (`Worker::extends_threat`). Quiescence
/// resolves captures, not threats: the static evaluation of such a leaf cannot tell a man that
/// is lost from one that can step away or be defended. It pays in english only (self-play:
/// docs/TUNING.md).
const THREAT_EXTENSION: [bool; 2] = [false, true];

/// Whether a singular hash move is searched deeper (a ply, or two past `SINGULAR_DOUBLE_MARGIN`),
/// per variant (below): it pays in both (self-play at 20 ms and at 0.1 s a move:
/// docs/TUNING.md), kept per variant as the other extensions are, for the next tuning.
const SINGULAR_EXTENSION: [bool; 2] = [true, true];

/// Singular extension: a node with at least this depth (per variant: english gained by starting
/// at 6 rather than 8, russian lost at 0.1 s a move, docs/TUNING.md) whose hash move carries a
/// lower bound (or an exact score) from a search at most `SINGULAR_TT_SLACK` plies shallower...
const SINGULAR_FROM_DEPTH: [i32; 2] = [8, 6];
const SINGULAR_TT_SLACK: i32 = 3;
/// ... and whose other moves all fail below that score less this margin a ply of depth (per
/// variant: at 0.1 s a move english gained from 1 rather than 2 and russian lost,
/// docs/TUNING.md), in a search of half the depth, plays the hash move a ply deeper: a move
/// that alone holds the score is a forced line in all but name, and forced lines are where a
/// shot hides.
const SINGULAR_MARGIN: [i32; 2] = [2, 1];
/// A singular hash move whose every rival falls at least this many centi-men further below the
/// singular bound is searched two plies deeper rather than one (per variant; `None`: never):
/// the further the rest fall behind, the more the line is forced. Only in the first half of the
/// iteration's depth (`ply < root_depth`), so that the extensions along one line stay bounded.
/// English gained at 0.1 s a move; russian is not measured (docs/TUNING.md).
const SINGULAR_DOUBLE_MARGIN: [Option<i32>; 2] = [None, Some(25)];

/// The late-move reductions by depth and move index, both capped at 63.
static REDUCTIONS: LazyLock<[[u8; 64]; 64]> = LazyLock::new(|| {
    std::array::from_fn(|depth| {
        std::array::from_fn(|index| {
            if (depth as i32) < REDUCE_FROM_DEPTH || index < REDUCE_FROM_INDEX {
                return 0;
            }
            // The later the move and the deeper the node, the less likely the move is to matter
            // and the more a reduced look saves; both grow slowly (logarithmically), so that a
            // deep node's late moves lose a few plies, not half their depth. By move index
            // (from 0): at depth 5 one ply for indexes 3-6 and two from 7; at depth 12 one ply
            // for index 3, two from 4 and three from 8. The child keeps at least one ply before
            // quiescence.
            let r = 0.5 + (depth as f64).ln() * (index as f64).ln() / 2.0;
            (r as i32).clamp(1, depth as i32 - 2) as u8
        })
    })
});

/// How far the `index`th move of a node of `depth` is reduced, if it may be (see `search_child`).
#[inline(always)]
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    REDUCTIONS[depth.min(63) as usize][index.min(63)] as i32
}

/// A node whose moves are being searched: what the loop over them needs besides alpha.
#[derive(Clone, Copy)]
struct Node<'p> {
    pos: &'p Position,
    counters: &'p DrawCounters,
    /// The node's moves are `stack.list(start, n)`.
    start: usize,
    n: usize,
    beta: i32,
    depth: i32,
    ply: usize,
    pv_node: bool,
    /// Another thread is searching this node too.
    shared_node: bool,
    /// The plies the first move (the hash move) is searched deeper for being singular: 0, 1
    /// or 2 (`Worker::singular_extension`).
    singular: i32,
}

/// The state of one search thread.
pub(crate) struct Worker<'a, R: Rules> {
    pub(crate) shared: &'a Shared,
    pub(crate) id: usize,
    pub(crate) nodes: u64,
    /// Stop at this many nodes (exact for one thread, so fixed-node searches repeat exactly).
    pub(crate) node_limit: u64,
    /// The next node count at which `visit` must look at the limit or the clock: the lower of
    /// `node_limit` and the next multiple of `POLL_MASK + 1`. One comparison per node.
    next_check: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    /// The nominal depth of the current iteration (bounds the extensions).
    pub(crate) root_depth: i32,
    pub(crate) keys: KeyStack,
    pub(crate) order: Ordering,
    stack: MoveStack,
    /// Triangular PV table: `pv[ply]` is the best line found from `ply`.
    pub(crate) pv: Vec<Vec<Move>>,
    /// This thread's view of the endgame databases, if the variant has them.
    pub(crate) prober: Option<Prober>,
    /// The most pieces the databases answer for; 0 without databases, so that the one test
    /// per node (`piece_count() <= tb_pieces`) never passes and the search is unchanged.
    tb_pieces: u32,
    /// Probes that gave a score or a cut.
    pub(crate) tbhits: u64,
    /// The learned network's first-layer sums of this thread's last evaluations, which the
    /// next one updates rather than sums afresh, and the values of its recent evaluations,
    /// which a position asked for again reuses (same values, less arithmetic).
    recent: Accumulators,
    _rules: PhantomData<R>,
}

impl<'a, R: Rules> Worker<'a, R> {
    pub(crate) fn new(shared: &'a Shared, id: usize, keys: KeyStack, node_limit: u64) -> Self {
        let prober = shared.databases.as_ref().map(|d| d.prober());
        Worker {
            tb_pieces: prober.as_ref().map_or(0, |p| p.pieces()),
            prober,
            tbhits: 0,
            shared,
            id,
            nodes: 0,
            node_limit,
            next_check: node_limit.min(POLL_MASK + 1),
            seldepth: 0,
            stopped: false,
            root_depth: 1,
            keys,
            order: Ordering::new(),
            recent: Accumulators::default(),
            stack: MoveStack::new(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            _rules: PhantomData,
        }
    }

    /// The static evaluation of `pos`, side to move's view: the learned one where the search
    /// was given weights, else the hand-written one.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match &self.shared.setup.learned {
            None => evaluate_for::<R>(pos),
            Some(learned) => learned.evaluate_with::<R>(pos, Some(&mut self.recent)),
        }
    }

    /// Starts fetching what evaluating `pos` will read first, where the evaluation keeps
    /// values (`Accumulators::prefetch`).
    #[inline(always)]
    fn prefetch_evaluation(&self, pos: &Position) {
        if self.shared.setup.learned.is_some() {
            self.recent.prefetch(pos);
        }
    }

    /// Counts a node and, every so often, checks the stop flag, the clock and the node limit.
    #[inline(always)]
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes >= self.next_check {
            self.check();
        }
    }

    /// The rare part of `visit`: the node limit, and every `POLL_MASK + 1` nodes the stop flag
    /// and the clock.
    #[cold]
    #[inline(never)]
    fn check(&mut self) {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & POLL_MASK == 0 {
            if self.tbhits != 0 {
                self.shared.set_tbhits(self.id, self.tbhits);
            }
            if self.shared.poll(self.id, self.nodes) {
                self.stopped = true;
            }
        }
        self.next_check = self.node_limit.min((self.nodes | POLL_MASK) + 1);
    }

    /// Sets `pv[ply]` to `mv` followed by `pv[ply + 1]`.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The alpha-beta search of a non-root node `pos` reached with `counters`. The draw checks
    /// and the step into quiescence are inlined into the caller: most nodes are leaves, and they
    /// should not pay for the frame of a node with moves to search (`interior`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn search(
        &mut self,
        pos: &Position,
        counters: &DrawCounters,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // Draws in the tree: a repetition or a counter rule.
        if self.keys.repeated(pos.key(), counters.quiet_plies) {
            self.pv[ply].clear();
            return 0;
        }
        let rules = tree::node_rules::<R>(pos, counters);
        if rules.drawn {
            self.pv[ply].clear();
            // The game record checks for a loss before the draw rules; so does the tree.
            return if tree::has_legal_move::<R>(pos) {
                0
            } else {
                Score::loss_in(ply as u32).0
            };
        }
        let mut key = rules.key;
        if pos.piece_count() <= self.tb_pieces {
            if let Some(score) = self.probe_databases(pos, counters, alpha, beta, ply) {
                self.pv[ply].clear();
                return score;
            }
            // Below here the databases' scores depend on the counters (`tb::fits`), so the
            // table must not mix nodes reached with other counters.
            key = tree::counters_key::<R>(pos, counters);
        }
        if depth <= 0 {
            if self.extends_threat(pos, ply) {
                return self.threat_extension(pos, counters, alpha, beta, ply, pv_node);
            }
            // Quiescence clears the line itself.
            return self.quiesce(pos, alpha, beta, ply, pv_node);
        }
        self.pv[ply].clear();
        self.interior(pos, counters, key, alpha, beta, depth, ply, pv_node)
    }

    /// The databases' score of a node within their piece count, when no capture is pending for
    /// the side to move (a capture changes the material at once and is searched instead, as
    /// quiescence would), or `None` to search on (`tb::score`). Counted as a node, so that the
    /// clock and the stop flag are still watched in an ending the databases settle.
    #[cold]
    #[inline(never)]
    fn probe_databases(
        &mut self,
        pos: &Position,
        counters: &DrawCounters,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if capturers::<R>(pos) != 0 {
            return None;
        }
        let probe = self.prober.as_mut()?.probe(pos)?;
        let score = tb::score::<R>(probe, pos, counters, ply, alpha, beta)?;
        self.visit(ply);
        self.tbhits += 1;
        Some(if self.stopped { 0 } else { score })
    }

    /// Whether the leaf `pos` is searched one ply more (`THREAT_EXTENSION`): the variant extends,
    /// the side to move has no capture and its opponent would have one. Extensions stop at twice
    /// the iteration's depth, as the single-reply extension's do.
    #[inline(always)]
    fn extends_threat(&self, pos: &Position, ply: usize) -> bool {
        THREAT_EXTENSION[R::TUNED_AS as usize]
            && (ply as i32) < 2 * self.root_depth
            && opponent_has_capture::<R>(pos)
            && capturers::<R>(pos) == 0
    }

    /// A leaf under threat searched as a node of depth 1, so that each of its moves is answered
    /// by the pending captures that quiescence then plays out. Kept out of line, so that the
    /// leaf path stays small; not cold, since it serves a fair share of english leaves.
    #[inline(never)]
    fn threat_extension(
        &mut self,
        pos: &Position,
        counters: &DrawCounters,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // A frontier node's leaves may be played without their key (`play_unkeyed`); this one
        // probes the table and pushes its key for the repetition test, so it needs the real one.
        let pos = pos.with_key(pos.compute_key());
        let key = tree::tt_key::<R>(&pos, counters);
        self.pv[ply].clear();
        self.interior(&pos, counters, key, alpha, beta, 1, ply, pv_node)
    }

    /// `search` of a node with depth left and no draw, whose transposition key is `key`.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn interior(
        &mut self,
        pos: &Position,
        counters: &DrawCounters,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }

        // Mate-distance pruning: no line from here beats a win in the next ply.
        alpha = alpha.max(Score::loss_in(ply as u32).0);
        beta = beta.min(Score::win_in(ply as u32 + 1).0);
        if alpha >= beta {
            return alpha;
        }

        let entry = self.shared.tt.probe(key);
        let mut hash_move = 0;
        // The hash move's score when it may be singular (`SINGULAR_FROM_DEPTH`).
        let mut singular_candidate = None;
        if let Some(e) = entry {
            hash_move = e.mv;
            let s = tree::from_tt(e.score as i32, ply);
            if SINGULAR_EXTENSION[R::TUNED_AS as usize]
                && e.mv != 0
                && depth >= SINGULAR_FROM_DEPTH[R::TUNED_AS as usize]
                && e.depth as i32 >= depth - SINGULAR_TT_SLACK
                && e.bound != Bound::Upper
                && s.abs() < Score::WIN_THRESHOLD
            {
                singular_candidate = Some(s);
            }
            if !pv_node && e.depth as i32 >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if usable {
                    return s;
                }
            }
        }

        // Internal iterative reduction (`REDUCE_UNKNOWN_FROM_DEPTH`).
        if hash_move == 0 && depth >= REDUCE_UNKNOWN_FROM_DEPTH {
            depth -= 1;
        }
        // Asked once: the static pruning and the move generation both need it.
        let capturers = capturers::<R>(pos);
        if let Some(score) = self.static_cut(pos, capturers != 0, alpha, beta, depth, pv_node) {
            return score;
        }

        // A node's first child probes the table at once: its bucket is fetched here, while the
        // moves are generated and scored, or it waits on memory (the later children's buckets
        // are fetched one move ahead, see `search_moves_ahead`). The first child is the hash
        // move's, found from its squares when it is quiet; without a hash move it is not known
        // until the moves are scored, so every child's bucket is fetched.
        let prefetch_children = depth >= 2;
        if prefetch_children && hash_move != 0 && tt::code_is_quiet(hash_move) {
            let (from, to) = moves::key_squares(tt::code_squares(hash_move));
            self.shared.tt.prefetch(pos.key_after_step(from, to));
        }
        let start = self.stack.top();
        search_moves::<R>(pos, capturers, &mut self.stack.moves);
        let n = self.stack.top() - start;
        if n == 0 {
            return Score::loss_in(ply as u32).0;
        }
        if prefetch_children && hash_move == 0 && n > 1 {
            for mv in &self.stack.moves[start..start + n] {
                self.shared.tt.prefetch(pos.key_after(mv));
            }
        }
        // A forced reply costs nothing to look past.
        if n == 1 && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        // One move needs no scores: `pick` is never called past place 0, which `score` fills.
        if n > 1 {
            let (moves, scores) = self.stack.list(start, n);
            self.order.score(pos, moves, hash_move, ply, scores);
        }
        self.order.clear_killers(ply);

        self.keys.push(pos.key());
        let singular = match singular_candidate {
            Some(s) if n > 1 && (ply as i32) < 2 * self.root_depth => {
                self.singular_extension(pos, counters, start, n, hash_move, s, depth, ply)
            }
            _ => 0,
        };
        if self.stopped {
            self.keys.pop();
            self.stack.truncate(start);
            return 0;
        }
        let mut node = Node {
            pos,
            counters,
            start,
            n,
            beta,
            depth,
            ply,
            pv_node,
            shared_node: false,
            singular,
        };
        // Children with depth left probe the table, so their buckets are fetched early; children
        // of a frontier node go straight to quiescence and have nothing to fetch. Only nodes
        // with depth left are marked for the other threads (see `Breadcrumbs`).
        let (best, best_move) = if depth >= 2 {
            let crumb = self.shared.busy.enter(key, self.id, ply, depth);
            node.shared_node = crumb == Crumb::Taken;
            let found = self.search_moves_ahead(&node, alpha);
            self.shared.busy.leave(crumb, key, self.id);
            found
        } else {
            self.search_frontier_moves(&node, alpha)
        };
        self.keys.pop();
        self.stack.truncate(start);
        if self.stopped {
            return 0;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let code = best_move.map_or(0, |m| move_code(&m));
        self.shared
            .tt
            .store(key, code, tree::to_tt(best, ply), 0, depth, bound);
        best
    }

    /// How many plies deeper the hash move is searched for being singular: 0 unless every other
    /// move fails below `tt_score` less `SINGULAR_MARGIN` a ply of depth (the singular bound),
    /// each searched with a null window at half the depth; 2 where the best of them falls
    /// `SINGULAR_DOUBLE_MARGIN` below that bound too (a fail-soft search's score under the
    /// window is an upper bound of the move's value), 1 otherwise. Stops at the first move that
    /// reaches the bound. The moves are read in place, so the node's order is left as it was.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn singular_extension(
        &mut self,
        pos: &Position,
        counters: &DrawCounters,
        start: usize,
        n: usize,
        hash_move: u16,
        tt_score: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        let singular_beta = tt_score - SINGULAR_MARGIN[R::TUNED_AS as usize] * depth;
        let mut found_hash_move = false;
        // The highest upper bound of the other moves' values.
        let mut best_rival = -INF;
        for j in start..start + n {
            let mv = self.stack.moves[j];
            if move_code(&mv) == hash_move {
                found_hash_move = true;
                continue;
            }
            let child = pos.play(&mv);
            let child_counters = counters.after(pos, &mv, &child);
            let score = -self.search(
                &child,
                &child_counters,
                -singular_beta,
                -singular_beta + 1,
                depth / 2 - 1,
                ply + 1,
                false,
            );
            if self.stopped || score >= singular_beta {
                return 0;
            }
            best_rival = best_rival.max(score);
        }
        if !found_hash_move {
            return 0;
        }
        match SINGULAR_DOUBLE_MARGIN[R::TUNED_AS as usize] {
            Some(m) if (ply as i32) < self.root_depth && best_rival < singular_beta - m => 2,
            _ => 1,
        }
    }

    /// Static pruning of a quiet node near the leaves: its static evaluation, when that is so
    /// far above beta (by the variant's `cut_margin` a ply) that a search would almost surely
    /// cut, or so far below alpha (razoring, by `razor_margin` a ply) that it would almost
    /// surely fail low. The conditions (self-play and the tactics suite: docs/TUNING.md):
    /// - never on the principal variation, nor with a win or loss in the window;
    /// - only in a quiet position, where neither side has a capture: a capture pending or
    ///   threatened is a shot the evaluation cannot see;
    /// - only while both sides have men: where one side has only kings, material says little
    ///   about whether the win can be forced, and the search must find the moves (without this
    ///   a depth-4 search missed the tactics suite's two men and a king against a king);
    /// - never where the side to move may have a single move: a forced move is the mark of a
    ///   zugzwang, which a static evaluation cannot see (the single-reply extension looks past
    ///   it for that reason). Without this, the network pruned the forced king moves of the
    ///   tactics suite's double-corner shut-in (a mate in 5 plies, then found only at depth
    ///   16) on its score before the mate. `quiet_steps` counts the moves without generating
    ///   them, which a node that is cut never does.
    ///
    /// Zugzwang is also why it stops a few plies from the leaves: there a side that must move
    /// can lose what the evaluation promised. `must_capture` says whether the side to move has
    /// a capture (the caller has asked already).
    #[inline(always)]
    fn static_cut(
        &mut self,
        pos: &Position,
        must_capture: bool,
        alpha: i32,
        beta: i32,
        depth: i32,
        pv_node: bool,
    ) -> Option<i32> {
        let p = &STATIC_PRUNING[R::TUNED_AS as usize];
        if pv_node
            || depth > p.cut_depth.max(p.razor_depth)
            || beta.abs() >= Score::WIN_THRESHOLD
            || alpha.abs() >= Score::WIN_THRESHOLD
            || pos.men(Color::White) == 0
            || pos.men(Color::Black) == 0
            || must_capture
            || quiet_steps(pos) < 2
            || opponent_has_capture::<R>(pos)
        {
            return None;
        }
        let eval = self.evaluate(pos);
        let cut = depth <= p.cut_depth && eval - p.cut_margin * depth >= beta;
        let razor = depth <= p.razor_depth && eval + p.razor_margin * depth <= alpha;
        (cut || razor).then_some(eval)
    }

    /// The loop over the moves of a node whose children probe the table: each child's bucket is
    /// fetched one move ahead, while the move before it is searched (picking early changes
    /// nothing: the scores are fixed for the node), since a probe right after its prefetch still
    /// waits on memory. Returns the best score and the move that raised alpha last, if any.
    #[inline(always)]
    fn search_moves_ahead(&mut self, node: &Node, mut alpha: i32) -> (i32, Option<Move>) {
        let (pos, start, n) = (node.pos, node.start, node.n);
        let mut best = -INF;
        let mut best_move = None;
        let mut mv = self.stack.moves[start];
        let mut child = pos.play(&mv);
        self.shared.tt.prefetch(child.key());
        for i in 0..n {
            let mut next = None;
            if i + 1 < n {
                let next_mv = self.stack.nth_best(start, n, i + 1);
                let next_child = pos.play(&next_mv);
                self.shared.tt.prefetch(next_child.key());
                next = Some((next_mv, next_child));
            }
            let child_counters = node.counters.after(pos, &mv, &child);
            let score = self.search_child(node, &child, &child_counters, &mv, i, alpha);
            if self.stopped || self.note(node, score, mv, i, &mut best, &mut best_move, &mut alpha)
            {
                break;
            }
            match next {
                Some(pair) => (mv, child) = pair,
                None => break,
            }
        }
        (best, best_move)
    }

    /// The loop over the moves of a frontier node (one ply to go: the children go straight to
    /// quiescence, without a table probe to prefetch for); as `search_moves_ahead`.
    #[inline(always)]
    fn search_frontier_moves(&mut self, node: &Node, mut alpha: i32) -> (i32, Option<Move>) {
        debug_assert_eq!(node.depth, 1);
        // A constant depth lets the compiler drop the reductions and the interior-node call.
        let node = &Node { depth: 1, ..*node };
        let (pos, start, n) = (node.pos, node.start, node.n);
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..n {
            let mv = self.stack.nth_best(start, n, i);
            // A leaf's key serves only the repetition test: after a capture or a man's move
            // (most moves) no repetition can reach back past it, and the key is not needed.
            let child = pos.play_unkeyed(&mv);
            let child_counters = node.counters.after(pos, &mv, &child);
            let child = if KeyStack::can_repeat(child_counters.quiet_plies) {
                child.with_key(pos.key_after(&mv))
            } else {
                child
            };
            let score = self.search_child(node, &child, &child_counters, &mv, i, alpha);
            if self.stopped || self.note(node, score, mv, i, &mut best, &mut best_move, &mut alpha)
            {
                break;
            }
        }
        (best, best_move)
    }

    /// Takes in the score of the `i`th move `mv`: the best score, the best move and alpha, the
    /// principal variation, and on a cut the ordering statistics. Returns whether it cut.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn note(
        &mut self,
        node: &Node,
        score: i32,
        mv: Move,
        i: usize,
        best: &mut i32,
        best_move: &mut Option<Move>,
        alpha: &mut i32,
    ) -> bool {
        if score > *best {
            *best = score;
            if score > *alpha {
                *best_move = Some(mv);
                if node.pv_node {
                    self.update_pv(node.ply, mv);
                }
                if score >= node.beta {
                    let tried = &self.stack.moves[node.start..node.start + i];
                    self.order
                        .cut(node.pos.side(), node.ply, &mv, node.depth, tried);
                    return true;
                }
                *alpha = score;
            }
        }
        false
    }

    /// One child of a node: the first move with the full window, the others with a null window
    /// (late quiet moves reduced, one ply more in a node another thread is searching too),
    /// searched again when they beat alpha.
    #[inline(always)]
    fn search_child(
        &mut self,
        node: &Node,
        child: &Position,
        counters: &DrawCounters,
        mv: &Move,
        index: usize,
        alpha: i32,
    ) -> i32 {
        let (beta, depth, ply, pv_node) = (node.beta, node.depth, node.ply, node.pv_node);
        let next = depth - 1;
        if index == 0 {
            let next = next + node.singular;
            return -self.search(child, counters, -beta, -alpha, next, ply + 1, pv_node);
        }
        // Late quiet moves are reduced, except a move that offers a capture: shots begin with
        // sacrifices, and those must be searched in full.
        let mut reduction = 0;
        if depth >= REDUCE_FROM_DEPTH
            && index >= REDUCE_FROM_INDEX
            && !mv.is_capture()
            && !mv.is_promotion()
            && !self.order.is_killer(ply, mv)
            && !has_capture::<R>(child)
        {
            reduction = late_move_reduction(depth, index);
            if pv_node {
                reduction -= 1;
            }
            if node.shared_node {
                reduction += 1;
            }
        }
        let mut score = -self.search(
            child,
            counters,
            -alpha - 1,
            -alpha,
            next - reduction,
            ply + 1,
            false,
        );
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.search(child, counters, -alpha - 1, -alpha, next, ply + 1, false);
        }
        if score > alpha && score < beta && pv_node && !self.stopped {
            score = -self.search(child, counters, -beta, -alpha, next, ply + 1, true);
        }
        score
    }

    /// Quiescence: with a capture pending, every capture is played out (no standing pat, since
    /// the capture is compulsory); without one, the static evaluation. Only on the principal
    /// variation (`pv_node`) are the lines kept.
    pub(crate) fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.prefetch_evaluation(pos);
        self.visit(ply);
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        let capturers = capturers::<R>(pos);
        if capturers == 0 {
            if !tree::has_quiet_move(pos) {
                return Score::loss_in(ply as u32).0;
            }
            return self.evaluate(pos);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let start = self.stack.top();
        search_captures::<R>(pos, capturers, &mut self.stack.moves);
        // Often there is one capture: nothing to order, and the list can go at once.
        let n = self.stack.top() - start;
        if n == 1 {
            let mv = self.stack.moves[start];
            self.stack.truncate(start);
            let score = -self.quiesce(&pos.play_unkeyed(&mv), -beta, -alpha, ply + 1, pv_node);
            if self.stopped {
                return -INF;
            }
            if score > alpha && pv_node {
                self.update_pv(ply, mv);
            }
            return score;
        }
        let (moves, scores) = self.stack.list(start, n);
        self.order.score(pos, moves, 0, ply, scores);
        let mut best = -INF;
        for i in 0..n {
            let mv = self.stack.nth_best(start, n, i);
            let child = pos.play_unkeyed(&mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, pv_node);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.stack.truncate(start);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_fen;
    use crate::search::limits::Limits;
    use crate::search::root::RootSetup;
    use crate::search::time::TimeManager;
    use crate::search::SearchControl;
    use crate::tt::TransTable;
    use crate::variant::English;
    use std::sync::Arc;

    /// The singular extension of the best move of `fen` (English) by a search of every move to
    /// `depth`, at `depth`, and the gap by which it beats the second best move.
    fn best_move_extension(fen: &str, depth: i32) -> (i32, i32) {
        let pos = parse_fen(fen).expect("test FEN");
        let setup = RootSetup {
            root: pos,
            counters: DrawCounters::default(),
            max_depth: depth,
            multipv: 1,
            limits: Limits::default(),
            learned: crate::learned::learned_for(crate::Variant::English),
        };
        let time = TimeManager::new(&Limits::default(), 0, false, pos.piece_count());
        let tt = Arc::new(TransTable::new(16));
        let shared = Shared::new(
            tt,
            1,
            u64::MAX,
            time,
            SearchControl::new(false),
            setup,
            None,
        );
        let mut worker = Worker::<English>::new(&shared, 0, KeyStack::new(&[], 0), u64::MAX);
        worker.root_depth = depth;
        let counters = DrawCounters::default();
        let start = worker.stack.top();
        search_moves::<English>(&pos, capturers::<English>(&pos), &mut worker.stack.moves);
        let n = worker.stack.top() - start;
        assert!(n > 1, "{fen}: one move");
        // Each move's score with the full window: the oracle the half-depth test stands in for.
        let mut scored: Vec<(i32, Move)> = (start..start + n)
            .map(|j| {
                let mv = worker.stack.moves[j];
                let child = pos.play(&mv);
                let child_counters = counters.after(&pos, &mv, &child);
                let score = -worker.search(&child, &child_counters, -INF, INF, depth - 1, 1, true);
                (score, mv)
            })
            .collect();
        scored.sort_by_key(|&(score, _)| -score);
        let (best_score, best) = scored[0];
        worker.keys.push(pos.key());
        let extension = worker.singular_extension(
            &pos,
            &counters,
            start,
            n,
            move_code(&best),
            best_score,
            depth,
            0,
        );
        (extension, best_score - scored[1].0)
    }

    /// Over the English bench positions: a best move that a search of every move to depth 8
    /// puts far ahead of the second (twice the margin) is found singular by the half-depth
    /// test; ahead by twice the margin and the double margin, it is extended two plies, and
    /// by less than the margin and the double margin (the second move then scores above the
    /// double bound at full depth), one; one with a near equal (within half the margin) is not
    /// singular. Every kind occurs: with the double margin at 25 the bench has 2 of the first
    /// and 4 of the second, at 15 (tried) 4 and 3.
    #[test]
    fn a_move_far_ahead_of_the_rest_is_singular_and_one_of_near_equals_is_not() {
        let depth = 8;
        let margin = SINGULAR_MARGIN[English::TUNED_AS as usize] * depth;
        let double = SINGULAR_DOUBLE_MARGIN[English::TUNED_AS as usize].expect("english doubles");
        let text = include_str!("../../positions/bench.txt");
        let (mut far_ahead, mut doubled, mut single, mut near_equal) = (0, 0, 0, 0);
        for line in text.lines().filter(|l| l.starts_with("english;")) {
            let fen = line.split(';').nth(1).expect("bench line");
            let pos = parse_fen(fen).expect("bench FEN");
            let mut moves = Vec::new();
            search_moves::<English>(&pos, capturers::<English>(&pos), &mut moves);
            if moves.len() < 2 {
                continue;
            }
            let (extension, gap) = best_move_extension(fen, depth);
            if gap >= 2 * margin {
                far_ahead += 1;
                assert!(extension >= 1, "{fen}: ahead by {gap}, not singular");
                if gap >= 2 * margin + double {
                    doubled += 1;
                    assert_eq!(extension, 2, "{fen}: ahead by {gap}");
                } else if gap < margin + double {
                    single += 1;
                    assert_eq!(extension, 1, "{fen}: ahead by {gap}");
                }
            } else if gap <= margin / 2 {
                near_equal += 1;
                assert_eq!(extension, 0, "{fen}: ahead by {gap} only, singular");
            }
        }
        assert!(
            far_ahead >= 3 && doubled >= 2 && single >= 3 && near_equal >= 3,
            "{far_ahead}, {doubled}, {single} and {near_equal}"
        );
    }

    #[test]
    fn reductions_grow_with_depth_and_index_and_leave_a_ply() {
        for depth in 3..100 {
            for index in 3..100 {
                let r = late_move_reduction(depth, index);
                assert!(
                    r >= 1 && depth - 1 - r >= 1,
                    "depth {depth} index {index}: {r}"
                );
                assert!(r <= late_move_reduction(depth + 1, index));
                assert!(r <= late_move_reduction(depth, index + 1));
            }
        }
        assert_eq!(late_move_reduction(3, 20), 1);
        assert_eq!(late_move_reduction(12, 3), 1);
        assert_eq!(late_move_reduction(12, 8), 3);
    }
}
