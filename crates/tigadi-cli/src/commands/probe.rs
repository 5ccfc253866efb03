use super::CmdResult;
use crate::ProbeArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &ProbeArgs) -> CmdResult {
    Err("not implemented yet".into())
}
