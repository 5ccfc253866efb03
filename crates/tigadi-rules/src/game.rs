//! A refereed game: moves checked for legality with a reason when refused, and the
//! result (docs/RULES.md §6) detected after every turn, draws by repetition and by the
//! 100-turn rule included.

use crate::geometry::Point;
use crate::position::{InvalidPosition, Move, Phase, Position, Side, WinReason};
use crate::rules::RuleSet;
use std::fmt;

/// Occurrences of one position (board and player to move) that draw the game.
pub const REPETITION_LIMIT: usize = 3;

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position (board and player to move) occurred for the third time.
    Repetition,
    /// `limit` consecutive turns (moves and passes) were played without a capture:
    /// the rule set's turn limit (100 unless `quiet=N` says otherwise).
    QuietTurns {
        /// The rule set's turn limit.
        limit: u16,
    },
    /// The last placement filled the board (12 a side, no capture while placing):
    /// nobody can move, and docs/RULES.md §8 makes it a draw whatever the blocked
    /// switch says.
    FullBoard,
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The game goes on.
    InProgress,
    /// `winner` has won.
    Win {
        /// The player who won.
        winner: Side,
        /// How.
        reason: WinReason,
    },
    /// The game is drawn.
    Draw {
        /// How.
        reason: DrawReason,
    },
}

impl GameResult {
    /// Is the game over?
    pub fn is_over(self) -> bool {
        self != GameResult::InProgress
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::InProgress => f.write_str("in progress"),
            GameResult::Win {
                winner,
                reason: WinReason::Material,
            } => write!(
                f,
                "{winner} wins: {} has fewer than 3 gotis left",
                winner.other()
            ),
            GameResult::Win {
                winner,
                reason: WinReason::Blocked,
            } => {
                write!(
                    f,
                    "{winner} wins: {} is blocked and cannot move",
                    winner.other()
                )
            }
            GameResult::Draw {
                reason: DrawReason::Repetition,
            } => f.write_str("draw: the same position occurred for the third time"),
            GameResult::Draw {
                reason: DrawReason::QuietTurns { limit },
            } => {
                write!(f, "draw: {limit} turns without a capture")
            }
            GameResult::Draw {
                reason: DrawReason::FullBoard,
            } => f.write_str("draw: the board is full and nobody can move"),
        }
    }
}

