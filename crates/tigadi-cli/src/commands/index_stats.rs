use super::CmdResult;
use crate::JsonArgs;

pub fn run(_args: &JsonArgs) -> CmdResult {
    Err("not implemented yet".into())
}
