//! Per goti count, the symmetry classes of the mover's point set: which symmetry takes
//! a set to the least member of its orbit, and the numbering of those least members
//! (the *canonical mover sets*).

use std::sync::OnceLock;

use tigadi_rules::geometry::{Bits, POINTS, SYMMETRIES};

use crate::tables::{binomial, colex_rank, transform_set};

/// Bits of an [`MoverTable::info`] entry below the orbit rank.
pub(crate) const ORBIT_SHIFT: u32 = 5;
/// Flag in an info entry: the canonical set has symmetries besides the identity.
pub(crate) const STABILISED: u32 = 1 << 4;
/// Mask of the symmetry in an info entry.
pub(crate) const SYM_MASK: u32 = 0xF;

/// A canonical mover set (least of its orbit) and its stabiliser.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Orbit {
    /// The set itself.
    pub set: Bits,
    /// Bit `s` set when symmetry `s` (not the identity) maps `set` to itself.
    pub stabiliser: u16,
}

/// The mover-set tables of one goti count.
pub(crate) struct MoverTable {
    /// Indexed by colex rank of a set: `orbit << ORBIT_SHIFT | stabilised flag |
    /// sym`, where `sym` maps the set to its canonical set (the least such symmetry)
    /// and `orbit` is the rank of that canonical set among the canonical sets.
    pub info: Vec<u32>,
    /// The canonical sets in increasing order (orbit rank order).
    pub orbits: Vec<Orbit>,
}

impl MoverTable {
    fn build(count: u32) -> MoverTable {
        let total = binomial(POINTS as u32, count) as usize;
        let mut info = Vec::with_capacity(total);
        let mut orbits = Vec::new();
        let end: u64 = 1 << POINTS;
        // Gosper's hack: all sets of `count` points in increasing order, which is
        // colex order, so the position in `info` is the colex rank.
        let mut set: u64 = (1u64 << count) - 1;
        while set < end {
            let s = set as Bits;
            let mut least = s;
            let mut sym = 0;
            let mut hits = 0;
            for t in 1..SYMMETRIES {
                let image = transform_set(t, s);
                if image < least {
                    least = image;
                    sym = t;
                    hits = 1;
                } else if image == least {
                    hits += 1;
                }
            }
            // `hits` counts the symmetries other than `sym` reaching `least`, except
            // when `least == s` where it counts the non-identity ones: either way it
            // is nonzero exactly when the stabiliser is nontrivial.
            let stabilised = if least == s { hits > 0 } else { hits > 1 };
            let orbit = if least == s {
                let mut stabiliser = 0u16;
                for t in 1..SYMMETRIES {
                    if transform_set(t, s) == s {
                        stabiliser |= 1 << t;
                    }
                }
                orbits.push(Orbit { set: s, stabiliser });
                (orbits.len() - 1) as u32
            } else {
                info[colex_rank(least) as usize] >> ORBIT_SHIFT
            };
            debug_assert_eq!(colex_rank(s) as usize, info.len());
            info.push(orbit << ORBIT_SHIFT | if stabilised { STABILISED } else { 0 } | sym as u32);
            if count == 0 {
                break;
            }
            let c = set & set.wrapping_neg();
            let r = set + c;
            set = (((r ^ set) >> 2) / c) | r;
        }
        debug_assert_eq!(info.len(), total);
        MoverTable { info, orbits }
    }

    /// The table for sets of `count` points, built on first use and shared.
    pub(crate) fn of(count: u32) -> &'static MoverTable {
        static TABLES: [OnceLock<MoverTable>; POINTS + 1] = [const { OnceLock::new() }; POINTS + 1];
        assert!(
            count as usize <= POINTS,
            "a set has at most {POINTS} points, not {count}"
        );
        TABLES[count as usize].get_or_init(|| MoverTable::build(count))
    }
}
