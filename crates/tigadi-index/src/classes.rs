//! Exact class counts by Burnside's lemma.

use tigadi_rules::geometry::{transform_point, Point, POINTS, SYMMETRIES};

use crate::subspace::Subspace;

/// Number of symmetry classes (orbits under the 16 symmetries) of the boards in
/// `sub`, exact: the average over the symmetries of the number of boards each fixes.
///
/// A board is fixed by a symmetry when both of its point sets are unions of the
/// symmetry's cycles, so the fixed boards are counted from the cycle lengths alone.
pub fn classes(sub: Subspace) -> u64 {
    let (m, o) = (sub.mover as usize, sub.opponent as usize);
    if m + o > POINTS {
        return 0;
    }
    let mut total = 0u64;
    for s in 0..SYMMETRIES {
        // ways[a][b]: ways to pick disjoint unions of the cycles seen so far with
        // `a` points for the mover and `b` for the opponent.
        let mut ways = vec![vec![0u64; o + 1]; m + 1];
        ways[0][0] = 1;
        for len in cycle_lengths(s) {
            for a in (0..=m).rev() {
                for b in (0..=o).rev() {
                    let mut w = ways[a][b];
                    if a >= len {
                        w += ways[a - len][b];
                    }
                    if b >= len {
                        w += ways[a][b - len];
                    }
                    ways[a][b] = w;
                }
            }
        }
        total += ways[m][o];
    }
    debug_assert_eq!(total % SYMMETRIES as u64, 0);
    total / SYMMETRIES as u64
}

/// The lengths of the cycles of symmetry `sym` acting on the 24 points.
fn cycle_lengths(sym: usize) -> Vec<usize> {
    let mut seen = [false; POINTS];
    let mut lengths = Vec::new();
    for p in Point::all() {
        if seen[p.index()] {
            continue;
        }
        let mut len = 0;
        let mut q = p;
        while !seen[q.index()] {
            seen[q.index()] = true;
            len += 1;
            q = transform_point(sym, q);
        }
        lengths.push(len);
    }
    lengths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_class_counts() {
        assert_eq!(classes(Subspace::new(3, 3)), 169_626);
        assert_eq!(classes(Subspace::new(3, 4)), 760_398);
        assert_eq!(classes(Subspace::new(4, 3)), 760_398);
        let total: u64 = Subspace::standard().map(classes).sum();
        assert_eq!(total, 8_904_593_601);
    }
}
