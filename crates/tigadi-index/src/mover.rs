//! Per goti count, the symmetry classes of the mover's point set: the canonical
//! mover sets (each the least member of its orbit), in increasing order, and a
//! compact rank structure from a canonical set to its position in that order.

use std::sync::OnceLock;

use tigadi_rules::geometry::{Bits, POINTS, SYMMETRIES};

use crate::tables::{
    binomial, colex_rank, least_image_and_syms, next_same_size, popcount64, transform_set,
};

/// A canonical mover set (least of its orbit) and its stabiliser.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Orbit {
    /// The set itself.
    pub set: Bits,
    /// Bit `s` set when symmetry `s` (not the identity) maps `set` to itself.
    pub stabiliser: u16,
}

/// Sets per [`RankBlock`]: one bit each.
const BLOCK: usize = 64;
const _: () = assert!(BLOCK.is_power_of_two());

/// Which of 64 consecutive sets (in colex order) are canonical, and how many
/// canonical sets come before them. 16 bytes, so a block never straddles a cache
/// line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct RankBlock {
    canonical: u64,
    before: u64,
}

/// The mover-set tables of one goti count.
pub(crate) struct MoverTable {
    /// The canonical sets in increasing order (orbit rank order).
    pub orbits: Vec<Orbit>,
    /// Orbit rank of canonical sets by colex rank, `C(24, count) / 64` blocks: about
    /// 2 bits per set, so the tables stay in the L2 cache (320 KiB for 9 gotis).
    blocks: Vec<RankBlock>,
}

impl MoverTable {
    fn build(count: u32) -> MoverTable {
        let total = binomial(POINTS as u32, count) as usize;
        let mut blocks = vec![RankBlock::default(); total.div_ceil(BLOCK)];
        let mut orbits = Vec::new();
        let end: u64 = 1 << POINTS;
        // Gosper's hack: all sets of `count` points in increasing order, which is
        // colex order.
        let mut set: u64 = (1u64 << count) - 1;
        let mut rank = 0usize;
        while set < end {
            let s = set as Bits;
            if rank & (BLOCK - 1) == 0 {
                blocks[rank / BLOCK].before = orbits.len() as u64;
            }
            // Canonical: no image is smaller (checked by plain transforms, not by the
            // table-driven search the index uses).
            if (1..SYMMETRIES).all(|t| transform_set(t, s) >= s) {
                let mut stabiliser = 0u16;
                for t in 1..SYMMETRIES {
                    if transform_set(t, s) == s {
                        stabiliser |= 1 << t;
                    }
                }
                orbits.push(Orbit { set: s, stabiliser });
                blocks[rank / BLOCK].canonical |= 1 << (rank % BLOCK);
            }
            debug_assert_eq!(colex_rank(s) as usize, rank);
            rank += 1;
            if count == 0 {
                break;
            }
            set = next_same_size(set);
        }
        debug_assert_eq!(rank, total);
        MoverTable { orbits, blocks }
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

    /// The least image of `set` (which has this table's count of points), its orbit
    /// rank, and the symmetries mapping `set` onto it (bit `s` for symmetry `s`).
    #[inline(always)]
    pub(crate) fn classify(&self, set: Bits) -> (Bits, u32, u32) {
        let (least, syms) = least_image_and_syms(set);
        (least, self.orbit_rank(least), syms)
    }

    /// The orbit rank of a canonical set (with this table's count of points).
    #[inline(always)]
    pub(crate) fn orbit_rank(&self, canonical: Bits) -> u32 {
        let rank = colex_rank(canonical) as usize;
        let block = self.blocks[rank / BLOCK];
        let below = block.canonical & ((1u64 << (rank % BLOCK)) - 1);
        block.before as u32 + popcount64(below)
    }
}
