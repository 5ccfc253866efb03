//! Board geometry: the 24 points, the lines, adjacency and the 16 symmetries.
//!
//! # Bit layout
//!
//! A set of points is a [`Bits`] word (`u32`, low 24 bits used). Bit `8 * ring + k`
//! is point `k` of ring `ring`, where ring 0 is the outer square, 1 the middle and
//! 2 the inner, and `k` runs clockwise from the top-left corner:
//! `0` top-left corner, `1` top midpoint, `2` top-right corner, `3` right midpoint,
//! `4` bottom-right corner, `5` bottom midpoint, `6` bottom-left corner, `7` left
//! midpoint. So each ring is one byte, corners are the even bits and midpoints the
//! odd bits of it, and every board symmetry is a handful of word operations:
//! a quarter turn rotates each byte by two bits, a reflection reverses the bits of
//! each byte (then rotates), and the inner/outer swap exchanges bytes 0 and 2.

use std::fmt;

/// A set of points: bit `i` is point `i` (see the module docs for the layout).
pub type Bits = u32;

/// Number of points on the board.
pub const POINTS: usize = 24;

/// Mask of all 24 points.
pub const ALL: Bits = (1 << POINTS) - 1;

/// Number of board symmetries (8 of the square times the inner/outer swap).
pub const SYMMETRIES: usize = 16;

/// Point names in bit order.
const NAMES: [&str; POINTS] = [
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4", // outer ring
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4", // middle ring
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4", // inner ring
];

/// One of the 24 points, `0..24` in the bit layout of the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point(u8);

impl Point {
    /// The point with bit index `index`; `None` unless `index < 24`.
    pub fn new(index: usize) -> Option<Point> {
        (index < POINTS).then_some(Point(index as u8))
    }

    /// All 24 points in bit order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..POINTS as u8).map(Point)
    }

    /// The bit index `0..24`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-point set `{self}`.
    pub fn bit(self) -> Bits {
        1 << self.0
    }

    /// Ring `0` (outer), `1` (middle) or `2` (inner).
    pub fn ring(self) -> usize {
        self.0 as usize / 8
    }

    /// Position `0..8` within the ring, clockwise from the top-left corner.
    pub fn slot_in_ring(self) -> usize {
        self.0 as usize % 8
    }

    /// Is this a corner of its square (as opposed to a side's midpoint)?
    pub fn is_corner(self) -> bool {
        self.slot_in_ring() & 1 == 0
    }

    /// The point's name in mill notation, `a1` … `g7`.
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// Parses a point name such as `d5` (lower case only).
    pub fn parse(name: &str) -> Option<Point> {
        NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Point(i as u8))
    }

    /// The points of a set, lowest bit first.
    pub fn iter(bits: Bits) -> impl Iterator<Item = Point> {
        BitIter(bits)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Iterator over the points of a set.
struct BitIter(Bits);

impl Iterator for BitIter {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Point(i as u8))
    }
}

/// Which board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// 20 lines: the three squares, the four midpoint spokes and the four corner
    /// diagonals; 40 connections. The Tigadi board.
    Diagonals,
    /// 16 lines: no corner diagonals; 32 connections. The nine men's morris board.
    Plain,
}

/// Lines, adjacency and per-point line masks of one board.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Which board this is.
    pub kind: BoardKind,
    /// Every line as a three-point set.
    pub lines: Vec<Bits>,
    /// `neighbours[p]`: the points adjacent to point `p`.
    pub neighbours: [Bits; POINTS],
    /// `lines_through[p]`: up to 3 lines through `p` (unused entries are 0).
    pub lines_through: [[Bits; 3]; POINTS],
}

fn bit(ring: usize, k: usize) -> Bits {
    1 << (8 * ring + (k % 8))
}

impl Geometry {
    fn build(kind: BoardKind) -> Geometry {
        let mut lines = Vec::new();
        for ring in 0..3 {
            for side in 0..4 {
                let k = 2 * side;
                lines.push(bit(ring, k) | bit(ring, k + 1) | bit(ring, k + 2));
            }
        }
        for k in [1, 3, 5, 7] {
            lines.push(bit(0, k) | bit(1, k) | bit(2, k));
        }
        if kind == BoardKind::Diagonals {
            for k in [0, 2, 4, 6] {
                lines.push(bit(0, k) | bit(1, k) | bit(2, k));
            }
        }
        let mut neighbours = [0; POINTS];
        let mut lines_through = [[0; 3]; POINTS];
        for &line in &lines {
            let pts: Vec<usize> = Point::iter(line).map(Point::index).collect();
            // Consecutive points on a line are neighbours; the middle point of a
            // line is the one adjacent to both others. On every line the middle
            // point is the one whose bit lies between the others in ring order
            // (side lines) or is in the middle ring (spokes and diagonals).
            let middle = if line & 0x00FF00 != 0 && line & 0xFF != 0 && line & 0xFF0000 != 0 {
                pts.iter().copied().find(|&p| p / 8 == 1).unwrap()
            } else {
                // A side: three consecutive slots k, k+1, k+2 (mod 8) of one ring;
                // the middle one is the odd slot (the midpoint).
                pts.iter().copied().find(|&p| p % 2 == 1).unwrap()
            };
            for &p in &pts {
                if p != middle {
                    neighbours[p] |= 1 << middle;
                    neighbours[middle] |= 1 << p;
                }
                let slot = lines_through[p].iter().position(|&l| l == 0).unwrap();
                lines_through[p][slot] = line;
            }
        }
        Geometry {
            kind,
            lines,
            neighbours,
            lines_through,
        }
    }

