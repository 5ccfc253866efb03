//! A job asked to stop ([`JobObserver::stop_requested`]) stops before the next
//! step with every step before it written and listed: the run started again
//! skips exactly the steps the stopped run began, begins with the step it
//! stopped before, and ends with the bytes of a run never stopped. Checked at
//! every step of whole small games: Tigadi's one-pass steps (placing, in
//! groups by hands, written beside the next step) and moving pairs, and
//! Lasker's steps with gotis in hand (game and 100-turn values in one pass).
//! `verify` stops the same way, between its steps.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tigadi_jobs::{solve, steps, verify_with, JobError, JobObserver, Scope, VerifyObserver};
use tigadi_rules::RuleSet;
use tigadi_tablebase::{TableKind, Tier};

/// Records the steps begun and skipped, and asks to stop once `stop_after`
/// steps have begun.
struct StopAfter {
    stop_after: usize,
    started: Mutex<Vec<(TableKind, Tier)>>,
    skipped: Mutex<Vec<(TableKind, Tier)>>,
}

impl StopAfter {
    fn new(stop_after: usize) -> StopAfter {
        StopAfter {
            stop_after,
            started: Default::default(),
            skipped: Default::default(),
        }
    }
}

impl tigadi_solve::Observer for StopAfter {}
impl JobObserver for StopAfter {
    fn started(&self, kind: TableKind, tier: Tier, _slots: u64) {
        self.started.lock().unwrap().push((kind, tier));
    }
    fn skipped(&self, kind: TableKind, tier: Tier) {
        self.skipped.lock().unwrap().push((kind, tier));
    }
    fn stop_requested(&self) -> bool {
        self.started.lock().unwrap().len() >= self.stop_after
    }
}

/// The kinds of table every job here solves.
const KINDS: [TableKind; 2] = [TableKind::GameTheoretic, TableKind::Horizon];

/// The job of `steps` and [`KINDS`] into `dir`, reporting to `observer`.
fn job(dir: &Path, rules: &RuleSet, steps: &[Tier], observer: &StopAfter) -> Result<(), JobError> {
    solve(dir, rules, steps, &KINDS, &Default::default(), observer)
}

/// The rule set's own directory under `dir`.
fn rule_dir(dir: &Path, rules: &RuleSet) -> PathBuf {
    tigadi_tablebase::TablebaseDir::new(dir, rules)
        .path()
        .to_path_buf()
}

