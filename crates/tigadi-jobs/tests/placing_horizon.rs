//! Placing horizon tables (`p<k>-<m>v<o>.tghz`, values under the 100-turn rule of
//! the placing phase): solved by the resumable job after the game-theoretic
//! placing tables, probed, verified; `verify` fails on an altered value; the
//! header keeps the turn limit in byte 22 and the layer in byte 23, with the moving
//! phase's horizon headers as they were.

use crate::common;

use common::listed_sums;
use std::path::Path;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_jobs::{solve, start_value, steps, verify, JobObserver, Scope, TierReport};
use tigadi_rules::{Board, Position, RuleSet};
use tigadi_solve::{Category, Packed, Value};
use tigadi_tablebase::{Header, TableData, TableId, TableKind, Tablebase, TablebaseDir, Tier};

fn no_progress(_: u64, _: u64) {}

/// The whole game of `rules`, both kinds of table, through the jobs `tigadi solve`
/// runs; returns the empty board's values ignoring and under the rule.
fn solve_all(dir: &Path, rules: &RuleSet) -> (Value, Value) {
    common::job(dir, rules, &steps(rules, Scope::Whole), &BOTH);
    let value = |kind| start_value(dir, rules, kind).unwrap().unwrap();
    (value(TableKind::GameTheoretic), value(TableKind::Horizon))
}

/// The game values and the values under the 100-turn rule.
const BOTH: [TableKind; 2] = [TableKind::GameTheoretic, TableKind::Horizon];

/// The game values alone.
const GAME: [TableKind; 1] = [TableKind::GameTheoretic];

/// The moving phase of `rules` (its hands-empty tiers) with tables of `kinds`.
fn solve_moving(dir: &Path, rules: &RuleSet, kinds: &[TableKind]) {
    let moving = Scope::BoardUpTo(2 * rules.pieces as u32);
    common::job(dir, rules, &steps(rules, moving), kinds);
}

/// The steps of `rules`'s tiers with gotis in hand, in dependency order.
fn in_hand_steps(rules: &RuleSet) -> Vec<Tier> {
    let steps = steps(rules, Scope::Whole).into_iter();
    steps.filter(|t| !t.is_moving()).collect()
}

#[test]
fn placing_horizon_tables_probe_and_verify() {
    let rules = RuleSet::parse("tigadi,pieces=3,quiet=4").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (game, rule) = solve_all(dir.path(), &rules);
    let tb = Tablebase::open(dir.path(), &rules);
    let start = tb
        .probe_rule(
            tigadi_tablebase::Hands::after_placements(&rules, 0),
            Board::default(),
            0,
        )
        .unwrap();
    assert_eq!((start.value, start.dtc100), (game, rule));
    assert_eq!(
        tb.report(&Position::start(&rules).to_string())
            .unwrap()
            .rule,
        Some(start)
    );
    let mut classes = [0u64; 5];
    for placed in 0..tigadi_tablebase::placing_turns(&rules) {
        for sub in tigadi_tablebase::tiers_after(&rules, placed)
            .into_iter()
            .map(|t| t.subspace)
        {
            let store = TablebaseDir::new(dir.path(), &rules);
            let id = TableId::new(
                TableKind::GameTheoretic,
                tigadi_tablebase::Tier::after_placements(&rules, placed, sub),
            );
            let game = store.load(id).unwrap();
            let rule = store.load(id.with_kind(TableKind::Horizon)).unwrap();
            let idx = SubspaceIndex::new(sub);
            for (slot, board) in idx.boards(0..idx.slots()).step_by(5) {
                let r = tb
                    .probe_rule(
                        tigadi_tablebase::Hands::after_placements(&rules, placed),
                        board,
                        0,
                    )
                    .unwrap();
                assert_eq!(Some(r.value), game[slot as usize].get());
                assert_eq!(Some(r.dtc100), rule[slot as usize].get());
                assert_eq!(r.rule_value, r.dtc100, "no counter runs while placing");
                assert_eq!(
                    Category::of(r.value.wdl(), r.dtc100.wdl()),
                    Some(r.category)
                );
                classes[r.category.code() as usize] += 1;
                // The best placement under the rule has the position's values.
                let moves = tb
                    .probe_moves_rule(
                        tigadi_tablebase::Hands::after_placements(&rules, placed),
                        board,
                        0,
                    )
                    .unwrap();
                assert_eq!(moves[0].1.dtc100, r.dtc100, "layer {placed} {board:?}");
                assert_eq!(moves[0].1.category, r.category);
            }
        }
    }
    assert!(
        classes[Category::CursedWin.code() as usize] > 0,
        "{classes:?}"
    );
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    let placing_horizon = report
        .subspaces
        .iter()
        .filter(|s| s.kind == TableKind::Horizon && !s.tier.is_moving())
        .count();
    let layers: usize = (0..tigadi_tablebase::placing_turns(&rules))
        .map(|k| tigadi_tablebase::tiers_after(&rules, k).len())
        .sum();
    assert_eq!(
        placing_horizon, layers,
        "every placing horizon table is verified"
    );
    // A second run finds everything solved and changes nothing.
    let start_file = || {
        let start = Subspace::new(0, 0);
        let id = TableId::new(
            TableKind::Horizon,
            tigadi_tablebase::Tier::after_placements(&rules, 0_u32, start),
        );
        std::fs::read(TablebaseDir::new(dir.path(), &rules).table_path(id)).unwrap()
    };
    let before = start_file();
    assert_eq!(solve_all(dir.path(), &rules), (game, rule));
    assert_eq!(before, start_file());
}

