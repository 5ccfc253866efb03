//! The moving phase seen from the player to move: the hot-loop primitives the index,
//! the solver and the prober share.
//!
//! A [`Board`] holds the mover's and the opponent's gotis and nothing else (no hands,
//! no counters, no colours): exactly what a moving-phase tablebase position is.

use crate::geometry::{Bits, Point, ALL};
use crate::rules::RuleSet;

/// A moving-phase board from the point of view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Board {
    /// Gotis of the player to move.
    pub mover: Bits,
    /// Gotis of the other player.
    pub opponent: Bits,
}

/// Where one turn from a [`Board`] leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Successor {
    /// A slide that closes no tigadi; the board that follows, the other player to move.
    Quiet(Board),
    /// A slide that closes a tigadi and captures one goti; the board that follows,
    /// the other player (one goti fewer) to move. When the captured side is left with
    /// two gotis the game is over: see [`Board::is_game_over`].
    Capture(Board),
    /// The mover cannot move and passes (only where blocked players pass).
    Pass(Board),
}

/// One turn's slide and capture, for callers that need to name the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    /// Point the goti leaves.
    pub from: Point,
    /// Point the goti arrives on.
    pub to: Point,
    /// Captured enemy goti, if the slide closed a tigadi.
    pub capture: Option<Point>,
}

/// One placement and its capture, for callers that need to name the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The empty point the goti is placed on.
    pub to: Point,
    /// Captured enemy goti, if the placement closed a tigadi.
    pub capture: Option<Point>,
}

impl Board {
    /// The board with the other player to move.
    #[inline]
    pub fn flipped(self) -> Board {
        Board {
            mover: self.opponent,
            opponent: self.mover,
        }
    }

    /// Empty points.
    #[inline]
    pub fn empty(self) -> Bits {
        ALL & !(self.mover | self.opponent)
    }

    /// Has the player to move fewer than three gotis (the game ended on the last turn)?
    #[inline]
    pub fn is_game_over(self) -> bool {
        self.mover.count_ones() < 3
    }

    /// The points a goti of the mover standing on `from` may slide or fly to.
    #[inline]
    pub fn targets(self, rules: &RuleSet, from: usize) -> Bits {
        self.targets_holding(rules, 0, from)
    }

    /// [`Board::targets`] for a mover that also holds `hand` gotis (Lasker's rule:
    /// flying counts the hand).
    #[inline]
    pub fn targets_holding(self, rules: &RuleSet, hand: u8, from: usize) -> Bits {
        let empty = self.empty();
        if rules.flies(self.mover.count_ones() + hand as u32) {
            empty
        } else {
            rules.geometry().neighbours[from] & empty
        }
    }

