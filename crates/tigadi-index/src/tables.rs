//! Constant lookup tables for the hot paths: binomial coefficients, colex ranks of
//! point sets byte by byte, byte-wise set compression and the ring symmetries.
//!
//! Everything here is computed at compile time; tests check it against the rules
//! crate's definitions.

use tigadi_rules::geometry::{Bits, ALL, POINTS};

/// Side of the square binomial table; a power of two so that masked indices need no
/// bounds checks (`n, k <= 24` are used).
const BINOM_SIDE: usize = 32;

/// `BINOM[n][k]` = C(n, k) for `n, k < 32` (0 when `k > n`).
pub(crate) static BINOM: [[u32; BINOM_SIDE]; BINOM_SIDE] = binomials();

const fn binomials() -> [[u32; BINOM_SIDE]; BINOM_SIDE] {
    let mut t = [[0u32; BINOM_SIDE]; BINOM_SIDE];
    let mut n = 0;
    while n < BINOM_SIDE {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k) for `n, k <= 24` (the number of ways to choose `k` of `n` points).
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u32 {
    BINOM[n as usize & (BINOM_SIDE - 1)][k as usize & (BINOM_SIDE - 1)]
}

/// Number of set bits of a byte, for builds without `popcnt` ([`pop`]).
#[cfg_attr(all(target_feature = "popcnt", not(test)), allow(dead_code))]
static POP8: [u8; 256] = pop8();

/// The number of points in `set` by [`POP8`], a byte at a time: [`pop`] in
/// builds without `popcnt` (and tested in every build).
#[cfg_attr(all(target_feature = "popcnt", not(test)), allow(dead_code))]
#[inline(always)]
fn pop_by_table(set: Bits) -> u32 {
    POP8[(set & 0xFF) as usize] as u32
        + POP8[((set >> 8) & 0xFF) as usize] as u32
        + POP8[((set >> 16) & 0xFF) as usize] as u32
}

/// The number of points in `set`: one `popcnt` where the build has it (this
/// workspace's x86-64 builds do, `.cargo/config.toml`), a byte table for each
/// of its three bytes otherwise. In the rank and the free-point renumbering it
/// shortens each step's chain of dependent loads by one.
#[inline(always)]
pub(crate) fn pop(set: Bits) -> u32 {
    #[cfg(target_feature = "popcnt")]
    {
        set.count_ones()
    }
    #[cfg(not(target_feature = "popcnt"))]
    {
        pop_by_table(set)
    }
}

const fn pop8() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
}

/// `RANK[b][k][v]`: the part of the colex rank `sum_j C(p_j, j)` (points `p_1 <
/// p_2 < ...`, `j` from 1) contributed by byte `b` of a set whose byte `b` is `v` and
/// which has `k` points in the bytes below. Byte 0 only ever has `k = 0`, byte 1
/// `k <= 8`, byte 2 `k <= 16`: the table is indexed with `k & 31`.
static RANK1: [[u32; 256]; 16] = byte_ranks::<16>(8);
static RANK2: [[u32; 256]; 32] = byte_ranks::<32>(16);
static RANK0: [[u32; 256]; 1] = byte_ranks::<1>(0);

const fn byte_ranks<const K: usize>(base: usize) -> [[u32; 256]; K] {
    let mut t = [[0u32; 256]; K];
    let mut k = 0;
    while k < K {
        let mut v = 0;
        while v < 256 {
            let mut sum = 0;
            let mut j = k;
            let mut i = 0;
            while i < 8 {
                if v & (1 << i) != 0 {
                    j += 1;
                    if base + i < BINOM_SIDE && j < BINOM_SIDE {
                        sum += BINOM[base + i][j];
                    }
                }
                i += 1;
            }
            t[k][v] = sum;
            v += 1;
        }
        k += 1;
    }
    t
}

/// Colex rank of a set among the sets of its size: `sum_j C(p_j, j)` over its points
/// `p_1 < p_2 < ...` (`j` from 1). For sets of equal size this is the order of their
/// `u32` values.
#[inline(always)]
pub(crate) fn colex_rank(set: Bits) -> u32 {
    let b0 = (set & 0xFF) as usize;
    let b1 = ((set >> 8) & 0xFF) as usize;
    let b2 = ((set >> 16) & 0xFF) as usize;
    let k1 = pop(set & 0xFF) as usize;
    let k2 = pop(set & 0xFFFF) as usize;
    RANK0[0][b0] + RANK1[k1 & 15][b1] + RANK2[k2 & 31][b2]
}

