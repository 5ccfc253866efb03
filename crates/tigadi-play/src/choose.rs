//! The computer's move at four levels, and the hint a player asks for.
//!
//! - **Level 1** (beginner) looks one turn ahead: it takes a goti whenever it can
//!   and otherwise makes the move its evaluation likes best, but does not see the
//!   opponent's reply, so it walks into captures.
//! - **Level 2** (club player) searches three turns ahead (its move, the reply, its
//!   next move) with the same evaluation: it sees a capture coming and its own
//!   follow-up, but plans no further and knows nothing of the tables.
//! - **Level 3** plays perfectly from the tables: it never turns a won or drawn
//!   position into a worse one (under the 100-turn rule too, where the horizon
//!   tables exist). Won, it plays one of the prober's best turns (the quickest
//!   win); drawn or lost, it plays a turn that keeps the value and leaves the
//!   opponent the most replies that throw theirs (a lost game is not given up to
//!   an opponent who may still go wrong), the prober's order breaking ties. It
//!   plays so in both phases, from the placing tables while placing. Where the
//!   tables say nothing (a missing table) it searches four turns ahead with the
//!   same evaluation, and its [`Choice`] says so.
//! - **Level 4** (ultra) plays as level 3 but ranks the turns that keep the value
//!   by the chance that a fallible opponent goes wrong within its next two turns
//!   ([`error_chance`]), instead of level 3's count of wrong replies one turn ahead:
//!   among the quickest wins when won, among all value-keeping turns when drawn or
//!   lost. Equal chances are ordered by the prober (won: the quickest; lost: the
//!   longest), as for level 3. It never plays a turn that changes the value.
//!
//! Ties left after that are broken by the [`Rng`], so a seed replays a game.

use crate::error::PlayError;
use crate::search::search;
use crate::ser;
use crate::table::{best_turns, table_answer, NoTable};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use tigadi_rules::Rng;
use tigadi_rules::{Move, Position};
use tigadi_tablebase::{ProbeReport, ReportTurn, RuleValues, Tablebase};
use tigadi_values::{Category, Value, Wdl};

/// How strongly the computer plays (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Level 1: one turn of search.
    Beginner = 1,
    /// Level 2: three turns of search.
    Club = 2,
    /// Level 3: the tables (both phases), and four turns of search where they say
    /// nothing.
    Perfect = 3,
    /// Level 4: level 3's value-keeping turns, the one after which a fallible
    /// opponent most likely goes wrong first ([`error_chance`]).
    Ultra = 4,
}

impl Level {
    /// All four, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Club, Level::Perfect, Level::Ultra];

    /// The level numbered `n` (1 to 4).
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get((n as usize).checked_sub(1)?).copied()
    }

    /// Its number, 1 to 4.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// How many turns deep the level searches (levels 3 and 4: where the tables say
    /// nothing).
    pub fn search_depth(self) -> u32 {
        match self {
            Level::Beginner => 1,
            Level::Club => 3,
            Level::Perfect | Level::Ultra => 4,
        }
    }

    /// Whether it plays from the tables (levels 3 and 4).
    pub fn uses_tables(self) -> bool {
        self >= Level::Perfect
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Ultra => write!(f, "level 4 (ultra)"),
            _ => write!(f, "level {}", self.number()),
        }
    }
}

impl Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

/// A move the computer chose, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The move, in the notation of docs/RULES.md §9.
    #[serde(rename = "move", serialize_with = "ser::text")]
    pub mv: Move,
    /// Where it came from.
    pub how: How,
}

/// Where a [`Choice`] or a [`Hint`] came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum How {
    /// The tables: the move keeps this value for the player to move.
    Table {
        /// Its game-theoretic value, counted from the position before it.
        #[serde(serialize_with = "ser::value")]
        value: Value,
        /// Its value under the 100-turn rule at the position's counter (`None`
        /// without horizon tables).
        #[serde(serialize_with = "ser::opt_value")]
        rule_value: Option<Value>,
        /// Its class (`None` without horizon tables).
        #[serde(serialize_with = "ser::opt_text")]
        category: Option<Category>,
        /// How many turns the choice was made among (as good by the values, and as
        /// likely to make the opponent go wrong: by level 3's count, or level 4's
        /// chance).
        equally_good: usize,
    },
    /// The depth-limited search ([`crate::search`]).
    Search {
        /// Turns searched.
        depth: u32,
        /// The move's score (see [`crate::search`]).
        score: i32,
        /// Why the tables were not used: `None` for levels 1 and 2, which never use
        /// them.
        no_table: Option<NoTable>,
    },
}

