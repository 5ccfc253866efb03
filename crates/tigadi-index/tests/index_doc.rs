//! `docs/INDEX.md` is a complete specification of the slot numbering.
//!
//! This file holds a second, deliberately plain implementation of the slot, written
//! from the document's words only: it reads the point numbering and the table of the
//! 16 symmetries out of `docs/INDEX.md` itself, canonicalises by trying all 16
//! images, enumerates canonical mover sets by brute force and ranks opponent sets
//! with a binomial sum, using nothing of this crate. The tests require it to agree
//! with [`SubspaceIndex`] on the document's test vectors, on random boards of every
//! standard subspace and on random slots (padding included), and require the test
//! vectors to match both.
//!
//! `cargo test --release -p tigadi-index --test index -- --ignored --nocapture index_doc::`
//! prints fresh rows for the vector table (computed by the plain implementation).

use std::collections::HashMap;
use std::sync::OnceLock;
use tigadi_index::{canonical, Subspace, SubspaceIndex};
use tigadi_rules::{parse_position, Board, Position, Rng, Side};

const DOC: &str = include_str!("../../../docs/INDEX.md");

/// What the document says, parsed.
struct Spec {
    /// Point names by bit number.
    names: Vec<String>,
    /// `perm[s][p]`: where symmetry `s` sends point `p`.
    perm: Vec<[usize; 24]>,
}

/// The rows of the markdown table whose header row starts with `first_header`.
fn table_rows(first_header: &str) -> Vec<Vec<String>> {
    let mut lines = DOC
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(&format!("| {first_header} |")));
    assert!(
        lines.next().is_some(),
        "INDEX.md has a table headed '{first_header}'"
    );
    lines.next(); // the |---| row
    lines
        .take_while(|l| l.trim_start().starts_with('|'))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_string())
                .collect()
        })
        .collect()
}

fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| {
        let points = table_rows("bit");
        assert_eq!(points.len(), 24, "24 points in the numbering table");
        let mut names = Vec::new();
        for (i, row) in points.iter().enumerate() {
            assert_eq!(row[0].parse::<usize>().unwrap(), i, "bits in order");
            names.push(row[1].clone());
        }
        let syms = table_rows("s");
        assert_eq!(syms.len(), 16, "16 symmetries");
        let mut perm = Vec::new();
        for (s, row) in syms.iter().enumerate() {
            assert_eq!(row[0].parse::<usize>().unwrap(), s);
            let images: Vec<usize> = row[2]
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(images.len(), 24, "symmetry {s} maps 24 points");
            perm.push(images.try_into().unwrap());
        }
        Spec { names, perm }
    })
}

/// The image of a point set (bit `p` for point `p`) under symmetry `s`.
fn image(s: usize, set: u32) -> u32 {
    let mut out = 0;
    for p in 0..24 {
        if set & (1 << p) != 0 {
            out |= 1 << spec().perm[s][p];
        }
    }
    out
}

/// The canonical image: least mover set, then least opponent set.
fn plain_canonical(mover: u32, opponent: u32) -> (u32, u32) {
    (0..16)
        .map(|s| (image(s, mover), image(s, opponent)))
        .min()
        .unwrap()
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The canonical mover sets of `m` points in increasing order: the sets no symmetry
/// makes smaller.
fn canonical_movers(m: u32) -> &'static Vec<u32> {
    static LISTS: OnceLock<std::sync::Mutex<HashMap<u32, &'static Vec<u32>>>> = OnceLock::new();
    let lists = LISTS.get_or_init(Default::default);
    if let Some(l) = lists.lock().unwrap().get(&m) {
        return l;
    }
    let list: Vec<u32> = (0u32..1 << 24)
        .filter(|set| set.count_ones() == m)
        .filter(|&set| (0..16).all(|s| image(s, set) >= set))
        .collect();
    let list: &'static Vec<u32> = Box::leak(Box::new(list));
    lists.lock().unwrap().insert(m, list);
    list
}

/// The points of the opponent set numbered among the free points (those outside the
/// mover set, in increasing order), ranked by `sum C(j_i, i)`.
fn opponent_number(mover: u32, opponent: u32) -> u64 {
    let free: Vec<usize> = (0..24).filter(|p| mover & (1 << p) == 0).collect();
    let mut i = 0;
    let mut number = 0;
    for (j, &p) in free.iter().enumerate() {
        if opponent & (1 << p) != 0 {
            i += 1;
            number += binomial(j as u64, i);
        }
    }
    number
}

/// The slot of a board, following docs/INDEX.md.
fn plain_slot(mover: u32, opponent: u32) -> u64 {
    let (m, o) = (mover.count_ones(), opponent.count_ones());
    let (cm, co) = plain_canonical(mover, opponent);
    let rank = canonical_movers(m).binary_search(&cm).unwrap() as u64;
    rank * binomial(24 - m as u64, o as u64) + opponent_number(cm, co)
}

