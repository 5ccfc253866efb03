//! What the web page asks about a position: the board, the game state, and every
//! legal move with the position it leads to, so that the page holds no rules.

use crate::error::ApiError;
use serde_json::{json, Value as Json};
use tigadi_rules::{Game, Phase, Point, RuleSet, Side};
use tigadi_tablebase::{result_json, TableKind, Tablebase, TablebaseError};

/// The value fields of a probe answer under `rules`, copied to the explorer's
/// answer and to each of its moves (`null` where unknown; `dtw` also where no DTW
/// tables exist): the depth under the 100-turn rule is `dtc100`, or `dtz100`
/// under Lasker's rule (as the probe answer keys it).
fn value_fields(rules: &RuleSet) -> [&'static str; 6] {
    let depth = TableKind::Horizon.metric_under(rules).key_under_rule();
    ["value", "dtc", "dtw", "category", "rule_value", depth]
}

/// The explorer's answer for `game`'s position (any phase) under `tb`'s rule set,
/// with `game`'s result (a position started from, or the end of a record; the
/// position right after a game-ending capture is a finished game, answered with
/// who won and why):
///
/// - `position` (the canonical string), `rules`, `side` (`"bone"`/`"seed"`),
///   `phase`, `bone` and `seed` (point names), `bone_hand`, `seed_hand`,
///   `quiet_turns`, `quiet_limit`, `result` (as in `tigadi show --json`);
/// - `known`: whether the tables give values here; `unknown` says why not
///   (no table for the position's tier), `null` otherwise;
/// - `value`, `dtc`, `dtw`, `category`, `rule_value`, `dtc100` (`dtz100` under
///   Lasker's rule): as in the probe answer (`dtw`, the depth to win, `null`
///   without DTW tables);
/// - `moves`: every legal move, best first where values are known (the probe's
///   order and fields), in generation order otherwise, each with `next`, the
///   position string it leads to. None once the game is over (the repetition rule
///   applies to a record only: a position string carries no history).
///
/// A damaged table is an error (500, the file named), not "unknown".
pub fn explore(tb: &Tablebase, game: &Game) -> Result<Json, ApiError> {
    let rules = tb.rules();
    let position = game.position();
    let result = game.result();
    let text = position.to_string();
    let names = |bits| Point::iter(bits).map(Point::name).collect::<Vec<_>>();
    let mut answer = json!({
        "position": text,
        "rules": rules.name(),
        "side": match position.side { Side::Bone => "bone", Side::Seed => "seed" },
        "phase": position.phase().to_string(),
        "bone": names(position.bone),
        "seed": names(position.seed),
        "bone_hand": position.bone_hand,
        "seed_hand": position.seed_hand,
        "quiet_turns": position.quiet_turns,
        "quiet_limit": rules.quiet,
        "result": result_json(result),
    });
    let mut unknown = None;
    let mut moves = Vec::new();
    let mut values = Json::Null;
    if result.is_over() {
        // No moves, no values beyond the result.
    } else {
        match tb.answer(position) {
            Ok(report) => {
                let probe = report.to_json();
                for (turn, entry) in report
                    .moves
                    .iter()
                    .zip(probe["moves"].as_array().into_iter().flatten())
                {
                    let mut entry = entry.clone();
                    entry["next"] = json!(position.apply(turn.turn).to_string());
                    moves.push(entry);
                }
                values = probe;
            }
            Err(e @ TablebaseError::MissingSubspace { .. }) => {
                unknown = Some(match position.phase() {
                    // Under Lasker's rule a tier with gotis in hand is a tier
                    // like any other, not a phase of its own.
                    Phase::Placing if rules.slides_in_hand => format!(
                        "no table for this tier: values unknown ({e}); solve the game into \
                         the served directory with `tigadi --rules {} solve --dir DIR`",
                        rules.name()
                    ),
                    Phase::Placing => {
                        format!(
                            "the placing phase is not solved here: values unknown ({e}); \
                             solve the whole game into the served directory with \
                             `tigadi --rules {} solve --dtw --dir DIR`",
                            rules.name()
                        )
                    }
                    Phase::Moving => format!("values unknown: {e}"),
                });
            }
            Err(e) => return Err(e.into()),
        }
    }
    if unknown.is_some() {
        moves = game
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut entry =
                    json!({ "move": m.to_string(), "next": position.apply(m).to_string() });
                for f in value_fields(rules) {
                    entry[f] = Json::Null;
                }
                entry
            })
            .collect();
    }
    for f in value_fields(rules) {
        answer[f] = values.get(f).cloned().unwrap_or(Json::Null);
    }
    answer["known"] = json!(unknown.is_none() && !result.is_over());
    answer["unknown"] = json!(unknown);
    answer["moves"] = json!(moves);
    Ok(answer)
}
