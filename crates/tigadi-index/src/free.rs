//! The sets of points a given set leaves free, numbered densely: what a pass needs
//! to keep the values of one run of a table in a small array of its own.

use tigadi_rules::geometry::{Bits, POINTS};

use crate::tables::{binomial, colex_rank, compress, expand, next_same_size};

/// Numbering of the sets of `k` points among the points that `taken` leaves free:
/// a set's number is the colex rank of its compressed form (bit `i` for the `i`-th
/// free point from the bottom), `0..C(24 - |taken|, k)`.
///
/// For passes over boards that share one goti set: all the quiet placements from
/// boards `(M, O)` lead to boards `(O, M + p)`, so a pass over one `O` can read the
/// successors' values once, in this numbering, into an array
/// ([`for_each`](Self::for_each) with [`SubspaceIndex::index_with`](crate::SubspaceIndex::index_with)),
/// and then find each successor by [`compress`](Self::compress) of `M` (once per
/// board), [`point`](Self::point) of `p` and [`number`](Self::number), without
/// canonicalising it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeSets {
    taken: Bits,
}

impl FreeSets {
    /// The numbering of the sets of points that `taken` leaves free.
    pub fn new(taken: Bits) -> FreeSets {
        FreeSets { taken }
    }

    /// How many points are free.
    pub fn free_points(&self) -> u32 {
        POINTS as u32 - self.taken.count_ones()
    }

    /// The compressed form of `set`, which must hold free points only.
    #[inline]
    pub fn compress(&self, set: Bits) -> Bits {
        debug_assert_eq!(set & self.taken, 0, "set meets the taken points");
        compress(self.taken, set)
    }

    /// The compressed form of the one free point of `point` (a set of one point):
    /// `compress(a | point) == compress(a) | point(point)` for a set `a` without it.
    #[inline]
    pub fn point(&self, point: Bits) -> Bits {
        debug_assert_eq!(point.count_ones(), 1, "not one point");
        debug_assert_eq!(point & self.taken, 0, "point is taken");
        1 << (!self.taken & (point - 1)).count_ones()
    }

    /// The inverse of [`compress`](Self::compress): the free points that the
    /// compressed form `compressed` (bit `i` for the `i`-th free point) names.
    #[inline]
    pub fn expand(&self, compressed: Bits) -> Bits {
        expand(self.taken, compressed)
    }

    /// The number of a set from its compressed form.
    #[inline]
    pub fn number(compressed: Bits) -> u32 {
        colex_rank(compressed)
    }

    /// Calls `f(less, j)` for each point `j` of the compressed set `compressed`
    /// (numbered `number`), from the top down, with `less` the number of
    /// `compressed` without `j`: the sets that one more point turns into
    /// `compressed`, numbered by two table reads each instead of a rank.
    ///
    /// With `s_0 < … < s_{k-1}` the points of `compressed`, its number is
    /// `Σ C(s_t, t + 1)`, and dropping `s_i` lowers each point above it by one
    /// place: `Σ_{t<i} C(s_t, t + 1) + Σ_{t>i} C(s_t, t)`.
    #[inline(always)]
    pub fn for_each_less_one(compressed: Bits, number: u32, mut f: impl FnMut(u32, u32)) {
        debug_assert_eq!(colex_rank(compressed), number, "wrong number");
        let mut below = number;
        let mut above = 0;
        let mut rest = compressed;
        let mut i = compressed.count_ones();
        while rest != 0 {
            i -= 1;
            let j = 31 - rest.leading_zeros();
            rest &= !(1 << j);
            below -= binomial(j, i + 1);
            f(below + above, j);
            above += binomial(j, i);
        }
    }

    /// Calls `f(set)` for every compressed set of `k` of the first `n` points, in
    /// the order of their numbers: [`for_each_compressed`](Self::for_each_compressed)
    /// without expanding each set.
    #[inline]
    pub fn for_each_of(n: u32, k: u32, mut f: impl FnMut(Bits)) {
        if k > n {
            return;
        }
        if k == 0 {
            f(0);
            return;
        }
        // The compressed sets in increasing order, which is colex order.
        let mut set: u64 = (1 << k) - 1;
        while set < 1 << n {
            f(set as Bits);
            set = next_same_size(set);
        }
    }

    /// Calls `f(set)` for every set of `k` free points, in the order of their
    /// numbers (`0, 1, 2, …`).
    pub fn for_each(&self, k: u32, mut f: impl FnMut(Bits)) {
        self.for_each_compressed(k, |_, set| f(set))
    }

    /// [`for_each`](Self::for_each), with each set's compressed form:
    /// `f(compressed, set)`.
    #[inline]
    pub fn for_each_compressed(&self, k: u32, mut f: impl FnMut(Bits, Bits)) {
        let taken = self.taken;
        Self::for_each_of(self.free_points(), k, |set| f(set, expand(taken, set)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn less_one_numbers_are_the_ranks_of_the_smaller_sets() {
        for k in 1..=12u32 {
            let mut set: u64 = (1 << k) - 1;
            let mut number = 0;
            while set < 1 << 20 {
                let s = set as Bits;
                let mut seen = 0;
                FreeSets::for_each_less_one(s, number, |less, j| {
                    assert_ne!(s & 1 << j, 0, "{s:b}: {j} is not a point of it");
                    assert_eq!(less, colex_rank(s & !(1 << j)), "{s:b} less {j}");
                    seen |= 1 << j;
                });
                assert_eq!(seen, s, "every point once");
                number += 1;
                set = next_same_size(set);
                // Every set of small sizes; a stride through the larger ones.
                if k > 4 {
                    for _ in 0..97 {
                        if set >= 1 << 20 {
                            break;
                        }
                        number += 1;
                        set = next_same_size(set);
                    }
                }
            }
        }
    }

    #[test]
    fn sets_of_the_first_points_come_once_each_in_number_order() {
        for n in 0..=12u32 {
            for k in 0..=n + 1 {
                let mut count = 0u32;
                FreeSets::for_each_of(n, k, |set| {
                    assert_eq!(set.count_ones(), k, "n {n}: {set:b}");
                    assert_eq!(set >> n, 0, "n {n} k {k}: {set:b} past the points");
                    assert_eq!(colex_rank(set), count, "n {n} k {k}: {set:b} out of order");
                    count += 1;
                });
                assert_eq!(count, binomial(n, k), "n {n} k {k}: every set once");
            }
        }
    }

    #[test]
    fn numbers_follow_the_enumeration_and_compress_by_points() {
        for taken in [0, 0b1011_0000_0000_0101_0001, 0x00F0F0, 0xFFF000] {
            let free = FreeSets::new(taken);
            for k in 0..=4 {
                let mut count = 0u32;
                free.for_each(k, |set| {
                    assert_eq!(set & taken, 0);
                    assert_eq!(set.count_ones(), k);
                    let c = free.compress(set);
                    assert_eq!(FreeSets::number(c), count, "sets numbered in order");
                    // Compressing point by point gives the same.
                    let mut by_points = 0;
                    let mut rest = set;
                    while rest != 0 {
                        let p = rest & rest.wrapping_neg();
                        rest &= rest - 1;
                        by_points |= free.point(p);
                    }
                    assert_eq!(by_points, c);
                    count += 1;
                });
                let n = free.free_points();
                let expected = (0..k).fold(1u64, |a, i| a * (n - i) as u64 / (i + 1) as u64);
                assert_eq!(count as u64, expected, "every set once");
            }
        }
    }
}
