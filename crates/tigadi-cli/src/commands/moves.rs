use super::CmdResult;
use crate::PositionArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &PositionArgs) -> CmdResult {
    Err("not implemented yet".into())
}