/// The board in a slot, or `None` for padding, following docs/INDEX.md.
fn plain_board(m: u32, o: u32, slot: u64) -> Option<(u32, u32)> {
    let run = binomial(24 - m as u64, o as u64);
    let mover = canonical_movers(m)[(slot / run) as usize];
    let mut number = slot % run;
    // The largest j with C(j, i) <= number, for i = o down to 1.
    let free: Vec<usize> = (0..24).filter(|p| mover & (1 << p) == 0).collect();
    let mut opponent = 0;
    for i in (1..=o as u64).rev() {
        let mut j = i - 1;
        while binomial(j + 1, i) <= number {
            j += 1;
        }
        number -= binomial(j, i);
        opponent |= 1 << free[j as usize];
    }
    let padding = (1..16).any(|s| image(s, mover) == mover && image(s, opponent) < opponent);
    (!padding).then_some((mover, opponent))
}

/// `count` random points outside `taken` (the seeded generator of the rules
/// engine, so failures reproduce).
fn random_points(rng: &mut Rng, count: u32, taken: u32) -> u32 {
    let mut set = 0u32;
    while set.count_ones() < count {
        let p = rng.below(24);
        if (set | taken) & (1 << p) == 0 {
            set |= 1 << p;
        }
    }
    set
}

fn hex(set: u32) -> String {
    format!("0x{set:06X}")
}

fn parse_hex(s: &str) -> u32 {
    u32::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex mask")
}

#[test]
fn the_point_table_names_the_rules_points() {
    // The names in the document are the rules engine's names of the same bits.
    for (i, name) in spec().names.iter().enumerate() {
        let p = tigadi_rules::Point::parse(name).expect("a point name");
        assert_eq!(p.index(), i, "{name}");
    }
}

#[test]
fn every_test_vector_holds() {
    let rows = table_rows("position");
    assert!(rows.len() >= 12, "INDEX.md lists its test vectors");
    let mut subspaces = std::collections::HashSet::new();
    let mut symmetric = 0;
    for row in rows {
        let [position, sub, cm, co, slot] = &row[..] else {
            panic!("row {row:?} has five cells")
        };
        let p =
            parse_position(&tigadi_rules::RuleSet::TIGADI, position).expect("a position string");
        let board = p.to_board();
        let sub_now = Subspace::of(board);
        assert_eq!(&sub_now.to_string(), sub, "{position}");
        let (cm, co) = (parse_hex(cm), parse_hex(co));
        let slot: u64 = slot.parse().unwrap();
        // The index agrees with the document …
        let idx = SubspaceIndex::new(sub_now);
        assert_eq!(idx.index(board), slot, "slot of {position}");
        assert_eq!(
            canonical(board),
            Board {
                mover: cm,
                opponent: co
            },
            "canonical image of {position}"
        );
        assert_eq!(idx.board(slot), Some(canonical(board)));
        // … and so does the plain reading of it.
        assert_eq!(plain_canonical(board.mover, board.opponent), (cm, co));
        assert_eq!(plain_slot(board.mover, board.opponent), slot);
        subspaces.insert(sub_now);
        if tigadi_index::orbit_size(board) < 16 {
            symmetric += 1;
        }
    }
    assert!(subspaces.len() >= 5, "vectors from several subspaces");
    assert!(symmetric >= 2, "vectors with symmetric boards");
}

#[test]
fn the_worked_example_holds() {
    // The worked example's numbers, as written in the text.
    let find = |key: &str| -> u64 {
        let line = DOC
            .lines()
            .find(|l| l.contains(key))
            .unwrap_or_else(|| panic!("INDEX.md has a line with '{key}'"));
        let after = &line[line.find(key).unwrap() + key.len()..];
        let digits: String = after
            .trim_start_matches(|c: char| !c.is_ascii_digit())
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().unwrap()
    };
    let p = parse_position(
        &tigadi_rules::RuleSet::TIGADI,
        "BB./S../.../...S../.../.../SB. S",
    )
    .unwrap();
    let b = p.to_board();
    let (cm, co) = plain_canonical(b.mover, b.opponent);
    let rank = canonical_movers(3).binary_search(&cm).unwrap() as u64;
    assert_eq!(find("mover rank ="), rank);
    assert_eq!(find("opponent number ="), opponent_number(cm, co));
    assert_eq!(find("example slot ="), plain_slot(b.mover, b.opponent));
    assert_eq!(
        find("example slot ="),
        SubspaceIndex::new(Subspace::of(b)).index(b)
    );
}

