//! `tigadi line POSITION`: the principal variation under perfect play (the
//! library's [`tigadi_play::line_with`]), by DTC or, with `--metric dtw`, by the
//! depth to win.

use super::show::position;
use super::CmdResult;
use crate::LineArgs;
use tigadi_play::{line_with, LineEnd};
use tigadi_rules::{Game, RuleSet};
use tigadi_tablebase::Tablebase;
use tigadi_values::{in_words, Metric};

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &LineArgs) -> CmdResult {
    let start = position(&rules, &args.position)?;
    // A finished game is its own line and reads no table; any other start needs
    // the rule set's tables, and their absence is named before anything runs.
    let over = Game::from_reached_position(rules, start).is_ok_and(|g| g.result().is_over());
    let tb = if over {
        Tablebase::open(&args.dir.dir, &rules)
    } else {
        super::tables::open(&args.dir.dir, &rules)?
    };
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
    let why = match metric {
        Metric::Dtw => " (by the depth to win: both sides play to the end of the game)",
        Metric::Dtc | Metric::Dtz => {
            " (by the depth to capture: both sides play to each next capture)"
        }
    };
    outln!(
        "{} to move: {}{why}",
        l.start.side,
        in_words(l.value, metric)
    );
    for (i, s) in l.steps.iter().enumerate() {
        outln!(
            "{:>3}. {:<4}  {:<11} {:<30} {}",
            i + 1,
            s.side.name(),
            s.mv.to_string(),
            in_words(s.value, metric),
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
