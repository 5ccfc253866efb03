use super::CmdResult;
use crate::DirJsonArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &DirJsonArgs) -> CmdResult {
    Err("not implemented yet".into())
}
