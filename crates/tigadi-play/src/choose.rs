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
//! - **Level 4** (ultra) plays as level 3 (among the quickest wins when won,
//!   among all value-keeping turns when drawn or lost) but ranks those turns for
//!   short-sighted opponents and by the game's history ([`choose_in_game`]):
//!   first the repetition rule (it does not let a won or drawn game end by
//!   repetition while another turn keeps it going; it ends a lost one so), then
//!   the chance that one of the program's searching levels 1 and 2 goes wrong
//!   next turn ([`fallible_chance`]), then the fewer earlier occurrences of the
//!   position (lost: the more), then level 3's count of wrong replies. Equal
//!   ranks are ordered by the prober (won: the quickest; lost: the longest), as
//!   for level 3. It never plays a turn that changes the value.
//!
//! Ties left after that are broken by the [`Rng`], so a seed replays a game.

use crate::error::PlayError;
use crate::search::search;
use crate::ser;
use crate::table::{best_turns, table_answer, NoTable};
use serde::Serialize;
use std::fmt;
use tigadi_rules::Rng;
use tigadi_rules::{Game, Move, Position, REPETITION_LIMIT};
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
    /// Level 4: level 3's value-keeping turns, minding repetitions, the one
    /// after which a searching opponent most likely goes wrong
    /// ([`fallible_chance`]).
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
    /// The depth-limited search ([`crate::search()`]).
    Search {
        /// Turns searched.
        depth: u32,
        /// The move's score (see [`crate::search()`]).
        score: i32,
        /// Why the tables were not used: `None` for levels 1 and 2, which never use
        /// them.
        no_table: Option<NoTable>,
    },
}

/// The move `level` plays in `position` (see the module docs), with no game
/// history: as [`choose_in_game`] for a game that starts there. The position must
/// not be decided ([`PlayError::GameOver`]); a damaged table is an error, a missing
/// one is not (the search plays).
pub fn choose(
    tb: &Tablebase,
    position: &Position,
    level: Level,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    choose_with(tb, position, None, level, rng)
}

/// The move `level` plays in the current position of `game` (see the module
/// docs): level 4 reads the game's history for the repetition rule.
pub fn choose_in_game(
    tb: &Tablebase,
    game: &Game,
    level: Level,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    choose_with(tb, game.position(), Some(game), level, rng)
}

