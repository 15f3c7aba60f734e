//! Strength levels: named settings under full strength that a person can beat. A level caps
//! the search (depth, nodes) and, at the lowest ones, plays a weaker move on purpose: it
//! searches several lines and picks among those within a margin of the best, so its mistakes
//! are the plausible ones a weaker player makes rather than random moves. The pick is a hash of
//! the position and the level, so a level is as deterministic as the search under it: the same
//! position at the same level gives the same move.
//!
//! Levels weaken only a search for a move to play (`go`, `go think`): analysis (`infinite`,
//! Hub's `go analyze` with any level) is always at full strength. Full strength is the search untouched (the bench signature
//! does not depend on this module).

use super::{Limits, Score, SearchInfo, SearchOutcome};

/// One named level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The name in the options (`Skill` / `skill`).
    pub name: &'static str,
    /// The deepest nominal depth searched.
    pub depth: Option<u32>,
    /// The most nodes searched.
    pub nodes: Option<u64>,
    /// Lines searched to choose among (1: the best move is played).
    pub lines: usize,
    /// A line is a candidate when it scores at most this many centi-men below the best.
    pub margin: i32,
}

/// The levels, weakest first; the last is full strength.
pub const LEVELS: [Level; 7] = [
    Level {
        name: "beginner",
        depth: Some(1),
        nodes: None,
        lines: 6,
        margin: 250,
    },
    Level {
        name: "novice",
        depth: Some(2),
        nodes: None,
        lines: 4,
        margin: 120,
    },
    Level {
        name: "casual",
        depth: Some(3),
        nodes: None,
        lines: 3,
        margin: 60,
    },
    Level {
        name: "club",
        depth: Some(5),
        nodes: None,
        lines: 2,
        margin: 25,
    },
    Level {
        name: "strong",
        depth: Some(8),
        nodes: Some(50_000),
        lines: 1,
        margin: 0,
    },
    Level {
        name: "expert",
        depth: None,
        nodes: Some(500_000),
        lines: 1,
        margin: 0,
    },
    Level {
        name: "full",
        depth: None,
        nodes: None,
        lines: 1,
        margin: 0,
    },
];

/// The names of the levels, for the options table.
pub const NAMES: [&str; 7] = {
    let mut names = [""; 7];
    let mut i = 0;
    while i < LEVELS.len() {
        names[i] = LEVELS[i].name;
        i += 1;
    }
    names
};

/// A level by its index in `LEVELS`; the default is full strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill(usize);

impl Default for Skill {
    fn default() -> Self {
        Skill::FULL
    }
}

impl Skill {
    /// Full strength: the search untouched.
    pub const FULL: Skill = Skill(LEVELS.len() - 1);

    /// The level of this name (exact, lower case), if there is one.
    pub fn from_name(name: &str) -> Option<Skill> {
        LEVELS.iter().position(|l| l.name == name).map(Skill)
    }

    /// The level's settings.
    pub fn level(self) -> &'static Level {
        &LEVELS[self.0.min(LEVELS.len() - 1)]
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        self.level().name
    }

    /// Whether this level changes the search of `limits` at all.
    pub fn weakens(self, limits: &Limits) -> bool {
        self != Skill::FULL && !limits.infinite && !limits.analysis
    }

    /// The limits a search at this level runs under: the caller's, capped.
    pub fn cap(self, limits: &Limits) -> Limits {
        let l = self.level();
        let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            depth: min(limits.depth.map(u64::from), l.depth.map(u64::from)).map(|d| d as u32),
            nodes: min(limits.nodes, l.nodes),
            ..limits.clone()
        }
    }

    /// The move played from the lines of the last completed iteration (best first, at least
    /// one): the line at a position chosen by `key` among those within the margin.
    pub fn choose(self, key: u64, lines: &[SearchInfo], full: &SearchOutcome) -> SearchOutcome {
        let l = self.level();
        let best = match lines.first() {
            Some(b) if l.lines > 1 => b.score.0,
            _ => return full.clone(),
        };
        let candidates: Vec<&SearchInfo> = lines
            .iter()
            .take(l.lines)
            .filter(|i| !i.pv.is_empty() && i.score.0 >= best - l.margin)
            .collect();
        if candidates.len() <= 1 {
            return full.clone();
        }
        let pick = candidates[(mix(key ^ self.0 as u64) % candidates.len() as u64) as usize];
        SearchOutcome {
            best: pick.pv.first().copied(),
            ponder: pick.pv.get(1).copied(),
            score: Score(pick.score.0),
            depth: full.depth,
            nodes: full.nodes,
        }
    }
}

/// splitmix64's finaliser: spreads the position key's bits so that consecutive picks differ.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    fn info(score: i32, mv: Move) -> SearchInfo {
        SearchInfo {
            depth: 3,
            seldepth: 3,
            score: Score(score),
            nodes: 100,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            tbhits: 0,
            multipv: 1,
            pv: vec![mv],
        }
    }

    #[test]
    fn names_and_order() {
        assert_eq!(Skill::default().name(), "full");
        assert_eq!(Skill::from_name("beginner"), Some(Skill(0)));
        assert_eq!(Skill::from_name("Beginner"), None);
        assert_eq!(NAMES.len(), LEVELS.len());
        // Weaker levels search less: the caps only grow up the ladder.
        for w in LEVELS.windows(2) {
            assert!(w[0].depth.unwrap_or(u32::MAX) <= w[1].depth.unwrap_or(u32::MAX));
            assert!(w[0].lines >= w[1].lines && w[0].margin >= w[1].margin);
        }
    }

    #[test]
    fn caps_keep_the_tighter_bound_and_spare_analysis() {
        let club = Skill::from_name("club").unwrap();
        let l = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        assert_eq!(club.cap(&l).depth, Some(5));
        let l = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        assert_eq!(club.cap(&l).depth, Some(2));
        let expert = Skill::from_name("expert").unwrap();
        assert_eq!(expert.cap(&Limits::default()).nodes, Some(500_000));
        let analysis = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(!club.weakens(&analysis));
        let analyze = Limits {
            depth: Some(8),
            analysis: true,
            ..Limits::default()
        };
        assert!(!club.weakens(&analyze));
        assert!(!Skill::FULL.weakens(&Limits::default()));
        assert!(club.weakens(&Limits::default()));
    }

    #[test]
    fn choice_stays_within_the_margin_and_varies_with_the_position() {
        let game = crate::game::Game::start(crate::variant::Variant::Russian);
        let moves = game.legal_moves();
        let lines: Vec<SearchInfo> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| info(50 - 100 * i as i32, *m))
            .collect();
        let full = SearchOutcome {
            best: Some(moves[0]),
            ponder: None,
            score: Score(50),
            depth: 3,
            nodes: 100,
        };
        let beginner = Skill::from_name("beginner").unwrap();
        let mut seen = std::collections::HashSet::new();
        for key in 0..200u64 {
            let out = beginner.choose(key, &lines, &full);
            // Margin 250: the lines scoring 50, -50, -150 are candidates, -250 is not.
            assert!(out.score.0 >= -200, "{out:?}");
            seen.insert(out.score.0);
            assert_eq!(out, beginner.choose(key, &lines, &full));
        }
        assert_eq!(seen.len(), 3);
        // One line only (strong and above): the search's own move.
        let strong = Skill::from_name("strong").unwrap();
        assert_eq!(strong.choose(7, &lines, &full), full);
    }
}
