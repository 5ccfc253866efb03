use super::CmdResult;
use crate::ReplayArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &ReplayArgs) -> CmdResult {
    Err("not implemented yet".into())
}
