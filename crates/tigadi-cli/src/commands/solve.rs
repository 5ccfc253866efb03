use super::CmdResult;
use crate::SolveArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &SolveArgs) -> CmdResult {
    Err("not implemented yet".into())
}
