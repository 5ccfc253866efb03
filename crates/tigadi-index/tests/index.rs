//! Exhaustive checks of the index on the small subspaces against a naive orbit
//! computation (point-by-point symmetries, no shared tables), and sampled checks on
//! the large ones.

use std::collections::HashSet;

use tigadi_index::{canonical, classes, orbit_size, FreeSets, Images, Subspace, SubspaceIndex};
use tigadi_rules::geometry::{transform_point, Bits, Point, POINTS, SYMMETRIES};
use tigadi_rules::{Board, Rng};

/// The 16 point permutations, from `transform_point` alone.
fn permutations() -> Vec<[u8; POINTS]> {
    (0..SYMMETRIES)
        .map(|s| {
            let mut perm = [0u8; POINTS];
            for p in Point::all() {
                perm[p.index()] = transform_point(s, p).index() as u8;
            }
            perm
        })
        .collect()
}

fn apply(perm: &[u8; POINTS], set: Bits) -> Bits {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        out |= 1 << perm[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    out
}

/// All images of `board` under the 16 symmetries.
fn images(perms: &[[u8; POINTS]], board: Board) -> Vec<Board> {
    perms
        .iter()
        .map(|perm| Board {
            mover: apply(perm, board.mover),
            opponent: apply(perm, board.opponent),
        })
        .collect()
}

/// The naive orbit representative: least `(mover, opponent)` pair over the images.
fn naive_least(perms: &[[u8; POINTS]], board: Board) -> Board {
    images(perms, board)
        .into_iter()
        .min_by_key(|b| (b.mover, b.opponent))
        .unwrap()
}

/// Every set of `k` points, increasing.
fn sets(k: u32) -> Vec<Bits> {
    (0..1u32 << POINTS)
        .filter(|s| s.count_ones() == k)
        .collect()
}

fn boards(sub: Subspace) -> Vec<Board> {
    let movers = sets(sub.mover as u32);
    let opponents = sets(sub.opponent as u32);
    let mut out = Vec::new();
    for &m in &movers {
        for &o in &opponents {
            if m & o == 0 {
                out.push(Board {
                    mover: m,
                    opponent: o,
                });
            }
        }
    }
    out
}

fn check_exhaustively(sub: Subspace) {
    let perms = permutations();
    let index = SubspaceIndex::new(sub);
    let mut orbits = HashSet::new();
    for board in boards(sub) {
        let least = naive_least(&perms, board);
        orbits.insert(least);
        let slot = index.index(board);
        assert!(slot < index.slots(), "{sub}: slot {slot} out of range");
        let decoded = index
            .board(slot)
            .unwrap_or_else(|| panic!("{board:?} lands on padding"));
        assert_eq!(
            naive_least(&perms, decoded),
            least,
            "{board:?} decodes outside its orbit"
        );
        assert_eq!(
            canonical(board),
            decoded,
            "canonical() disagrees with the slot's board"
        );
        let mut all = images(&perms, board);
        all.sort_unstable();
        all.dedup();
        assert_eq!(orbit_size(board), all.len() as u32);
    }
    let mut used = 0u64;
    for slot in 0..index.slots() {
        if let Some(board) = index.board(slot) {
            used += 1;
            assert_eq!(Subspace::of(board), sub);
            assert_eq!(board.mover & board.opponent, 0);
            assert_eq!(index.index(board), slot, "slot {slot} does not round-trip");
        }
    }
    assert_eq!(
        used,
        orbits.len() as u64,
        "{sub}: non-padding slots vs orbits"
    );
    assert_eq!(
        classes(sub),
        orbits.len() as u64,
        "{sub}: classes() vs orbits"
    );
}

#[test]
fn exhaustive_3v3() {
    check_exhaustively(Subspace::new(3, 3));
}

#[test]
fn exhaustive_3v4() {
    check_exhaustively(Subspace::new(3, 4));
}

#[test]
fn exhaustive_4v3() {
    check_exhaustively(Subspace::new(4, 3));
}

/// A random board of `sub`.
fn random_board(rng: &mut Rng, sub: Subspace) -> Board {
    let mover = rng.points(sub.mover, 0);
    Board {
        mover,
        opponent: rng.points(sub.opponent, mover),
    }
}

#[test]
fn sampled_large_subspaces() {
    let perms = permutations();
    let mut rng = Rng::seeded(0x2545_F491_4F6C_DD1D);
    let subs = [
        (9, 9),
        (8, 9),
        (9, 8),
        (5, 7),
        (7, 5),
        (8, 8),
        (6, 6),
        (9, 3),
        (3, 9),
        (12, 12),
    ];
    for (m, o) in subs {
        let sub = Subspace::new(m, o);
        let index = SubspaceIndex::new(sub);
        for _ in 0..20_000 {
            let board = random_board(&mut rng, sub);
            let slot = index.index(board);
            assert!(slot < index.slots());
            let decoded = index.board(slot).expect("a board lands on a class slot");
            let least = naive_least(&perms, board);
            assert_eq!(naive_least(&perms, decoded), least);
            assert_eq!(index.index(decoded), slot);
            for image in images(&perms, board) {
                assert_eq!(index.index(image), slot, "images of {board:?} differ");
                let class = index.mover_class(image.mover);
                assert_eq!(index.index_with(class, image.opponent), slot);
            }
            assert_eq!(canonical(board), least);
            // A random slot: padding or a round trip.
            let slot = rng.next_u64() % index.slots();
            if let Some(b) = index.board(slot) {
                assert_eq!(index.index(b), slot);
                assert_eq!(naive_least(&perms, b), b, "decoded board is not canonical");
            }
        }
    }
}

#[test]
fn total_overhead_within_target() {
    let (mut slots, mut classes_total) = (0u64, 0u64);
    for sub in Subspace::standard() {
        let index = SubspaceIndex::new(sub);
        assert!(index.slots() >= classes(sub));
        slots += index.slots();
        classes_total += classes(sub);
    }
    assert_eq!(classes_total, 8_904_593_601);
    let overhead = (slots - classes_total) as f64 / classes_total as f64;
    assert!(overhead <= 0.035, "overhead {:.3}%", overhead * 100.0);
}

#[test]
fn index_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<SubspaceIndex>();
}