/// The move `level` plays in `position` (see the module docs). The position must
/// not be decided ([`PlayError::GameOver`]); a damaged table is an error, a missing
/// one is not (the search plays).
pub fn choose(
    tb: &Tablebase,
    position: &Position,
    level: Level,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    check_not_over(tb, position)?;
    if !level.uses_tables() {
        return by_search(tb, position, level, None, rng);
    }
    match table_answer(tb, position) {
        Ok(answer) => from_table(tb, position, &answer, level, rng),
        Err(PlayError::NoTable(why)) => by_search(tb, position, level, Some(why), rng),
        Err(e) => Err(e),
    }
}

/// What a player asking for a hint is told: every best move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hint {
    /// The moves, in the prober's (or the search's) order.
    #[serde(serialize_with = "ser::texts")]
    pub best: Vec<Move>,
    /// Where they came from (for the first of them).
    pub how: How,
}

/// The table's best moves in `position` (all of them when several are equally
/// good), or where the tables say nothing, what level 3's search would play.
pub fn hint(tb: &Tablebase, position: &Position) -> Result<Hint, PlayError> {
    check_not_over(tb, position)?;
    let level = Level::Perfect;
    match table_answer(tb, position) {
        Ok(answer) => {
            let best = best_turns(&answer);
            let first = *best.first().ok_or(PlayError::NoLegalMove)?;
            Ok(Hint {
                best: best.iter().map(|t| t.turn).collect(),
                how: table_how(first, best.len()),
            })
        }
        Err(PlayError::NoTable(why)) => {
            let depth = level.search_depth();
            let found = search(tb.rules(), position, depth).ok_or(PlayError::NoLegalMove)?;
            Ok(Hint {
                best: found.best,
                how: How::Search {
                    depth,
                    score: found.score,
                    no_table: Some(why),
                },
            })
        }
        Err(e) => Err(e),
    }
}

fn check_not_over(tb: &Tablebase, position: &Position) -> Result<(), PlayError> {
    match position.ended(tb.rules()) {
        Some(result) => Err(PlayError::GameOver(result)),
        None => Ok(()),
    }
}

fn table_how(turn: ReportTurn, equally_good: usize) -> How {
    How::Table {
        value: turn.value,
        rule_value: turn.rule.map(|r| r.rule_value),
        category: turn.rule.map(|r| r.category),
        equally_good,
    }
}

fn by_search(
    tb: &Tablebase,
    position: &Position,
    level: Level,
    no_table: Option<NoTable>,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    let depth = level.search_depth();
    let found = search(tb.rules(), position, depth).ok_or(PlayError::NoLegalMove)?;
    Ok(Choice {
        mv: found.best[rng.below(found.best.len())],
        how: How::Search {
            depth,
            score: found.score,
            no_table,
        },
    })
}

/// One of the best turns of `answer`, by the module's rule: in a won position one
/// of the quickest wins; in a drawn or lost one any turn that keeps the value
/// ([`keeping_turns`]); among them the one after which the opponent most likely
/// goes wrong (level 3: the most replies that throw their value, [`mistakes_left`];
/// level 4: the highest [`error_chance`]), then the prober's order, then `rng`.
fn from_table(
    tb: &Tablebase,
    position: &Position,
    answer: &ProbeReport,
    level: Level,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    let candidates = keeping_turns(answer);
    if candidates.is_empty() {
        return Err(PlayError::NoLegalMove);
    }
    let mut memo = HashMap::new();
    let traps: Vec<u64> = candidates
        .iter()
        .map(|t| {
            let after = position.apply(t.turn);
            match level {
                Level::Ultra => chance_key(error_chance(tb, &after, &mut memo)),
                _ => mistakes_left(tb, &after) as u64,
            }
        })
        .collect();
    let most = traps.iter().copied().max().unwrap_or(0);
    let trapping: Vec<_> = (0..candidates.len())
        .filter(|&i| traps[i] == most)
        .collect();
    // The prober's order among them: the first and those as good as it.
    let lead = candidates[trapping[0]];
    let equal: Vec<usize> = trapping
        .into_iter()
        .filter(|&i| (candidates[i].value, candidates[i].rule) == (lead.value, lead.rule))
        .collect();
    let pick = candidates[equal[rng.below(equal.len())]];
    Ok(Choice {
        mv: pick.turn,
        how: table_how(pick, equal.len()),
    })
}

