//! Damaged files are typed errors (never a panic, never a wrong value), writing is
//! deterministic, `verify` catches wrong values, and the manifest checks out.

use crate::common;

use common::*;
use std::path::Path;
use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_jobs::verify;
use tigadi_rules::RuleSet;
use tigadi_solve::{Packed, Value};
use tigadi_tablebase::format::{ENTRY_LEN, HEADER_LEN};
use tigadi_tablebase::{encode, TableData, Tablebase, TablebaseDir, TablebaseError};

const RULES: RuleSet = RuleSet::TIGADI;

fn no_progress(_: u64, _: u64) {}

/// Copies `src`'s rule directory to a fresh directory with byte `at` of the 3v3
/// file XORed with `mask`.
fn damaged_copy(src: &Path, at: usize, mask: u8) -> tempfile::TempDir {
    let dst = tempfile::tempdir().unwrap();
    let (from, to) = (src.join("tigadi"), dst.path().join("tigadi"));
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let f = to.join("3v3.tgtb");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[at] ^= mask;
    std::fs::write(&f, bytes).unwrap();
    dst
}

#[test]
fn flipped_bytes_are_corrupt_never_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let tables = solve_and_write(dir.path(), RULES, 6);
    let sub = Subspace::new(3, 3);
    let truth = &tables[&sub];
    let table = TablebaseDir::new(dir.path(), &RULES)
        .open(game(sub))
        .unwrap();
    let h = table.header();
    let len = h.file_len() as usize;
    let head = h.head_len() as usize;
    let wdl_data = h.wdl.data_offset as usize;
    let dtc_data = h.dtc.data_offset as usize;
    let places = [
        ("magic", 0),
        ("version", 8),
        ("rules", 16),
        ("subspace", 19),
        ("slots", 25),
        ("wins", 33),
        ("rules name", 62),
        ("WDL descriptor", 132),
        ("DTC descriptor", 185),
        ("WDL table", HEADER_LEN + 3),
        ("WDL table checksum", HEADER_LEN + 18),
        ("DTC table", head - ENTRY_LEN + 1),
        ("head checksum", head + 2),
        ("WDL data", wdl_data + 40),
        ("WDL data end", dtc_data - 3),
        ("DTC data", dtc_data + 100),
        ("DTC data middle", (dtc_data + len) / 2),
        ("file checksum", len - 1),
    ];
    // Every seventh board: each block of the table holds thousands of boards, so
    // every block is still read many times per damaged copy (a damaged copy
    // costs a probe of every board two system calls to look at the file again).
    let boards: Vec<_> = boards(sub).into_iter().step_by(7).collect();
    for section in [&h.wdl, &h.dtc] {
        assert!(section.slots_per_block >= 7 * 100, "{section:?}");
    }
    for (what, at) in places {
        for mask in [0x01, 0xFF] {
            let d = damaged_copy(dir.path(), at, mask);
            let tb = Tablebase::with_cache_blocks(d.path(), &RULES, 8);
            let mut errors = 0;
            for &(slot, b) in &boards {
                let v = truth[slot as usize].get().unwrap();
                match tb.probe(b) {
                    Ok(got) => assert_eq!(got, v, "{what}: wrong value after damage"),
                    Err(e) => {
                        assert!(e.is_corrupt(), "{what}: {e}");
                        errors += 1;
                    }
                }
                match tb.probe_wdl(b) {
                    Ok(got) => assert_eq!(got, v.wdl(), "{what}: wrong WDL after damage"),
                    Err(e) => {
                        assert!(e.is_corrupt(), "{what}: {e}");
                        errors += 1;
                    }
                }
            }
            if at < len - 8 {
                assert!(errors > 0, "{what}: damage went unnoticed by probe");
            }
            let e = TablebaseDir::new(d.path(), &RULES)
                .load(game(sub))
                .unwrap_err();
            assert!(e.is_corrupt(), "{what}: {e}");
            let report = verify(d.path(), &RULES, &no_progress).unwrap();
            assert!(!report.is_ok(), "{what}: verify passed a damaged file");
            let r = report
                .subspaces
                .iter()
                .find(|s| s.tier.subspace == sub)
                .unwrap();
            assert!(
                r.error.as_ref().is_some_and(|e| e.is_corrupt()),
                "{what}: {:?}",
                r.error
            );
        }
    }
}

