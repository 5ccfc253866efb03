//! `tigadi probe`: look positions up in the tablebases.

use super::CmdResult;
use crate::input::{read_line, skip_line, Line, MAX_LINE_BYTES};
use crate::ProbeArgs;
use serde_json::json;
use std::io::Write;
use tigadi_rules::notation::shown;
use tigadi_rules::{Phase, RuleSet};
use tigadi_tablebase::{
    position_after_record, ProbeReport, ReportError, RuleValues, Tablebase, TablebaseError,
};
use tigadi_values::{both_in_words, in_words, Category, Metric, Value};

pub fn run(rules: RuleSet, args: &ProbeArgs) -> CmdResult {
    let tb = Tablebase::open(&args.dir.dir, &rules);
    // A directory without this rule set's tables is named (with the rule sets
    // it does hold) where a position needs a table, after the position's own
    // errors.
    let missing = super::tables::missing(&args.dir.dir, &rules);
    let tb = Tables { tb: &tb, missing };
    if let Some(record) = &args.record {
        let position = position_after_record(rules, record)?;
        return print_one(&tb, &position.to_string(), args);
    }
    match &args.position {
        Some(text) => print_one(&tb, text, args),
        None => batch(&tb),
    }
}

fn print_one(tb: &Tables, text: &str, args: &ProbeArgs) -> CmdResult {
    let report = tb.report(text)?;
    if args.json {
        outln!("{}", json_line(&report));
    } else {
        crate::output::text(&to_text(&report, args.rule_detail))?;
    }
    Ok(0)
}

/// Batch mode: one position per line on standard input, one JSON object per line
/// on standard output (`{"position": ..., "error": ...}` for a line that fails,
/// including a line that is not UTF-8 or longer than [`MAX_LINE_BYTES`]; the lines
/// after it are still answered). Each answer is written and flushed as soon as
/// its line is read.
fn batch(tb: &Tables) -> CmdResult {
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
            tb.report(&text)
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
        // Flushed before the next line is read, so a program holding the probe
        // open as a subprocess gets each answer before it writes the next
        // position (and the answer to an overlong line before its rest, which
        // may be endless, is skipped).
        out.flush().map_err(crate::output::write_error)?;
        if line == Line::TooLong {
            skip_line(&mut input).map_err(|e| format!("reading standard input: {e}"))?;
        }
    }
    if failed > 0 {
        return Err(format!("{failed} of {lines} positions could not be probed"));
    }
    Ok(0)
}

/// The tables probed, and why the directory holds none of this rule set's
/// ([`super::tables::missing`]).
struct Tables<'a> {
    tb: &'a Tablebase,
    missing: Option<String>,
}

impl Tables<'_> {
    /// The probe's answer for `text`; a missing table of a directory without this
    /// rule set's tables is the message naming the directory.
    fn report(&self, text: &str) -> Result<ProbeReport, String> {
        self.tb.report(text).map_err(|e| match (&e, &self.missing) {
            (ReportError::Table(TablebaseError::MissingSubspace { .. }), Some(why)) => why.clone(),
            _ => e.to_string(),
        })
    }
}

/// `report` as `tigadi probe --json` prints it (the object of
/// [`ProbeReport::to_json`], serialised without building it).
fn json_line(report: &ProbeReport) -> String {
    serde_json::to_string(report).expect("a probe report is plain JSON")
}

/// `report` as `tigadi probe` prints it without `--json`: the position's value
/// and one line per move, both depths in the words of [`both_in_words`]. The
/// 100-turn rule is named only where it changes something (a value or class, or a
/// counter above 0), unless `detail` (`--rule-detail`) asks for it everywhere.
fn to_text(report: &ProbeReport, detail: bool) -> String {
    let side = report.position.side;
    if let Some(r) = report.over {
        return format!("{}\n{} to move: game over: {r}\n", report.text, side.name());
    }
    let counting = report.position.quiet_turns > 0;
    let head_rule = report
        .rule
        .as_ref()
        .filter(|r| detail || counting || rule_changes(report.value, r));
    // The qualifier comes before the value it qualifies: after it, it would read
    // as part of the last depth ("captures in 2 ignoring the 100-turn rule").
    let mut s = format!(
        "{}\n{} to move{}: {}\n",
        report.text,
        side.name(),
        if head_rule.is_some() {
            ", ignoring the 100-turn rule"
        } else {
            ""
        },
        both_in_words(report.value, report.dtw)
    );
    match (head_rule, detail) {
        // No counter runs while placing: the moving phase starts at 0.
        (Some(r), _) if report.in_hand => s.push_str(&format!(
            "under the 100-turn rule (its counter starts with the moving phase): {}; class {}\n",
            rule_words(r.rule_value, report.rule_metric),
            r.category
        )),
        (Some(r), _) => s.push_str(&format!(
            "under the 100-turn rule, {} turn{} since the last capture{}: {}; class {}\n",
            report.position.quiet_turns,
            if report.position.quiet_turns == 1 {
                ""
            } else {
                "s"
            },
            // Lasker's rule, gotis in hand: a placement restarts the counter too.
            if report.position.phase() == Phase::Placing {
                " or placement"
            } else {
                ""
            },
            rule_words(r.rule_value, report.rule_metric),
            r.category
        )),
        (None, true) if report.rule.is_some() => {}
        (None, true) if report.in_hand => {
            s.push_str("placing phase: game-theoretic values (placing tables)\n")
        }
        (None, true) => s.push_str("under the 100-turn rule: unknown (no horizon tables)\n"),
        (None, false) => {}
    }
    if report.moves.is_empty() {
        s.push_str("no legal move (blocked)\n");
    }
    for m in &report.moves {
        let name = m.turn.to_string();
        s.push_str(&format!("  {name:<12} {}", both_in_words(m.value, m.dtw)));
        if let Some(r) = m
            .rule
            .as_ref()
            .filter(|r| detail || counting || rule_changes(m.value, r))
        {
            s.push_str(&format!(
                "; under the 100-turn rule: {}",
                rule_words(r.rule_value, report.rule_metric)
            ));
        }
        s.push('\n');
    }
    s
}

/// Does the 100-turn rule change `value`: its value at the counter asked for, or
/// its class (a cursed win or a blessed loss)?
fn rule_changes(value: Value, r: &RuleValues) -> bool {
    r.rule_value.wdl() != value.wdl()
        || matches!(r.category, Category::CursedWin | Category::BlessedLoss)
}

/// A value under the rule in words, its depth counted by `metric`: DTC₁₀₀, a
/// depth to capture, or under Lasker's rule DTZ₁₀₀, to the next capture or
/// placement.
fn rule_words(v: Value, metric: Metric) -> String {
    match (v, metric) {
        (Value::Draw, Metric::Dtz) => "draw (no win can be forced within the turn limit)".into(),
        (Value::Draw, _) => "draw (no capture can be forced in time)".into(),
        (v, m) => in_words(v, m),
    }
}