/// The turns levels 3 and 4 choose among, in the prober's order: won, the best
/// ones ([`best_turns`]: the quickest wins by DTC), or where the DTW tables exist
/// the turns that keep the win (and its class under the 100-turn rule) with the
/// least DTW (the quickest end of the game); drawn or lost, every turn that keeps
/// the prober's best win/draw/loss, and under the 100-turn rule at this counter
/// the same win/draw/loss and class too.
fn keeping_turns(answer: &ProbeReport) -> Vec<ReportTurn> {
    let Some(&first) = answer.moves.first() else {
        return Vec::new();
    };
    let classes = |r: Option<RuleValues>| r.map(|r| (r.category, r.rule_value.wdl()));
    let keeping: Vec<ReportTurn> = answer
        .moves
        .iter()
        .copied()
        .filter(|t| t.value.wdl() == first.value.wdl() && classes(t.rule) == classes(first.rule))
        .collect();
    if first.value.wdl() != Wdl::Win {
        return keeping;
    }
    let dtw = |t: &ReportTurn| match t.dtw {
        Some(Value::Win(d)) => Some(d),
        _ => None,
    };
    // The least DTW, where every keeping turn has one (the DTW tables exist).
    let depths: Option<Vec<u16>> = keeping.iter().map(dtw).collect();
    match depths.and_then(|d| d.into_iter().min()) {
        Some(least) => keeping
            .into_iter()
            .filter(|t| dtw(t) == Some(least))
            .collect(),
        None => best_turns(answer),
    }
}

/// Replies in an answer for the player to move, and how many of them are worse
/// for that player than their best (by win/draw/loss).
fn wrong_replies(answer: &ProbeReport) -> (usize, usize) {
    let best = answer.moves.iter().map(|t| t.value.wdl()).max();
    let wrong = answer
        .moves
        .iter()
        .filter(|t| Some(t.value.wdl()) < best)
        .count();
    (answer.moves.len(), wrong)
}

/// How many legal replies in `position` (either phase) are worse for the player
/// to move than their best (by win/draw/loss): the chances a fallible opponent
/// has to go wrong (level 3). 0 where the game is over or the tables do not cover
/// the position.
fn mistakes_left(tb: &Tablebase, position: &Position) -> usize {
    table_answer(tb, position).map_or(0, |a| wrong_replies(&a).1)
}

/// The chance that the opponent, to move in `position` (ours after one of our
/// turns), goes wrong within its next two turns, when it picks each of its turns
/// uniformly among its legal ones and we answer its first with the keeping turn
/// ([`keeping_turns`]) that gives the best one-turn chance. "Wrong" means a turn
/// worse for the opponent than its best by win/draw/loss (from a draw: one that
/// loses; from a win: one that draws or loses), read from the tables:
///
/// `error_chance(q) = (w(q) + Σ over the n(q) − w(q) right replies r of
/// max over our keeping turns k after r of w(r·k) / n(r·k)) / n(q)`,
///
/// where `n(p)` counts the legal turns in `p` and `w(p)` the wrong ones. Counted
/// alike in both phases. 0 where the game is over or the tables do not cover the
/// position (a reply that ends the game, or whose position the tables miss, adds
/// nothing). `memo` holds the one-turn chances already read.
pub fn error_chance(tb: &Tablebase, position: &Position, memo: &mut HashMap<Position, f64>) -> f64 {
    let Ok(answer) = table_answer(tb, position) else {
        return 0.0;
    };
    let (n, wrong) = wrong_replies(&answer);
    let best = answer.moves.iter().map(|t| t.value.wdl()).max();
    let mut total = wrong as f64;
    for reply in answer.moves.iter().filter(|t| Some(t.value.wdl()) == best) {
        let after = position.apply(reply.turn);
        if let Ok(ours) = table_answer(tb, &after) {
            total += keeping_turns(&ours)
                .iter()
                .map(|k| one_turn_chance(tb, &after.apply(k.turn), memo))
                .fold(0.0, f64::max);
        }
    }
    if n == 0 {
        0.0
    } else {
        total / n as f64
    }
}

/// The share of the legal turns in `position` that are wrong for the player to
/// move (see [`error_chance`]), read once per position into `memo`.
fn one_turn_chance(tb: &Tablebase, position: &Position, memo: &mut HashMap<Position, f64>) -> f64 {
    *memo.entry(*position).or_insert_with(|| {
        table_answer(tb, position).map_or(0.0, |a| match wrong_replies(&a) {
            (0, _) => 0.0,
            (n, w) => w as f64 / n as f64,
        })
    })
}

/// A chance in [0, 1] as an integer to compare: sums of the same shares in a
/// different order then still tie.
fn chance_key(chance: f64) -> u64 {
    (chance * (1u64 << 40) as f64).round() as u64
}
