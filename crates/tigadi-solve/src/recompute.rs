//! Every stored value of a moving-phase table recomputed from its successors'
//! stored values by [`crate::evaluate`] (the one definition), for `verify`.
//!
//! Positions are taken grouped by the opponent's point set `O`
//! ([`SubspaceIndex::for_each_board_by_opponent`]): every quiet successor of
//! `(M, O)` is a board `(O, M')`, so a group's quiet successors lie in one run of
//! the flipped table, and the captures taking the goti on `x` in one run of the
//! capture targets' table: those few runs stay in cache while the group is
//! checked. The one random read per position is its own stored value, prefetched
//! [`LAG`] positions before it is compared. (In slot order each of a position's
//! ~20 successors was a random read.)

use crate::memory::prefetch;
use crate::retrograde::SolvedTable;
use crate::value::{Packed, Value};
use tigadi_index::{MoverClass, SubspaceIndex};
use tigadi_rules::geometry::POINTS;
use tigadi_rules::Board;
use tigadi_rules::RuleSet;

/// Positions whose stored value is being fetched: prefetched this many ahead.
const LAG: usize = 16;

/// Calls `f(slot, board, stored, recomputed)` for every position of `own`'s
/// subspace whose opponent set is in the orbits `orbits` (numbered as
/// [`SubspaceIndex::for_each_board_by_opponent`] numbers them; all of them are
/// `0..opponent_orbits()`), `board` one of its slot's class, `stored` its value
/// in `own` and `recomputed` the value [`crate::evaluate`] gives it from `quiet`
/// (the flipped subspace's table, where quiet moves and passes lead) and
/// `capture` (where captures lead; `None` when every capture ends the game).
/// Padding slots are not visited. The tables must have one value per slot of
/// their subspace, and a value (not [`Packed::NONE`]) at every slot holding a
/// position.
pub fn recompute_by_opponent(
    rules: &RuleSet,
    own: SolvedTable<'_>,
    quiet: SolvedTable<'_>,
    capture: Option<SolvedTable<'_>>,
    orbits: std::ops::Range<u64>,
    mut f: impl FnMut(u64, Board, Packed, Value),
) {
    let own_idx = SubspaceIndex::new(own.subspace);
    let quiet_idx = SubspaceIndex::new(quiet.subspace);
    let capture_idx = capture.map(|c| (SubspaceIndex::new(c.subspace), c.values));
    let value = |v: Packed| v.get().expect("a stored table has a value at every class");
    // Per group: the successors' mover-set part of their slots, the quiet ones'
    // and, per captured point, the captures'.
    let mut group = None;
    let mut quiet_class = None;
    let mut taken: [Option<MoverClass>; POINTS] = [None; POINTS];
    let mut ring = [(0u64, Board::default(), Value::Draw); LAG];
    let mut n = 0usize;
    own_idx.for_each_board_by_opponent(orbits, |slot, board| {
        if group != Some(board.opponent) {
            group = Some(board.opponent);
            quiet_class = Some(quiet_idx.mover_class(board.opponent));
            taken = [None; POINTS];
        }
        let quiet_class = quiet_class.expect("set for the group");
        let recomputed = crate::evaluate(rules, board, |next| {
            if next.mover == board.opponent {
                // A quiet move or a pass: the flipped subspace.
                value(quiet.values[quiet_idx.index_with(quiet_class, next.opponent) as usize])
            } else {
                let (idx, values) = capture_idx.expect("captures that do not end the game");
                let x = (board.opponent & !next.mover).trailing_zeros() as usize;
                let class = *taken[x].get_or_insert_with(|| idx.mover_class(next.mover));
                value(values[idx.index_with(class, next.opponent) as usize])
            }
        });
        prefetch(&own.values[slot as usize]);
        let (s, b, r) = std::mem::replace(&mut ring[n % LAG], (slot, board, recomputed));
        n += 1;
        if n > LAG {
            f(s, b, own.values[s as usize], r);
        }
    });
    for i in n.saturating_sub(LAG)..n {
        let (s, b, r) = ring[i % LAG];
        f(s, b, own.values[s as usize], r);
    }
}
