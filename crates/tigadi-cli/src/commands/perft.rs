//! `tigadi perft POSITION DEPTH`: the number of move sequences of DEPTH turns (the
//! leaves of the move tree), for checking move generation against published counts.

use super::show::position;
use super::CmdResult;
use crate::PerftArgs;
use tigadi_rules::RuleSet;

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &PerftArgs) -> CmdResult {
    let p = position(&args.position)?;
    println!("{}", p.perft(&rules, args.depth));
    Ok(0)
}