#[test]
fn sweeping_matches_random_access() {
    for (m, o) in [(3, 3), (4, 3), (3, 0), (0, 3), (12, 12), (9, 9), (2, 22)] {
        let index = SubspaceIndex::new(Subspace::new(m, o));
        let slots = index.slots();
        // Whole subspaces where small, else ranges at the start, across run
        // boundaries and at the end.
        let ranges = if slots <= 300_000 {
            vec![0..slots, 1..slots / 2, slots / 3..slots + 5]
        } else {
            let run = index.run_length();
            vec![
                0..100_000,
                run * 7 - 500..run * 9 + 17,
                slots - 100_000..slots,
                slots..slots + 3,
            ]
        };
        for range in ranges {
            let expected: Vec<(u64, Board)> = (range.start..range.end.min(slots))
                .filter_map(|s| index.board(s).map(|b| (s, b)))
                .collect();
            let swept: Vec<(u64, Board)> = index.boards(range.clone()).collect();
            assert_eq!(swept, expected, "{m}v{o} {range:?}");
        }
    }
}

/// `MoverClass::opponent_key` tells two boards with one mover set apart exactly when
/// they are in different classes, and `is_symmetric` says whether a symmetry besides
/// the identity fixes the mover set: checked against the naive orbit computation on
/// every mover set of 3, 4 and 6 gotis (symmetric sets are common among these), with
/// random opponent sets and their images under the mover set's own symmetries.
#[test]
fn opponent_key_separates_exactly_the_classes() {
    let perms = permutations();
    let mut rng = Rng::seeded(0x9E37_79B9_7F4A_7C15);
    let mut symmetric_seen = 0;
    for (m, o) in [(3u8, 3u8), (4, 5), (6, 2)] {
        let index = SubspaceIndex::new(Subspace::new(m, o));
        for mover in sets(m as u32) {
            let class = index.mover_class(mover);
            let fixing: Vec<&[u8; POINTS]> =
                perms.iter().filter(|p| apply(p, mover) == mover).collect();
            assert_eq!(class.is_symmetric(), fixing.len() > 1, "mover {mover:#x}");
            symmetric_seen += class.is_symmetric() as u32;
            for _ in 0..4 {
                let a = Board {
                    mover,
                    opponent: rng.points(o, mover),
                };
                // Another random opponent set, and an image of `a` that keeps the
                // mover set (the same class).
                let b = Board {
                    mover,
                    opponent: rng.points(o, mover),
                };
                let image = Board {
                    mover,
                    opponent: apply(fixing[rng.below(fixing.len())], a.opponent),
                };
                for other in [b, image] {
                    let same = naive_least(&perms, a) == naive_least(&perms, other);
                    assert_eq!(
                        class.opponent_key(a.opponent) == class.opponent_key(other.opponent),
                        same,
                        "{a:?} and {other:?}"
                    );
                    if !class.is_symmetric() {
                        assert_eq!(same, a.opponent == other.opponent);
                    }
                }
            }
        }
    }
    assert!(
        symmetric_seen > 100,
        "only {symmetric_seen} symmetric mover sets"
    );
}