    /// The geometry of `kind`, built once.
    #[inline]
    pub fn of(kind: BoardKind) -> &'static Geometry {
        use std::sync::OnceLock;
        static DIAG: OnceLock<Geometry> = OnceLock::new();
        static PLAIN: OnceLock<Geometry> = OnceLock::new();
        match kind {
            BoardKind::Diagonals => DIAG.get_or_init(|| Geometry::build(kind)),
            BoardKind::Plain => PLAIN.get_or_init(|| Geometry::build(kind)),
        }
    }

    /// Does a goti of a player owning `own` (which includes `point`) that stands on
    /// `point` complete a line, i.e. is `point` on a line all of whose points are in
    /// `own`?
    #[inline]
    pub fn in_line(&self, own: Bits, point: usize) -> bool {
        let [a, b, c] = self.lines_through[point];
        (own & a == a && a != 0) || (own & b == b && b != 0) || (own & c == c && c != 0)
    }

    /// The gotis of `own` that stand in a complete line of `own` (the protected
    /// ones, when `own` is the side about to lose a goti).
    #[inline]
    pub fn in_lines(&self, own: Bits) -> Bits {
        let mut m = 0;
        for &l in &self.lines {
            if own & l == l {
                m |= l;
            }
        }
        m
    }

    /// The gotis of `own` that may be captured: those outside complete lines, or all
    /// of them when every one stands in a complete line.
    #[inline]
    pub fn capturable(&self, own: Bits) -> Bits {
        let free = own & !self.in_lines(own);
        if free == 0 {
            own
        } else {
            free
        }
    }
}

/// Rotate every byte of `x` left by `n` bits (`0 < n < 8`).
#[inline(always)]
const fn rotate_bytes(x: u64, n: u32) -> u64 {
    let lo = 0x0101_0101_0101_0101u64 * ((1u64 << n) - 1); // low n bits of each byte
    ((x << n) & !lo) | ((x >> (8 - n)) & lo)
}

/// Applies symmetry `sym` (`0..16`) to both 24-bit sets packed in `x` (bits 0..24
/// and 32..56). `sym = 8 * swap + 4 * reflect + quarter_turns`: first the reflection
/// `k -> 2 - k` (mod 8, the mirror in the vertical axis), then `quarter_turns`
/// clockwise quarter turns (`k -> k + 2`), then the inner/outer swap. The same
/// transform maps point `p` as [`transform_point`] does.
#[inline(always)]
pub fn transform_pair(sym: usize, mut x: u64) -> u64 {
    if sym & 4 != 0 {
        // Reverse the bits of every byte (k -> 7 - k), then rotate by 3: k -> 10 - k.
        x = x.reverse_bits().swap_bytes();
        x = rotate_bytes(x, 3);
    }
    match sym & 3 {
        0 => {}
        1 => x = rotate_bytes(x, 2),
        2 => x = rotate_bytes(x, 4),
        _ => x = rotate_bytes(x, 6),
    }
    if sym & 8 != 0 {
        const MID: u64 = 0x0000_FF00_0000_FF00;
        const LOW: u64 = 0x0000_00FF_0000_00FF;
        x = (x & MID) | ((x & LOW) << 16) | ((x >> 16) & LOW);
    }
    x
}

/// Applies symmetry `sym` to one set of points (see [`transform_pair`]).
#[inline(always)]
pub fn transform(sym: usize, bits: Bits) -> Bits {
    transform_pair(sym, bits as u64) as Bits
}

/// Where symmetry `sym` sends point `p` (the definition [`transform_pair`] follows).
pub fn transform_point(sym: usize, p: Point) -> Point {
    let (mut ring, mut k) = (p.ring(), p.slot_in_ring());
    if sym & 4 != 0 {
        k = (10 - k) % 8;
    }
    k = (k + 2 * (sym & 3)) % 8;
    if sym & 8 != 0 {
        ring = 2 - ring;
    }
    Point((8 * ring + k) as u8)
}