fn choose_with(
    tb: &Tablebase,
    position: &Position,
    game: Option<&Game>,
    level: Level,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    check_not_over(tb, position)?;
    if !level.uses_tables() {
        return by_search(tb, position, level, None, rng);
    }
    match table_answer(tb, position) {
        Ok(answer) => from_table(tb, position, game, &answer, level, rng),
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
/// level 4: [`ultra_rank`]), then the prober's order, then `rng`.
fn from_table(
    tb: &Tablebase,
    position: &Position,
    game: Option<&Game>,
    answer: &ProbeReport,
    level: Level,
    rng: &mut Rng,
) -> Result<Choice, PlayError> {
    let candidates = keeping_turns(answer);
    if candidates.is_empty() {
        return Err(PlayError::NoLegalMove);
    }
    let kept = candidates[0].value.wdl();
    let ranks: Vec<UltraRank> = candidates
        .iter()
        .map(|t| {
            let after = position.apply(t.turn);
            match level {
                Level::Ultra => ultra_rank(tb, kept, &after, game),
                _ => UltraRank {
                    wrong: mistakes_left(tb, &after),
                    ..UltraRank::default()
                },
            }
        })
        .collect();
    let most = ranks.iter().copied().max().unwrap_or_default();
    let trapping: Vec<_> = (0..candidates.len())
        .filter(|&i| ranks[i] == most)
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

/// How level 4 ranks a value-keeping turn, compared field by field (higher
/// first); level 3 uses only `wrong`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct UltraRank {
    /// 1 for a turn whose draw by repetition is wanted (it ends a lost game as
    /// a draw), or one that does not draw by repetition in a won or drawn game
    /// (where the draw would end the opponent's chances to go wrong); else 0.
    repetition: u8,
    /// [`fallible_chance`] after the turn, as an integer ([`chance_key`]).
    chance: u64,
    /// The earlier occurrences of the position after the turn, negated in a won or
    /// drawn game (fresh positions first: no cycle a repetition ends), as they
    /// are in a lost one (towards a repetition, a draw).
    seen: i64,
    /// The opponent's wrong replies there ([`mistakes_left`], level 3's measure).
    wrong: usize,
}

/// Level 4's rank of the turn to `after` in a game whose value for us (kept by
/// the turn) is `kept`: the repetition rule from `game`'s history, then the
/// chance a fallible opponent goes wrong ([`fallible_chance`]), then the
/// position's earlier occurrences, then level 3's count of wrong replies.
fn ultra_rank(tb: &Tablebase, kept: Wdl, after: &Position, game: Option<&Game>) -> UltraRank {
    let seen = game.map_or(0, |g| g.occurrences_of(after));
    let repeats = seen + 1 >= REPETITION_LIMIT && after.ended(tb.rules()).is_none();
    let lost = kept == Wdl::Loss;
    let (chance, wrong) = traps(tb, after);
    UltraRank {
        repetition: (repeats == lost) as u8,
        chance: chance_key(chance),
        seen: if lost { seen as i64 } else { -(seen as i64) },
        wrong,
    }
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

/// The turns in an answer worse for the player to move than their best (by
/// win/draw/loss), in the prober's order.
fn wrong_turns(answer: &ProbeReport) -> Vec<Move> {
    let best = answer.moves.iter().map(|t| t.value.wdl()).max();
    answer
        .moves
        .iter()
        .filter(|t| Some(t.value.wdl()) < best)
        .map(|t| t.turn)
        .collect()
}

/// How many legal replies in `position` (either phase) are worse for the player
/// to move than their best (by win/draw/loss): the chances a fallible opponent
/// has to go wrong (level 3). 0 where the game is over or the tables do not cover
/// the position.
fn mistakes_left(tb: &Tablebase, position: &Position) -> usize {
    table_answer(tb, position).map_or(0, |a| wrong_turns(&a).len())
}

/// The fallible players level 4 sets its traps for: the program's own searching
/// levels 1 and 2 (one and three turns of search).
const FALLIBLE: [Level; 2] = [Level::Beginner, Level::Club];

/// The chance that a fallible opponent, to move in `position` (ours after one of
/// our turns), goes wrong on its next turn: the opponent is one of the program's
/// searching levels 1 and 2, each as likely, and plays as they do, uniformly
/// among the turns its search ([`search`], one or three turns deep) scores best.
/// "Wrong" means a turn worse for the opponent than its best by win/draw/loss
/// (from a draw: one that loses; from a win: one that draws or loses), read from
/// the tables. With `B₁` and `B₃` those best turns and `W` the wrong ones:
///
/// `fallible_chance(q) = ( |B₁ ∩ W| / |B₁| + |B₃ ∩ W| / |B₃| ) / 2`.
///
/// Counted alike in both phases. 0 where the game is over or the tables do not
/// cover the position.
pub fn fallible_chance(tb: &Tablebase, position: &Position) -> f64 {
    traps(tb, position).0
}

/// [`fallible_chance`] of `position`, and how many of its legal turns are wrong
/// ([`mistakes_left`]), from one answer.
fn traps(tb: &Tablebase, position: &Position) -> (f64, usize) {
    let Ok(answer) = table_answer(tb, position) else {
        return (0.0, 0);
    };
    let wrong = wrong_turns(&answer);
    if wrong.is_empty() {
        return (0.0, 0);
    }
    let chance = FALLIBLE
        .iter()
        .map(
            |level| match search(tb.rules(), position, level.search_depth()) {
                Some(found) if !found.best.is_empty() => {
                    let hit = found.best.iter().filter(|m| wrong.contains(m)).count();
                    hit as f64 / found.best.len() as f64
                }
                _ => 0.0,
            },
        )
        .sum::<f64>()
        / FALLIBLE.len() as f64;
    (chance, wrong.len())
}

/// A chance in [0, 1] as an integer to compare: sums of the same shares in a
/// different order then still tie.
fn chance_key(chance: f64) -> u64 {
    (chance * (1u64 << 40) as f64).round() as u64
}
