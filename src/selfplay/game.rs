//! One self-play game: an opening, a few random plies, then the engine against itself at a fixed
//! depth or node count, recording every quiet position with the search's score. A game is a
//! function of its spec alone (the search is deterministic on one thread at a fixed depth or
//! node count, and the table is cleared first), so a run's output does not depend on how many
//! threads played it or in which order the games finished.

use super::format::Sample;
use crate::game::{EndReason, Game, GameResult, Outcome};
use crate::search::{Limits, Score, SearchControl, Searcher};

/// What one game is made of.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The game after its opening.
    pub opening: Game,
    /// The seed of its random plies.
    pub seed: u64,
    /// The most random plies played after the opening (the number is drawn from 0 to this).
    pub max_random_plies: u32,
    /// The search's bound on each move: a depth or a node count.
    pub limits: Limits,
    /// A game this long (in plies, opening included) is adjudicated a draw.
    pub max_plies: u32,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Its quiet positions, in order, each with the score of its search and the final result.
    pub samples: Vec<Sample>,
    /// How it ended.
    pub outcome: Outcome,
    /// Its length in plies, opening included.
    pub plies: u32,
}

/// SplitMix64: a small, well-mixed generator, enough for choosing random plies.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Plays the game of `spec` with `searcher` (one thread; its table is cleared first).
pub fn play_game(searcher: &mut Searcher, spec: &GameSpec) -> PlayedGame {
    searcher.new_game();
    let mut game = spec.opening.clone();
    let variant = game.variant();
    let mut rng = SplitMix(spec.seed);
    let random_plies = rng.below(u64::from(spec.max_random_plies) + 1);
    for _ in 0..random_plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        // A move from the legal list is legal.
        let _ = game.play(mv);
    }
    let mut samples: Vec<(crate::position::Position, i16, u8)> = Vec::new();
    // Both sides' searches must agree that the game is decided before it is adjudicated.
    let mut decided_plies = 0;
    let control = SearchControl::new(false);
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        let plies = game.moves().len() as u32;
        if plies >= spec.max_plies {
            break Outcome {
                result: GameResult::Draw,
                reason: EndReason::Adjudication,
            };
        }
        let found = searcher.search(&game, &spec.limits, &control, &mut |_| {});
        let Some(best) = found.best else {
            // Not reached: a position with no legal move has an outcome.
            break game.outcome().unwrap_or(Outcome {
                result: GameResult::Draw,
                reason: EndReason::Adjudication,
            });
        };
        let pos = *game.position();
        if !variant.has_capture(&pos) {
            let score = found.score.0.clamp(-Score::WIN.0, Score::WIN.0) as i16;
            samples.push((pos, score, plies.min(255) as u8));
        }
        if found.score.is_decisive() {
            decided_plies += 1;
            if decided_plies >= 2 {
                let mover = pos.side();
                let winner = if found.score.0 > 0 {
                    mover
                } else {
                    mover.opponent()
                };
                break Outcome {
                    result: GameResult::win_for(winner),
                    reason: EndReason::Adjudication,
                };
            }
        } else {
            decided_plies = 0;
        }
        // The search's move is legal in this position.
        let _ = game.play(best);
    };
    PlayedGame {
        samples: samples
            .into_iter()
            .map(|(position, score, ply)| Sample {
                position,
                score,
                result: outcome.result,
                ply,
            })
            .collect(),
        outcome,
        plies: game.moves().len() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchOptions;
    use crate::variant::Variant;

    fn spec(seed: u64) -> GameSpec {
        GameSpec {
            opening: Game::start(Variant::English),
            seed,
            max_random_plies: 4,
            limits: Limits {
                depth: Some(3),
                ..Limits::default()
            },
            max_plies: 60,
        }
    }

    #[test]
    fn a_game_depends_on_its_spec_alone_and_records_only_quiet_positions() {
        let mut a = Searcher::new(SearchOptions::default());
        let mut b = Searcher::new(SearchOptions::default());
        let first = play_game(&mut a, &spec(7));
        // Another game in between leaves its mark in `a`'s table, which must not matter.
        play_game(&mut a, &spec(8));
        let again = play_game(&mut a, &spec(7));
        let fresh = play_game(&mut b, &spec(7));
        assert_eq!(first.samples, again.samples);
        assert_eq!(first.samples, fresh.samples);
        assert!(!first.samples.is_empty());
        for s in &first.samples {
            assert!(!Variant::English.has_capture(&s.position));
            assert_eq!(s.result, first.outcome.result);
        }
        assert!(first.plies <= 60);
    }
}
