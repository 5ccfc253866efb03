//! `tigadi analyze RECORD`: every turn of a game judged from the tables (the
//! library's [`tigadi_play::analyze()`]), one line per turn and a summary per player.

use super::replay::read_moves;
use super::CmdResult;
use crate::AnalyzeArgs;
use tigadi_play::{analyze, Assessment, PlayerSummary, Verdict};
use tigadi_rules::RuleSet;
use tigadi_values::{both_in_words, in_words, Metric};

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &AnalyzeArgs) -> CmdResult {
    let moves = read_moves(&args.game)?;
    let tb = super::tables::open(&args.dir.dir, &rules)?;
    let analysis = analyze(&tb, &moves).map_err(|e| e.to_string())?;
    if args.game.json {
        let text = serde_json::to_string(&analysis).map_err(|e| e.to_string())?;
        outln!("{text}");
        return Ok(0);
    }
    for t in &analysis.turns {
        let head = format!(
            "{:>3}. {:<4}  {:<11}",
            t.number,
            t.side.name(),
            t.mv.to_string()
        );
        match &t.verdict {
            Verdict::NotJudged { why } => outln!("{head} not judged: {why}"),
            Verdict::Judged {
                before,
                after,
                best,
                thrown,
                thrown_under_rule,
            } => {
                let mark = if *thrown {
                    "  ?? value thrown"
                } else if *thrown_under_rule {
                    "  ?? value thrown under the 100-turn rule"
                } else if !best.is_empty() {
                    "  ? not the best"
                } else {
                    ""
                };
                // Under the rule only where it says something else.
                let rule = match (before.rule_value, after.rule_value) {
                    (Some(b), Some(a)) if (b, a) != (before.value, after.value) => {
                        format!(
                            "; under the 100-turn rule {} -> {}",
                            in_words(b, Metric::Dtc),
                            in_words(a, Metric::Dtc)
                        )
                    }
                    _ => String::new(),
                };
                let best = if best.is_empty() {
                    String::new()
                } else {
                    let names: Vec<String> = best.iter().map(|m| m.to_string()).collect();
                    format!("; best: {}", names.join(" "))
                };
                outln!("{head} {}{rule}{mark}{best}", values(before, after));
            }
        }
    }
    for p in &analysis.players {
        outln!("{}", summary(p));
    }
    outln!("result: {}", analysis.result);
    Ok(0)
}

fn values(before: &Assessment, after: &Assessment) -> String {
    format!(
        "{} -> {}",
        both_in_words(before.value, before.dtw),
        both_in_words(after.value, after.dtw)
    )
}

fn summary(p: &PlayerSummary) -> String {
    let errors = match p.errors.len() {
        0 => "no value-changing errors".to_string(),
        n => {
            let turns: Vec<String> = p.errors.iter().map(|t| t.to_string()).collect();
            format!(
                "{n} value-changing error{} (turn{} {})",
                if n == 1 { "" } else { "s" },
                if n == 1 { "" } else { "s" },
                turns.join(", ")
            )
        }
    };
    format!(
        "{}: {} turns, {} judged, {} not the best, {errors}",
        p.side.name(),
        p.turns,
        p.judged,
        p.worse
    )
}