#[test]
fn verify_catches_an_altered_placing_horizon_value() {
    let rules = RuleSet::parse("morris,pieces=3,quiet=4").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules);
    // Change one DTC₁₀₀ value of a middle layer to another value consistent with the
    // game-theoretic one (so the class still agrees) and rewrite the file with good
    // checksums and SHA256SUMS to match: only recomputation can notice.
    let placed = 4u8;
    let sub = tigadi_tablebase::tiers_after(&rules, placed as u32)
        .into_iter()
        .map(|t| t.subspace)
        .collect::<Vec<_>>()[0];
    let store = TablebaseDir::new(dir.path(), &rules);
    let id = TableId::new(
        TableKind::Horizon,
        tigadi_tablebase::Tier::after_placements(&rules, placed as u32, sub),
    );
    let mut game = store.load(id.with_kind(TableKind::GameTheoretic)).unwrap();
    let mut rule = store.load(id).unwrap();
    let idx = SubspaceIndex::new(sub);
    for (slot, v) in game.iter_mut().enumerate() {
        if idx.board(slot as u64).is_none() {
            *v = Packed::NONE;
            rule[slot] = Packed::NONE;
        }
    }
    let slot = (0..rule.len())
        .find(|&s| matches!(rule[s].get(), Some(Value::Win(_))))
        .expect("a won position under the rule");
    let Some(Value::Win(d)) = rule[slot].get() else {
        unreachable!()
    };
    let altered = Value::Win(d + 1);
    rule[slot] = Packed::new(altered);
    let data = TableData::Horizon {
        game: &game,
        dtc100: &rule,
    };
    store.write(id, data).unwrap();
    store.write_manifest().unwrap();
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(!report.is_ok());
    let bad = report
        .subspaces
        .iter()
        .find(|s| {
            s.kind == TableKind::Horizon
                && s.tier.placements(&rules) == Some(placed as u32)
                && s.tier.subspace == sub
        })
        .expect("the altered table is reported");
    assert_eq!(bad.mismatches, 1, "{bad:?}");
    assert_eq!(bad.examples[0].slot, slot as u64);
    assert_eq!(bad.examples[0].stored, altered);
    assert_eq!(bad.examples[0].recomputed, Value::Win(d));
    // The game-theoretic tables are untouched and pass.
    assert!(report
        .subspaces
        .iter()
        .filter(|s| s.kind == TableKind::GameTheoretic)
        .all(|s| s.is_ok()));
}

#[test]
fn placing_horizon_headers_carry_the_layer_and_the_limit() {
    let rules = RuleSet::parse("navakankari,pieces=3,quiet=7").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules);
    for (placing, sub, byte23) in [
        (None, Subspace::new(3, 3), 0u8),
        (Some(5u8), Subspace::new(2, 3), 6),
        (Some(0), Subspace::new(0, 0), 1),
    ] {
        let hands = placing.map_or(tigadi_tablebase::Hands::EMPTY, |k| {
            tigadi_tablebase::Hands::after_placements(&rules, k as u32)
        });
        let id = TableId::new(TableKind::Horizon, tigadi_tablebase::Tier::new(hands, sub));
        let path = TablebaseDir::new(dir.path(), &rules).table_path(id);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[8..10], &2u16.to_le_bytes(), "format version 2");
        assert_eq!((bytes[22], bytes[23]), (7, byte23), "{}", path.display());
        let h = Header::parse(&bytes, &path).unwrap();
        assert_eq!((h.hands, h.subspace, h.rules), (hands, sub, rules));
        // The largest DTC₁₀₀ counts the placements still to come.
        assert_eq!(h.dtc100_limit(), 7 + placing.map_or(0, |k| 6 - k as u16));
    }
    // A reader that takes bytes 22..24 for a u16 turn limit (as the first horizon
    // readers did) sees a limit above 100 in a placing table and refuses it.
    let id = TableId::new(
        TableKind::Horizon,
        tigadi_tablebase::Tier::after_placements(&rules, 0_u32, Subspace::new(0, 0)),
    );
    let path = TablebaseDir::new(dir.path(), &rules).table_path(id);
    let bytes = std::fs::read(&path).unwrap();
    assert!(u16::from_le_bytes([bytes[22], bytes[23]]) > 100);
}