/// The symmetry that undoes `sym`: `transform(inverse(s), transform(s, x)) == x`.
pub fn inverse(sym: usize) -> usize {
    (0..SYMMETRIES)
        .find(|&t| Point::all().all(|p| transform_point(t, transform_point(sym, p)) == p))
        .expect("every symmetry has an inverse")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_connections(g: &Geometry) -> u32 {
        g.neighbours.iter().map(|n| n.count_ones()).sum::<u32>() / 2
    }

    #[test]
    fn line_and_connection_counts() {
        let d = Geometry::of(BoardKind::Diagonals);
        let p = Geometry::of(BoardKind::Plain);
        assert_eq!(d.lines.len(), 20);
        assert_eq!(p.lines.len(), 16);
        assert_eq!(count_connections(d), 40);
        assert_eq!(count_connections(p), 32);
        for q in Point::all() {
            let n = d.neighbours[q.index()].count_ones();
            assert!(n == 3 || n == 4, "{q} has {n} neighbours");
            assert_eq!(d.neighbours[q.index()] & q.bit(), 0);
        }
    }

    #[test]
    fn lines_match_rules_text() {
        // docs/RULES.md §1, written out by name.
        let text = "a1 d1 g1 g1 g4 g7 a7 d7 g7 a1 a4 a7 b2 d2 f2 f2 f4 f6 b6 d6 f6 b2 b4 b6 \
                    c3 d3 e3 e3 e4 e5 c5 d5 e5 c3 c4 c5 d1 d2 d3 g4 f4 e4 d7 d6 d5 a4 b4 c4 \
                    a1 b2 c3 g1 f2 e3 g7 f6 e5 a7 b6 c5";
        let names: Vec<&str> = text.split_whitespace().collect();
        let mut expected: Vec<Bits> = names
            .chunks(3)
            .map(|c| {
                c.iter()
                    .map(|n| Point::parse(n).unwrap().bit())
                    .fold(0, |a, b| a | b)
            })
            .collect();
        let mut got = Geometry::of(BoardKind::Diagonals).lines.clone();
        expected.sort();
        got.sort();
        assert_eq!(got, expected);
        // Adjacency: consecutive on a line as written in the table.
        let g = Geometry::of(BoardKind::Diagonals);
        for c in names.chunks(3) {
            let [a, b, c] = [c[0], c[1], c[2]].map(|n| Point::parse(n).unwrap());
            assert!(g.neighbours[a.index()] & b.bit() != 0);
            assert!(g.neighbours[b.index()] & c.bit() != 0);
            assert!(g.neighbours[a.index()] & c.bit() == 0);
        }
    }

    #[test]
    fn symmetries_preserve_lines_and_adjacency() {
        for kind in [BoardKind::Diagonals, BoardKind::Plain] {
            let g = Geometry::of(kind);
            let mut images = std::collections::HashSet::new();
            for s in 0..SYMMETRIES {
                let perm: Vec<Point> = Point::all().map(|p| transform_point(s, p)).collect();
                images.insert(perm.clone());
                for p in Point::all() {
                    // The word transform agrees with the point transform.
                    assert_eq!(transform(s, p.bit()), perm[p.index()].bit());
                    assert_eq!(
                        transform(s, g.neighbours[p.index()]),
                        g.neighbours[perm[p.index()].index()]
                    );
                }
                let mut mapped: Vec<Bits> = g.lines.iter().map(|&l| transform(s, l)).collect();
                let mut lines = g.lines.clone();
                mapped.sort();
                lines.sort();
                assert_eq!(mapped, lines, "symmetry {s} on {kind:?}");
                let t = inverse(s);
                assert_eq!(transform(t, transform(s, 0xABCDEF)), 0xABCDEF);
            }
            assert_eq!(images.len(), 16, "the 16 symmetries are distinct");
        }
        // The inner/outer swap maps a1 to c3, d1 to d3 and keeps b2.
        let sw = |n: &str| transform_point(8, Point::parse(n).unwrap()).name();
        assert_eq!((sw("a1"), sw("d1"), sw("b2")), ("c3", "d3", "b2"));
    }

    #[test]
    fn pair_transform_acts_on_both_halves() {
        for s in 0..SYMMETRIES {
            let (a, b) = (0x12_3456u32, 0xFE_DCBAu32);
            let x = transform_pair(s, a as u64 | ((b as u64) << 32));
            assert_eq!(x as u32, transform(s, a));
            assert_eq!((x >> 32) as u32, transform(s, b));
        }
    }
}