/// The next set with as many points as `set` (not empty) in increasing order, which
/// is colex order: Gosper's hack, shifting instead of dividing. The result may
/// reach past the points in use; callers stop at their bound.
#[inline(always)]
pub(crate) fn next_same_size(set: u64) -> u64 {
    let low = set & set.wrapping_neg();
    let ripple = set + low;
    (((ripple ^ set) >> 2) >> low.trailing_zeros()) | ripple
}

/// `COMPRESS[mask][v]`: the bits of `v` at positions outside `mask`, packed towards
/// bit 0 (a byte-wide software `pext` with the complement of `mask`).
static COMPRESS: [[u8; 256]; 256] = free_point_table(false);

/// The byte tables of [`COMPRESS`] (`deposit` false) and [`DEPOSIT`] (`deposit`
/// true): for every `mask`, the `n`-th bit outside `mask` (bit `i`) corresponds to
/// bit `n` of the packed form.
const fn free_point_table(deposit: bool) -> [[u8; 256]; 256] {
    let mut t = [[0u8; 256]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut v = 0;
        while v < 256 {
            let mut out = 0u32;
            let mut n = 0;
            let mut i = 0;
            while i < 8 {
                if mask & (1 << i) == 0 {
                    let (from, to) = if deposit { (n, i) } else { (i, n) };
                    if v & (1 << from) != 0 {
                        out |= 1 << to;
                    }
                    n += 1;
                }
                i += 1;
            }
            t[mask][v] = out as u8;
            v += 1;
        }
        mask += 1;
    }
    t
}

/// The set `set` (disjoint from `taken`) renumbered onto the points not in `taken`:
/// the `i`-th free point (from the bottom) becomes point `i`.
#[inline(always)]
pub(crate) fn compress(taken: Bits, set: Bits) -> Bits {
    let mut out = 0;
    let mut shift = 0;
    let mut b = 0;
    while b < 3 {
        let t = ((taken >> (8 * b)) & 0xFF) as usize;
        let v = ((set >> (8 * b)) & 0xFF) as usize;
        out |= (COMPRESS[t][v] as Bits) << shift;
        shift += 8 - pop(t as Bits);
        b += 1;
    }
    out
}

/// `DEPOSIT[mask][v]`: the low bits of `v` spread onto the positions outside `mask`,
/// lowest first (the inverse of [`COMPRESS`]).
static DEPOSIT: [[u8; 256]; 256] = free_point_table(true);

/// The inverse of [`compress`]: point `i` of `packed` goes to the `i`-th point (from
/// the bottom) not in `taken`.
#[inline(always)]
pub(crate) fn expand(taken: Bits, packed: Bits) -> Bits {
    let mut out = 0;
    let mut rest = packed;
    let mut b = 0;
    while b < 3 {
        let t = ((taken >> (8 * b)) & 0xFF) as usize;
        out |= (DEPOSIT[t][(rest & 0xFF) as usize] as Bits) << (8 * b);
        rest >>= 8 - pop(t as Bits);
        b += 1;
    }
    out
}

/// `UNRANK8[j][r]`: the `r`-th byte with `j` bits set, in increasing order (the
/// colex unranking of `j`-subsets of 8 points). Rows are padded to 128 entries so
/// that masked indices need no bounds checks (`C(8, 4) = 70` is the longest row).
static UNRANK8: [[u8; 128]; 16] = unrank8_table();

const fn unrank8_table() -> [[u8; 128]; 16] {
    let mut t = [[0u8; 128]; 16];
    let mut filled = [0usize; 16];
    let mut v = 0;
    while v < 256 {
        let j = (v as u32).count_ones() as usize;
        t[j][filled[j]] = v as u8;
        filled[j] += 1;
        v += 1;
    }
    t
}

/// The set of `k` points not in `taken` whose [`compress`]ed form has colex rank
/// `rank` (the inverse of `colex_rank(compress(taken, set))`).
#[inline]
pub(crate) fn unrank_free(taken: Bits, k: u32, mut rank: u32) -> Bits {
    /// The lowest free points are finished by one look-up in [`UNRANK8`].
    const LOW: u32 = 8;
    let mut free = ALL & !taken;
    let mut q = free.count_ones();
    let mut j = k;
    let mut set = 0;
    // Greedy from the top, branch-free: the highest remaining point is the highest
    // compressed position `q` with `C(q, j) <= rank`.
    while q > LOW {
        let p = 31 - free.leading_zeros();
        q -= 1;
        let c = binomial(q, j);
        let take = (c <= rank) as u32;
        rank -= c & take.wrapping_neg();
        set |= take << p;
        j -= take;
        free ^= 1 << p;
    }
    // The remaining `j` points are among the lowest 8 free ones, and `rank < C(8, j)`.
    let low = UNRANK8[j as usize & 15][rank as usize & 127] as Bits;
    set | expand(taken, low)
}

