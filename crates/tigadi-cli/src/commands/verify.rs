//! `tigadi verify`: check every checksum and recompute every stored value.

use super::CmdResult;
use crate::DirArgs;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use tigadi_rules::RuleSet;

pub fn run(rules: RuleSet, args: &DirArgs) -> CmdResult {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("verify {bar:40} {percent}% {pos}/{len} slots, eta {eta}")
                .expect("valid template"),
        );
        bar
    });
    let progress = |done: u64, total: u64| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    };
    let report =
        tigadi_tablebase::verify(&args.dir, &rules, &progress).map_err(|e| e.to_string())?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    for s in &report.subspaces {
        // `4v3` for the moving phase, `p5-2v3` for placing layer 5 (as the files).
        let name = match s.placing {
            None => s.subspace.to_string(),
            Some(p) => format!("p{p}-{}", s.subspace),
        };
        if s.is_ok() {
            println!("{name}  ok  {} positions", s.checked);
            continue;
        }
        if let Some(e) = &s.error {
            println!("{name}  FAILED  {e}");
        }
        if s.mismatches > 0 {
            println!(
                "{name}  FAILED  {} of {} positions do not match",
                s.mismatches, s.checked
            );
            for m in &s.examples {
                let what = if m.wdl_section {
                    "WDL section disagrees with DTC section"
                } else {
                    "recomputed"
                };
                println!(
                    "    slot {}: stored {}, {what} {} (mover {:06x}, opponent {:06x})",
                    m.slot, m.stored, m.recomputed, m.board.mover, m.board.opponent
                );
            }
        }
    }
    let failed = report.subspaces.iter().filter(|s| !s.is_ok()).count();
    if failed == 0 {
        println!(
            "{rules}: all {} tables good, {} positions checked",
            report.subspaces.len(),
            report.checked()
        );
        Ok(0)
    } else {
        println!(
            "{rules}: {failed} of {} tables FAILED",
            report.subspaces.len()
        );
        Ok(1)
    }
}
