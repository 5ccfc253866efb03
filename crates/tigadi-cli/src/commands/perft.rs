use super::CmdResult;
use crate::PerftArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &PerftArgs) -> CmdResult {
    Err("not implemented yet".into())
}