/// `SHA256SUMS` lists every placing table of both kinds with its SHA-256 (so
/// `sha256sum -c` covers the whole directory); a directory whose list lacks them
/// (written by an older version) gets them from the next placing run, which has
/// nothing else to do; `verify` fails on a listed hash that is wrong.
#[test]
fn sha256sums_list_the_placing_tables() {
    use sha2::{Digest, Sha256};
    let rules = RuleSet::parse("morris,pieces=3,quiet=4").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules);
    let rdir = TablebaseDir::new(dir.path(), &rules).path().to_path_buf();
    let sums_path = rdir.join("SHA256SUMS");
    let sums = listed_sums(&rdir);
    let mut placing = 0;
    for entry in std::fs::read_dir(&rdir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with('p') && (name.ends_with(".tgtb") || name.ends_with(".tghz")) {
            let bytes = std::fs::read(rdir.join(&name)).unwrap();
            let hash: String = Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(sums.get(&name), Some(&hash), "{name}");
            placing += 1;
        }
    }
    let kinds = 2
        * (0..tigadi_tablebase::placing_turns(&rules))
            .map(|p| tigadi_tablebase::tiers_after(&rules, p).len())
            .sum::<usize>();
    assert_eq!(placing, kinds);

    // An older directory: the placing entries are missing until the next run.
    let moving_only: String = std::fs::read_to_string(&sums_path)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("  p"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&sums_path, &moving_only).unwrap();
    common::job(dir.path(), &rules, &in_hand_steps(&rules), &GAME);
    assert_eq!(listed_sums(&rdir), sums);

    // A wrong listed hash of a placing table fails verify, naming it.
    let (name, _) = sums.iter().find(|(n, _)| n.starts_with("p3-")).unwrap();
    let text = std::fs::read_to_string(&sums_path).unwrap();
    let line = text
        .lines()
        .find(|l| l.ends_with(&format!("  {name}")))
        .unwrap();
    std::fs::write(
        &sums_path,
        text.replace(line, &format!("{}  {name}", "0".repeat(64))),
    )
    .unwrap();
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(!report.is_ok());
    let bad: Vec<_> = report.subspaces.iter().filter(|s| !s.is_ok()).collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].path.ends_with(name), "{:?}", bad[0].path);
}

/// At the end of each hands' tiers, the `SHA256SUMS` lines of their
/// game-theoretic tables (by the placements made).
struct ListedPerHands {
    sums: std::path::PathBuf,
    rules: RuleSet,
    seen: std::sync::Mutex<Vec<(u32, Vec<String>)>>,
}
impl tigadi_solve::Observer for ListedPerHands {}
impl JobObserver for ListedPerHands {
    fn hands_solved(&self, _: TableKind, hands: tigadi_tablebase::Hands, _: usize, _: u64, _: f64) {
        let placed = hands.placements(&self.rules);
        let text = std::fs::read_to_string(&self.sums).unwrap_or_default();
        let lines = text
            .lines()
            .filter(|l| l.contains(&format!("  p{placed}-")) && l.ends_with(".tgtb"))
            .map(String::from)
            .collect();
        self.seen.lock().unwrap().push((placed, lines));
    }
}

