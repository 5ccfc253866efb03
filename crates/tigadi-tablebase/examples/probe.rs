//! The smallest program an engine author needs: open a tablebase directory and probe
//! a position string.
//!
//! `cargo run --release -p tigadi-tablebase --example probe -- tablebases "BB./S../.../...S../.../.../SB. S"`

use std::path::Path;
use tigadi_rules::{parse_position, RuleSet};
use tigadi_tablebase::Tablebase;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (dir, text) = match &args[..] {
        [_, dir, text] => (dir, text),
        _ => return Err("usage: probe DIR POSITION".into()),
    };
    let tb = Tablebase::open(Path::new(dir), &RuleSet::TIGADI);
    let board = parse_position(&tigadi_rules::RuleSet::TIGADI, text)?.to_board();
    println!("{}", tb.probe(board)?);
    for (turn, value) in tb.probe_moves(tigadi_tablebase::Hands::EMPTY, board)? {
        println!("{turn:>10}  {value}");
    }
    Ok(())
}