/// Grouped by opponent set, every slot that holds a position is visited exactly
/// once and padding never; each board given is of its slot's class (its canonical
/// form is the slot's board, by the naive least image), and its opponent set is
/// the least of its orbit. Subspaces with few gotis (placing layers: 0, 1 or 2 on a
/// side) and with symmetric opponent sets included.
#[test]
fn boards_by_opponent_visit_every_position_once() {
    let perms = permutations();
    for (m, o) in [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (3, 3),
        (4, 3),
        (2, 5),
    ] {
        let sub = Subspace::new(m, o);
        let idx = SubspaceIndex::new(sub);
        let mut seen = vec![0u8; idx.slots() as usize];
        // In two halves of the orbits, as parallel callers split them.
        let half = idx.opponent_orbits() / 2;
        for range in [0..half, half..idx.opponent_orbits()] {
            idx.for_each_board_by_opponent(range, |slot, board, number| {
                seen[slot as usize] += 1;
                let free = FreeSets::new(board.opponent);
                assert_eq!(
                    FreeSets::number(free.compress(board.mover)),
                    number,
                    "{sub} {board:?}: the mover set's number"
                );
                assert_eq!(Subspace::of(board), sub);
                assert_eq!(
                    idx.board(slot),
                    Some(naive_least(&perms, board)),
                    "{sub} {board:?}"
                );
                let least_opponent = perms
                    .iter()
                    .map(|p| apply(p, board.opponent))
                    .min()
                    .unwrap();
                assert_eq!(
                    board.opponent, least_opponent,
                    "{sub}: opponent set not canonical"
                );
            });
        }
        for (slot, &n) in seen.iter().enumerate() {
            let real = idx.board(slot as u64).is_some();
            assert_eq!(n, real as u8, "{sub} slot {slot} visited {n} times");
        }
    }
}

/// `MoverClass::identity_run` is given exactly for the mover sets that are their own
/// canonical set with no other symmetry fixing them (against the naive orbit
/// computation), and then every opponent set's slot is the run's start plus the
/// set's number among the sets the mover set leaves free (`FreeSets`), checked
/// against `index_with` for every opponent set.
#[test]
fn identity_runs_are_numbered_by_free_sets() {
    let perms = permutations();
    let mut runs = 0;
    for (m, o) in [(3u8, 3u8), (4, 2), (5, 4)] {
        let index = SubspaceIndex::new(Subspace::new(m, o));
        for mover in sets(m as u32) {
            let class = index.mover_class(mover);
            let images: Vec<Bits> = perms.iter().map(|p| apply(p, mover)).collect();
            let least = images.iter().all(|&i| i >= mover);
            let fixed = images.iter().filter(|&&i| i == mover).count();
            assert_eq!(
                class.identity_run().is_some(),
                least && fixed == 1,
                "mover {mover:#x}"
            );
            let Some(start) = class.identity_run() else {
                continue;
            };
            runs += 1;
            let free = FreeSets::new(mover);
            let mut seen = 0;
            free.for_each(o as u32, |opponent| {
                let number = FreeSets::number(free.compress(opponent)) as u64;
                assert_eq!(index.index_with(class, opponent), start + number);
                assert!(number < index.run_length());
                seen += 1;
            });
            assert_eq!(seen, index.run_length());
        }
    }
    assert!(runs > 100, "only {runs} runs");
}

/// The ways the solver forms slots from shared work agree with plain indexing
/// (itself checked against the naive orbits above): `mover_class_of` and
/// `index_with_images` from a set's images, `Near` (a board's quiet successors by
/// toggling two points of one form, only for mover sets no symmetry fixes, as the
/// naive orbit computation says), and `run_mover` (every run's canonical set
/// and whether its run holds padding, against decoding and the naive stabiliser).
#[test]
fn shared_work_agrees_with_plain_indexing() {
    let perms = permutations();
    let mut rng = Rng::seeded(31);
    let mut near_checked = 0;
    for (m, o) in [
        (3, 3),
        (4, 6),
        (6, 4),
        (7, 7),
        (9, 8),
        (8, 9),
        (5, 9),
        (9, 3),
    ] {
        let sub = Subspace::new(m, o);
        let index = SubspaceIndex::new(sub);
        for _ in 0..5_000 {
            let board = random_board(&mut rng, sub);
            let slot = index.index(board);
            let class = index.mover_class(board.mover);
            let from_images = index.mover_class_of(&Images::of(board.mover));
            assert_eq!(from_images, class, "{board:?}");
            assert_eq!(
                index.index_with_images(from_images, &Images::of(board.opponent)),
                slot
            );
            let fixed = perms
                .iter()
                .filter(|p| apply(p, board.mover) == board.mover)
                .count();
            let near = class.near(board.opponent);
            assert_eq!(near.is_some(), fixed == 1, "{board:?}");
            if let Some(near) = near {
                assert_eq!(near.slot(), slot);
                let empty = !(board.mover | board.opponent) & ((1 << POINTS) - 1);
                for a in 0..POINTS {
                    for b in 0..POINTS {
                        if board.opponent & 1 << a != 0 && empty & 1 << b != 0 {
                            let moved = Board {
                                mover: board.mover,
                                opponent: board.opponent ^ 1 << a ^ 1 << b,
                            };
                            assert_eq!(near.toggled(a, b), index.index(moved), "{moved:?}");
                            assert_eq!(near.toggled(b, a), index.index(moved));
                            near_checked += 1;
                        }
                    }
                }
            }
            let run = slot / index.run_length();
            let (mover, symmetric) = index.run_mover(run);
            assert_eq!(mover, naive_least(&perms, board).mover);
            let stabiliser = perms.iter().filter(|p| apply(p, mover) == mover).count();
            assert_eq!(symmetric, stabiliser > 1, "run of {mover:#x}");
        }
    }
    assert!(
        near_checked > 100_000,
        "only {near_checked} toggles checked"
    );
}
