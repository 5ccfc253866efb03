//! `tigadi index-stats`: per moving-phase subspace of the rule set's game (both
//! sides from 3 to its gotis a side, the full board left out), or with `--tiers`
//! per tier the game reaches (gotis in hand included: every table a whole solve
//! writes), the index's slot count, the exact number of symmetry classes and the
//! padding overhead. With `--tiers` the totals also give the solve's steps and its
//! largest step (a tier, or a tier and its flipped partner solved together), whose
//! slots bound the solve's memory.

use super::CmdResult;
use crate::IndexStatsArgs;
use serde_json::json;
use std::io::Write;
use tigadi_index::{classes, Subspace, SubspaceIndex, MIN_GOTIS};
use tigadi_rules::{RuleSet, POINTS};
use tigadi_values::{reached_tiers, tier_steps, Hands, Tier};

/// Padding as a percentage of the classes.
fn overhead_percent(slots: u64, classes: u64) -> f64 {
    if classes == 0 {
        0.0
    } else {
        (slots - classes) as f64 * 100.0 / classes as f64
    }
}

pub fn run(rules: RuleSet, args: &IndexStatsArgs) -> CmdResult {
    match write_stats(&rules, args, &mut std::io::stdout().lock()) {
        Ok(()) => Ok(0),
        // A closed pipe (`tigadi index-stats | head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(crate::output::write_error(e)),
    }
}

/// The moving-phase tiers of a game of `pieces` a side, mover's count first:
/// for 9 a side the 49 of [`Subspace::standard`], in its order.
fn moving_tiers(pieces: u8) -> impl Iterator<Item = Tier> {
    (MIN_GOTIS..=pieces)
        .flat_map(move |m| (MIN_GOTIS..=pieces).map(move |o| Subspace::new(m, o)))
        .filter(|s| (s.mover + s.opponent) as usize != POINTS)
        .map(Tier::moving)
}

fn write_stats(
    rules: &RuleSet,
    args: &IndexStatsArgs,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let tiers: Vec<Tier> = if args.tiers {
        reached_tiers(rules).into_iter().collect()
    } else {
        moving_tiers(rules.pieces).collect()
    };
    let (mut total_slots, mut total_classes) = (0u64, 0u64);
    if !args.json {
        let hands = if args.tiers { "   hands" } else { "" };
        writeln!(
            out,
            "{hands}{:>5} {:>8} {:>15} {:>15} {:>9}",
            "mover", "opponent", "slots", "classes", "overhead"
        )?;
    }
    for tier in tiers {
        let sub = tier.subspace;
        let slots = SubspaceIndex::new(sub).slots();
        let classes = classes(sub);
        total_slots += slots;
        total_classes += classes;
        let overhead = overhead_percent(slots, classes);
        let Hands { mover, opponent } = tier.hands;
        if args.json {
            let mut line = json!({
                "mover": sub.mover,
                "opponent": sub.opponent,
                "slots": slots,
                "classes": classes,
                "overhead_percent": overhead,
            });
            if args.tiers {
                line["hand_mover"] = json!(mover);
                line["hand_opponent"] = json!(opponent);
            }
            writeln!(out, "{line}")?;
        } else {
            let hands = if args.tiers {
                format!("{:>8}", format!("{mover}+{opponent}"))
            } else {
                String::new()
            };
            writeln!(
                out,
                "{hands}{:>5} {:>8} {:>15} {:>15} {:>8.3}%",
                sub.mover, sub.opponent, slots, classes, overhead
            )?;
        }
    }
    let overhead = overhead_percent(total_slots, total_classes);
    let steps = args.tiers.then(|| {
        let steps = tier_steps(rules);
        let slots = |step: &Vec<Tier>| -> u64 {
            step.iter()
                .map(|t| SubspaceIndex::new(t.subspace).slots())
                .sum()
        };
        let largest = steps.iter().max_by_key(|s| slots(s)).cloned();
        (steps.len(), largest.map(|s| (slots(&s), s[0])))
    });
    if args.json {
        let mut line = json!({
            "total": true,
            "slots": total_slots,
            "classes": total_classes,
            "overhead_percent": overhead,
        });
        if let Some((n, largest)) = steps {
            line["steps"] = json!(n);
            if let Some((slots, tier)) = largest {
                line["largest_step_slots"] = json!(slots);
                line["largest_step"] = json!(tier.to_string());
            }
        }
        writeln!(out, "{line}")?;
    } else {
        let pad = if args.tiers { 8 } else { 0 };
        writeln!(
            out,
            "{:>w$} {:>15} {:>15} {:>8.3}%",
            "total",
            total_slots,
            total_classes,
            overhead,
            w = 14 + pad
        )?;
        if let Some((n, largest)) = steps {
            write!(out, "{n} steps")?;
            if let Some((slots, tier)) = largest {
                write!(
                    out,
                    "; the largest, {tier} (with its flipped partner if it has one), {slots} slots"
                )?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}
