//! `tigadi probe`: look positions up in the tablebases.

use super::show::{result_json, standing};
use super::CmdResult;
use crate::ProbeArgs;
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use tigadi_rules::notation::shown;
use tigadi_rules::{
    parse_position, parse_record, Board, Game, GameResult, Phase, Position, RuleSet, Side,
};
use tigadi_solve::Value;
use tigadi_tablebase::{RuleValues, Tablebase};

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
        outln!("{}", result.to_json());
    } else {
        crate::output::text(&result.to_text())?;
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
/// on standard output (`{"position": ..., "error": ...}` for a line that fails,
/// including a line that is not UTF-8; the lines after it are still answered).
fn batch(tb: &Tablebase) -> CmdResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut number, mut lines, mut failed) = (0u64, 0u64, 0u64);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let n = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if n == 0 {
            break;
        }
        number += 1;
        let (text, utf8) = match std::str::from_utf8(&bytes) {
            Ok(t) => (t.trim().to_string(), true),
            Err(_) => (String::from_utf8_lossy(&bytes).trim().to_string(), false),
        };
        if text.is_empty() && utf8 {
            continue;
        }
        lines += 1;
        let answer = if utf8 {
            probe_one(tb, &text)
        } else {
            Err(format!("line {number} is not valid UTF-8"))
        };
        let obj = match answer {
            Ok(r) => r.to_json(),
            Err(e) => {
                failed += 1;
                json!({ "position": shown(&text), "error": e })
            }
        };
        writeln!(out, "{obj}").map_err(crate::output::write_error)?;
    }
    out.flush().map_err(crate::output::write_error)?;
    if failed > 0 {
        return Err(format!("{failed} of {lines} positions could not be probed"));
    }
    Ok(0)
}

/// One probed position.
struct Probed {
    position: String,
    side: Side,
    /// The position's 100-turn counter.
    counter: u16,
    value: Value,
    /// Values under the 100-turn rule, `None` where the horizon tables are absent
    /// (a directory solved without them, or by an older version).
    rule: Option<RuleValues>,
    /// Every move: its game-theoretic value and, with the horizon tables, its values
    /// under the rule (then ordered for a player who must win under the rule).
    moves: Vec<(String, Value, Option<RuleValues>)>,
    /// The game is already over in this position (e.g. drawn by the turn limit):
    /// `value` says how, and there are no moves.
    over: Option<GameResult>,
}

fn probe_one(tb: &Tablebase, text: &str) -> Result<Probed, String> {
    let (p, board) = parse_moving_position(text)?;
    let (side, counter) = (p.side, p.quiet_turns);
    let result = standing(tb.rules(), &p);
    if result.is_over() {
        let value = match result {
            GameResult::Win { winner, .. } if winner == p.side => Value::Win(0),
            GameResult::Win { .. } => Value::Loss(0),
            _ => Value::Draw,
        };
        return Ok(Probed {
            position: text.to_string(),
            side,
            counter,
            value,
            rule: None,
            moves: Vec::new(),
            over: Some(result),
        });
    }
    let answer = tb
        .probe_at_counter(board, counter)
        .map_err(|e| e.to_string())?;
    let (value, rule) = (answer.value, answer.rule);
    let moves = answer
        .moves
        .into_iter()
        .map(|(t, v, r)| (t.to_string(), v, r))
        .collect();
    Ok(Probed {
        position: text.to_string(),
        side,
        counter,
        value,
        rule,
        moves,
        over: None,
    })
}

/// The JSON fields of values under the rule (`null`s when unknown).
fn rule_json(r: Option<&RuleValues>) -> Json {
    match r {
        Some(r) => json!({
            "category": r.category.to_string(),
            "rule_value": wdl_name(r.rule_value),
            "dtc100": r.dtc100.dtc(),
        }),
        None => json!({ "category": null, "rule_value": null, "dtc100": null }),
    }
}

/// Adds the fields of `extra` (an object) to `obj` (an object).
fn merged(mut obj: Json, extra: Json) -> Json {
    if let (Some(o), Json::Object(e)) = (obj.as_object_mut(), extra) {
        o.extend(e);
    }
    obj
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
        if let Some(r) = self.over {
            return json!({
                "position": self.position,
                "quiet_turns": self.counter,
                "value": wdl_name(self.value),
                "dtc": null,
                "category": null,
                "rule_value": wdl_name(self.value),
                "dtc100": null,
                "moves": [],
                "game_over": result_json(r),
            });
        }
        merged(
            json!({
                "position": self.position,
                "quiet_turns": self.counter,
                "value": wdl_name(self.value),
                "dtc": self.value.dtc(),
                "moves": self.moves.iter().map(|(m, v, r)| merged(json!({
                    "move": m,
                    "value": wdl_name(*v),
                    "dtc": v.dtc(),
                }), rule_json(r.as_ref()))).collect::<Vec<_>>(),
            }),
            rule_json(self.rule.as_ref()),
        )
    }

    fn to_text(&self) -> String {
        if let Some(r) = self.over {
            return format!(
                "{}\n{} to move: game over: {r}\n",
                self.position,
                self.side.name()
            );
        }
        let mut s = format!(
            "{}\n{} to move: {} ignoring the 100-turn rule",
            self.position,
            self.side.name(),
            describe(self.value)
        );
        s.push('\n');
        match &self.rule {
            Some(r) => s.push_str(&format!(
                "under the 100-turn rule, {} turns since the last capture: {}; class {}\n",
                self.counter,
                describe_rule(r.rule_value),
                r.category
            )),
            None => s.push_str("under the 100-turn rule: unknown (no horizon tables)\n"),
        }
        if self.moves.is_empty() {
            s.push_str("no legal move (blocked)\n");
        }
        for (m, v, r) in &self.moves {
            match r {
                Some(r) => s.push_str(&format!(
                    "  {m:<12} under the rule: {}; ignoring it: {}\n",
                    describe_rule(r.rule_value),
                    describe(*v)
                )),
                None => s.push_str(&format!("  {m:<12} {}\n", describe(*v))),
            }
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

/// A value under the rule in words (its DTC is DTC₁₀₀).
fn describe_rule(v: Value) -> String {
    match v {
        Value::Draw => "draw (no capture can be forced in time)".into(),
        v => describe(v),
    }
}

/// Parses a position string (docs/RULES.md §9) that must be in the moving phase, into
/// the position and the board seen from the player to move.
fn parse_moving_position(text: &str) -> Result<(Position, Board), String> {
    let p = parse_position(text).map_err(|e| format!("position '{}': {e}", shown(text)))?;
    if p.phase() != Phase::Moving {
        return Err(format!(
            "position '{}': {}",
            shown(text),
            tigadi_tablebase::TablebaseError::NotMovingPhase
        ));
    }
    Ok((p, p.to_board()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::Point;

    #[test]
    fn parses_the_rules_example() {
        let (p, b) = parse_moving_position("BB./S../.../...S../.../.../SB. S").unwrap();
        assert_eq!(p.side, Side::Seed);
        let bit = |n| Point::parse(n).unwrap().bit();
        assert_eq!(b.mover, bit("b6") | bit("e4") | bit("a1"));
        assert_eq!(b.opponent, bit("a7") | bit("d7") | bit("d1"));
        assert!(parse_moving_position(".../.../.../....../.../.../... B 9 9").is_err());
        assert!(parse_moving_position("BB./S../.../...S../.../.../SB. S 0 0 12").is_ok());
        assert!(parse_moving_position("BB./S../.../...S../.../.../SB X").is_err());
        assert!(parse_moving_position("BB./S../...").is_err());
    }
}
