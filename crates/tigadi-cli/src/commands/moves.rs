//! `tigadi moves POSITION`: lists the legal moves in the notation of docs/RULES.md §9.

use super::show::{position, result_json, standing};
use super::CmdResult;
use crate::PositionArgs;
use serde_json::json;
use tigadi_rules::RuleSet;

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &PositionArgs) -> CmdResult {
    let p = position(&rules, &args.position)?;
    let result = standing(&rules, &p);
    let moves: Vec<String> = if result.is_over() {
        Vec::new()
    } else {
        p.legal_moves(&rules)
            .iter()
            .map(|m| m.to_string())
            .collect()
    };
    if args.json {
        let v = json!({
            "position": p.to_string(),
            "rules": rules.name(),
            "count": moves.len(),
            "moves": moves,
            "result": result_json(result),
        });
        outln!("{v}");
        return Ok(0);
    }
    if result.is_over() {
        outln!("no legal moves: {result}");
        return Ok(0);
    }
    let noun = if moves.len() == 1 { "move" } else { "moves" };
    let n = moves.len();
    let when = super::show::phase_name(&rules, &p);
    outln!("{n} legal {noun} for {} ({when}):", p.side);
    outln!("{}", moves.join(" "));
    Ok(0)
}
