//! Before its first step a job says about how many bytes of tables it will
//! write and how many its disk has free ([`JobObserver::room`]), and warns by
//! default where they do not fit, so that a run of hours does not find out at
//! its end. The estimate is checked against the bytes the job then writes: on
//! a directory half solved it comes within a factor of two (the bytes a slot
//! of the tables already there, or of the game values for a kind with none);
//! on an empty one it is a guess, the whole games' bytes a slot.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use tigadi_jobs::{solve, steps, JobObserver, Scope};
use tigadi_rules::RuleSet;
use tigadi_tablebase::{TableKind, TablebaseDir};

/// Records what [`JobObserver::room`] is told and the warnings given.
#[derive(Default)]
struct Room {
    told: Mutex<Vec<(u64, Option<u64>)>>,
    warnings: Mutex<Vec<String>>,
}

impl tigadi_solve::Observer for Room {}
impl JobObserver for Room {
    fn room(&self, to_write: u64, free: Option<u64>) {
        self.told.lock().unwrap().push((to_write, free));
    }
    fn warning(&self, message: &str) {
        self.warnings.lock().unwrap().push(message.to_string());
    }
}

/// Only warnings recorded: [`JobObserver::room`] as every observer has it.
#[derive(Default)]
struct Warnings(Mutex<Vec<String>>);

impl tigadi_solve::Observer for Warnings {}
impl JobObserver for Warnings {
    fn warning(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

/// Every table file of `rules` in `dir`, by name, with its size.
fn table_sizes(dir: &Path, rules: &RuleSet) -> BTreeMap<String, u64> {
    let rdir = TablebaseDir::new(dir, rules).path().to_path_buf();
    std::fs::read_dir(rdir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.metadata().unwrap().len(),
            )
        })
        .filter(|(name, _)| {
            name.starts_with(|c: char| c.is_ascii_alphanumeric()) && name.contains(".tg")
        })
        .collect()
}

/// The bytes to write that `room` was told by a whole solve of `rules` into `dir`.
fn whole_solve(dir: &Path, rules: &RuleSet, kinds: &[TableKind]) -> u64 {
    let room = Room::default();
    solve(
        dir,
        rules,
        &steps(rules, Scope::Whole),
        kinds,
        &Default::default(),
        &room,
    )
    .unwrap();
    let told = room.told.into_inner().unwrap();
    assert_eq!(told.len(), 1, "told once, before the first step");
    assert!(told[0].1.is_some(), "this system says its free space");
    told[0].0
}

#[test]
fn the_estimate_of_a_resumed_run_comes_within_twice_the_bytes_written() {
    let kinds = [TableKind::GameTheoretic, TableKind::Horizon];
    for spec in ["tigadi,pieces=4", "lasker,pieces=4", "morabaraba,pieces=4"] {
        let rules = RuleSet::parse(spec).unwrap();
        let dir = crate::common::scratch_dir(&format!("room-{spec}"));
        let fresh = whole_solve(&dir, &rules, &kinds);
        let written = table_sizes(&dir, &rules);
        let all: u64 = written.values().sum();
        // A guess (the bytes a slot of the whole games, a little above): the
        // small games' tables take from a fifth of it to more than it.
        assert!(all > 0 && fresh > 0, "{spec}");

        // Every table with gotis in hand removed (the later half of the
        // steps): estimated at the bytes a slot of the hands-empty ones.
        // Every 100-turn table removed: at the game values' bytes a slot.
        let in_hand = |n: &str| n.starts_with(['p', 'h']);
        let horizon = |n: &str| n.ends_with(".tghz");
        for (what, removed) in [
            ("in hand", &in_hand as &dyn Fn(&str) -> bool),
            ("100-turn", &horizon),
        ] {
            let rdir = TablebaseDir::new(&dir, &rules).path().to_path_buf();
            let names: Vec<&String> = written.keys().filter(|n| removed(n)).collect();
            assert!(!names.is_empty(), "{spec}: no tables {what}");
            for name in &names {
                std::fs::remove_file(rdir.join(name)).unwrap();
            }
            let bytes: u64 = names.iter().map(|n| written[*n]).sum();
            let estimate = whole_solve(&dir, &rules, &kinds);
            assert!(
                bytes / 2 <= estimate && estimate <= 2 * bytes,
                "{spec}: estimate {estimate} for {bytes} bytes of tables {what} written again"
            );
            assert_eq!(
                table_sizes(&dir, &rules),
                written,
                "{spec}: the same tables again"
            );
        }
        // Nothing left to write.
        assert_eq!(whole_solve(&dir, &rules, &kinds), 0, "{spec}");
    }
}

#[test]
fn room_warns_by_default_only_where_the_tables_do_not_fit() {
    let w = Warnings::default();
    w.room(2_000_000_000, Some(3_000_000_000));
    w.room(2_000_000_000, None);
    assert!(w.0.lock().unwrap().is_empty());
    w.room(12_300_000_000, Some(4_500_000_000));
    let warnings = w.0.into_inner().unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("about 12.3 GB of tables") && warnings[0].contains("4.5 GB free"),
        "{}",
        warnings[0]
    );
}
