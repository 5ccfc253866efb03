//! `tigadi line POSITION`: the principal variation under perfect play (the
//! library's [`tigadi_play::line_with`]), by DTC or, with `--metric dtw`, by the
//! depth to win.

use super::show::position;
use super::CmdResult;
use crate::LineArgs;
use tigadi_play::{line_with, LineEnd};
use tigadi_rules::RuleSet;
use tigadi_solve::Metric;
use tigadi_tablebase::Tablebase;

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &LineArgs) -> CmdResult {
    let start = position(&rules, &args.position)?;
    let tb = Tablebase::open(&args.dir.dir, &rules);
    let metric = match args.metric.as_str() {
        "dtw" => Metric::Dtw,
        _ => Metric::Dtc,
    };
    let l = line_with(&tb, &start, args.max_turns, metric)
        .map_err(|e| format!("position '{}': {e}", args.position))?;
    if args.json {
        let text = serde_json::to_string(&l).map_err(|e| e.to_string())?;
        outln!("{text}");
        return Ok(0);
    }
    outln!("{}", l.start);
    match metric {
        Metric::Dtw => outln!(
            "{} to move: {} (depth to win: turns to the end of the game)",
            l.start.side,
            crate::output::dtw_text(l.value)
        ),
        Metric::Dtc => outln!("{} to move: {}", l.start.side, l.value),
    }
    for (i, s) in l.steps.iter().enumerate() {
        outln!(
            "{:>3}. {:<4}  {:<11} {:<12} {}",
            i + 1,
            s.side.name(),
            s.mv.to_string(),
            s.value.to_string(),
            s.position
        );
    }
    match l.end {
        LineEnd::GameOver { result } => outln!("end: {result}"),
        LineEnd::DrawCertain => outln!("end: a draw with perfect play (no win can be forced)"),
        LineEnd::MaxTurns => outln!("end: stopped after {} turns (--max-turns)", args.max_turns),
        LineEnd::NoTable { why } => outln!("end: {why}"),
    }
    Ok(0)
}