#[test]
fn truncated_and_empty_files_are_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    solve_and_write(dir.path(), RULES, 6);
    let f = dir.path().join("tigadi/3v3.tgtb");
    let bytes = std::fs::read(&f).unwrap();
    let b = boards(Subspace::new(3, 3))[0].1;
    for keep in [
        0,
        7,
        HEADER_LEN - 1,
        HEADER_LEN,
        bytes.len() / 2,
        bytes.len() - 1,
    ] {
        std::fs::write(&f, &bytes[..keep]).unwrap();
        let tb = Tablebase::open(dir.path(), &RULES);
        assert!(tb.probe(b).unwrap_err().is_corrupt(), "kept {keep}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&f, &longer).unwrap();
    assert!(Tablebase::open(dir.path(), &RULES)
        .probe(b)
        .unwrap_err()
        .is_corrupt());
}

#[test]
fn writing_is_deterministic_across_thread_counts() {
    let tables = solve(RULES, 7);
    for sub in [Subspace::new(4, 3), Subspace::new(3, 4)] {
        let values = &tables[&sub];
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let a = one.install(|| encode(&RULES, game(sub), TableData::Game(values)).unwrap());
        let b = four.install(|| encode(&RULES, game(sub), TableData::Game(values)).unwrap());
        assert_eq!(a, b);
        let d1 = tempfile::tempdir().unwrap();
        let d2 = tempfile::tempdir().unwrap();
        let p1 = TablebaseDir::new(d1.path(), &RULES)
            .write(game(sub), TableData::Game(values))
            .unwrap();
        let p2 = TablebaseDir::new(d2.path(), &RULES)
            .write(game(sub), TableData::Game(values))
            .unwrap();
        assert_eq!(std::fs::read(p1).unwrap(), a);
        assert_eq!(std::fs::read(p2).unwrap(), a);
        // No temporary files are left behind.
        assert_eq!(
            std::fs::read_dir(d1.path().join("tigadi")).unwrap().count(),
            1
        );
    }
}

/// Rewrites table `sub` (values `values`) under `dir` with one win's DTC (the
/// first above 3) one longer, checksums valid; returns its slot and old DTC.
fn alter_a_win(dir: &Path, sub: Subspace, mut values: Vec<Packed>) -> (usize, u16) {
    let slot = values
        .iter()
        .position(|p| matches!(p.get(), Some(Value::Win(d)) if d > 3))
        .unwrap();
    let Some(Value::Win(d)) = values[slot].get() else {
        unreachable!()
    };
    values[slot] = Packed::new(Value::Win(d + 1));
    TablebaseDir::new(dir, &RULES)
        .write(game(sub), TableData::Game(&values))
        .unwrap();
    (slot, d)
}

#[test]
fn verify_passes_solved_tables_and_catches_an_altered_value() {
    let dir = tempfile::tempdir().unwrap();
    let tables = solve_and_write(dir.path(), RULES, 7);
    let calls = std::sync::atomic::AtomicU64::new(0);
    let progress = |done: u64, total: u64| {
        assert!(done <= total);
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let report = verify(dir.path(), &RULES, &progress).unwrap();
    assert!(report.is_ok(), "{report:#?}");
    let classes: u64 = tables
        .values()
        .map(|v| v.iter().filter(|p| p.is_some()).count() as u64)
        .sum();
    assert_eq!(report.checked(), classes);
    assert_eq!(report.subspaces.len(), tables.len());
    assert!(calls.into_inner() > 0);

    // Change one won position's DTC in 4v3 and rewrite it (with valid checksums).
    let sub = Subspace::new(4, 3);
    let (slot, d) = alter_a_win(dir.path(), sub, tables[&sub].clone());
    let report = verify(dir.path(), &RULES, &no_progress).unwrap();
    assert!(!report.is_ok());
    let r = report
        .subspaces
        .iter()
        .find(|s| s.tier.subspace == sub)
        .unwrap();
    assert!(r.mismatches >= 1 && r.error.is_none());
    assert!(r
        .examples
        .iter()
        .any(|m| m.slot == slot as u64 && m.stored == Value::Win(d + 1)));

    // A missing successor table is a failure too.
    std::fs::remove_file(dir.path().join("tigadi/3v4.tgtb")).unwrap();
    let report = verify(dir.path(), &RULES, &no_progress).unwrap();
    let r = report
        .subspaces
        .iter()
        .find(|s| s.tier.subspace == sub)
        .unwrap();
    assert!(matches!(
        r.error,
        Some(TablebaseError::MissingSubspace { .. })
    ));
}

#[test]
fn manifest_lists_every_file_with_checksums_and_times() {
    let dir = tempfile::tempdir().unwrap();
    let tables = solve_and_write(dir.path(), RULES, 7);
    let store = TablebaseDir::new(dir.path(), &RULES);
    let m = store
        .write_manifest_with_seconds(&[(Subspace::new(4, 3), 1.5)])
        .unwrap();
    assert_eq!(m.subspaces.len(), tables.len());
    assert_eq!(m.rules, "tigadi");
    // Times survive a rewrite without them.
    let m2 = store.write_manifest().unwrap();
    assert_eq!(m, m2);
    let read = store.read_manifest().unwrap().unwrap();
    assert_eq!(read, m);
    for e in &m.subspaces {
        let table = store.open(game(e.subspace())).unwrap();
        let h = table.header();
        assert_eq!(
            (e.win, e.draw, e.loss),
            (h.counts.wins, h.counts.draws, h.counts.losses)
        );
        assert_eq!(
            e.seconds,
            (e.subspace() == Subspace::new(4, 3)).then_some(1.5)
        );
        assert_eq!(e.slots, SubspaceIndex::new(e.subspace()).slots());
    }
    let sums = std::fs::read_to_string(dir.path().join("tigadi/SHA256SUMS")).unwrap();
    assert_eq!(sums.lines().count(), tables.len());
    if let Ok(out) = std::process::Command::new("sha256sum")
        .arg("-c")
        .arg("SHA256SUMS")
        .current_dir(dir.path().join("tigadi"))
        .output()
    {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn a_later_solve_does_not_bless_an_altered_table() {
    let dir = tempfile::tempdir().unwrap();
    let steps = tigadi_jobs::steps(&RULES, tigadi_jobs::Scope::BoardUpTo(7));
    let run = || {
        common::job(
            dir.path(),
            &RULES,
            &steps,
            &[
                tigadi_tablebase::TableKind::GameTheoretic,
                tigadi_tablebase::TableKind::Horizon,
            ],
        )
    };
    run();
    let listed = listed_sums(&dir.path().join("tigadi"));
    assert_eq!(
        listed.len(),
        6,
        "3v3, 4v3 and 3v4, each with its horizon table"
    );

    // One value of 4v3 changed and the file rewritten with valid checksums: the
    // next run sees a solved table and solves nothing, and the list keeps the
    // hash of what the solver wrote, so `verify` still names the file.
    let sub = Subspace::new(4, 3);
    let mut values = TablebaseDir::new(dir.path(), &RULES)
        .load(game(sub))
        .unwrap();
    tigadi_tablebase::mark_padding(sub, &mut values);
    alter_a_win(dir.path(), sub, values);
    run();
    assert_eq!(
        listed_sums(&dir.path().join("tigadi")),
        listed,
        "the altered 4v3 was listed anew"
    );
    let report = verify(dir.path(), &RULES, &no_progress).unwrap();
    let r = report
        .subspaces
        .iter()
        .find(|s| s.tier.subspace == sub)
        .unwrap();
    assert!(
        matches!(&r.error, Some(e) if e.to_string().contains("SHA256SUMS")),
        "{r:?}"
    );

    // A table the run writes is hashed afresh (here over a wrong listed hash), and
    // one the list lacks (written by a run stopped before listing it) is added.
    let wrong = "0".repeat(64);
    let text: String = listed
        .iter()
        .filter(|(name, _)| *name != "3v4.tghz")
        .map(|(name, hash)| (name, if name == "3v3.tgtb" { &wrong } else { hash }))
        .map(|(name, hash)| format!("{hash}  {name}\n"))
        .collect();
    std::fs::write(dir.path().join("tigadi/SHA256SUMS"), text).unwrap();
    std::fs::remove_file(dir.path().join("tigadi/3v3.tgtb")).unwrap();
    run();
    assert_eq!(listed_sums(&dir.path().join("tigadi")), listed);
}

/// The job stores each pair's tables while it solves the next one, and a pair
/// whose capture targets the pair before it solved reads them from memory, not
/// from the files. Its tables must be the bytes of the same pairs solved one job
/// at a time (every target read back from its file), and of the tables solved
/// in memory and written one by one; and every table is listed in the manifest
/// with its solve time.
#[test]
fn a_run_of_pairs_writes_what_pairs_solved_one_job_at_a_time_write() {
    let rules = RuleSet::parse("tigadi,pieces=4").unwrap();
    let steps = tigadi_jobs::steps(&rules, tigadi_jobs::Scope::BoardUpTo(8));
    // 3v3, 4v3+3v4 (which captures into 3v3), 4v4 (into 3v4): both reads from
    // memory happen.
    assert_eq!(steps.len(), 3);
    let together = tempfile::tempdir().unwrap();
    let kinds = [tigadi_tablebase::TableKind::GameTheoretic];
    common::job(together.path(), &rules, &steps, &kinds);
    let apart = tempfile::tempdir().unwrap();
    for step in &steps {
        common::job(apart.path(), &rules, &[*step], &kinds);
    }
    let in_memory = tempfile::tempdir().unwrap();
    let solved = solve_and_write(in_memory.path(), rules, 8);
    let name = TablebaseDir::name_of(&rules);
    let bytes = |root: &Path, sub: Subspace| {
        std::fs::read(TablebaseDir::new(root, &rules).table_path(game(sub))).unwrap()
    };
    assert_eq!(solved.len(), 4);
    for &sub in solved.keys() {
        let written = bytes(together.path(), sub);
        assert!(written == bytes(apart.path(), sub), "{sub} differs");
        assert!(written == bytes(in_memory.path(), sub), "{sub} differs");
    }
    assert_eq!(
        listed_sums(&together.path().join(&name)),
        listed_sums(&apart.path().join(&name))
    );
    let manifest = TablebaseDir::new(together.path(), &rules)
        .read_manifest()
        .unwrap()
        .unwrap();
    assert_eq!(manifest.subspaces.len(), 4);
    assert!(
        manifest.subspaces.iter().all(|e| e.seconds.is_some()),
        "{manifest:?}"
    );
}