/// `PERM[s][v]`: where symmetry `s < 8` (reflection and quarter turns, no ring swap)
/// sends the points of one ring whose byte is `v`; the same map for every ring.
static PERM: [[u8; 256]; 8] = PERM_TABLE;

/// [`PERM`] for compile-time tables ([`transform_set_const`]).
const PERM_TABLE: [[u8; 256]; 8] = perm_table();

const fn perm_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut s = 0;
    while s < 8 {
        let mut v = 0;
        while v < 256 {
            let mut out = 0u32;
            let mut k = 0;
            while k < 8 {
                if v & (1 << k) != 0 {
                    // The definition of tigadi_rules::geometry::transform_point.
                    let mut d = k;
                    if s & 4 != 0 {
                        d = (10 - d) % 8;
                    }
                    d = (d + 2 * (s & 3)) % 8;
                    out |= 1 << d;
                }
                k += 1;
            }
            t[s][v] = out as u8;
            v += 1;
        }
        s += 1;
    }
    t
}

/// Applies symmetry `sym` (`0..16`) to a set of points: the same map as
/// `tigadi_rules::geometry::transform`, branch-free, by three table look-ups.
#[inline(always)]
pub(crate) fn transform_set(sym: usize, set: Bits) -> Bits {
    transform_by(&PERM, sym, set)
}

/// [`transform_set`] at compile time, for tables built from it.
pub(crate) const fn transform_set_const(sym: usize, set: Bits) -> Bits {
    transform_by(&PERM_TABLE, sym, set)
}

/// [`transform_set`] with the ring table `perm` ([`PERM`]).
#[inline(always)]
const fn transform_by(perm: &[[u8; 256]; 8], sym: usize, set: Bits) -> Bits {
    let perm = &perm[sym & 7];
    // The inner/outer swap exchanges bytes 0 and 2: byte 0 goes to bit 16 and byte 2
    // to bit 0 when bit 3 of `sym` is set.
    let low = ((sym & 8) << 1) as u32;
    let b0 = perm[(set & 0xFF) as usize] as Bits;
    let b1 = perm[((set >> 8) & 0xFF) as usize] as Bits;
    let b2 = perm[((set >> 16) & 0xFF) as usize] as Bits;
    (b0 << low) | (b1 << 8) | (b2 << (16 - low))
}

/// `LEAST[mask][v]`: for a set `mask` of ring symmetries (bit `d` for symmetry
/// `d < 8`), the least image of byte `v` under them in the low byte, and in the high
/// byte the symmetries of `mask` that reach it. Only the cosets of subgroups (35 of
/// the 256 masks) are ever used, so 18 KiB of the table is touched.
static LEAST: [[u16; 256]; 256] = least_table();

const fn least_table() -> [[u16; 256]; 256] {
    let perm = perm_table();
    let mut t = [[0u16; 256]; 256];
    let mut mask = 1;
    while mask < 256 {
        let mut v = 0;
        while v < 256 {
            let mut least = 256;
            let mut reach = 0;
            let mut d = 0;
            while d < 8 {
                if mask & (1 << d) != 0 {
                    let image = perm[d][v] as usize;
                    if image < least {
                        least = image;
                        reach = 1 << d;
                    } else if image == least {
                        reach |= 1 << d;
                    }
                }
                d += 1;
            }
            t[mask][v] = ((reach << 8) | least) as u16;
            v += 1;
        }
        mask += 1;
    }
    t
}

/// The least image of `set` under the 16 symmetries (sets compared as `u32`) and the
/// mask of the symmetries (bit `s` for symmetry `s`) that map `set` onto it.
///
/// The most significant byte is the inner ring: the least image takes the least
/// image of the inner ring (or of the outer ring, with the inner/outer swap), then
/// among the symmetries reaching that the least middle ring, then the least other
/// ring; both choices of the swap are followed, branch-free, and compared at the end.
#[inline(always)]
pub(crate) fn least_image_and_syms(set: Bits) -> (Bits, u32) {
    let b0 = (set & 0xFF) as usize;
    let b1 = ((set >> 8) & 0xFF) as usize;
    let b2 = ((set >> 16) & 0xFF) as usize;
    // Without the swap: rings in the order inner (b2), middle, outer.
    let x2 = LEAST[0xFF][b2] as u32;
    let x1 = LEAST[(x2 >> 8) as usize][b1] as u32;
    let x0 = LEAST[(x1 >> 8) as usize][b0] as u32;
    let key_plain = (x2 & 0xFF) << 16 | (x1 & 0xFF) << 8 | (x0 & 0xFF);
    // With the swap: the outer ring (b0) becomes the inner one.
    let y0 = LEAST[0xFF][b0] as u32;
    let y1 = LEAST[(y0 >> 8) as usize][b1] as u32;
    let y2 = LEAST[(y1 >> 8) as usize][b2] as u32;
    let key_swap = (y0 & 0xFF) << 16 | (y1 & 0xFF) << 8 | (y2 & 0xFF);
    let least = key_plain.min(key_swap);
    let plain = (x0 >> 8) & 0u32.wrapping_sub((key_plain == least) as u32);
    let swap = (y2 >> 8) & 0u32.wrapping_sub((key_swap == least) as u32);
    (least, plain | swap << 8)
}

