//! `tigadi perft POSITION DEPTH`: the number of move sequences of DEPTH turns (the
//! leaves of the move tree), for checking move generation against published counts.

use super::show::position;
use super::CmdResult;
use crate::PerftArgs;
use tigadi_rules::RuleSet;

/// Deepest perft accepted. The count grows about twentyfold per turn, so 32 turns
/// would take longer than anyone waits and deeper counts can overflow 64 bits;
/// the recursion (one frame per turn) stays far from any stack's limit.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &PerftArgs) -> CmdResult {
    if args.depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft depth {} is too deep (at most {MAX_PERFT_DEPTH} turns)",
            args.depth
        ));
    }
    let p = position(&rules, &args.position)?;
    outln!("{}", p.perft(&rules, args.depth));
    Ok(0)
}
