//! The 16 symmetric images of a point set, side by side: what makes the
//! canonical forms of neighbouring positions cheap.
//!
//! A position's quiet predecessors and successors differ from it in two points
//! of one set (a goti left `from` and arrived on `to`), and symmetries map sets
//! point by point, so the images of such a neighbour are the position's images
//! with two point images toggled: `s(S - {from} + {to}) = s(S) ^ s({from}) ^
//! s({to})` for every `s`. Sixteen images are sixteen 32-bit lanes, so the
//! toggling, the least image and the symmetries that reach it are a few vector
//! instructions ([`Images::least`]), with no table walk per ring.

use tigadi_rules::geometry::{Bits, POINTS, SYMMETRIES};

use crate::tables::transform_set_const;

/// The images `s(S)` of one point set `S` under the 16 symmetries, lane `s` for
/// symmetry `s` (lane 0, the identity, is `S` itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Images([Bits; SYMMETRIES]);

/// `BYTE_IMAGES[b][v]`: the images of the set whose byte `b` (points `8b ..
/// 8b + 8`) is `v` and which is empty elsewhere: three bytes of 256 values, 48
/// KiB, so a set's images are three look-ups and two exclusive ors.
static BYTE_IMAGES: [[Images; 256]; 3] = byte_images();

const fn byte_images() -> [[Images; 256]; 3] {
    let mut t = [[Images([0; SYMMETRIES]); 256]; 3];
    let mut b = 0;
    while b < 3 {
        // Each set is the one without its lowest point, plus that point.
        let mut v = 1;
        while v < 256 {
            let low = (v as u32).trailing_zeros() as usize;
            let point = POINT_IMAGES[8 * b + low];
            let mut s = 0;
            while s < SYMMETRIES {
                t[b][v].0[s] = t[b][v & (v - 1)].0[s] ^ point.0[s];
                s += 1;
            }
            v += 1;
        }
        b += 1;
    }
    t
}

/// `POINT_IMAGES[p]`: the images of the one point `p`.
static POINT_IMAGES: [Images; POINTS] = point_images();

const fn point_images() -> [Images; POINTS] {
    let mut t = [Images([0; SYMMETRIES]); POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut s = 0;
        while s < SYMMETRIES {
            t[p].0[s] = transform_set_const(s, 1 << p);
            s += 1;
        }
        p += 1;
    }
    t
}

impl Images {
    /// The images of `set`.
    #[inline(always)]
    pub fn of(set: Bits) -> Images {
        BYTE_IMAGES[0][(set & 0xFF) as usize]
            .toggled(&BYTE_IMAGES[1][((set >> 8) & 0xFF) as usize])
            .toggled(&BYTE_IMAGES[2][((set >> 16) & 0xFF) as usize])
    }

    /// The images of the one point `point` (`0..24`).
    #[inline(always)]
    pub fn point(point: usize) -> &'static Images {
        &POINT_IMAGES[point]
    }

    /// The set itself (its image under the identity).
    #[inline(always)]
    pub fn set(&self) -> Bits {
        self.0[0]
    }

    /// The image under symmetry `s`.
    #[inline(always)]
    pub fn image(&self, s: usize) -> Bits {
        self.0[s & (SYMMETRIES - 1)]
    }

    /// The images of the symmetric difference of the two sets: with
    /// [`point`](Self::point), a point added to or removed from the set.
    #[inline(always)]
    pub fn toggled(&self, other: &Images) -> Images {
        let mut out = [0; SYMMETRIES];
        for c in 0..SYMMETRIES / 4 {
            for l in 0..4 {
                out[4 * c + l] = self.0[4 * c + l] ^ other.0[4 * c + l];
            }
        }
        Images(out)
    }

    /// The least image (sets compared as `u32`) and the symmetries that give it
    /// (bit `s` for symmetry `s`).
    #[inline(always)]
    pub fn least(&self) -> (Bits, u32) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
        // SAFETY: the loads read the 64 aligned bytes of `self.0`; SSE4.1 is
        // enabled for this build (the cfg above).
        unsafe {
            use std::arch::x86_64::*;
            let p = self.0.as_ptr() as *const __m128i;
            let (a, b, c, d) = (
                _mm_load_si128(p),
                _mm_load_si128(p.add(1)),
                _mm_load_si128(p.add(2)),
                _mm_load_si128(p.add(3)),
            );
            let m = _mm_min_epu32(_mm_min_epu32(a, b), _mm_min_epu32(c, d));
            let m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0b01_00_11_10));
            let m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0b10_11_00_01));
            let ab = _mm_packs_epi32(_mm_cmpeq_epi32(a, m), _mm_cmpeq_epi32(b, m));
            let cd = _mm_packs_epi32(_mm_cmpeq_epi32(c, m), _mm_cmpeq_epi32(d, m));
            let syms = _mm_movemask_epi8(_mm_packs_epi16(ab, cd)) as u32;
            (_mm_cvtsi128_si32(m) as Bits, syms)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
        {
            let least = self.0.iter().fold(Bits::MAX, |m, &x| m.min(x));
            let mut syms = 0;
            for (s, &x) in self.0.iter().enumerate() {
                syms |= ((x == least) as u32) << s;
            }
            (least, syms)
        }
    }

    /// The least image under the symmetries in `syms` (not empty).
    #[inline(always)]
    pub fn least_of(&self, syms: u32) -> Bits {
        let first = self.image(syms.trailing_zeros() as usize);
        let mut rest = syms & (syms - 1);
        let mut least = first;
        while rest != 0 {
            least = least.min(self.image(rest.trailing_zeros() as usize));
            rest &= rest - 1;
        }
        least
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::geometry::{transform, ALL};
    use tigadi_rules::Rng;

    #[test]
    fn images_match_the_rules_transforms() {
        let mut rng = Rng::seeded(31);
        for _ in 0..20_000 {
            let set = rng.next_u64() as Bits & ALL;
            let images = Images::of(set);
            for s in 0..SYMMETRIES {
                assert_eq!(images.image(s), transform(s, set), "set {set:#x} sym {s}");
            }
            let p = rng.below(POINTS);
            let toggled = images.toggled(Images::point(p));
            assert_eq!(toggled, Images::of(set ^ 1 << p));
            // The least image and its symmetries, by plain comparison.
            let least = (0..SYMMETRIES).map(|s| transform(s, set)).min().unwrap();
            let syms = (0..SYMMETRIES)
                .filter(|&s| transform(s, set) == least)
                .fold(0, |m, s| m | 1 << s);
            assert_eq!(images.least(), (least, syms));
            let some = (rng.next_u64() as u32 & 0xFFFF) | 1 << rng.below(16);
            let expected = (0..SYMMETRIES)
                .filter(|&s| some & 1 << s != 0)
                .map(|s| transform(s, set))
                .min()
                .unwrap();
            assert_eq!(images.least_of(some), expected);
        }
    }
}
