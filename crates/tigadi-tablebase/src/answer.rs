//! One home for "what a prober answers about a position": its value and every
//! legal turn with the value it leads to, best first ([`Tablebase::answer`], the
//! one door). Bindings (Python, C, a server) hand this on rather than assembling
//! it themselves.

use crate::error::TablebaseError;
use crate::kind::{field, TableKind};
use crate::tablebase::{hands_of, RuleValues, Tablebase};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{json, Value as Json};
use tigadi_rules::notation::shown;
use tigadi_rules::{
    parse_reached_position, parse_record, DrawReason, Game, GameResult, Move, Phase, Position,
    RuleSet,
};
use tigadi_values::{Metric, Value};

/// Values under the 100-turn rule or DTWs, `None` when the horizon or DTW table
/// they come from is missing (a directory solved with `--no-horizon` or without
/// `--dtw`, or by an older version).
fn known<T>(r: Result<T, TablebaseError>) -> Result<Option<T>, TablebaseError> {
    match r {
        Ok(r) => Ok(Some(r)),
        Err(TablebaseError::MissingSubspace { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Why a position string could not be answered: the text itself (bad notation, a
/// position no game reaches, the placing phase, a record with an illegal move), or
/// the tables (missing, damaged, unreadable).
#[derive(Debug)]
pub enum ReportError {
    /// The input names no position the tables can answer; the message names the
    /// problem and quotes the input.
    Input(String),
    /// The tables could not answer (see [`TablebaseError`]).
    Table(TablebaseError),
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Input(m) => f.write_str(m),
            ReportError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReportError {}

impl From<TablebaseError> for ReportError {
    fn from(e: TablebaseError) -> ReportError {
        ReportError::Table(e)
    }
}

/// One turn of a [`ProbeReport`]: its game-theoretic value and, with the horizon
/// tables, its values under the 100-turn rule (all counted from the probed
/// position, from the point of view of its player to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportTurn {
    /// The turn: a slide or pass in the moving phase, a placement (with its capture
    /// choice) in the placing phase.
    pub turn: Move,
    /// Its value ignoring the 100-turn rule (DTC in turns).
    pub value: Value,
    /// Its values under the rule; `None` without the horizon tables.
    pub rule: Option<RuleValues>,
    /// Its value with the depth to win (DTW, turns to the end of the game counted
    /// from the probed position); `None` without the DTW tables.
    pub dtw: Option<Value>,
}

/// Everything the tables say about one position of either phase
/// ([`Tablebase::answer`]), as `tigadi probe --json` and the server's
/// `GET /api/v1/{rules}` print it: its values ignoring and under the 100-turn rule
/// and every legal turn best first, or how the game already ended there.
/// [`ProbeReport::to_json`] is that answer, byte for byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeReport {
    /// The position string: as given to [`Tablebase::report`], the position's own
    /// string from [`Tablebase::answer`].
    pub text: String,
    /// The position.
    pub position: Position,
    /// Its value ignoring the 100-turn rule (for a finished game: `Win(0)`,
    /// `Loss(0)` or `Draw` as the game ended).
    pub value: Value,
    /// Its values under the rule at its counter; `None` where the horizon tables are
    /// absent (a directory solved without them, or by an older version).
    pub rule: Option<RuleValues>,
    /// Its value with the depth to win (DTW: turns to the end of the game under
    /// perfect play, docs/RULES.md §7) from the DTW tables; `None` where they are
    /// absent (solved without `--dtw`) and for a finished game.
    pub dtw: Option<Value>,
    /// Every legal turn, best first: by the value under the rule at this counter when
    /// the horizon tables are there, by the game-theoretic value otherwise.
    pub moves: Vec<ReportTurn>,
    /// The game is already over in this position (material, blocked, or drawn by the
    /// turn limit): `value` says how, and there are no moves.
    pub over: Option<GameResult>,
    /// A position of a tier with gotis in hand where no counter runs (every
    /// rule set but those with Lasker's rule, where a player with gotis in hand
    /// must place): values from that tier's tables, and `rule` from its 100-turn
    /// table where there is one (its `rule_value` is its `dtc100`, whose depth
    /// counts the placements). Under Lasker's rule a position with gotis in hand
    /// has a counter (the turns since the last capture or placement) and is
    /// answered at it as a moving position is.
    pub in_hand: bool,
    /// What the depths under the rule (`rule`'s `dtc100`, and each turn's) count
    /// to: the next capture ([`Metric::Dtc`], JSON key `dtc100`), or under
    /// Lasker's rule the next capture or placement ([`Metric::Dtz`], key
    /// `dtz100`); [`TableKind::metric_under`] of the tablebase's rule set.
    pub rule_metric: Metric,
}

impl Tablebase {
    /// Probes the position string `text` (docs/RULES.md §9, parsed under the
    /// tablebase's rule set; the position right after a game-ending capture is
    /// accepted, as [`Tablebase::answer`] answers it) as `tigadi probe` does:
    /// [`Tablebase::answer`], with the text kept as given. [`ReportError::Input`] names a string that does not
    /// parse, [`ReportError::Table`] a table that is missing or damaged.
    pub fn report(&self, text: &str) -> Result<ProbeReport, ReportError> {
        let p = parse_reached_position(self.rules(), text)
            .map_err(|e| ReportError::Input(format!("position '{}': {e}", shown(text))))?;
        let mut report = self.answer(&p)?;
        report.text = text.to_string();
        Ok(report)
    }

    /// The one door for answers: everything the tables say about `position`, of
    /// either phase, under the tablebase's rule set: its value ignoring the
    /// 100-turn rule and (where the horizon tables exist) under it at its counter,
    /// and every legal turn ranked best first, or how the game already ended
    /// there. A moving-phase position is answered from the moving-phase tables, a
    /// placing position from the placing tables (every placement with each capture
    /// choice). Every consumer (probe, line, analysis and play, the server, the
    /// bindings) reads positions through this call.
    ///
    /// The position right after the capture that ended a game
    /// ([`Position::validate_reached`]) is answered as that finished game. A
    /// position no game under the rule set reaches is
    /// [`TablebaseError::InvalidPosition`]; a missing table
    /// [`TablebaseError::MissingSubspace`].
    pub fn answer(&self, p: &Position) -> Result<ProbeReport, TablebaseError> {
        self.answer_with(p, true)
    }

    /// [`Tablebase::answer`] without the moves (`moves` is empty): the position's
    /// values ignoring and under the 100-turn rule, or how the game already ended
    /// there, reading only the position's own tables. The same checks and the
    /// same values as `answer`, for callers that need no ranking.
    pub fn answer_value(&self, p: &Position) -> Result<ProbeReport, TablebaseError> {
        self.answer_with(p, false)
    }

    fn answer_with(&self, p: &Position, with_moves: bool) -> Result<ProbeReport, TablebaseError> {
        let rules = *self.rules();
        p.validate_reached(&rules).map_err(|e| {
            TablebaseError::InvalidPosition(format!("{p} under rules '{rules}': {e}"))
        })?;
        let board = p.to_board();
        let result = standing(&rules, p);
        let mut report = ProbeReport {
            text: p.to_string(),
            position: *p,
            value: Value::Draw,
            rule: None,
            dtw: None,
            moves: Vec::new(),
            over: None,
            in_hand: p.phase() == Phase::Placing && !rules.slides_in_hand,
            rule_metric: TableKind::Horizon.metric_under(&rules),
        };
        if result.is_over() {
            report.value = match result {
                GameResult::Win { winner, .. } if winner == p.side => Value::Win(0),
                GameResult::Win { .. } => Value::Loss(0),
                _ => Value::Draw,
            };
            report.over = Some(result);
            return Ok(report);
        }
        // A placing position from the placing tables (every placement with each
        // capture choice), a moving-phase one from the moving-phase tables; with the
        // horizon tables, under the 100-turn rule too.
        let hands = hands_of(p);
        // The position's own table is checked first (there, the one asked for),
        // but its value is read from it only where nothing else gives it: with
        // the horizon tables `probe_rule` reads it, and with the moves it is the
        // best turn's value (what the solver stored and `verify` checks: a
        // position's value is the best of its turns'). A random probe of a
        // large set finds few blocks in the cache, so the block not read is a
        // decompression saved (docs/PERFORMANCE.md, "Serving the whole set").
        self.check_table::<field::Dtc>(hands, board)?;
        report.rule = known(self.probe_rule(hands, board, p.quiet_turns))?;
        report.dtw = known(self.get_position::<field::Dtw>(p))?;
        if !with_moves {
            report.value = match report.rule {
                Some(r) => r.value,
                None => self.get_position::<field::Dtc>(p)?,
            };
            return Ok(report);
        }
        report.moves = if report.rule.is_some() {
            self.probe_moves_rule(hands, board, p.quiet_turns)?
                .into_iter()
                .map(|(turn, r)| ReportTurn {
                    turn,
                    value: r.value,
                    rule: Some(r),
                    dtw: None,
                })
                .collect()
        } else {
            self.probe_moves(hands, board)?
                .into_iter()
                .map(|(turn, value)| ReportTurn {
                    turn,
                    value,
                    rule: None,
                    dtw: None,
                })
                .collect()
        };
        report.value = match (report.rule, report.moves.first()) {
            (Some(r), _) => r.value,
            (None, Some(best)) => best.value,
            (None, None) => self.get_position::<field::Dtc>(p)?,
        };
        // The turns' DTWs where every table they lead into has its DTW table (a
        // run of `solve --dtw` writes those first, so only a damaged or partial
        // directory leaves them out).
        if report.dtw.is_some() {
            if let Some(dtws) = known(self.turns::<field::Dtw>(hands, board))? {
                for m in &mut report.moves {
                    m.dtw = dtws.iter().find(|(t, _)| *t == m.turn).map(|&(_, v)| v);
                }
            }
        }
        Ok(report)
    }
}

impl ProbeReport {
    /// The JSON object of `tigadi probe --json` (and of the server): `position`,
    /// `quiet_turns`, `value`, `dtc`, `category`, `rule_value`, `dtc100` (`dtz100`
    /// under Lasker's rule: [`ProbeReport::rule_metric`]) and `moves`
    /// (each with `move` and the same value fields), plus `game_over` when the game
    /// is over, and `dtw` (the depth to win, `null` for a draw) where the DTW
    /// tables are there (absent otherwise, in the position and in its moves). Printing it gives the bytes that serialising the report directly
    /// gives (`serde_json::to_string(&report)`, the faster way).
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).expect("a probe report is plain JSON")
    }
}

/// Keys in alphabetical order, the order in which `serde_json::Value` prints an
/// object, so that `serde_json::to_string(&report)` and `report.to_json()`
/// printed are the same bytes.
impl Serialize for ProbeReport {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        let (dtc, rule) = match self.over {
            Some(_) => (None, RuleFields::game_over(self.value)),
            None => (self.value.dtc(), RuleFields::of(self.rule.as_ref())),
        };
        m.serialize_entry("category", &rule.category)?;
        m.serialize_entry("dtc", &dtc)?;
        rule.serialize_depth(&mut m, self.rule_metric, self.dtw)?;
        if let Some(r) = self.over {
            m.serialize_entry("game_over", &result_json(r))?;
        }
        let moves: Vec<ReportTurnEntry> = self
            .moves
            .iter()
            .map(|t| ReportTurnEntry(t, self.rule_metric))
            .collect();
        m.serialize_entry("moves", &moves)?;
        m.serialize_entry("position", &self.text)?;
        m.serialize_entry("quiet_turns", &self.position.quiet_turns)?;
        m.serialize_entry("rule_value", &rule.rule_value)?;
        m.serialize_entry("value", wdl_name(self.value))?;
        m.end()
    }
}

/// The fields of values under the 100-turn rule as JSON shows them (`null`s when
/// unknown).
struct RuleFields {
    category: Option<String>,
    rule_value: Option<&'static str>,
    dtc100: Option<u16>,
}

impl RuleFields {
    fn of(r: Option<&RuleValues>) -> RuleFields {
        RuleFields {
            category: r.map(|r| r.category.to_string()),
            rule_value: r.map(|r| wdl_name(r.rule_value)),
            dtc100: r.and_then(|r| r.dtc100.dtc()),
        }
    }

    /// A finished game: its result is its value under the rule too.
    fn game_over(value: Value) -> RuleFields {
        RuleFields {
            category: None,
            rule_value: Some(wdl_name(value)),
            dtc100: None,
        }
    }
}

impl RuleFields {
    /// The depth under the rule, keyed by `metric` (`dtc100` or `dtz100`), and
    /// `dtw` where known, in the keys' alphabetical order: `dtc100` comes before
    /// `dtw`, `dtz100` after it.
    fn serialize_depth<M: SerializeMap>(
        &self,
        m: &mut M,
        metric: Metric,
        dtw: Option<Value>,
    ) -> Result<(), M::Error> {
        let key = metric.key_under_rule();
        if key < "dtw" {
            m.serialize_entry(key, &self.dtc100)?;
        }
        if let Some(d) = dtw {
            m.serialize_entry("dtw", &d.dtc())?;
        }
        if key > "dtw" {
            m.serialize_entry(key, &self.dtc100)?;
        }
        Ok(())
    }
}

/// One turn of [`ProbeReport::moves`] as JSON, keys in alphabetical order, its
/// depth under the rule keyed by the report's metric.
struct ReportTurnEntry<'a>(&'a ReportTurn, Metric);

