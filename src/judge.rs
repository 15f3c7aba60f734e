//! How much a move lost and its class (inaccuracy, mistake, blunder): the thresholds that
//! `crownhead analyze` and the browser's page share, in the library so neither copies them.

use crate::search::Score;
/// Loss (centi-men) from which a move is an inaccuracy.
pub const INACCURACY: i32 = 25;
/// Loss from which a move is a mistake.
pub const MISTAKE: i32 = 50;
/// Loss from which a move is a blunder.
pub const BLUNDER: i32 = 90;
/// What a won or lost position counts as in a loss.
const DECISIVE: i32 = 2000;

/// A score clamped for computing losses.
fn capped(s: Score) -> i32 {
    if s.is_decisive() {
        DECISIVE * s.0.signum()
    } else {
        s.0.clamp(-DECISIVE + 1, DECISIVE - 1)
    }
}

/// The loss of a move and its class, from the evaluations before and after (mover's view).
pub fn classify(before: Score, after: Score, was_best: bool) -> (i32, Option<&'static str>) {
    let loss = if was_best {
        0
    } else {
        (capped(before) - capped(after)).max(0)
    };
    let into_forced_loss =
        after.is_decisive() && after.0 < 0 && !(before.is_decisive() && before.0 < 0);
    let class = if (into_forced_loss && !was_best) || loss >= BLUNDER {
        Some("blunder")
    } else if loss >= MISTAKE {
        Some("mistake")
    } else if loss >= INACCURACY {
        Some("inaccuracy")
    } else {
        None
    };
    (loss, class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_by_loss() {
        assert_eq!(classify(Score(30), Score(20), false), (10, None));
        assert_eq!(
            classify(Score(30), Score(0), false),
            (30, Some("inaccuracy"))
        );
        assert_eq!(
            classify(Score(30), Score(-30), false),
            (60, Some("mistake"))
        );
        assert_eq!(
            classify(Score(30), Score(-100), false),
            (130, Some("blunder"))
        );
        assert_eq!(classify(Score(30), Score(-100), true), (0, None));
        assert_eq!(
            classify(Score(-50), Score::loss_in(9), false).1,
            Some("blunder")
        );
        assert_eq!(
            classify(Score::loss_in(4), Score::loss_in(2), false).1,
            None
        );
    }
}