#[test]
fn plain_reading_agrees_with_the_index_on_random_boards() {
    let mut rng = Rng::seeded(0x7167_AD1D_0C5E_ED01);
    for sub in Subspace::standard() {
        let idx = SubspaceIndex::new(sub);
        for _ in 0..300 {
            let mover = random_points(&mut rng, sub.mover as u32, 0);
            let opponent = random_points(&mut rng, sub.opponent as u32, mover);
            let board = Board { mover, opponent };
            assert_eq!(
                idx.index(board),
                plain_slot(mover, opponent),
                "{sub} board {}",
                Position::from_board(board, Side::Bone, 0)
            );
            let (cm, co) = plain_canonical(mover, opponent);
            assert_eq!(
                canonical(board),
                Board {
                    mover: cm,
                    opponent: co
                }
            );
        }
    }
}

#[test]
fn plain_reading_agrees_with_the_index_on_random_slots() {
    let mut rng = Rng::seeded(0x005E_ED0F_5107);
    let mut padding = 0;
    for sub in Subspace::standard() {
        let idx = SubspaceIndex::new(sub);
        assert_eq!(
            idx.slots(),
            canonical_movers(sub.mover as u32).len() as u64
                * binomial(24 - sub.mover as u64, sub.opponent as u64),
            "slot count of {sub}"
        );
        for _ in 0..300 {
            let slot = rng.next_u64() % idx.slots();
            let plain = plain_board(sub.mover as u32, sub.opponent as u32, slot);
            let fast = idx.board(slot).map(|b| (b.mover, b.opponent));
            assert_eq!(fast, plain, "{sub} slot {slot}");
            padding += plain.is_none() as u32;
        }
        // Sweep the first run (its mover set, the least, is symmetric: padding lives
        // there) where it is short.
        if idx.run_length() <= 20_000 {
            for slot in 0..idx.run_length() {
                let plain = plain_board(sub.mover as u32, sub.opponent as u32, slot);
                assert_eq!(idx.board(slot).map(|b| (b.mover, b.opponent)), plain);
                padding += plain.is_none() as u32;
            }
        }
    }
    assert!(padding > 0, "the slots checked include padding");
}

/// Prints rows for the test-vector table, computed by the plain reading.
#[test]
#[ignore]
fn print_vectors() {
    let name = |p: &str| 1u32 << spec().names.iter().position(|n| n == p).unwrap();
    let set = |s: &str| s.split_whitespace().map(name).fold(0, |a, b| a | b);
    let boards = [
        ("b6 e4 a1", "a7 d7 d1", Side::Seed),
        ("a7 d7 d1", "b6 e4 a1", Side::Bone),
        ("a7 g7 g1", "c5 e5 e3", Side::Bone),
        ("a7 g7 g1 a1", "d7 d1 a4", Side::Bone),
        ("a7 g7 g1 a1", "d7 d1 a4 g4", Side::Seed),
        ("b6 f6 f2 b2", "c5 e5 e3 c3", Side::Bone),
        ("d7 g4 d1 a4", "d6 f4 d2 b4 d5", Side::Bone),
        ("a7 d7 g7 b6 d6", "c3 d3 e3 d2", Side::Seed),
        ("a7 d7 g7 g4 g1 d1", "b6 d6 f6 c5 d5 e5", Side::Bone),
        (
            "a7 d7 g7 g4 g1 d1 a1 a4",
            "c5 d5 e5 e4 e3 d3 c3 c4",
            Side::Bone,
        ),
        (
            "a7 d7 g7 g4 g1 d1 a1 a4 b6",
            "c5 d5 e5 e4 e3 d3 c3 c4 f2",
            Side::Seed,
        ),
        ("d5 e4 d3", "a7 g7 g1 a1 b6 f6 f2 b2 d7", Side::Bone),
        ("b6 d6 f6 f4 f2 d2 b2 b4 a4", "c5 g1 e3", Side::Seed),
        ("d6 f4 d2 b4", "a7 g7 g1 a1", Side::Bone),
    ];
    for (own, other, side) in boards {
        let board = Board {
            mover: set(own),
            opponent: set(other),
        };
        let (cm, co) = plain_canonical(board.mover, board.opponent);
        println!(
            "| `{}` | {} | `{}` | `{}` | {} |",
            Position::from_board(board, side, 0),
            Subspace::of(board),
            hex(cm),
            hex(co),
            plain_slot(board.mover, board.opponent)
        );
    }
    // The worked example, step by step.
    let b = parse_position(
        &tigadi_rules::RuleSet::TIGADI,
        "BB./S../.../...S../.../.../SB. S",
    )
    .unwrap()
    .to_board();
    for s in 0..16 {
        println!(
            "s={s:2} mover {} opponent {}",
            hex(image(s, b.mover)),
            hex(image(s, b.opponent))
        );
    }
    let (cm, co) = plain_canonical(b.mover, b.opponent);
    println!(
        "canonical {} {} rank {} number {} slot {}",
        hex(cm),
        hex(co),
        canonical_movers(3).binary_search(&cm).unwrap(),
        opponent_number(cm, co),
        plain_slot(b.mover, b.opponent)
    );
    for m in 3..=12 {
        println!("canonical mover sets of {m}: {}", canonical_movers(m).len());
    }
}