impl Serialize for ReportTurnEntry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let rule = RuleFields::of(t.rule.as_ref());
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("category", &rule.category)?;
        m.serialize_entry("dtc", &t.value.dtc())?;
        rule.serialize_depth(&mut m, self.1, t.dtw)?;
        m.serialize_entry("move", &t.turn.to_string())?;
        m.serialize_entry("rule_value", &rule.rule_value)?;
        m.serialize_entry("value", wdl_name(t.value))?;
        m.end()
    }
}

/// The result a position shows by itself (a material or blocked loss, the
/// position right after a game-ending capture included, or the 100-turn draw when
/// its counter has reached the limit); in progress for a position no game
/// reaches.
pub fn standing(rules: &RuleSet, p: &Position) -> GameResult {
    match Game::from_reached_position(*rules, *p) {
        Ok(g) => g.result(),
        Err(_) => GameResult::InProgress,
    }
}

/// The position a game record (docs/RULES.md §9) reaches from the empty board,
/// every move checked; an error names the first illegal move, or says that the game
/// is already over.
pub fn position_after_record(rules: RuleSet, record: &str) -> Result<Position, String> {
    let game = game_after_record(rules, record)?;
    if game.result().is_over() {
        return Err(format!("the game is over: {}", game.result()));
    }
    Ok(*game.position())
}

