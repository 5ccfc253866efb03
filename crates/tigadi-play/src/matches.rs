//! Self-play matches between two levels: the games, their results, and a tally.

use crate::choose::{choose_in_game, How, Level};
use crate::error::PlayError;
use crate::ser;
use crate::table::table_answer;
use rayon::prelude::*;
use serde::Serialize;
use tigadi_rules::Rng;
use tigadi_rules::{Game, GameResult, Move, Position, Side};
use tigadi_tablebase::Tablebase;
use tigadi_values::Wdl;

/// What a match plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchSettings {
    /// The first player's level.
    pub level: Level,
    /// The second player's level.
    pub vs: Level,
    /// Games to play; the first player is Bone in the even-numbered ones (counting
    /// from 0) and Seed in the others (unless [`MatchSettings::lost_starts`]).
    pub games: usize,
    /// The seed: the same seed, settings and tables give the same games.
    pub seed: u64,
    /// Where every game starts (or, with [`MatchSettings::lost_starts`], where each
    /// game's random walk to its start begins).
    #[serde(serialize_with = "ser::text")]
    pub start: Position,
    /// Start each game instead from a position lost for the first player
    /// ([`lost_start`]), who then plays the side to move there (the sides no
    /// longer alternate).
    pub lost_starts: bool,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchGame {
    /// Its number, from 0.
    pub number: usize,
    /// The side the first player ([`MatchSettings::level`]) had.
    #[serde(serialize_with = "ser::side")]
    pub first_player: Side,
    /// Where it started.
    #[serde(serialize_with = "ser::text")]
    pub start: Position,
    /// The moves, Bone's first when the start has Bone to move.
    #[serde(serialize_with = "ser::texts")]
    pub moves: Vec<Move>,
    /// How it ended.
    #[serde(serialize_with = "ser::result")]
    pub result: GameResult,
    /// Turns a level-3 or level-4 player chose by search because the tables said
    /// nothing.
    pub searched: usize,
}

/// A match's games and tally.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchReport {
    /// What was played.
    pub settings: MatchSettings,
    /// Games the first player won: as Bone, as Seed.
    pub first_wins: [usize; 2],
    /// Games the second player won: as Bone, as Seed.
    pub second_wins: [usize; 2],
    /// Drawn games.
    pub draws: usize,
    /// Every game, in order.
    pub games: Vec<MatchGame>,
}

/// Plays one game from `start` with `bone` and `seed` choosing the moves (see
/// [`choose()`](crate::choose())), refereed to its end (a win, or a draw by repetition or the turn
/// limit). Returns the moves, the result and how many turns a level-3 or level-4
/// player chose by search.
pub fn play_game(
    tb: &Tablebase,
    start: &Position,
    bone: Level,
    seed: Level,
    rng: &mut Rng,
) -> Result<(Vec<Move>, GameResult, usize), PlayError> {
    let mut game = Game::from_reached_position(*tb.rules(), *start)?;
    let mut searched = 0;
    while !game.result().is_over() {
        let position = *game.position();
        let level = match position.side {
            Side::Bone => bone,
            Side::Seed => seed,
        };
        let choice = choose_in_game(tb, &game, level, rng)?;
        if let How::Search {
            no_table: Some(_), ..
        } = choice.how
        {
            searched += 1;
        }
        game.play(choice.mv).map_err(|error| PlayError::Illegal {
            number: game.moves().len() + 1,
            mv: choice.mv,
            error,
        })?;
    }
    Ok((game.moves().to_vec(), game.result(), searched))
}

/// Turns a random walk to a lost start may take before it begins again.
const WALK_TURNS: usize = 200;

/// A position lost for the player to move, by the tables (game-theoretically
/// and, where the horizon tables exist, under the 100-turn rule at its counter):
/// the first such position of a walk from `from` (itself included) that plays
/// turns drawn uniformly by `rng` among the legal ones. A walk that ends the game
/// or reaches `WALK_TURNS` turns begins again from `from`. Fails when no lost
/// position is found after many walks (e.g. tables that say nothing), or a table
/// is damaged.
pub fn lost_start(tb: &Tablebase, from: &Position, rng: &mut Rng) -> Result<Position, PlayError> {
    const WALKS: usize = 1000;
    for _ in 0..WALKS {
        let mut game = Game::from_reached_position(*tb.rules(), *from)?;
        while !game.result().is_over() && game.moves().len() <= WALK_TURNS {
            let p = *game.position();
            match table_answer(tb, &p) {
                Ok(a)
                    if a.value.wdl() == Wdl::Loss
                        && !matches!(a.rule, Some(r) if r.rule_value.wdl() != Wdl::Loss) =>
                {
                    return Ok(p)
                }
                Ok(_) | Err(PlayError::NoTable(_)) => {}
                Err(e) => return Err(e),
            }
            let moves = p.legal_moves(tb.rules());
            let mv = moves[rng.below(moves.len())];
            game.play(mv).map_err(|error| PlayError::Illegal {
                number: game.moves().len() + 1,
                mv,
                error,
            })?;
        }
    }
    Err(PlayError::NoLostStart(WALKS))
}

/// Plays a match (games in parallel; the result does not depend on how many
/// threads there are, since each game draws from its own [`Rng::for_game`]: its
/// lost start first, when asked for, then its players' ties).
pub fn play_match(tb: &Tablebase, settings: &MatchSettings) -> Result<MatchReport, PlayError> {
    let games = (0..settings.games)
        .into_par_iter()
        .map(|number| {
            let mut rng = Rng::for_game(settings.seed, number as u64);
            let (start, first_player) = if settings.lost_starts {
                let p = lost_start(tb, &settings.start, &mut rng)?;
                (p, p.side)
            } else if number % 2 == 0 {
                (settings.start, Side::Bone)
            } else {
                (settings.start, Side::Seed)
            };
            let (bone, seed) = match first_player {
                Side::Bone => (settings.level, settings.vs),
                Side::Seed => (settings.vs, settings.level),
            };
            let (moves, result, searched) = play_game(tb, &start, bone, seed, &mut rng)?;
            Ok(MatchGame {
                number,
                first_player,
                start,
                moves,
                result,
                searched,
            })
        })
        .collect::<Result<Vec<_>, PlayError>>()?;
    let mut report = MatchReport {
        settings: settings.clone(),
        first_wins: [0; 2],
        second_wins: [0; 2],
        draws: 0,
        games: Vec::new(),
    };
    for g in &games {
        match g.result {
            GameResult::Win { winner, .. } => {
                let slot = (winner == Side::Seed) as usize;
                if winner == g.first_player {
                    report.first_wins[slot] += 1;
                } else {
                    report.second_wins[slot] += 1;
                }
            }
            _ => report.draws += 1,
        }
    }
    report.games = games;
    Ok(report)
}