    /// Can the player to move make any slide?
    #[inline]
    pub fn can_move(self, rules: &RuleSet) -> bool {
        if rules.flies(self.mover.count_ones()) {
            return self.empty() != 0;
        }
        let n = &rules.geometry().neighbours;
        let empty = self.empty();
        let mut m = self.mover;
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            if n[p] & empty != 0 {
                return true;
            }
            m &= m - 1;
        }
        false
    }

    /// The boards that follow a goti of the player to move arriving on a point, with
    /// the mover's gotis then at `after`: when the arrival `closes` a tigadi, one
    /// capture per enemy goti in `targets()` (the capturable ones), each named by
    /// the point taken; otherwise the quiet board. The slides and the placements
    /// share this.
    #[inline(always)]
    fn arrive(
        self,
        after: Bits,
        closes: bool,
        targets: impl FnOnce() -> Bits,
        mut f: impl FnMut(Option<Point>, Successor),
    ) {
        if closes {
            let mut c = targets();
            while c != 0 {
                let x = c.trailing_zeros() as usize;
                c &= c - 1;
                let next = Board {
                    mover: self.opponent ^ (1 << x),
                    opponent: after,
                };
                f(Point::new(x), Successor::Capture(next));
            }
        } else {
            f(
                None,
                Successor::Quiet(Board {
                    mover: self.opponent,
                    opponent: after,
                }),
            );
        }
    }

    /// Calls `f` with every legal slide (with its capture) of the player to move and
    /// the board it leads to (the other player to move). Calls nothing when the mover
    /// is blocked; [`Board::for_each_successor`] handles passing.
    #[inline]
    pub fn for_each_slide(self, rules: &RuleSet, f: impl FnMut(Slide, Successor)) {
        self.for_each_slide_holding(rules, 0, f)
    }

    /// [`Board::for_each_slide`] for a mover that also holds `hand` gotis (Lasker's
    /// rule, docs/RULES.md §8): the same slides, with flying decided by the gotis
    /// on the board and in hand together.
    #[inline]
    pub fn for_each_slide_holding(
        self,
        rules: &RuleSet,
        hand: u8,
        mut f: impl FnMut(Slide, Successor),
    ) {
        let g = rules.geometry();
        self.for_each_step_holding(rules, hand, |from, to, closes| {
            let after = self.mover ^ (1 << from) ^ (1 << to);
            self.arrive(
                after,
                closes,
                || g.capturable(self.opponent),
                |capture, s| {
                    let slide = Slide {
                        from: Point::new(from).unwrap(),
                        to: Point::new(to).unwrap(),
                        capture,
                    };
                    f(slide, s)
                },
            );
        })
    }

    /// Calls `f(from, to, closes)` for every slide of the player to move, before
    /// any capture choice: the points a goti leaves and reaches, and whether it
    /// arrives in a complete tigadi (then the slide captures). The slides of
    /// [`Board::for_each_slide`]; with no opponent gotis on the board, every
    /// slide the mover's set allows onto a point it leaves empty (a solver
    /// precomputes these once for all boards with that mover set, and keeps those
    /// onto points the opponent leaves free).
    #[inline]
    pub fn for_each_step(self, rules: &RuleSet, f: impl FnMut(usize, usize, bool)) {
        self.for_each_step_holding(rules, 0, f)
    }

    /// [`Board::for_each_step`] for a mover that also holds `hand` gotis.
    #[inline(always)]
    pub fn for_each_step_holding(
        self,
        rules: &RuleSet,
        hand: u8,
        mut f: impl FnMut(usize, usize, bool),
    ) {
        let g = rules.geometry();
        // What `targets` gives, with the geometry and the flying test taken once.
        let empty = self.empty();
        let flies = rules.flies(self.mover.count_ones() + hand as u32);
        let mut m = self.mover;
        while m != 0 {
            let from = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut t = if flies {
                empty
            } else {
                g.neighbours[from] & empty
            };
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                t &= t - 1;
                let after = self.mover ^ (1 << from) ^ (1 << to);
                f(from, to, g.in_line(after, to));
            }
        }
    }

    /// Calls `f` with every successor of the board: one per slide and capture choice,
    /// or a single [`Successor::Pass`] when the mover is blocked and blocked players
    /// pass. Calls nothing when the mover is blocked and blocked players lose (the
    /// board is then lost for the mover).
    #[inline]
    pub fn for_each_successor(self, rules: &RuleSet, mut f: impl FnMut(Successor)) {
        let mut any = false;
        self.for_each_slide(rules, |_, s| {
            any = true;
            f(s)
        });
        if !any && !rules.blocked_loses {
            f(Successor::Pass(self.flipped()));
        }
    }

    /// Is every point occupied? Only with 12 gotis a side and no capture while
    /// placing; nobody can move, and docs/RULES.md §8 makes the game a draw whatever the
    /// blocked switch says.
    #[inline]
    pub fn is_full(self) -> bool {
        self.empty() == 0
    }

    /// Calls `f` with every placement of the player to move (who must hold a goti in
    /// hand; docs/RULES.md §3 and §5): one per empty point, and for a point that
    /// completes a tigadi one per capture choice (none when the opponent has no goti
    /// on the board: the placement is then quiet). The board that follows has the
    /// other player to move. Whether a capture ends the game depends on the hands:
    /// see [`Board::placing_game_over`]. Order: points ascending, captures
    /// ascending.
    #[inline]
    pub fn for_each_placement(self, rules: &RuleSet, mut f: impl FnMut(Placement, Successor)) {
        let g = rules.geometry();
        let targets = g.capturable(self.opponent);
        let mut empty = self.empty();
        while empty != 0 {
            let to = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let after = self.mover | (1 << to);
            let at = Point::new(to).unwrap();
            let closes = self.opponent != 0 && g.in_line(after, to);
            self.arrive(
                after,
                closes,
                || targets,
                |capture, s| f(Placement { to: at, capture }, s),
            );
        }
    }

    /// After a placement that captured, has the player now to move (who holds
    /// `hand` gotis in hand) fallen below three gotis in all, so the capturing
    /// placement won (docs/RULES.md §6)?
    #[inline]
    pub fn placing_game_over(self, hand: u8) -> bool {
        self.mover.count_ones() + (hand as u32) < crate::position::MIN_GOTIS
    }

    /// Calls `f` with every board from which one non-capturing turn (a quiet slide or
    /// a pass) leads to `self`: the predecessors within the same pair of subspaces.
    /// Each predecessor has `self.opponent`'s owner to move.
    #[inline]
    pub fn for_each_quiet_predecessor(self, rules: &RuleSet, mut f: impl FnMut(Board)) {
        self.for_each_quiet_predecessor_slide(rules, |from, to| {
            f(Board {
                mover: self.opponent ^ (1 << from) ^ (1 << to),
                opponent: self.mover,
            })
        })
    }

    /// [`Board::for_each_quiet_predecessor`], each predecessor given by the points
    /// its slide left (`from`) and reached (`to`): the predecessor is `Board {
    /// mover: self.opponent ^ (1 << from) ^ (1 << to), opponent: self.mover }`, and
    /// a pass (the board flipped) comes as `from == to`. For callers that form the
    /// predecessor's symmetric images from this board's by toggling two points.
    #[inline]
    pub fn for_each_quiet_predecessor_slide(self, rules: &RuleSet, f: impl FnMut(usize, usize)) {
        self.for_each_quiet_predecessor_slide_holding(rules, 0, f)
    }

    /// [`Board::for_each_quiet_predecessor_slide`] when the predecessor's player
    /// to move (`self.opponent`'s owner) held `hand` gotis in hand and still
    /// does (Lasker's rule, docs/RULES.md §8.2: a slide leaves the hands as they
    /// were): it flew when its gotis on the board and in hand are three, and
    /// with a goti in hand it was never blocked, so it never passed.
    #[inline]
    pub fn for_each_quiet_predecessor_slide_holding(
        self,
        rules: &RuleSet,
        hand: u8,
        mut f: impl FnMut(usize, usize),
    ) {
        let g = rules.geometry();
        let prev_mover = self.opponent;
        let empty = self.empty();
        let flies = rules.flies(prev_mover.count_ones() + hand as u32);
        let mut t = prev_mover;
        while t != 0 {
            let to = t.trailing_zeros() as usize;
            t &= t - 1;
            // A slide that arrived on `to` and closed a line would have captured.
            if g.in_line(prev_mover, to) {
                continue;
            }
            let mut from = if flies {
                empty
            } else {
                g.neighbours[to] & empty
            };
            while from != 0 {
                let fr = from.trailing_zeros() as usize;
                from &= from - 1;
                f(fr, to);
            }
        }
        if hand == 0 && !rules.blocked_loses && !self.flipped().can_move(rules) {
            f(0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Quiet predecessors are exactly the boards whose quiet successors include us.
    #[test]
    fn predecessors_invert_successors() {
        let mut rng = Rng::seeded(0x9E37_79B9_7F4A_7C15);
        for rules in [
            RuleSet::TIGADI,
            RuleSet::NAVAKANKARI,
            RuleSet::MORRIS,
            RuleSet::MORABARABA,
        ] {
            for _ in 0..3000 {
                let (m, o) = (3 + rng.below(7), 3 + rng.below(7));
                let mut b = Board::default();
                while b.mover.count_ones() < m as u32 {
                    b.mover |= 1 << rng.below(24);
                }
                while b.opponent.count_ones() < o as u32 {
                    b.opponent |= (1 << rng.below(24)) & !b.mover;
                }
                b.for_each_successor(&rules, |s| {
                    if let Successor::Quiet(q) | Successor::Pass(q) = s {
                        let mut found = 0;
                        q.for_each_quiet_predecessor(&rules, |p| found += (p == b) as u32);
                        assert_eq!(found, 1, "{rules} {b:?} -> {q:?}");
                    }
                });
                b.for_each_quiet_predecessor(&rules, |p| {
                    let mut found = 0;
                    p.for_each_successor(&rules, |s| {
                        if let Successor::Quiet(q) | Successor::Pass(q) = s {
                            found += (q == b) as u32;
                        }
                    });
                    assert_eq!(found, 1, "{rules} {p:?} -> {b:?}");
                });
            }
        }
    }

    /// Under Lasker's rule the quiet predecessors by slides of a player holding
    /// gotis in hand (its hand counting toward flying) are exactly the boards
    /// whose quiet slides with that hand reach us.
    #[test]
    fn predecessors_holding_invert_slides_holding() {
        let rules = RuleSet::LASKER;
        let mut rng = Rng::seeded(0x5DEE_CE66_D1CE_4E5B);
        let mut flying = 0;
        for _ in 0..3000 {
            let (m, o) = (1 + rng.below(6), 1 + rng.below(6));
            let hand = rng.below(4) as u8;
            flying += rules.flies(o as u32 + hand as u32) as u32;
            let mut b = Board::default();
            while b.mover.count_ones() < m as u32 {
                b.mover |= 1 << rng.below(24);
            }
            while b.opponent.count_ones() < o as u32 {
                b.opponent |= (1 << rng.below(24)) & !b.mover;
            }
            let preds = |q: Board| {
                let mut out = Vec::new();
                q.for_each_quiet_predecessor_slide_holding(&rules, hand, |from, to| {
                    out.push(Board {
                        mover: q.opponent ^ (1 << from) ^ (1 << to),
                        opponent: q.mover,
                    })
                });
                out
            };
            // `b`'s player to move holds `hand`; its quiet slides lead to `q`.
            b.for_each_slide_holding(&rules, hand, |_, s| {
                if let Successor::Quiet(q) = s {
                    let found = preds(q).iter().filter(|&&p| p == b).count();
                    assert_eq!(found, 1, "{b:?} -> {q:?} holding {hand}");
                }
            });
            // `b`'s predecessors: its opponent to move, holding `hand`.
            for p in preds(b) {
                let mut found = 0;
                p.for_each_slide_holding(&rules, hand, |_, s| {
                    found += matches!(s, Successor::Quiet(q) if q == b) as u32;
                });
                assert_eq!(found, 1, "{p:?} -> {b:?} holding {hand}");
            }
        }
        assert!(flying > 100, "{flying}");
    }
}
