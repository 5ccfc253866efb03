//! Which subspaces to solve, and in what order.

use tigadi_index::{Subspace, MAX_GOTIS, MIN_GOTIS};
use tigadi_rules::geometry::POINTS;

/// A pair of subspaces solved together: quiet moves and passes lead from one to the
/// other (`(m, o)` and `(o, m)`), so they depend on each other. When `m == o` the
/// pair is one subspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pair {
    /// The subspace with at least as many gotis for the mover as the opponent.
    pub first: Subspace,
}

impl Pair {
    /// The pair containing `sub`.
    pub fn of(sub: Subspace) -> Pair {
        if sub.mover >= sub.opponent {
            Pair { first: sub }
        } else {
            Pair {
                first: sub.flipped(),
            }
        }
    }

    /// The one or two subspaces of the pair, `first` first.
    pub fn subspaces(self) -> Vec<Subspace> {
        if self.first.mover == self.first.opponent {
            vec![self.first]
        } else {
            vec![self.first, self.first.flipped()]
        }
    }

    /// Gotis on the board in all.
    pub fn gotis(self) -> u32 {
        self.first.mover as u32 + self.first.opponent as u32
    }

    /// The subspaces that captures from this pair lead into (those with both sides
    /// still at three or more): a capture from `(m, o)` leads to `(o - 1, m)`.
    pub fn capture_targets(self) -> Vec<Subspace> {
        self.subspaces()
            .into_iter()
            .filter_map(Subspace::capture_target)
            .collect()
    }
}

impl std::fmt::Display for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.first;
        if s.mover == s.opponent {
            write!(f, "{s}")
        } else {
            write!(f, "{s}+{}", s.flipped())
        }
    }
}

/// Every pair with both sides between 3 and 9 gotis and at most `max_gotis` on the
/// board in all, in an order where every pair comes after the pairs its captures
/// lead into (fewer gotis first): [`pairs_up_to_pieces`] with the standard 9 gotis a side.
pub fn pairs_up_to(max_gotis: u32) -> Vec<Pair> {
    pairs_up_to_pieces(MAX_GOTIS, max_gotis)
}

/// Every pair of the moving phase of a game with `pieces` gotis a side (`pieces=N`):
/// both sides between 3 and `pieces` gotis, at most `max_gotis` on the board in all,
/// in dependency order (fewer gotis first). A full board (24 gotis, only with 12 a
/// side) is left out: no goti can move there and docs/RULES.md §8 makes it a draw, which
/// the placing phase applies itself ([`crate::leaving`]).
pub fn pairs_up_to_pieces(pieces: u8, max_gotis: u32) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let most = max_gotis.min(2 * pieces as u32).min(POINTS as u32 - 1);
    for total in (2 * MIN_GOTIS as u32)..=most {
        for m in (MIN_GOTIS..=pieces).rev() {
            let o = total as i32 - m as i32;
            if o >= MIN_GOTIS as i32 && o <= m as i32 {
                pairs.push(Pair {
                    first: Subspace::new(m, o as u8),
                });
            }
        }
    }
    pairs
}

/// The pairs needed to solve subspace `sub` (any goti counts up to 12 a side, not
/// the full board): its own pair and every pair its captures lead to, directly or
/// through other captures, in the order of [`pairs_up_to_pieces`] (every pair after
/// the pairs its captures lead into).
pub fn pairs_for(sub: Subspace) -> Vec<Pair> {
    let mut needed = vec![Pair::of(sub)];
    let mut i = 0;
    while i < needed.len() {
        for t in needed[i].capture_targets() {
            if !needed.contains(&Pair::of(t)) {
                needed.push(Pair::of(t));
            }
        }
        i += 1;
    }
    // Captures only lower counts, so every pair needed is in the plan of a game
    // with as many gotis a side as `sub`'s larger side.
    let most = sub.mover.max(sub.opponent);
    pairs_up_to_pieces(most, 2 * most as u32)
        .into_iter()
        .filter(|p| needed.contains(p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_covers_all_49_subspaces_in_dependency_order() {
        let pairs = pairs_up_to(18);
        let subs: Vec<Subspace> = pairs.iter().flat_map(|p| p.subspaces()).collect();
        assert_eq!(subs.len(), 49);
        for (i, p) in pairs.iter().enumerate() {
            for t in p.capture_targets() {
                let j = pairs.iter().position(|q| *q == Pair::of(t)).unwrap();
                assert!(j < i, "{p} needs {t}, solved later");
            }
        }
        assert_eq!(
            pairs_up_to(7)
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>(),
            ["3v3", "4v3+3v4"]
        );
        assert_eq!(pairs_up_to_pieces(9, 18), pairs);
    }

    #[test]
    fn plans_for_other_goti_counts() {
        let names = |p: Vec<Pair>| p.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        assert_eq!(names(pairs_up_to_pieces(3, 24)), ["3v3"]);
        assert_eq!(names(pairs_up_to_pieces(4, 24)), ["3v3", "4v3+3v4", "4v4"]);
        let twelve = pairs_up_to_pieces(12, 24);
        let subs: Vec<Subspace> = twelve.iter().flat_map(|p| p.subspaces()).collect();
        // 10 × 10 subspaces less the full board.
        assert_eq!(subs.len(), 99);
        assert!(subs.contains(&Subspace::new(12, 11)));
        for (i, p) in twelve.iter().enumerate() {
            for t in p.capture_targets() {
                let j = twelve.iter().position(|q| *q == Pair::of(t)).unwrap();
                assert!(j < i, "{p} needs {t}, solved later");
            }
        }
    }

    /// `pairs_for(sub)` holds `sub`'s pair and every pair a capture leads to, in
    /// the order of the plan `all`.
    fn assert_pairs_for(sub: Subspace, all: &[Pair]) {
        let pairs = pairs_for(sub);
        assert!(pairs.contains(&Pair::of(sub)), "{sub}");
        for p in &pairs {
            for t in p.capture_targets() {
                assert!(pairs.contains(&Pair::of(t)), "{sub}: {p} needs {t}");
            }
        }
        let at: Vec<usize> = pairs
            .iter()
            .map(|p| all.iter().position(|q| q == p).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{sub}");
    }

    #[test]
    fn pairs_for_a_subspace_are_closed_under_captures() {
        let all = pairs_up_to(18);
        for sub in Subspace::standard() {
            assert_pairs_for(sub, &all);
        }
        assert_eq!(
            pairs_for(Subspace::new(3, 3)),
            [Pair::of(Subspace::new(3, 3))]
        );
    }

    /// Subspaces of games with more than 9 gotis a side: `pairs_for` plans them in
    /// the order of the 12-a-side plan, closed under captures.
    #[test]
    fn pairs_for_subspaces_above_nine() {
        let all = pairs_up_to_pieces(12, 24);
        for sub in [
            Subspace::new(12, 11),
            Subspace::new(10, 3),
            Subspace::new(3, 12),
            Subspace::new(11, 11),
        ] {
            assert_pairs_for(sub, &all);
        }
        // 12v11 needs every pair with both sides from 3 to 12 but 12v12.
        assert_eq!(pairs_for(Subspace::new(12, 11)), all);
        assert_eq!(pairs_for(Subspace::new(10, 3)).len(), 8);
    }
}
