//! An independent oracle for the values under the 100-turn rule (docs/RULES.md §6, §7):
//! win, draw or loss of every raw *state* (position, counter), the counter `0..=N`
//! part of the state, by plain backward induction over the counter. No DTC₁₀₀, no
//! horizon shortcut, no symmetry: it shares with the fast solver only the board
//! geometry (through the parent oracle's own move generator and ranking).
//!
//! # Semantics
//!
//! A state is a raw position (as in the parent module) and the number `c` of turns
//! since the last capture. Under turn limit `N`:
//!
//! - at `c = N` the game is drawn, except that a player to move who is blocked in a
//!   rule set where that loses has lost: the turn that blocked them won (the referee
//!   lets a win on the limit's turn stand);
//! - below `N`, a turn that captures the opponent down to two wins; a capture into
//!   another position leads to that position at counter 0 (the counter resets); a
//!   quiet turn or a pass leads to the next position at counter `c + 1`; a blocked
//!   player who loses has lost; the player to move picks the best turn (win over
//!   draw over loss).
//!
//! Counter `N` is computed first, then `N - 1`, ... down to 0; each level reads only
//! the level above it and the finished capture subspaces at counter 0, which the
//! oracle solves first, recursively.

use super::{for_each_turn, Layout, NaiveBoard, StepKind, FLYING_AT, LOST_COUNT, POINTS};
use rayon::prelude::*;
use std::collections::BTreeMap;
use tigadi_rules::RuleSet;

/// A state lost for the player to move (the oracle's own codes).
pub const LOSS: u8 = 0;
/// A drawn state.
pub const DRAW: u8 = 1;
/// A state won for the player to move.
pub const WIN: u8 = 2;

/// The value for the player to move before a turn into a state worth `next` to the
/// other player.
fn negate(next: u8) -> u8 {
    WIN - next
}

/// Values under the rule of every raw state of the subspaces solved.
pub struct HorizonOracle {
    rules: RuleSet,
    board: NaiveBoard,
    /// The turn limit `N`.
    quiet: u16,
    /// Per subspace `(mover count, opponent count)`, per counter `0..=N`: one code
    /// ([`LOSS`], [`DRAW`], [`WIN`]) per raw rank.
    tables: BTreeMap<(u32, u32), Vec<Vec<u8>>>,
}

impl HorizonOracle {
    /// Solves `(m, o)` and `(o, m)` under `rules` (turn limit `rules.quiet`), after
    /// every subspace their captures reach.
    pub fn solve(rules: RuleSet, m: u32, o: u32) -> HorizonOracle {
        let mut sol = HorizonOracle {
            rules,
            board: NaiveBoard::new(&rules),
            quiet: rules.quiet,
            tables: BTreeMap::new(),
        };
        sol.ensure(m, o);
        sol
    }

    /// The value code of the raw state `(mover, opponent)` at counter `counter`.
    pub fn value(&self, mover: u32, opponent: u32, counter: u16) -> u8 {
        let key = (mover.count_ones(), opponent.count_ones());
        let layout = Layout {
            mover: key.0,
            opponent: key.1,
        };
        self.tables[&key][counter as usize][layout.rank(mover, opponent)]
    }

    /// Calls `f(mover, opponent, codes)` for every raw position of `(m, o)`, with its
    /// value code at every counter `0..=N` (`codes[c]`), in parallel over mover sets.
    pub fn par_for_each_position(&self, m: u32, o: u32, f: impl Fn(u32, u32, &[u8]) + Sync) {
        let table = &self.tables[&(m, o)];
        let layout = Layout {
            mover: m,
            opponent: o,
        };
        (0..layout.mover_sets()).into_par_iter().for_each(|r| {
            let mut codes = vec![0u8; table.len()];
            layout.for_each_with_mover(r, |i, mover, opponent| {
                for (c, code) in codes.iter_mut().enumerate() {
                    *code = table[c][i];
                }
                f(mover, opponent, &codes)
            })
        });
    }

    fn ensure(&mut self, m: u32, o: u32) {
        if self.tables.contains_key(&(m, o)) {
            return;
        }
        assert!(
            m >= FLYING_AT && o >= FLYING_AT && m + o <= POINTS,
            "no such subspace {m}v{o}"
        );
        if o - 1 > LOST_COUNT {
            self.ensure(o - 1, m);
        }
        if m - 1 > LOST_COUNT {
            self.ensure(m - 1, o);
        }
        self.solve_pair(m, o);
    }

    /// Backward induction over the counter for `(m, o)` and `(o, m)` together.
    fn solve_pair(&mut self, m: u32, o: u32) {
        let subspaces: Vec<(u32, u32)> = if m == o {
            vec![(m, o)]
        } else {
            vec![(m, o), (o, m)]
        };
        let n = self.quiet as usize;
        // levels[s][c]: subspace s at counter c; filled from c = N down to 0.
        let mut levels: Vec<Vec<Vec<u8>>> = vec![vec![Vec::new(); n + 1]; subspaces.len()];
        for c in (0..=n).rev() {
            for (s, &(a, b)) in subspaces.iter().enumerate() {
                let layout = Layout {
                    mover: a,
                    opponent: b,
                };
                // Quiet turns and passes lead into (b, a) at counter c + 1.
                let other = if subspaces.len() == 1 { 0 } else { 1 - s };
                let above: Option<&[u8]> = (c < n).then(|| levels[other][c + 1].as_slice());
                let quiet_layout = Layout {
                    mover: b,
                    opponent: a,
                };
                let captures = self.tables.get(&(b - 1, a)).map(|t| t[0].as_slice());
                assert!(b - 1 == LOST_COUNT || captures.is_some());
                let capture_layout = Layout {
                    mover: b - 1,
                    opponent: a,
                };
                let per_mover = layout.per_mover() as usize;
                let mut level = vec![DRAW; layout.len() as usize];
                level
                    .par_chunks_mut(per_mover)
                    .enumerate()
                    .for_each(|(r, chunk)| {
                        let base = r * per_mover;
                        layout.for_each_with_mover(r as u64, |i, mover, opponent| {
                            let mut best: Option<u8> = None;
                            for_each_turn(&self.board, &self.rules, mover, opponent, |t| {
                                let v = match (t.kind, above) {
                                    // At the limit every turn is too late, but a
                                    // player with a turn is not blocked: a draw.
                                    (_, None) => DRAW,
                                    (StepKind::Capture, _)
                                        if t.next_mover.count_ones() == LOST_COUNT =>
                                    {
                                        WIN
                                    }
                                    (StepKind::Capture, _) => negate(
                                        captures.expect("capture subspace solved")
                                            [capture_layout.rank(t.next_mover, t.next_opponent)],
                                    ),
                                    (StepKind::Quiet | StepKind::Pass, Some(above)) => negate(
                                        above[quiet_layout.rank(t.next_mover, t.next_opponent)],
                                    ),
                                };
                                best = Some(best.map_or(v, |b| b.max(v)));
                                v != WIN
                            });
                            // No turn at all: blocked where that loses.
                            chunk[i - base] = best.unwrap_or(LOSS);
                        });
                    });
                levels[s][c] = level;
            }
        }
        for (s, key) in subspaces.into_iter().enumerate() {
            self.tables.insert(key, std::mem::take(&mut levels[s]));
        }
    }
}
