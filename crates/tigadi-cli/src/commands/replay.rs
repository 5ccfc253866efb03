//! `tigadi replay RECORD`: replays a game record from the empty board, checking every
//! move, and prints the final position and the result.

use super::show::result_json;
use super::CmdResult;
use crate::input::{read_all, MAX_RECORD_BYTES};
use crate::ReplayArgs;
use serde_json::json;
use tigadi_rules::{parse_record, Game, Move, NotationError, RuleSet};

fn read_record(args: &ReplayArgs) -> Result<String, String> {
    let (text, from) = match (&args.record, &args.file) {
        (Some(r), _) => return Ok(r.clone()),
        (None, Some(f)) if f.as_os_str() == "-" => (
            read_all(std::io::stdin().lock(), MAX_RECORD_BYTES),
            "standard input".to_string(),
        ),
        (None, Some(f)) => (
            std::fs::File::open(f).and_then(|file| read_all(file, MAX_RECORD_BYTES)),
            f.display().to_string(),
        ),
        (None, None) => return Err("give a record or --file".into()),
    };
    match text {
        Ok(Some(text)) => Ok(text),
        Ok(None) => Err(format!(
            "cannot read the record from {from}: longer than {MAX_RECORD_BYTES} bytes"
        )),
        Err(e) => Err(format!("cannot read the record from {from}: {e}")),
    }
}

/// The moves of the record given as an argument or in `--file`.
pub fn read_moves(args: &ReplayArgs) -> Result<Vec<Move>, String> {
    let text = read_record(args)?;
    parse_record(&text).map_err(|e| match e {
        NotationError::BadRecord { number, error } => format!("move {number}: {error}"),
        e => e.to_string(),
    })
}

/// Runs the command; see the module docs.
pub fn run(rules: RuleSet, args: &ReplayArgs) -> CmdResult {
    let moves = read_moves(args)?;
    let mut game = Game::new(rules);
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv)
            .map_err(|e| format!("move {} ({mv}) is illegal: {e}", i + 1))?;
    }
    let p = game.position();
    if args.json {
        let v = json!({
            "rules": rules.name(),
            "moves": moves.len(),
            "position": p.to_string(),
            "result": result_json(game.result()),
        });
        outln!("{v}");
    } else {
        outln!("moves: {}", moves.len());
        outln!("position: {p}");
        outln!("result: {}", game.result());
    }
    Ok(0)
}
