//! The build plan as data, for tools outside the engine (the cluster driver,
//! `scripts/tools/cluster/egtbjob.py`, through `crownhead egtb plan --json`): every pair of slices
//! up to N pieces in build order, each with its slices' sizes and the pairs its moves lead to.
//! It is read from `material::build_order` and `build::dependencies`, the very order and
//! dependencies `crownhead egtb build` uses, so no other program need re-derive them.

use super::build::dependencies;
use super::index::Indexer;
use super::material::{build_order, Material};

/// The most pieces a plan may cover: beyond what is built here (`build::MAX_PIECES`), for the
/// cluster's projections of larger builds.
pub const MAX_PLAN_PIECES: u32 = 8;

/// One pair of slices of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedPair {
    /// The material and, if different, its mirror (White to move).
    pub slices: Vec<Material>,
    /// The positions of each slice.
    pub sizes: Vec<u64>,
    /// The pairs (by their first slice) that must be built before this one, in build order.
    pub needs: Vec<Material>,
}

/// The pairs of up to `max_pieces` pieces in build order.
pub fn plan(max_pieces: u32) -> Vec<PlannedPair> {
    let order = build_order(max_pieces);
    let first_of = |m: Material| {
        order
            .iter()
            .position(|p| p.contains(&m))
            .expect("every slice a move leads to has fewer pieces or men, so is in the plan")
    };
    order
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            let mut needs: Vec<usize> = dependencies(pair)
                .into_iter()
                .map(first_of)
                .filter(|&j| j != i)
                .collect();
            needs.sort_unstable();
            needs.dedup();
            PlannedPair {
                slices: pair.clone(),
                sizes: pair.iter().map(|&m| Indexer::new(m).size()).collect(),
                needs: needs.into_iter().map(|j| order[j][0]).collect(),
            }
        })
        .collect()
}

fn counts(m: Material) -> String {
    format!("[{},{},{},{}]", m.wm, m.wk, m.bm, m.bk)
}

fn list<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    items.iter().map(show).collect::<Vec<_>>().join(",")
}

/// The plan as JSON, a pair a line: `{"pieces": N, "pairs": [{"slices": [[wm,wk,bm,bk], ...],
/// "files": [...], "sizes": [...], "needs": [[wm,wk,bm,bk], ...]}, ...]}`.
pub fn to_json(max_pieces: u32, pairs: &[PlannedPair]) -> String {
    let lines: Vec<String> = pairs
        .iter()
        .map(|p| {
            format!(
                "{{\"slices\":[{}],\"files\":[{}],\"sizes\":[{}],\"needs\":[{}]}}",
                list(&p.slices, |&m| counts(m)),
                list(&p.slices, |m| format!("\"{}\"", m.file_name())),
                list(&p.sizes, u64::to_string),
                list(&p.needs, |&m| counts(m)),
            )
        })
        .collect();
    format!(
        "{{\"pieces\":{max_pieces},\"pairs\":[\n{}\n]}}",
        lines.join(",\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_needs_only_pairs_before_it_and_sizes_add_up() {
        let pairs = plan(5);
        assert_eq!(pairs.iter().map(|p| p.slices.len()).sum::<usize>(), 85);
        for (i, p) in pairs.iter().enumerate() {
            for need in &p.needs {
                let j = pairs.iter().position(|q| q.slices[0] == *need).unwrap();
                assert!(j < i, "{need:?} needed by {:?}", p.slices);
            }
        }
        // docs/EGTB.md: 3,488 positions of 2 pieces (both sides to move counted once).
        let two: u64 = pairs
            .iter()
            .filter(|p| p.slices[0].pieces() == 2)
            .flat_map(|p| &p.sizes)
            .sum();
        assert_eq!(two, 3_488);
        // A king against a king needs nothing; a man and a king against a king needs pairs.
        assert!(pairs[0].needs.is_empty());
        let json = to_json(5, &pairs);
        assert!(
            json.starts_with("{\"pieces\":5,\"pairs\":[\n{\"slices\":[["),
            "{json}"
        );
        assert_eq!(json.lines().count(), pairs.len() + 2);
    }
}