/// Why a move was refused. `Display` gives the reason in words, naming the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver {
        /// How it ended.
        result: GameResult,
    },
    /// A placement in the moving phase.
    NothingInHand {
        /// The placement tried.
        mv: Move,
        /// The player to move.
        side: Side,
    },
    /// A slide or pass while the player to move still has gotis to place.
    MustPlace {
        /// The move tried.
        mv: Move,
        /// The player to move.
        side: Side,
    },
    /// The target point is not empty.
    Occupied {
        /// The move tried.
        mv: Move,
        /// The occupied point.
        point: Point,
    },
    /// The point a slide starts from holds no goti of the player to move.
    NotYourGoti {
        /// The move tried.
        mv: Move,
        /// The start point.
        point: Point,
        /// The player to move.
        side: Side,
    },
    /// A slide to a point that is not adjacent (and the mover may not fly).
    NotAdjacent {
        /// The move tried.
        mv: Move,
    },
    /// The move closes a tigadi but names no capture.
    MustCapture {
        /// The move tried.
        mv: Move,
    },
    /// The move names a capture but closes no tigadi.
    NoTigadi {
        /// The move tried.
        mv: Move,
    },
    /// The captured point holds no enemy goti.
    NotEnemy {
        /// The move tried.
        mv: Move,
        /// The named point.
        point: Point,
        /// The enemy.
        enemy: Side,
    },
    /// The captured goti stands in a tigadi and the enemy has gotis that do not.
    Protected {
        /// The move tried.
        mv: Move,
        /// The protected goti.
        point: Point,
    },
    /// A pass although the player to move has a legal move.
    CannotPass {
        /// A legal move of the player to move.
        example: Move,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver { result } => write!(f, "the game is already over ({result})"),
            IllegalMove::NothingInHand { mv, side } => write!(
                f,
                "{mv} is a placement, but {side} has no gotis in hand (moving phase: slide \
                 a goti, as in a1-a4)"
            ),
            IllegalMove::MustPlace { mv, side } => write!(
                f,
                "{mv} is not a placement, but {side} still has gotis in hand and must place one"
            ),
            IllegalMove::Occupied { point, .. } => write!(f, "{point} is occupied"),
            IllegalMove::NotYourGoti { point, side, .. } => {
                write!(f, "{point} holds no {side} goti")
            }
            IllegalMove::NotAdjacent { mv } => match (mv.from(), mv.to()) {
                (Some(a), Some(b)) => write!(f, "{b} is not next to {a}, so {a}-{b} is no slide"),
                _ => write!(f, "{mv} is no slide"),
            },
            IllegalMove::MustCapture { mv } => {
                write!(
                    f,
                    "{} closes a tigadi and must capture",
                    mv.with_capture(None)
                )
            }
            IllegalMove::NoTigadi { mv } => write!(
                f,
                "{} does not close a tigadi, so it cannot capture",
                mv.with_capture(None)
            ),
            IllegalMove::NotEnemy { point, enemy, .. } => {
                write!(f, "{point} holds no {enemy} goti to capture")
            }
            IllegalMove::Protected { point, .. } => write!(
                f,
                "{point} is protected (it stands in a tigadi and other gotis do not)"
            ),
            IllegalMove::CannotPass { example } => {
                write!(
                    f,
                    "pass is only allowed when blocked, and {example} is legal"
                )
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Checks `mv` in `pos` under `rules`, naming the first rule it breaks. Does not look
/// at the draws that need a game's history (a [`Game`] does); refuses every move
/// in a position where the game has [ended](Position::ended).
pub fn check_move(rules: &RuleSet, pos: &Position, mv: Move) -> Result<(), IllegalMove> {
    if let Some(result) = pos.ended(rules) {
        return Err(IllegalMove::GameOver { result });
    }
    let g = rules.geometry();
    let side = pos.side;
    let own = pos.mover();
    let enemy = pos.opponent();
    // Lasker's rule: with gotis in hand a slide is as legal as a placement.
    let slides = pos.phase() == Phase::Moving || rules.slides_in_hand;
    let (to, after) = match (mv, pos.phase()) {
        (Move::Place { .. }, Phase::Moving) => return Err(IllegalMove::NothingInHand { mv, side }),
        (Move::Pass, Phase::Placing) => return Err(IllegalMove::MustPlace { mv, side }),
        (Move::Slide { .. }, Phase::Placing) if !slides => {
            return Err(IllegalMove::MustPlace { mv, side })
        }
        (Move::Pass, Phase::Moving) => {
            let mut example = None;
            pos.for_each_move(rules, |m| {
                if example.is_none() {
                    example = Some(m);
                }
            });
            return match example {
                Some(Move::Pass) | None => Ok(()),
                Some(example) => Err(IllegalMove::CannotPass { example }),
            };
        }
        (Move::Place { to, .. }, Phase::Placing) => {
            if pos.empty() & to.bit() == 0 {
                return Err(IllegalMove::Occupied { mv, point: to });
            }
            (to, own | to.bit())
        }
        (Move::Slide { from, to, .. }, _) => {
            if own & from.bit() == 0 {
                return Err(IllegalMove::NotYourGoti {
                    mv,
                    point: from,
                    side,
                });
            }
            if pos.empty() & to.bit() == 0 {
                return Err(IllegalMove::Occupied { mv, point: to });
            }
            let hand = pos.hand(side);
            if pos.to_board().targets_holding(rules, hand, from.index()) & to.bit() == 0 {
                return Err(IllegalMove::NotAdjacent { mv });
            }
            (to, (own & !from.bit()) | to.bit())
        }
    };
    let closes = g.in_line(after, to.index());
    match mv.capture() {
        None if closes && enemy != 0 => Err(IllegalMove::MustCapture { mv }),
        None => Ok(()),
        Some(_) if !closes => Err(IllegalMove::NoTigadi { mv }),
        Some(x) if enemy & x.bit() == 0 => Err(IllegalMove::NotEnemy {
            mv,
            point: x,
            enemy: side.other(),
        }),
        Some(x) if g.capturable(enemy) & x.bit() == 0 => {
            Err(IllegalMove::Protected { mv, point: x })
        }
        Some(_) => Ok(()),
    }
}

/// A game in progress: the rule set, the position, the moves played and the
/// positions the repetition rule counts.
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// Moving-phase positions (gotis and side to move) since the last capture or the
    /// start of the moving phase, the current one last. Earlier ones cannot recur.
    seen: Vec<(u32, u32, Side, u8, u8)>,
    result: GameResult,
}

impl Game {
    /// A new game from the empty board, Bone to place, `rules.pieces` gotis in each
    /// hand.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(rules, Position::start(&rules))
            .unwrap_or_else(|e| unreachable!("the start position is valid: {e}"))
    }

    /// A game that starts at `position` (its first occurrence for the repetition
    /// rule, when in the moving phase). Refuses positions no game can reach.
    pub fn from_position(rules: RuleSet, position: Position) -> Result<Game, InvalidPosition> {
        position.validate(&rules)?;
        Game::checked(rules, position)
    }

    /// As [`Game::from_position`], but a position right after the capture that
    /// ended a game is accepted too ([`Position::validate_reached`]): the game is
    /// then already over, won by the player who captured.
    pub fn from_reached_position(
        rules: RuleSet,
        position: Position,
    ) -> Result<Game, InvalidPosition> {
        position.validate_reached(&rules)?;
        Game::checked(rules, position)
    }

    /// A game from `position`, validated by the caller.
    fn checked(rules: RuleSet, position: Position) -> Result<Game, InvalidPosition> {
        if position.quiet_turns > rules.quiet {
            return Err(InvalidPosition::QuietTurnsAboveLimit {
                quiet_turns: position.quiet_turns,
                limit: rules.quiet,
            });
        }
        let mut game = Game {
            rules,
            start: position,
            position,
            moves: Vec::new(),
            seen: Vec::new(),
            result: GameResult::InProgress,
        };
        game.record_position();
        Ok(game)
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far, first first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The result so far.
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// How often the current position (board and player to move) has occurred since
    /// the moving phase began; 0 while placing.
    pub fn occurrences(&self) -> usize {
        self.occurrences_of(&self.position)
    }

    /// How often `position` (board and player to move) has occurred in this game
    /// so far, as the repetition rule counts ([`REPETITION_LIMIT`]): since the moving
    /// phase began and the last capture; 0 for a placing position. Playing a turn
    /// that reaches a position counted `REPETITION_LIMIT - 1` times draws (unless
    /// the turn wins).
    pub fn occurrences_of(&self, position: &Position) -> usize {
        if !self.counts_repetitions(position) {
            return 0;
        }
        let key = key(position);
        self.seen.iter().filter(|&&k| k == key).count()
    }

    /// The legal moves now; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.result.is_over() {
            return Vec::new();
        }
        self.position.legal_moves(&self.rules)
    }

    /// Plays `mv` if it is legal, and updates the result.
    pub fn play(&mut self, mv: Move) -> Result<GameResult, IllegalMove> {
        if self.result.is_over() {
            return Err(IllegalMove::GameOver {
                result: self.result,
            });
        }
        check_move(&self.rules, &self.position, mv)?;
        self.position = self.position.apply(mv);
        self.moves.push(mv);
        // Positions before a capture or a placement never recur (the gotis in all,
        // or in hand, fell).
        if mv.capture().is_some() || matches!(mv, Move::Place { .. }) {
            self.seen.clear();
        }
        self.record_position();
        Ok(self.result)
    }

    /// Does the repetition rule count `p`? In the moving phase; under Lasker's rule
    /// (docs/RULES.md §8) also while gotis are in hand, since slides may repeat it.
    fn counts_repetitions(&self, p: &Position) -> bool {
        self.rules.slides_in_hand || (p.bone_hand == 0 && p.seed_hand == 0)
    }

    /// Notes the current position for the repetition rule and works out the result.
    /// A win takes precedence over a draw reached on the same turn.
    fn record_position(&mut self) {
        let p = self.position;
        let moving = self.counts_repetitions(&p);
        if moving {
            self.seen.push(key(&p));
        }
        self.result = if let Some(result) = p.ended(&self.rules) {
            result
        } else if moving && self.occurrences() >= REPETITION_LIMIT {
            GameResult::Draw {
                reason: DrawReason::Repetition,
            }
        } else if p.quiet_turns >= self.rules.quiet {
            GameResult::Draw {
                reason: DrawReason::QuietTurns {
                    limit: self.rules.quiet,
                },
            }
        } else {
            GameResult::InProgress
        };
    }
}

/// A position as the repetition rule compares it: the board, the player to move
/// and (under Lasker's rule, where a position with gotis in hand can recur) the
/// hands.
fn key(p: &Position) -> (u32, u32, Side, u8, u8) {
    (p.bone, p.seed, p.side, p.bone_hand, p.seed_hand)
}
