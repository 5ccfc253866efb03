//! `tigadi probe`: look positions up in the tablebases.

use super::CmdResult;
use crate::ProbeArgs;
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use tigadi_rules::{
    parse_position_with, parse_record, Board, Game, Move, Phase, Position, RuleSet, Side,
};
use tigadi_solve::Value;
use tigadi_tablebase::Tablebase;

pub fn run(rules: RuleSet, args: &ProbeArgs) -> CmdResult {
    let tb = Tablebase::open(&args.dir.dir, &rules);
    if let Some(record) = &args.record {
        let position = replay(rules, record)?;
        return print_one(&tb, &position.to_string(), args.json);
    }
    match &args.position {
        Some(text) => print_one(&tb, text, args.json),
        None => batch(&tb),
    }
}

fn print_one(tb: &Tablebase, text: &str, json: bool) -> CmdResult {
    let result = probe_one(tb, text)?;
    if json {
        println!("{}", result.to_json());
    } else {
        print!("{}", result.to_text());
    }
    Ok(0)
}

/// The position a game record reaches from the empty board (every move checked).
fn replay(rules: RuleSet, record: &str) -> Result<Position, String> {
    let moves = parse_record(record).map_err(|e| format!("record: {e}"))?;
    let mut game = Game::new(rules);
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv)
            .map_err(|e| format!("move {} ({mv}) is illegal: {e}", i + 1))?;
    }
    if game.result().is_over() {
        return Err(format!("the game is over: {}", game.result()));
    }
    Ok(*game.position())
}

/// Batch mode: one position per line on standard input, one JSON object per line
/// on standard output (`{"position": ..., "error": ...}` for a line that fails).
fn batch(tb: &Tablebase) -> CmdResult {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut lines, mut failed) = (0u64, 0u64);
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("reading standard input: {e}"))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        lines += 1;
        let obj = match probe_one(tb, text) {
            Ok(r) => r.to_json(),
            Err(e) => {
                failed += 1;
                json!({ "position": text, "error": e })
            }
        };
        writeln!(out, "{obj}").map_err(|e| format!("writing standard output: {e}"))?;
    }
    out.flush()
        .map_err(|e| format!("writing standard output: {e}"))?;
    if failed > 0 {
        return Err(format!("{failed} of {lines} positions could not be probed"));
    }
    Ok(0)
}

/// One probed position.
struct Probed {
    position: String,
    side: Side,
    value: Value,
    moves: Vec<(String, Value)>,
}

fn probe_one(tb: &Tablebase, text: &str) -> Result<Probed, String> {
    let rules = *tb.rules();
    let p = parse_position_with(&rules, text).map_err(|e| format!("position '{text}': {e}"))?;
    if p.phase() == Phase::Placing {
        // Every placement with each capture choice, from the placing tables.
        let placed = p.placements(&rules);
        let board = p.to_board();
        let value = tb.probe_position(&p).map_err(|e| e.to_string())?;
        let moves = tb
            .probe_placements(placed, board)
            .map_err(|e| e.to_string())?;
        return Ok(Probed {
            position: text.to_string(),
            side: p.side,
            value,
            moves: moves
                .into_iter()
                .map(|(m, v)| {
                    let mv = Move::Place {
                        to: m.to,
                        capture: m.capture,
                    };
                    (mv.to_string(), v)
                })
                .collect(),
        });
    }
    let (board, side) = parse_moving_position(&rules, text)?;
    let value = tb.probe(board).map_err(|e| e.to_string())?;
    let moves = tb.probe_moves(board).map_err(|e| e.to_string())?;
    Ok(Probed {
        position: text.to_string(),
        side,
        value,
        moves: moves.into_iter().map(|(t, v)| (t.to_string(), v)).collect(),
    })
}

fn wdl_name(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    }
}

impl Probed {
    fn to_json(&self) -> Json {
        json!({
            "position": self.position,
            "value": wdl_name(self.value),
            "dtc": self.value.dtc(),
            "moves": self.moves.iter().map(|(m, v)| json!({
                "move": m,
                "value": wdl_name(*v),
                "dtc": v.dtc(),
            })).collect::<Vec<_>>(),
        })
    }

    fn to_text(&self) -> String {
        let mut s = format!(
            "{}\n{} to move: {}",
            self.position,
            self.side.name(),
            describe(self.value)
        );
        s.push('\n');
        if self.moves.is_empty() {
            s.push_str("no legal move (blocked)\n");
        }
        for (m, v) in &self.moves {
            s.push_str(&format!("  {m:<12} {}\n", describe(*v)));
        }
        s
    }
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win (capture in {d} turn{})", if d == 1 { "" } else { "s" }),
        Value::Draw => "draw".into(),
        Value::Loss(0) => "loss (blocked)".into(),
        Value::Loss(d) => format!("loss (opponent captures in {d} turns)"),
    }
}

/// Parses a position string (RULES.md §9) that must be in the moving phase, into
/// the board seen from the player to move and that player.
fn parse_moving_position(rules: &RuleSet, text: &str) -> Result<(Board, Side), String> {
    let p = parse_position_with(rules, text).map_err(|e| format!("position '{text}': {e}"))?;
    if p.phase() != Phase::Moving {
        return Err(format!(
            "position '{text}': {}",
            tigadi_tablebase::TablebaseError::NotMovingPhase
        ));
    }
    Ok((p.to_board(), p.side))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::Point;

    #[test]
    fn parses_the_rules_example() {
        let parse_moving_position = |t| parse_moving_position(&RuleSet::TIGADI, t);
        let (b, side) = parse_moving_position("BB./S../.../...S../.../.../SB. S").unwrap();
        assert_eq!(side, Side::Seed);
        let bit = |n| Point::parse(n).unwrap().bit();
        assert_eq!(b.mover, bit("b6") | bit("e4") | bit("a1"));
        assert_eq!(b.opponent, bit("a7") | bit("d7") | bit("d1"));
        assert!(parse_moving_position(".../.../.../....../.../.../... B 9 9").is_err());
        assert!(parse_moving_position("BB./S../.../...S../.../.../SB. S 0 0 12").is_ok());
        assert!(parse_moving_position("BB./S../.../...S../.../.../SB X").is_err());
        assert!(parse_moving_position("BB./S../...").is_err());
    }
}
