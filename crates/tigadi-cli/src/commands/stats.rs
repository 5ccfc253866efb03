//! `tigadi stats`: win/draw/loss counts of the solved subspaces.

use super::CmdResult;
use crate::DirJsonArgs;
use serde_json::json;
use tigadi_rules::RuleSet;
use tigadi_tablebase::{list_subspaces, read_header, read_manifest, rules_dir};

pub fn run(rules: RuleSet, args: &DirJsonArgs) -> CmdResult {
    let dir = &args.dir.dir;
    let subs = list_subspaces(dir, &rules).map_err(|e| e.to_string())?;
    if subs.is_empty() {
        return Err(format!(
            "no tablebase files in {}",
            rules_dir(dir, &rules).display()
        ));
    }
    // The manifest only adds solve times: a damaged one costs those, not the table.
    let manifest = read_manifest(dir, &rules).unwrap_or_else(|e| {
        eprintln!("tigadi: warning: {e}; solve times are not shown");
        None
    });
    if !args.json {
        outln!(
            "{:<8} {:>14} {:>14} {:>14} {:>14} {:>6} {:>6} {:>10}",
            "subspace",
            "classes",
            "win",
            "draw",
            "loss",
            "dtc+",
            "dtc-",
            "seconds"
        );
    }
    for s in subs {
        let h = read_header(dir, &rules, s).map_err(|e| e.to_string())?;
        let c = h.counts;
        let seconds = manifest
            .as_ref()
            .and_then(|m| m.subspaces.iter().find(|e| e.subspace() == s))
            .and_then(|e| e.seconds);
        if args.json {
            let row = json!({
                "rules": rules.name(),
                "mover": s.mover,
                "opponent": s.opponent,
                "classes": c.classes(),
                "win": c.wins,
                "draw": c.draws,
                "loss": c.losses,
                "max_dtc_win": c.max_dtc_win,
                "max_dtc_loss": c.max_dtc_loss,
                "seconds": seconds,
            });
            outln!("{row}");
        } else {
            let secs = seconds.map_or("-".to_string(), |x| format!("{x:.1}"));
            outln!(
                "{:<8} {:>14} {:>14} {:>14} {:>14} {:>6} {:>6} {:>10}",
                s.to_string(),
                c.classes(),
                c.wins,
                c.draws,
                c.losses,
                c.max_dtc_win,
                c.max_dtc_loss,
                secs
            );
        }
    }
    Ok(0)
}
