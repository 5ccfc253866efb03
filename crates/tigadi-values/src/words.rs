//! The one vocabulary every door (CLI text, server, web page, Python, C docs) uses
//! for a value's depth, defined for users in docs/USAGE.md ("Depths in words"):
//!
//! - the depth to win ([`Metric::Dtw`], key `dtw`): "wins in N turns" / "loses in
//!   N turns", counted to the end of the game;
//! - the depth to capture ([`Metric::Dtc`], key `dtc`): "captures in N" / "opponent
//!   captures in N", counted to the next capture only;
//! - the depth to zeroing ([`Metric::Dtz`], key `dtz`): "counter restarts in N",
//!   counted to the next capture or placement (Lasker's rule, positions with gotis
//!   in hand under the 100-turn rule).
//!
//! A depth to capture is never called "wins in": a capture need not end the game.

use crate::{Metric, Value};

/// `1 turn`, `N turns`.
fn turns(n: u16) -> String {
    format!("{n} turn{}", if n == 1 { "" } else { "s" })
}

/// `value`, whose depth counts by `metric`, in words: `wins in 39 turns`, `loses
/// in 40 turns` (DTW); `win, captures in 7`, `loss, opponent captures in 6` (DTC);
/// `draw`; `loss (no move)` for a lost position with no move left.
pub fn in_words(value: Value, metric: Metric) -> String {
    match (value, metric) {
        (Value::Draw, _) => "draw".into(),
        (Value::Loss(0), _) => "loss (no move)".into(),
        (Value::Win(n), Metric::Dtw) => format!("wins in {}", turns(n)),
        (Value::Loss(n), Metric::Dtw) => format!("loses in {}", turns(n)),
        (Value::Win(n), Metric::Dtc) => format!("win, captures in {n}"),
        (Value::Loss(n), Metric::Dtc) => format!("loss, opponent captures in {n}"),
        (Value::Win(n), Metric::Dtz) => format!("win, counter restarts in {n}"),
        (Value::Loss(n), Metric::Dtz) => format!("loss, counter restarts in {n}"),
    }
}

/// The start's value under the 100-turn rule in words: as [`in_words`], except
/// by [`Metric::Dtz`] (Lasker's rule), where the first turn from the empty board
/// is a placement, which restarts the counter: its depth is always 1 and says
/// nothing, so the outcome stands alone (`win`, `draw`, `loss`).
pub fn start_in_words(value: Value, metric: Metric) -> String {
    match metric {
        Metric::Dtz => value.wdl().to_string(),
        m => in_words(value, m),
    }
}

/// A game-theoretic value in words with both depths, the depth to win first where
/// it is known: `wins in 39 turns, captures in 7`, `loses in 40 turns, opponent
/// captures in 6`; as [`in_words`] by DTC without `dtw`.
pub fn both_in_words(dtc: Value, dtw: Option<Value>) -> String {
    match (dtc, dtw) {
        (Value::Win(c), Some(w @ Value::Win(_))) => {
            format!("{}, captures in {c}", in_words(w, Metric::Dtw))
        }
        (Value::Loss(c), Some(w @ Value::Loss(_))) if c > 0 => {
            format!("{}, opponent captures in {c}", in_words(w, Metric::Dtw))
        }
        _ => in_words(dtc, Metric::Dtc),
    }
}

impl Metric {
    /// The metric's JSON key and short name: `dtc`, `dtw` or `dtz`.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Dtc => "dtc",
            Metric::Dtw => "dtw",
            Metric::Dtz => "dtz",
        }
    }

    /// The JSON key of a depth of this metric under the 100-turn rule: `dtc100`
    /// (DTC₁₀₀) or, under Lasker's rule, `dtz100` (DTZ₁₀₀); `dtw100` names
    /// nothing stored today.
    pub fn key_under_rule(self) -> &'static str {
        match self {
            Metric::Dtc => "dtc100",
            Metric::Dtw => "dtw100",
            Metric::Dtz => "dtz100",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_depth_to_capture_never_reads_as_a_win_in() {
        for d in 1..300 {
            for v in [Value::Win(d), Value::Loss(d)] {
                let dtc = in_words(v, Metric::Dtc);
                assert!(
                    !dtc.contains("wins in") && !dtc.contains("loses in"),
                    "{dtc}"
                );
                assert!(dtc.contains(&format!("captures in {d}")), "{dtc}");
                let dtw = in_words(v, Metric::Dtw);
                assert!(!dtw.contains("captures"), "{dtw}");
                assert!(dtw.contains(&format!("in {d} turn")), "{dtw}");
            }
        }
        assert_eq!(in_words(Value::Win(1), Metric::Dtw), "wins in 1 turn");
        assert_eq!(in_words(Value::Loss(40), Metric::Dtw), "loses in 40 turns");
        assert_eq!(in_words(Value::Win(7), Metric::Dtc), "win, captures in 7");
    }

    #[test]
    fn both_depths_put_the_depth_to_win_first() {
        assert_eq!(
            both_in_words(Value::Win(7), Some(Value::Win(39))),
            "wins in 39 turns, captures in 7"
        );
        assert_eq!(
            both_in_words(Value::Loss(6), Some(Value::Loss(40))),
            "loses in 40 turns, opponent captures in 6"
        );
        assert_eq!(
            both_in_words(Value::Loss(6), None),
            "loss, opponent captures in 6"
        );
        assert_eq!(both_in_words(Value::Draw, Some(Value::Draw)), "draw");
    }
}