/// Every file of the rule set's directory under `dir` but the manifest (which
/// keeps solve times), by name.
fn files(dir: &Path, rules: &RuleSet) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(rule_dir(dir, rules))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with("manifest.json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

#[test]
fn a_job_stopped_before_any_step_resumes_there_to_the_same_bytes() {
    for spec in ["tigadi,pieces=3", "lasker,pieces=3"] {
        let rules = RuleSet::parse(spec).unwrap();
        let steps = steps(&rules, Scope::Whole);
        let whole = tempfile::tempdir().unwrap();
        let never = StopAfter::new(usize::MAX);
        job(whole.path(), &rules, &steps, &never).unwrap();
        let order = never.started.into_inner().unwrap();
        let reference = files(whole.path(), &rules);
        assert!(order.len() > 5, "{spec}: {} steps", order.len());
        for n in 1..order.len() {
            let dir = tempfile::tempdir().unwrap();
            let stopping = StopAfter::new(n);
            match job(dir.path(), &rules, &steps, &stopping) {
                Err(JobError::Stopped(tier)) => assert_eq!(tier, order[n].1, "{spec}, {n}"),
                other => panic!("{spec}: stop after {n} steps: {other:?}"),
            }
            assert_eq!(stopping.started.into_inner().unwrap(), order[..n], "{spec}");
            // Every table the stopped run wrote is listed, with its hash.
            let listed = common::listed_sums(&rule_dir(dir.path(), &rules));
            for name in files(dir.path(), &rules).keys() {
                assert!(
                    !name.contains(".tg") || listed.contains_key(name),
                    "{spec}: stopped at step {n}: {name} is not listed"
                );
            }
            let resumed = StopAfter::new(usize::MAX);
            job(dir.path(), &rules, &steps, &resumed).unwrap();
            // A Lasker step whose 100-turn values came with its game values
            // is skipped by the 100-turn pass too, but never begun there.
            let mut skipped = resumed.skipped.into_inner().unwrap();
            skipped.retain(|s| order.contains(s));
            assert_eq!(
                skipped,
                order[..n],
                "{spec}: after a stop at step {n}, the steps skipped on resume"
            );
            assert_eq!(
                resumed.started.into_inner().unwrap(),
                order[n..],
                "{spec}, {n}"
            );
            assert!(
                files(dir.path(), &rules) == reference,
                "{spec}: stopped at step {n} and resumed: other bytes"
            );
        }
    }
}

/// Records the verify steps begun, and asks to stop once `stop_after` have.
struct VerifyStopAfter {
    stop_after: usize,
    started: Mutex<Vec<Tier>>,
}

impl VerifyObserver for VerifyStopAfter {
    fn started(&self, tier: Tier, _slots: u64) {
        self.started.lock().unwrap().push(tier);
    }
    fn stop_requested(&self) -> bool {
        self.started.lock().unwrap().len() >= self.stop_after
    }
}

/// A verify asked to stop ([`VerifyObserver::stop_requested`]) stops before
/// the next step: its report names that step's tier, holds the tables of the
/// steps before it, and is not ok; the next resuming run recomputes none of
/// them and checks every table. At every step of whole small games, Tigadi's
/// and Lasker's.
#[test]
fn a_verify_stopped_before_any_step_resumes_there() {
    for spec in ["tigadi,pieces=3", "lasker,pieces=3"] {
        let rules = RuleSet::parse(spec).unwrap();
        let whole = tempfile::tempdir().unwrap();
        common::job(whole.path(), &rules, &steps(&rules, Scope::Whole), &KINDS);
        let all = VerifyStopAfter {
            stop_after: usize::MAX,
            started: Default::default(),
        };
        let report = verify_with(whole.path(), &rules, false, &all).unwrap();
        assert!(report.is_ok() && report.stopped_before.is_none(), "{spec}");
        let order = all.started.into_inner().unwrap();
        assert!(order.len() > 5, "{spec}: {} steps", order.len());
        for (n, &next) in order.iter().enumerate().skip(1) {
            let dir = tempfile::tempdir().unwrap();
            common::copy_dir(whole.path(), dir.path());
            let stopping = VerifyStopAfter {
                stop_after: n,
                started: Default::default(),
            };
            let stopped = verify_with(dir.path(), &rules, true, &stopping).unwrap();
            assert_eq!(stopped.stopped_before, Some(next), "{spec}, {n}");
            assert!(!stopped.is_ok(), "{spec}: a stopped verify is not ok");
            assert!(stopped.subspaces.iter().all(|s| s.is_ok() && !s.earlier));
            let checked: Vec<_> = stopped.subspaces.iter().map(|s| s.path.clone()).collect();
            assert!(checked.iter().all(|p| report
                .subspaces
                .iter()
                .any(|s| s.path.file_name() == p.file_name())));
            let resumed = verify_with(dir.path(), &rules, true, &common::Silent).unwrap();
            assert!(resumed.is_ok(), "{spec}, {n}");
            assert_eq!(
                resumed.subspaces.len(),
                report.subspaces.len(),
                "{spec}, {n}"
            );
            for s in &resumed.subspaces {
                let before = checked.iter().any(|p| p.file_name() == s.path.file_name());
                assert_eq!(s.earlier, before, "{spec}, stopped at {n}: {:?}", s.path);
            }
        }
    }
}