/// The game a record (docs/RULES.md §9) plays from the empty board, every move
/// checked, finished or not (a record may end with the game's last move); an
/// error names the first illegal move.
pub fn game_after_record(rules: RuleSet, record: &str) -> Result<Game, String> {
    let moves = parse_record(record).map_err(|e| format!("record: {e}"))?;
    let mut game = Game::new(rules);
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv)
            .map_err(|e| format!("move {} ({mv}) is illegal: {e}", i + 1))?;
    }
    Ok(game)
}

/// A game result as JSON: `{"state": "in_progress"|"win"|"draw", ...}` with the
/// winner and reason, and `text` in words.
pub fn result_json(r: GameResult) -> Json {
    match r {
        GameResult::InProgress => json!({ "state": "in_progress", "text": r.to_string() }),
        GameResult::Win { winner, reason } => json!({
            "state": "win",
            "winner": winner.name().to_lowercase(),
            "reason": format!("{reason:?}").to_lowercase(),
            "text": r.to_string(),
        }),
        GameResult::Draw { reason } => json!({
            "state": "draw",
            "reason": match reason {
                DrawReason::Repetition => "repetition",
                DrawReason::QuietTurns { .. } => "quiet_turns",
                DrawReason::FullBoard => "full_board",
            },
            "text": r.to_string(),
        }),
    }
}

