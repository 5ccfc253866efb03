//! `tigadi index-stats`: per moving-phase subspace of the rule set's game (both
//! sides from 3 to its gotis a side, the full board left out), the index's slot
//! count, the exact number of symmetry classes and the padding overhead.

use super::CmdResult;
use crate::JsonArgs;
use serde_json::json;
use std::io::Write;
use tigadi_index::{classes, Subspace, SubspaceIndex, MIN_GOTIS};
use tigadi_rules::{RuleSet, POINTS};

/// Padding as a percentage of the classes.
fn overhead_percent(slots: u64, classes: u64) -> f64 {
    if classes == 0 {
        0.0
    } else {
        (slots - classes) as f64 * 100.0 / classes as f64
    }
}

pub fn run(rules: RuleSet, args: &JsonArgs) -> CmdResult {
    match write_stats(&rules, args, &mut std::io::stdout().lock()) {
        Ok(()) => Ok(0),
        // A closed pipe (`tigadi index-stats | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(crate::output::write_error(e)),
    }
}

/// The moving-phase subspaces of a game of `pieces` a side, mover's count first:
/// for 9 a side the 49 of [`Subspace::standard`], in its order.
fn subspaces(pieces: u8) -> impl Iterator<Item = Subspace> {
    (MIN_GOTIS..=pieces)
        .flat_map(move |m| (MIN_GOTIS..=pieces).map(move |o| Subspace::new(m, o)))
        .filter(|s| (s.mover + s.opponent) as usize != POINTS)
}

fn write_stats(rules: &RuleSet, args: &JsonArgs, out: &mut impl Write) -> std::io::Result<()> {
    let (mut total_slots, mut total_classes) = (0u64, 0u64);
    if !args.json {
        writeln!(
            out,
            "{:>5} {:>8} {:>15} {:>15} {:>9}",
            "mover", "opponent", "slots", "classes", "overhead"
        )?;
    }
    for sub in subspaces(rules.pieces) {
        let slots = SubspaceIndex::new(sub).slots();
        let classes = classes(sub);
        total_slots += slots;
        total_classes += classes;
        let overhead = overhead_percent(slots, classes);
        if args.json {
            let line = json!({
                "mover": sub.mover,
                "opponent": sub.opponent,
                "slots": slots,
                "classes": classes,
                "overhead_percent": overhead,
            });
            writeln!(out, "{line}")?;
        } else {
            writeln!(
                out,
                "{:>5} {:>8} {:>15} {:>15} {:>8.3}%",
                sub.mover, sub.opponent, slots, classes, overhead
            )?;
        }
    }
    let overhead = overhead_percent(total_slots, total_classes);
    if args.json {
        let line = json!({
            "total": true,
            "slots": total_slots,
            "classes": total_classes,
            "overhead_percent": overhead,
        });
        writeln!(out, "{line}")?;
    } else {
        writeln!(
            out,
            "{:>14} {:>15} {:>15} {:>8.3}%",
            "total", total_slots, total_classes, overhead
        )?;
    }
    Ok(())
}
