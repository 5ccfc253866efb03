//! `tigadi verify`: check every checksum (and `SHA256SUMS`) and recompute every
//! stored value. Tables that passed an earlier run and whose files (and the files
//! their check reads) are unchanged are not recomputed unless `--again` is given,
//! so an interrupted verify of a big set resumes where it stopped.

use super::CmdResult;
use crate::progress::{Progress, VerifyProgress};
use crate::VerifyArgs;
use tigadi_jobs::SubspaceReport;
use tigadi_rules::RuleSet;

/// The result lines of one table.
fn report_lines(s: &SubspaceReport) -> Vec<String> {
    let mut lines = Vec::new();
    // As the file is named: `4v3`, or `p5-2v3` after 5 placements.
    let table = s.name();
    let name = match s.kind.label() {
        None => table,
        Some(label) => format!("{table} ({label})"),
    };
    let first = s.kind.first_section_check();
    if s.is_ok() {
        let earlier = if s.earlier {
            " (passed an earlier run; unchanged since)"
        } else {
            ""
        };
        lines.push(format!("{name}  ok  {} positions{earlier}", s.checked));
        return lines;
    }
    if let Some(e) = &s.error {
        lines.push(format!("{name}  FAILED  {e}"));
    }
    if s.mismatches > 0 {
        lines.push(format!(
            "{name}  FAILED  {} of {} positions do not match",
            s.mismatches, s.checked
        ));
        for m in &s.examples {
            let what = if m.wdl_section { first } else { "recomputed" };
            lines.push(format!(
                "    slot {}: stored {}, {what} {} (mover {:06x}, opponent {:06x})",
                m.slot, m.stored, m.recomputed, m.board.mover, m.board.opponent
            ));
        }
        if !s.culprits.is_empty() {
            lines.push(format!(
                "    it reads {}, which failed above: look there first",
                s.culprits.join(", ")
            ));
        }
    }
    lines
}

pub fn run(rules: RuleSet, args: &VerifyArgs) -> CmdResult {
    let started = std::time::Instant::now();
    let progress = Progress::new("slots");
    let observer = VerifyProgress {
        progress: &progress,
        report: report_lines,
    };
    let kinds: Vec<tigadi_tablebase::TableKind> = if args.kinds.is_empty() {
        tigadi_tablebase::TableKind::ALL.to_vec()
    } else {
        args.kinds.clone()
    };
    let mut only = Vec::new();
    for name in &args.tables {
        only.push(
            tigadi_tablebase::TableId::parse(name, &rules).ok_or_else(|| {
                format!(
                    "no table of {rules} is named {name:?}: tables are named as their files, \
                 such as 4v3.tgtb or p5-2v3.tgtb, as the tablebase directory lists them"
                )
            })?,
        );
    }
    let report = crate::interrupt::stoppable(
        &progress,
        "the table in progress",
        "that table is then checked again",
        || tigadi_jobs::verify_tables(&args.dir.dir, &rules, !args.again, &kinds, &only, &observer),
    );
    progress.finish();
    let report = report.map_err(|e| e.to_string())?;
    if let (Some(tier), Some(signal)) = (report.stopped_before, crate::interrupt::asked()) {
        let failed = report.subspaces.iter().filter(|s| !s.is_ok()).count();
        let kept = if args.again {
            "--again keeps no record, so a run without it checks them again"
        } else {
            "run verify again to go on: the tables that passed are not recomputed"
        };
        progress.line(&format!(
            "{rules}: stopped by {} before {tier}: {} tables checked, {failed} FAILED; {kept}",
            crate::interrupt::name(signal),
            report.subspaces.len(),
        ));
        return match progress.write_failure() {
            Some(e) => Err(e),
            None => Ok(crate::interrupt::exit_code(signal)),
        };
    }
    if let Some(sums) = &report.sums {
        if sums.problems.is_empty() {
            progress.line(&format!("SHA256SUMS  ok  {} files", sums.listed));
        }
        for p in &sums.problems {
            progress.line(&format!("SHA256SUMS  FAILED  {p}"));
        }
    }
    let tables = report.subspaces.len();
    let failed = report.subspaces.iter().filter(|s| !s.is_ok()).count();
    if report.is_ok() {
        progress.line(&format!(
            "{rules}: all {tables} tables good, {} positions checked",
            report.checked()
        ));
    } else if failed == 0 {
        progress.line(&format!(
            "{rules}: all {tables} tables good, but SHA256SUMS does not match them"
        ));
    } else {
        progress.line(&format!("{rules}: {failed} of {tables} tables FAILED"));
    }
    // The whole run's time, CPU and peak memory (verify resets no peak).
    progress.line(&crate::usage::run_summary(started));
    if let Some(e) = progress.write_failure() {
        return Err(e);
    }
    Ok(if report.is_ok() { 0 } else { 1 })
}
