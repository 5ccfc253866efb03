//! Self-play matches between two levels: the games, their results, and a tally.

use crate::choose::{choose, How, Level};
use crate::error::PlayError;
use crate::ser;
use rayon::prelude::*;
use serde::Serialize;
use tigadi_rules::Rng;
use tigadi_rules::{Game, GameResult, Move, Position, Side};
use tigadi_tablebase::Tablebase;

/// What a match plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchSettings {
    /// The first player's level.
    pub level: Level,
    /// The second player's level.
    pub vs: Level,
    /// Games to play; the first player is Bone in the even-numbered ones (counting
    /// from 0) and Seed in the others.
    pub games: usize,
    /// The seed: the same seed, settings and tables give the same games.
    pub seed: u64,
    /// Where every game starts.
    #[serde(serialize_with = "ser::text")]
    pub start: Position,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchGame {
    /// Its number, from 0.
    pub number: usize,
    /// The side the first player ([`MatchSettings::level`]) had.
    #[serde(serialize_with = "ser::side")]
    pub first_player: Side,
    /// The moves, Bone's first when the start has Bone to move.
    #[serde(serialize_with = "ser::texts")]
    pub moves: Vec<Move>,
    /// How it ended.
    #[serde(serialize_with = "ser::result")]
    pub result: GameResult,
    /// Turns a level-3 player chose by search because the tables said nothing.
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
/// [`choose`]), refereed to its end (a win, or a draw by repetition or the turn
/// limit). Returns the moves, the result and how many turns a level-3 player
/// chose by search.
pub fn play_game(
    tb: &Tablebase,
    start: &Position,
    bone: Level,
    seed: Level,
    rng: &mut Rng,
) -> Result<(Vec<Move>, GameResult, usize), PlayError> {
    let mut game = Game::from_position(*tb.rules(), *start)?;
    let mut searched = 0;
    while !game.result().is_over() {
        let position = *game.position();
        let level = match position.side {
            Side::Bone => bone,
            Side::Seed => seed,
        };
        let choice = choose(tb, &position, level, rng)?;
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

/// Plays a match (games in parallel; the result does not depend on how many
/// threads there are, since each game draws from its own [`Rng::for_game`]).
pub fn play_match(tb: &Tablebase, settings: &MatchSettings) -> Result<MatchReport, PlayError> {
    let games = (0..settings.games)
        .into_par_iter()
        .map(|number| {
            let first_player = if number % 2 == 0 {
                Side::Bone
            } else {
                Side::Seed
            };
            let (bone, seed) = match first_player {
                Side::Bone => (settings.level, settings.vs),
                Side::Seed => (settings.vs, settings.level),
            };
            let mut rng = Rng::for_game(settings.seed, number as u64);
            let (moves, result, searched) = play_game(tb, &settings.start, bone, seed, &mut rng)?;
            Ok(MatchGame {
                number,
                first_player,
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
