//! `tigadi probe`: look positions up in the tablebases.

use super::CmdResult;
use crate::ProbeArgs;
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use tigadi_rules::{Board, Point, RuleSet};
use tigadi_solve::Value;
use tigadi_tablebase::Tablebase;

pub fn run(rules: RuleSet, args: &ProbeArgs) -> CmdResult {
    let tb = Tablebase::open(&args.dir.dir, &rules);
    if args.record.is_some() {
        return Err(
            "--record needs the game-record parser of tigadi-rules, which is not merged yet; \
                    probe the position string instead"
                .into(),
        );
    }
    match &args.position {
        Some(text) => {
            let result = probe_one(&tb, text)?;
            if args.json {
                println!("{}", result.to_json());
            } else {
                print!("{}", result.to_text());
            }
            Ok(0)
        }
        None => batch(&tb),
    }
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
    side: char,
    value: Value,
    moves: Vec<(String, Value)>,
}

fn probe_one(tb: &Tablebase, text: &str) -> Result<Probed, String> {
    let (board, side) = parse_moving_position(text)?;
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
        let side = if self.side == 'B' { "Bone" } else { "Seed" };
        let mut s = format!(
            "{}\n{side} to move: {}",
            self.position,
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

/// The points of each rank of a position string, rank 7 first (RULES.md §9).
const RANKS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

/// Parses the moving-phase form of a position string, `RANKS SIDE [0 0 [QUIET]]`,
/// into the board seen from the player to move and the side letter.
///
/// A stand-in until `tigadi_rules::notation::parse_position` lands on main; swap
/// it in here (keeping the moving-phase check) when it does.
fn parse_moving_position(text: &str) -> Result<(Board, char), String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 || fields.len() > 5 || fields.len() == 3 {
        return Err(format!(
            "position '{text}': expected RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]]"
        ));
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 7 {
        return Err(format!(
            "position '{text}': {} ranks, expected 7 separated by '/'",
            ranks.len()
        ));
    }
    let (mut bone, mut seed) = (0u32, 0u32);
    for (i, (rank, points)) in ranks.iter().zip(RANKS).enumerate() {
        if rank.chars().count() != points.len() {
            return Err(format!(
                "position '{text}': rank {} is '{rank}', expected {} points",
                7 - i,
                points.len()
            ));
        }
        for (c, name) in rank.chars().zip(points) {
            let bit = Point::parse(name).expect("rank table names points").bit();
            match c {
                'B' => bone |= bit,
                'S' => seed |= bit,
                '.' => {}
                _ => {
                    return Err(format!(
                        "position '{text}': '{c}' on {name} (expected B, S or .)"
                    ))
                }
            }
        }
    }
    let side = match fields[1] {
        "B" => 'B',
        "S" => 'S',
        s => {
            return Err(format!(
                "position '{text}': side to move '{s}' (expected B or S)"
            ))
        }
    };
    if fields.len() >= 4 {
        let hand = |f: &str| {
            f.parse::<u8>()
                .map_err(|_| format!("position '{text}': bad hand count '{f}'"))
        };
        if hand(fields[2])? != 0 || hand(fields[3])? != 0 {
            return Err(format!(
                "position '{text}': {}",
                tigadi_tablebase::TablebaseError::NotMovingPhase
            ));
        }
    }
    if let Some(q) = fields.get(4) {
        q.parse::<u16>()
            .map_err(|_| format!("position '{text}': bad quiet-turn count '{q}'"))?;
    }
    let board = if side == 'B' {
        Board {
            mover: bone,
            opponent: seed,
        }
    } else {
        Board {
            mover: seed,
            opponent: bone,
        }
    };
    Ok((board, side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_rules_example() {
        let (b, side) = parse_moving_position("BB./S../.../...S../.../.../SB. S").unwrap();
        assert_eq!(side, 'S');
        let bit = |n| Point::parse(n).unwrap().bit();
        assert_eq!(b.mover, bit("b6") | bit("e4") | bit("a1"));
        assert_eq!(b.opponent, bit("a7") | bit("d7") | bit("d1"));
        assert!(parse_moving_position(".../.../.../....../.../.../... B 9 9").is_err());
        assert!(parse_moving_position("BB./S../.../...S../.../.../SB. S 0 0 12").is_ok());
        assert!(parse_moving_position("BB./S../.../...S../.../.../SB X").is_err());
        assert!(parse_moving_position("BB./S../...").is_err());
    }
}
