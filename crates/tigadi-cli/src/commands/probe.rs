//! `tigadi probe`: look positions up in the tablebases.

use super::CmdResult;
use crate::input::{read_line, skip_line, Line, MAX_LINE_BYTES};
use crate::ProbeArgs;
use serde_json::json;
use std::io::Write;
use tigadi_rules::notation::shown;
use tigadi_rules::RuleSet;
use tigadi_solve::Value;
use tigadi_tablebase::{position_after_record, ProbeReport, Tablebase};

pub fn run(rules: RuleSet, args: &ProbeArgs) -> CmdResult {
    let tb = Tablebase::open(&args.dir.dir, &rules);
    if let Some(record) = &args.record {
        let position = position_after_record(rules, record)?;
        return print_one(&tb, &position.to_string(), args.json);
    }
    match &args.position {
        Some(text) => print_one(&tb, text, args.json),
        None => batch(&tb),
    }
}

fn print_one(tb: &Tablebase, text: &str, json: bool) -> CmdResult {
    let report = tb.report(text).map_err(|e| e.to_string())?;
    if json {
        outln!("{}", json_line(&report));
    } else {
        crate::output::text(&to_text(&report))?;
    }
    Ok(0)
}

/// Batch mode: one position per line on standard input, one JSON object per line
/// on standard output (`{"position": ..., "error": ...}` for a line that fails,
/// including a line that is not UTF-8 or longer than [`MAX_LINE_BYTES`]; the lines
/// after it are still answered).
fn batch(tb: &Tablebase) -> CmdResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut number, mut lines, mut failed) = (0u64, 0u64, 0u64);
    let mut bytes = Vec::new();
    loop {
        let line = read_line(&mut input, &mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if line == Line::End {
            break;
        }
        number += 1;
        let (text, utf8) = match std::str::from_utf8(&bytes) {
            Ok(t) => (t.trim().to_string(), true),
            Err(_) => (String::from_utf8_lossy(&bytes).trim().to_string(), false),
        };
        if text.is_empty() && utf8 && line == Line::Whole {
            continue;
        }
        lines += 1;
        let answer = if line == Line::TooLong {
            Err(format!(
                "line {number} is longer than {MAX_LINE_BYTES} bytes (skipped to its end)"
            ))
        } else if utf8 {
            tb.report(&text).map_err(|e| e.to_string())
        } else {
            Err(format!("line {number} is not valid UTF-8"))
        };
        let obj = match answer {
            Ok(r) => json_line(&r),
            Err(e) => {
                failed += 1;
                let quoted = if line == Line::TooLong {
                    crate::input::shown_cut(&text)
                } else {
                    shown(&text)
                };
                json!({ "position": quoted, "error": e }).to_string()
            }
        };
        writeln!(out, "{obj}").map_err(crate::output::write_error)?;
        if line == Line::TooLong {
            // Said now: the rest of the line may be long, or endless.
            out.flush().map_err(crate::output::write_error)?;
            skip_line(&mut input).map_err(|e| format!("reading standard input: {e}"))?;
        }
    }
    out.flush().map_err(crate::output::write_error)?;
    if failed > 0 {
        return Err(format!("{failed} of {lines} positions could not be probed"));
    }
    Ok(0)
}

/// `report` as `tigadi probe --json` prints it (the object of
/// [`ProbeReport::to_json`], serialised without building it).
fn json_line(report: &ProbeReport) -> String {
    serde_json::to_string(report).expect("a probe report is plain JSON")
}

/// `report` as `tigadi probe` prints it without `--json`.
fn to_text(report: &ProbeReport) -> String {
    let side = report.position.side;
    if let Some(r) = report.over {
        return format!("{}\n{} to move: game over: {r}\n", report.text, side.name());
    }
    let mut s = format!(
        "{}\n{} to move: {} ignoring the 100-turn rule",
        report.text,
        side.name(),
        describe_dtw(report.value, report.dtw)
    );
    s.push('\n');
    match &report.rule {
        // No counter runs while placing: the moving phase starts at 0.
        Some(r) if report.placing => s.push_str(&format!(
            "under the 100-turn rule (its counter starts with the moving phase): {}; class {}\n",
            describe_rule(r.rule_value),
            r.category
        )),
        Some(r) => s.push_str(&format!(
            "under the 100-turn rule, {} turns since the last capture: {}; class {}\n",
            report.position.quiet_turns,
            describe_rule(r.rule_value),
            r.category
        )),
        None if report.placing => {
            s.push_str("placing phase: game-theoretic values (placing tables)\n")
        }
        None => s.push_str("under the 100-turn rule: unknown (no horizon tables)\n"),
    }
    if report.moves.is_empty() {
        s.push_str("no legal move (blocked)\n");
    }
    for m in &report.moves {
        let name = m.turn.to_string();
        match &m.rule {
            Some(r) => s.push_str(&format!(
                "  {name:<12} under the rule: {}; ignoring it: {}\n",
                describe_rule(r.rule_value),
                describe_dtw(m.value, m.dtw)
            )),
            None => s.push_str(&format!("  {name:<12} {}\n", describe_dtw(m.value, m.dtw))),
        }
    }
    s
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win (capture in {d} turn{})", if d == 1 { "" } else { "s" }),
        Value::Draw => "draw".into(),
        Value::Loss(0) => "loss (blocked)".into(),
        Value::Loss(d) => format!("loss (opponent captures in {d} turns)"),
    }
}

/// A game-theoretic value in words with its depth to win when known: `win in 41
/// turns, capture in 7`, `loss in 40 turns, opponent captures in 6`.
fn describe_dtw(v: Value, dtw: Option<Value>) -> String {
    match (v, dtw) {
        (Value::Win(d), Some(Value::Win(n))) => {
            format!("{}, capture in {d}", crate::output::dtw_text(Value::Win(n)))
        }
        (Value::Loss(d), Some(Value::Loss(n))) if d > 0 => format!(
            "{}, opponent captures in {d}",
            crate::output::dtw_text(Value::Loss(n))
        ),
        _ => describe(v),
    }
}

/// A value under the rule in words (its DTC is DTC₁₀₀).
fn describe_rule(v: Value) -> String {
    match v {
        Value::Draw => "draw (no capture can be forced in time)".into(),
        v => describe(v),
    }
}
