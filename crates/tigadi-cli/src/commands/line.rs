//! `tigadi line POSITION`: the principal variation under perfect play (the
//! library's [`tigadi_play::line`]).

use super::show::position;
use super::CmdResult;
use crate::LineArgs;
use tigadi_play::{line, LineEnd};
use tigadi_rules::RuleSet;
use tigadi_tablebase::Tablebase;

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &LineArgs) -> CmdResult {
    let start = position(&rules, &args.position)?;
    let tb = Tablebase::open(&args.dir.dir, &rules);
    let l = line(&tb, &start, args.max_turns)
        .map_err(|e| format!("position '{}': {e}", args.position))?;
    if args.json {
        let text = serde_json::to_string(&l).map_err(|e| e.to_string())?;
        outln!("{text}");
        return Ok(0);
    }
    outln!("{}", l.start);
    outln!("{} to move: {}", l.start.side, l.value);
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