#[test]
fn each_hands_tiers_are_listed_as_soon_as_they_are_written() {
    // A run stopped after any hands' tiers leaves their tables in SHA256SUMS.
    let rules = RuleSet::parse("tigadi,pieces=3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_moving(dir.path(), &rules, &GAME);
    let sums = TablebaseDir::new(dir.path(), &rules)
        .path()
        .join("SHA256SUMS");
    let observer = ListedPerHands {
        sums: sums.clone(),
        rules,
        seen: Default::default(),
    };
    solve(
        dir.path(),
        &rules,
        &in_hand_steps(&rules),
        &GAME,
        &Default::default(),
        &observer,
    )
    .unwrap();
    let last = std::fs::read_to_string(&sums).unwrap();
    let seen = observer.seen.into_inner().unwrap();
    assert_eq!(seen.len() as u32, tigadi_tablebase::placing_turns(&rules));
    for (placed, lines) in seen {
        assert_eq!(
            lines.len(),
            tigadi_tablebase::tiers_after(&rules, placed).len(),
            "layer {placed}: {lines:?}"
        );
        // Listed with the hash the table keeps (the last list is checked against
        // the files by `verify` in the tests above).
        for l in lines {
            assert!(last.lines().any(|x| x == l), "{l}");
        }
    }
}

/// Counts the placing subspaces the horizon job wrote from their game-theoretic
/// tables.
#[derive(Default)]
struct FromGame(std::sync::atomic::AtomicUsize);
impl tigadi_solve::Observer for FromGame {}
impl JobObserver for FromGame {
    fn tier_solved(&self, report: &TierReport) {
        if report.from_game {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The placing horizon job recomputes only the boards that place into a slot
/// whose value the rule changes, and writes the game-theoretic values where no
/// successor changes. Whatever it did, every stored placing horizon table must
/// equal what the pass itself computes from the stored successor horizon tables
/// (run here directly, layer by layer). Under Tigadi's default limit every
/// subspace is written from its game values (its DTCs stay far below 100);
/// under small limits only some are (asserted), so both branches are checked,
/// with quiet placements and captures into changed values (Tigadi, and nine
/// men's morris with flying, 4 a side). Of the subspaces with changed
/// successors, some are recomputed board by board and some by the pass
/// (`recompute_by_board`, asserted over the four rule sets), so both ways are
/// compared with the pass.
#[test]
fn the_placing_horizon_job_takes_the_game_values_only_where_the_pass_would_find_them() {
    use tigadi_solve::leaving::{recompute_by_board, solve_tier_with};
    use tigadi_solve::{Quiet, SolvedTable};
    // How many subspaces with changed successors the job recomputed board by
    // board, and how many by the pass.
    let mut ways = [0usize; 2];
    for (spec, all) in [
        ("tigadi,pieces=4", true),
        ("tigadi,pieces=4,quiet=26", false),
        ("tigadi,pieces=4,quiet=6", false),
        ("morris,pieces=4,quiet=8", false),
    ] {
        let rules = RuleSet::parse(spec).unwrap();
        let dir = tempfile::tempdir().unwrap();
        solve_moving(dir.path(), &rules, &BOTH);
        let steps = in_hand_steps(&rules);
        common::job(dir.path(), &rules, &steps, &GAME);
        let seen = FromGame::default();
        let horizon = [TableKind::Horizon];
        solve(
            dir.path(),
            &rules,
            &steps,
            &horizon,
            &Default::default(),
            &seen,
        )
        .unwrap();
        let taken = seen.0.into_inner();
        let store = TablebaseDir::new(dir.path(), &rules);
        let layers = tigadi_tablebase::placing_turns(&rules);
        let total: usize = (0..layers)
            .map(|k| tigadi_tablebase::tiers_after(&rules, k).len())
            .sum();
        if all {
            assert_eq!(taken, total, "{spec}");
        } else {
            assert!(0 < taken && taken < total, "{spec}: {taken} of {total}");
        }
        for placed in 0..layers {
            for tier in tigadi_tablebase::tiers_after(&rules, placed) {
                let sub = tier.subspace;
                let next: Vec<(Subspace, Vec<Packed>)> =
                    tigadi_solve::leaving::successor_subspaces(&rules, tier)
                        .into_iter()
                        .map(|s| {
                            let id = TableId::new(
                                TableKind::Horizon,
                                tigadi_tablebase::Tier::after_placements(&rules, placed + 1, s),
                            );
                            (s, store.load(id).unwrap())
                        })
                        .collect();
                let lists: Vec<(Subspace, Vec<u64>)> = next
                    .iter()
                    .map(|(s, rule)| {
                        let id = TableId::new(
                            TableKind::GameTheoretic,
                            tigadi_tablebase::Tier::after_placements(&rules, placed + 1, *s),
                        );
                        let game = store.load(id).unwrap();
                        let slots = (0..rule.len())
                            .filter(|&i| rule[i].get().is_some() && rule[i] != game[i])
                            .map(|i| i as u64)
                            .collect();
                        (*s, slots)
                    })
                    .collect();
                if lists.iter().any(|(_, l)| !l.is_empty()) {
                    let lists: Vec<(Subspace, &[u64])> =
                        lists.iter().map(|(s, l)| (*s, &l[..])).collect();
                    ways[recompute_by_board(&rules, tier, &lists) as usize] += 1;
                }
                let views = SolvedTable::views(next.iter().map(|(s, v)| (s, v)));
                let pass =
                    solve_tier_with(&rules, TableKind::Horizon.metric(), tier, &views, &Quiet)
                        .unwrap();
                let mut stored = store
                    .load(TableId::new(
                        TableKind::Horizon,
                        tigadi_tablebase::Tier::after_placements(&rules, placed, sub),
                    ))
                    .unwrap();
                tigadi_tablebase::mark_padding(sub, &mut stored);
                assert_eq!(stored, pass.values, "{spec}: layer {placed} {sub}");
            }
        }
        let report = verify(dir.path(), &rules, &no_progress).unwrap();
        assert!(report.is_ok(), "{spec}: {report:?}");
    }
    assert!(
        ways[0] > 0 && ways[1] > 0,
        "by the pass, board by board: {ways:?}"
    );
}

/// A placing table's game-theoretic and horizon values, padding marked.
fn both_kinds(store: &TablebaseDir, placed: u8, sub: Subspace) -> (Vec<Packed>, Vec<Packed>) {
    let rules = *store.rules();
    let id = TableId::new(
        TableKind::Horizon,
        tigadi_tablebase::Tier::after_placements(&rules, placed as u32, sub),
    );
    let mut game = store.load(id.with_kind(TableKind::GameTheoretic)).unwrap();
    let mut rule = store.load(id).unwrap();
    tigadi_tablebase::mark_padding(sub, &mut game);
    tigadi_tablebase::mark_padding(sub, &mut rule);
    (game, rule)
}

/// Do a placing subspace's successors hold their game values under the rule too?
fn successors_unchanged(store: &TablebaseDir, rules: &RuleSet, placed: u8, sub: Subspace) -> bool {
    let next = tigadi_tablebase::Hands::after_placements(rules, placed as u32 + 1);
    tigadi_solve::leaving::successor_subspaces(
        rules,
        tigadi_tablebase::Tier::after_placements(rules, placed as u32, sub),
    )
    .into_iter()
    .all(|s| {
        let id = TableId::new(TableKind::Horizon, tigadi_tablebase::Tier::new(next, s));
        let rule = store.load(id).unwrap();
        let game = store.load(id.with_kind(TableKind::GameTheoretic)).unwrap();
        rule.iter().zip(&game).all(|(r, g)| !r.is_some() || r == g)
    })
}

/// The game value `game` as it would stand under the rule if the rule changed
/// nothing but its depth: the same win or loss in `limit` turns.
fn at_limit(game: Packed, limit: u16) -> Packed {
    Packed::new(match game.get().expect("a position") {
        Value::Win(_) => Value::Win(limit),
        Value::Loss(_) => Value::Loss(limit),
        Value::Draw => unreachable!("the rule changes no draw"),
    })
}

/// A value with the same win, draw or loss and another depth.
fn deeper(v: Packed) -> Option<Packed> {
    match v.get()? {
        Value::Win(d) => Some(Packed::new(Value::Win(d + 1))),
        Value::Loss(d) => Some(Packed::new(Value::Loss(d + 1))),
        Value::Draw => None,
    }
}

/// `verify` checks a placing horizon table against its game-theoretic table
/// wherever the successors' two kinds agree, and only once that table has
/// passed: an altered horizon value is caught where the rule changes the value
/// (recomputed from the successors) and where it does not (compared with the
/// game value); and when a game-theoretic table fails, its horizon table is
/// recomputed from its successors alone, so the same alteration in both kinds
/// is caught in both.
#[test]
fn verify_takes_horizon_values_from_game_values_only_after_they_pass() {
    let rules = RuleSet::parse("tigadi,pieces=4,quiet=26").unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve_all(dir.path(), &rules);
    let store = TablebaseDir::new(dir.path(), &rules);
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    assert!(report.is_ok(), "{report:?}");
    for s in report.subspaces.iter().filter(|s| !s.tier.is_moving()) {
        assert_eq!(s.from_game, s.kind == TableKind::Horizon, "{s:?}");
    }
    // A slot whose value the rule changes, and a table whose successors the rule
    // leaves alone (so none of its boards is recomputed under the shortcut).
    let layers = tigadi_tablebase::placing_turns(&rules) as u8;
    let mut changed = None;
    let mut unchanged = None;
    for placed in (0..layers).rev() {
        for sub in tigadi_tablebase::tiers_after(&rules, placed as u32)
            .into_iter()
            .map(|t| t.subspace)
        {
            let (game, rule) = both_kinds(&store, placed, sub);
            if changed.is_none() {
                changed = (0..rule.len())
                    .find(|&i| rule[i] != game[i] && rule[i].get().is_some())
                    .map(|i| (placed, sub, i));
            }
            if unchanged.is_none() && successors_unchanged(&store, &rules, placed, sub) {
                unchanged = (0..rule.len())
                    .find(|&i| deeper(rule[i]).is_some())
                    .map(|i| (placed, sub, i));
            }
        }
    }
    let changed = changed.expect("a placing value the rule changes");
    let unchanged = unchanged.expect("a placing table the rule leaves alone");
    assert_ne!((changed.0, changed.1), (unchanged.0, unchanged.1));
    let write_horizon = |placed: u8, sub: Subspace, game: &[Packed], rule: &[Packed]| {
        let id = TableId::new(
            TableKind::Horizon,
            tigadi_tablebase::Tier::after_placements(&rules, placed as u32, sub),
        );
        store
            .write(id, TableData::Horizon { game, dtc100: rule })
            .unwrap();
    };
    // 1. Horizon values altered, game values as solved: where the rule changes
    // the value (a game win or loss beyond the limit, a draw under the rule),
    // to the same win or loss at the limit; elsewhere, to another depth.
    let mut originals = Vec::new();
    for &(placed, sub, slot) in &[changed, unchanged] {
        let (game, mut rule) = both_kinds(&store, placed, sub);
        originals.push(rule[slot]);
        rule[slot] = if rule[slot] != game[slot] {
            at_limit(game[slot], rules.quiet)
        } else {
            deeper(rule[slot]).unwrap()
        };
        write_horizon(placed, sub, &game, &rule);
    }
    store.write_manifest().unwrap();
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    for (&(placed, sub, slot), original) in [changed, unchanged].iter().zip(&originals) {
        let bad = report
            .subspaces
            .iter()
            .find(|s| {
                s.kind == TableKind::Horizon
                    && s.tier.placements(&rules) == Some(placed as u32)
                    && s.tier.subspace == sub
            })
            .unwrap();
        assert!(bad.from_game, "{bad:?}");
        assert_eq!(bad.mismatches, 1, "{bad:?}");
        assert_eq!(bad.examples[0].slot, slot as u64);
        assert_eq!(Some(bad.examples[0].recomputed), original.get());
    }
    assert_eq!(report.mismatches(), 2, "only the altered values fail");
    // 2. Put back; then the same value altered in both kinds where the
    // successors agree: the game table fails, so its horizon table is
    // recomputed from the successors and fails too.
    for (&(placed, sub, slot), &original) in [changed, unchanged].iter().zip(&originals) {
        let (game, mut rule) = both_kinds(&store, placed, sub);
        rule[slot] = original;
        write_horizon(placed, sub, &game, &rule);
    }
    let (placed, sub, slot) = unchanged;
    let (mut game, mut rule) = both_kinds(&store, placed, sub);
    assert_eq!(game[slot], rule[slot]);
    game[slot] = deeper(game[slot]).unwrap();
    rule[slot] = game[slot];
    store
        .write_values(
            TableId::new(
                TableKind::GameTheoretic,
                tigadi_tablebase::Tier::after_placements(&rules, placed as u32, sub),
            ),
            &game,
        )
        .unwrap();
    write_horizon(placed, sub, &game, &rule);
    store.write_manifest().unwrap();
    let report = verify(dir.path(), &rules, &no_progress).unwrap();
    for kind in [TableKind::GameTheoretic, TableKind::Horizon] {
        let bad = report
            .subspaces
            .iter()
            .find(|s| {
                s.kind == kind
                    && s.tier.placements(&rules) == Some(placed as u32)
                    && s.tier.subspace == sub
            })
            .unwrap();
        assert!(!bad.from_game, "{bad:?}");
        assert_eq!(bad.mismatches, 1, "{bad:?}");
        assert_eq!(bad.examples[0].slot, slot as u64);
    }
}