/// `"win"`, `"draw"` or `"loss"`.
fn wdl_name(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::{parse_position, Point};
    use tigadi_values::Category;

    fn slide(from: &str, to: &str, capture: Option<&str>) -> Move {
        Move::Slide {
            from: Point::parse(from).unwrap(),
            to: Point::parse(to).unwrap(),
            capture: capture.map(|c| Point::parse(c).unwrap()),
        }
    }

    /// Serialising a report directly gives the bytes of its JSON tree printed (whose
    /// keys `serde_json` sorts): the order of the fields is the one `probe --json`
    /// has always printed.
    #[test]
    fn direct_serialisation_is_the_json_tree_printed() {
        let text = "BB./S../.../...S../.../.../SB. S 0 0 7";
        let position = parse_position(&tigadi_rules::RuleSet::TIGADI, text).unwrap();
        let rule = RuleValues {
            value: Value::Win(5),
            category: Category::CursedWin,
            dtc100: Value::Draw,
            rule_value: Value::Draw,
        };
        let moves = vec![
            ReportTurn {
                turn: slide("a1", "a4", Some("d7")),
                value: Value::Win(5),
                rule: Some(rule),
                dtw: None,
            },
            ReportTurn {
                turn: Move::Pass,
                value: Value::Loss(3),
                rule: None,
                dtw: None,
            },
        ];
        let with_rule = ProbeReport {
            text: text.into(),
            position,
            value: Value::Win(5),
            rule: Some(rule),
            dtw: None,
            moves: moves.clone(),
            over: None,
            in_hand: false,
            rule_metric: Metric::Dtc,
        };
        let without = ProbeReport {
            rule: None,
            ..with_rule.clone()
        };
        let over = ProbeReport {
            value: Value::Loss(0),
            moves: Vec::new(),
            over: Some(GameResult::Draw {
                reason: DrawReason::QuietTurns { limit: 100 },
            }),
            ..without.clone()
        };
        let mut with_dtw = with_rule.clone();
        with_dtw.dtw = Some(Value::Win(41));
        with_dtw.moves[0].dtw = Some(Value::Win(41));
        with_dtw.moves[1].dtw = Some(Value::Draw);
        // Under Lasker's rule the depth under the rule is a DTZ₁₀₀, keyed
        // `dtz100`, which sorts after `dtw`.
        let lasker = |r: &ProbeReport| ProbeReport {
            rule_metric: Metric::Dtz,
            ..r.clone()
        };
        let (lasker_dtw, lasker_over) = (lasker(&with_dtw), lasker(&over));
        for r in [
            &with_rule,
            &without,
            &over,
            &with_dtw,
            &lasker_dtw,
            &lasker_over,
        ] {
            let direct = serde_json::to_string(r).unwrap();
            assert_eq!(direct, r.to_json().to_string());
            let reparsed: Json = serde_json::from_str(&direct).unwrap();
            assert_eq!(reparsed, r.to_json());
        }
        assert_eq!(
            serde_json::to_string(&with_rule).unwrap(),
            concat!(
                r#"{"category":"cursed-win","dtc":5,"dtc100":null,"moves":["#,
                r#"{"category":"cursed-win","dtc":5,"dtc100":null,"move":"a1-a4xd7","rule_value":"draw","value":"win"},"#,
                r#"{"category":null,"dtc":3,"dtc100":null,"move":"pass","rule_value":null,"value":"loss"}],"#,
                r#""position":"BB./S../.../...S../.../.../SB. S 0 0 7","quiet_turns":7,"rule_value":"draw","value":"win"}"#
            )
        );
        let text = serde_json::to_string(&with_dtw).unwrap();
        assert!(text.contains(r#""dtc100":null,"dtw":41,"moves""#), "{text}");
        assert!(text.contains(r#""dtw":41,"move":"a1-a4xd7""#), "{text}");
        assert!(text.contains(r#""dtw":null,"move":"pass""#), "{text}");
        assert!(serde_json::to_string(&over)
            .unwrap()
            .contains(r#""dtc100":null,"game_over":{"reason":"quiet_turns","#));
        let text = serde_json::to_string(&lasker_dtw).unwrap();
        assert!(!text.contains("dtc100"), "{text}");
        assert!(
            text.contains(r#""dtc":5,"dtw":41,"dtz100":null,"moves""#),
            "{text}"
        );
        assert!(
            text.contains(r#""dtw":41,"dtz100":null,"move":"a1-a4xd7""#),
            "{text}"
        );
        assert!(serde_json::to_string(&lasker_over)
            .unwrap()
            .contains(r#""dtz100":null,"game_over":{"reason":"quiet_turns","#));
    }
}
