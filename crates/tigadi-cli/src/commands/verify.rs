use super::CmdResult;
use crate::DirArgs;
use tigadi_rules::RuleSet;

pub fn run(_rules: RuleSet, _args: &DirArgs) -> CmdResult {
    Err("not implemented yet".into())
}