/// Population count without the `popcnt` instruction (not in baseline x86-64).
#[inline(always)]
pub(crate) fn popcount64(mut x: u64) -> u32 {
    x -= (x >> 1) & 0x5555_5555_5555_5555;
    x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    x = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

const _: () = assert!(POINTS == 24);

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::geometry::{transform, SYMMETRIES};
    use tigadi_rules::Rng;

    #[test]
    fn transform_set_matches_rules() {
        let mut rng = Rng::seeded(0x9E37_79B9);
        for _ in 0..20_000 {
            let x = rng.next_u64() as u32;
            let set = x & ALL;
            for s in 0..SYMMETRIES {
                assert_eq!(
                    transform_set(s, set),
                    transform(s, set),
                    "sym {s} set {set:#x}"
                );
            }
        }
    }

    #[test]
    fn least_image_matches_brute_force() {
        let mut rng = Rng::seeded(0xDEAD_BEEF);
        let check = |set: Bits| {
            let images: Vec<Bits> = (0..SYMMETRIES).map(|s| transform(s, set)).collect();
            let least = *images.iter().min().unwrap();
            let mut syms = 0;
            for (s, &image) in images.iter().enumerate() {
                if image == least {
                    syms |= 1 << s;
                }
            }
            assert_eq!(least_image_and_syms(set), (least, syms), "set {set:#x}");
        };
        for set in [
            0, ALL, 0x01_01_01, 0xFF_00_00, 0x00_00_FF, 0x55_55_55, 0x11_22_44,
        ] {
            check(set);
        }
        for _ in 0..200_000 {
            let x = rng.next_u64() as u32;
            check(x & ALL);
            check(x & ALL & (x >> 5));
        }
    }

    #[test]
    fn popcount_matches() {
        for x in [
            0u64,
            1,
            u64::MAX,
            0x8000_0000_0000_0001,
            0x0123_4567_89AB_CDEF,
        ] {
            assert_eq!(popcount64(x), x.count_ones());
        }
    }

    /// Both ways of counting a set's points agree with `count_ones`: every
    /// byte in each of the three places, and random sets of up to 24 points.
    #[test]
    fn point_counts_by_popcnt_and_by_table_agree() {
        let mut rng = Rng::seeded(57);
        let bytes = (0..256 as Bits).flat_map(|v| [v, v << 8, v << 16]);
        let random = (0..100_000).map(|_| rng.next_u64() as Bits & 0xFF_FFFF);
        for set in bytes.chain(random) {
            assert_eq!(pop(set), set.count_ones(), "{set:#x}");
            assert_eq!(pop_by_table(set), set.count_ones(), "{set:#x}");
        }
    }

    #[test]
    fn colex_rank_is_dense_and_ordered() {
        for k in 0..=6u32 {
            let mut expected = 0;
            for set in 0..(1u32 << 12) {
                if set.count_ones() == k {
                    assert_eq!(colex_rank(set), expected);
                    expected += 1;
                }
            }
        }
        // Spot checks over the whole board: the last set of each size has rank C(24,k)-1.
        for k in 0..=24u32 {
            let last = if k == 0 {
                0
            } else {
                ALL & !((1u32 << (24 - k)) - 1)
            };
            assert_eq!(colex_rank(last), binomial(24, k) - 1, "k = {k}");
        }
    }

    #[test]
    fn compress_and_unrank_agree() {
        let mut rng = Rng::seeded(12345);
        for _ in 0..20_000 {
            let x = rng.next_u64() as u32;
            let taken = x & ALL & 0x55_A5_5A;
            let set = (x >> 7) & ALL & !taken;
            let c = compress(taken, set);
            assert_eq!(c.count_ones(), set.count_ones());
            // Naive compression.
            let mut naive = 0;
            let mut n = 0;
            for p in 0..24 {
                if taken & (1 << p) == 0 {
                    if set & (1 << p) != 0 {
                        naive |= 1 << n;
                    }
                    n += 1;
                }
            }
            assert_eq!(c, naive);
            assert_eq!(expand(taken, c), set);
            assert_eq!(unrank_free(taken, set.count_ones(), colex_rank(c)), set);
        }
    }
}
