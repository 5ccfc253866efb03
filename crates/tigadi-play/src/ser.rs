//! How the rules' and the prober's types serialise in this crate's results: moves,
//! positions and categories as their notation, values as `{"value", "dtc"}` or,
//! for a depth to win, `{"value", "dtw"}` (the keys of `tigadi probe --json`: a key
//! names its metric), sides in lower case.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use tigadi_rules::{GameResult, Side};
use tigadi_values::{Metric, Value};

/// Anything with a `Display` (moves, positions, categories) as its text.
pub fn text<T: std::fmt::Display, S: Serializer>(t: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(t)
}

/// A list of moves as their notation.
pub fn texts<T: std::fmt::Display, S: Serializer>(ts: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(ts.iter().map(|t| t.to_string()))
}

/// An optional `Display` as its text or null.
pub fn opt_text<T: std::fmt::Display, S: Serializer>(
    t: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.collect_str(t),
        None => s.serialize_none(),
    }
}

/// `{"value": "win"|"draw"|"loss", "dtc": N|null}`.
pub fn value<S: Serializer>(v: &Value, s: S) -> Result<S::Ok, S::Error> {
    Measured(*v, Metric::Dtc).serialize(s)
}

/// A value whose depth counts by a metric: `{"value": "win"|"draw"|"loss", KEY:
/// N|null}`, KEY `dtc` or `dtw` ([`Metric::key`]).
#[derive(Clone, Copy, Debug)]
pub struct Measured(pub Value, pub Metric);

impl Serialize for Measured {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("value", &self.0.wdl().to_string())?;
        m.serialize_entry(self.1.key(), &self.0.dtc())?;
        m.end()
    }
}

/// An optional value as [`value`] or null.
pub fn opt_value<S: Serializer>(v: &Option<Value>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => value(v, s),
        None => s.serialize_none(),
    }
}

/// `"bone"` or `"seed"`.
pub fn side<S: Serializer>(side: &Side, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&side.name().to_lowercase())
}

/// `{"state": "in_progress"|"win"|"draw", "winner": "bone"|"seed"|null, "text": ...}`.
pub fn result<S: Serializer>(r: &GameResult, s: S) -> Result<S::Ok, S::Error> {
    let (state, winner) = match r {
        GameResult::InProgress => ("in_progress", None),
        GameResult::Win { winner, .. } => ("win", Some(winner.name().to_lowercase())),
        GameResult::Draw { .. } => ("draw", None),
    };
    let mut m = s.serialize_map(Some(3))?;
    m.serialize_entry("state", state)?;
    m.serialize_entry("winner", &winner)?;
    m.serialize_entry("text", &r.to_string())?;
    m.end()
}
