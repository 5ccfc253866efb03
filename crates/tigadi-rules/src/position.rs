//! Full-game positions (both phases) and their legal moves.
//!
//! A [`Position`] is everything a turn depends on except the history needed for the
//! repetition rule: both players' gotis, the player to move, the gotis still in
//! hand and the 100-turn counter. [`Position::for_each_move`] generates every legal
//! [`Move`] (one per distinct capture choice); the moving phase reuses
//! [`Board::for_each_slide`], so the full-game engine and the tablebase primitives
//! can never disagree on what a slide is.

use crate::game::{DrawReason, GameResult};
use crate::geometry::{Bits, Point, ALL};
use crate::moving::Board;
use crate::rules::RuleSet;
use std::fmt;

/// A player whose gotis on board plus in hand fall below this has lost (docs/RULES.md §6).
pub const MIN_GOTIS: u32 = 3;

/// Consecutive turns without a capture after which the game is drawn (docs/RULES.md §6).
pub const QUIET_TURN_LIMIT: u16 = 100;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// Bone (pale, "white"): places and moves first.
    Bone,
    /// Seed (dark, "black"): places and moves second.
    Seed,
}

impl Side {
    /// The other player.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Bone => Side::Seed,
            Side::Seed => Side::Bone,
        }
    }

    /// `"Bone"` or `"Seed"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Bone => "Bone",
            Side::Seed => "Seed",
        }
    }

    /// The letter used in position strings: `'B'` or `'S'`.
    pub fn letter(self) -> char {
        match self {
            Side::Bone => 'B',
            Side::Seed => 'S',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The phase a position is in, decided by the hand of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player to move still has gotis in hand and places one (docs/RULES.md §3).
    Placing,
    /// Every goti has been placed; the player to move slides (docs/RULES.md §4).
    Moving,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Placing => "placing",
            Phase::Moving => "moving",
        })
    }
}

/// One complete turn: where the goti goes and, when it closes a tigadi, which enemy
/// goti is taken. Written in the notation of docs/RULES.md §9 by its `Display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Place a goti from hand on the empty point `to`, capturing `capture`.
    Place {
        /// The point the goti is placed on.
        to: Point,
        /// The enemy goti taken, when the placement closes a tigadi and the enemy has
        /// a goti on the board.
        capture: Option<Point>,
    },
    /// Slide (or, where flying applies, fly) a goti from `from` to `to`.
    Slide {
        /// The point the goti leaves.
        from: Point,
        /// The point the goti arrives on.
        to: Point,
        /// The enemy goti taken, when the slide closes a tigadi.
        capture: Option<Point>,
    },
    /// The player to move is blocked and passes (only where blocked players pass).
    Pass,
}

impl Move {
    /// The point the goti arrives on; `None` for a pass.
    pub fn to(self) -> Option<Point> {
        match self {
            Move::Place { to, .. } | Move::Slide { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The point a sliding goti leaves; `None` for placements and passes.
    pub fn from(self) -> Option<Point> {
        match self {
            Move::Slide { from, .. } => Some(from),
            _ => None,
        }
    }

    /// The captured enemy goti, if any.
    pub fn capture(self) -> Option<Point> {
        match self {
            Move::Place { capture, .. } | Move::Slide { capture, .. } => capture,
            Move::Pass => None,
        }
    }

    /// The same move with the capture replaced (no effect on a pass).
    pub fn with_capture(self, capture: Option<Point>) -> Move {
        match self {
            Move::Place { to, .. } => Move::Place { to, capture },
            Move::Slide { from, to, .. } => Move::Slide { from, to, capture },
            Move::Pass => Move::Pass,
        }
    }
}

/// A full-game position: both players' gotis, the player to move, the gotis in hand
/// and the 100-turn counter. It does not hold the history the repetition rule needs;
/// [`crate::Game`] does.
///
/// The fields are public so that callers can build positions by hand;
/// [`Position::validate`] says whether a game can reach one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Bone's gotis on the board.
    pub bone: Bits,
    /// Seed's gotis on the board.
    pub seed: Bits,
    /// The player to move.
    pub side: Side,
    /// Bone's gotis still in hand (`0..=9`).
    pub bone_hand: u8,
    /// Seed's gotis still in hand (`0..=9`).
    pub seed_hand: u8,
    /// Turns (moves and passes) since the last capture, counted from the start of
    /// the moving phase (the 100-turn counter); always 0 while placing.
    pub quiet_turns: u16,
}

/// Why a [`Position`] cannot occur in a game (docs/RULES.md §9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidPosition {
    /// Some point holds both a Bone and a Seed goti.
    Overlap {
        /// The first such point.
        point: Point,
    },
    /// A set of gotis uses bits beyond the 24 points.
    OffBoard,
    /// A hand larger than the gotis a player starts with.
    HandTooLarge {
        /// Whose hand.
        side: Side,
        /// The hand.
        hand: u8,
        /// Gotis a player starts with under the rule set.
        pieces: u8,
    },
    /// More gotis of one colour than were ever placed (counting the hand, more than
    /// the gotis a player starts with).
    TooManyGotis {
        /// Gotis a player starts with under the rule set.
        pieces: u8,
        /// Whose gotis.
        side: Side,
        /// On the board.
        on_board: u32,
        /// In hand.
        in_hand: u8,
    },
    /// Hands that do not fit the order of placing.
    HandOrder {
        /// The player to move.
        side: Side,
        /// Bone's hand.
        bone_hand: u8,
        /// Seed's hand.
        seed_hand: u8,
    },
    /// A player with fewer than 3 gotis in all: the game is already over.
    TooFewGotis {
        /// Whose gotis.
        side: Side,
        /// Board plus hand.
        total: u32,
    },
    /// A nonzero 100-turn counter while placing (it starts with the moving phase).
    QuietTurnsWhilePlacing {
        /// The counter given.
        quiet_turns: u16,
    },
    /// A counter above the rule set's turn limit (`quiet=N`: drawn at N).
    QuietTurnsAboveLimit {
        /// The counter.
        quiet_turns: u16,
        /// The rule set's turn limit (`quiet=N`).
        limit: u16,
    },
    /// A 100-turn counter above 100 (the game ends in a draw at 100).
    QuietTurnsTooLarge {
        /// The counter given.
        quiet_turns: u16,
    },
    /// While placing, `side` has a completed tigadi although the other player has
    /// lost no goti: the first tigadi a player closes always captures.
    UncapturedTigadi {
        /// Whose tigadi.
        side: Side,
        /// The tigadi's first point.
        through: Point,
    },
}

impl fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InvalidPosition::Overlap { point } => {
                write!(f, "{point} holds both a Bone and a Seed goti")
            }
            InvalidPosition::OffBoard => f.write_str("gotis on points beyond the 24 of the board"),
            InvalidPosition::HandTooLarge { side, hand, pieces } => {
                write!(
                    f,
                    "{side} holds {hand} gotis in hand; a player has only {pieces}"
                )
            }
            InvalidPosition::TooManyGotis {
                pieces,
                side,
                on_board,
                in_hand,
            } => write!(
                f,
                "{side} has {on_board} gotis on the board and {in_hand} in hand, more than \
                 the {pieces} a player has"
            ),
            InvalidPosition::HandOrder {
                side,
                bone_hand,
                seed_hand,
            } => write!(
                f,
                "hands {bone_hand} {seed_hand} with {side} to move do not fit the order of \
                 placing (with Bone to move the hands are equal, with Seed to move Seed holds \
                 exactly one more, and both are 0 in the moving phase)"
            ),
            InvalidPosition::TooFewGotis { side, total } => write!(
                f,
                "{side} has only {total} gotis in all (board and hand); below {MIN_GOTIS} \
                 the game is already over"
            ),
            InvalidPosition::QuietTurnsWhilePlacing { quiet_turns } => write!(
                f,
                "quiet-turn counter {quiet_turns} while placing; the 100-turn counter starts \
                 with the moving phase"
            ),
            InvalidPosition::QuietTurnsAboveLimit { quiet_turns, limit } => write!(
                f,
                "quiet-turn counter {quiet_turns} is above the rule set's turn limit {limit} \
                 (quiet={limit}); the game is drawn at {limit}"
            ),
            InvalidPosition::UncapturedTigadi { side, through } => {
                write!(
                    f,
                    "{side} has a completed tigadi (through {through}) in the placing phase, \
                     but {} has lost no goti: closing a tigadi captures, so no game reaches \
                     this position",
                    side.other()
                )
            }
            InvalidPosition::QuietTurnsTooLarge { quiet_turns } => write!(
                f,
                "quiet-turn counter {quiet_turns} is above {QUIET_TURN_LIMIT}; the game is \
                 drawn at {QUIET_TURN_LIMIT}"
            ),
        }
    }
}

impl std::error::Error for InvalidPosition {}

/// How a position is decided without any further turn (see [`Position::decided`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser's gotis on board plus in hand fell to two (docs/RULES.md §6).
    Material,
    /// The loser is to move, has no legal move, and the rule set makes a blocked
    /// player lose (docs/RULES.md §8).
    Blocked,
}

impl Position {
    /// The empty board at the start of a game under `rules`: Bone to place,
    /// `rules.pieces` gotis in each hand. This is the only way to a start position:
    /// there is no fixed 9-a-side start that could ignore `pieces=N`.
    pub fn start(rules: &RuleSet) -> Position {
        Position {
            bone: 0,
            seed: 0,
            side: Side::Bone,
            bone_hand: rules.pieces,
            seed_hand: rules.pieces,
            quiet_turns: 0,
        }
    }

    /// Placements made so far (0 on the empty board, `2 * pieces` in the moving
    /// phase), from the hands; meaningful for positions that pass validation (hands
    /// larger than `rules.pieces` give 0, never a wrapped count).
    pub fn placements(&self, rules: &RuleSet) -> u32 {
        (2 * rules.pieces as u32).saturating_sub(self.bone_hand as u32 + self.seed_hand as u32)
    }

    /// The moving-phase position of `board` with `side` to move (`board.mover` are
    /// `side`'s gotis), empty hands and the given 100-turn counter.
    pub fn from_board(board: Board, side: Side, quiet_turns: u16) -> Position {
        let (bone, seed) = match side {
            Side::Bone => (board.mover, board.opponent),
            Side::Seed => (board.opponent, board.mover),
        };
        Position {
            bone,
            seed,
            side,
            bone_hand: 0,
            seed_hand: 0,
            quiet_turns,
        }
    }

    /// The gotis of `side` on the board.
    #[inline]
    pub fn gotis(&self, side: Side) -> Bits {
        match side {
            Side::Bone => self.bone,
            Side::Seed => self.seed,
        }
    }

    /// The gotis `side` holds in hand.
    #[inline]
    pub fn hand(&self, side: Side) -> u8 {
        match side {
            Side::Bone => self.bone_hand,
            Side::Seed => self.seed_hand,
        }
    }

    /// Gotis of `side` on the board plus in hand.
    #[inline]
    pub fn total(&self, side: Side) -> u32 {
        self.gotis(side).count_ones() + self.hand(side) as u32
    }

    /// The gotis of the player to move.
    #[inline]
    pub fn mover(&self) -> Bits {
        self.gotis(self.side)
    }

    /// The gotis of the player not to move.
    #[inline]
    pub fn opponent(&self) -> Bits {
        self.gotis(self.side.other())
    }

    /// Empty points.
    #[inline]
    pub fn empty(&self) -> Bits {
        ALL & !(self.bone | self.seed)
    }

    /// Placing while the player to move holds gotis in hand, moving otherwise.
    #[inline]
    pub fn phase(&self) -> Phase {
        if self.hand(self.side) > 0 {
            Phase::Placing
        } else {
            Phase::Moving
        }
    }

    /// The moving-phase board seen from the player to move (hands and counter are
    /// dropped; meaningful for moving-phase positions).
    #[inline]
    pub fn to_board(&self) -> Board {
        Board {
            mover: self.mover(),
            opponent: self.opponent(),
        }
    }

    /// Checks that a game under `rules` can reach this position (docs/RULES.md §9): no
    /// overlap, hands of at most `rules.pieces` that fit the order of placing, at
    /// most `rules.pieces` gotis of a colour counting the hand, at least 3 in all
    /// for each player, a 100-turn counter that is 0 while placing and at most
    /// 100, and, while placing, no completed tigadi of a player whose opponent has
    /// lost no goti (the first tigadi a player closes always captures). What is
    /// not checked is listed in docs/RULES.md §9.
    pub fn validate(&self, rules: &RuleSet) -> Result<(), InvalidPosition> {
        self.check(rules, false)
    }

    /// As [`Position::validate`], but also accepts the position right after the
    /// capture that ends a game (docs/RULES.md §6): the player to move has exactly
    /// 2 gotis in all (one capture below 3), the other player at least 3 with a
    /// completed tigadi on the board (the one that captured), and the 100-turn
    /// counter is 0 (a capture resets it). Every other check of `validate` still
    /// applies; any other player with fewer than 3 gotis is still
    /// [`InvalidPosition::TooFewGotis`]. For answering "how did the game end" about
    /// a position a game reached; [`Position::decided`] gives the winner.
    pub fn validate_reached(&self, rules: &RuleSet) -> Result<(), InvalidPosition> {
        self.check(rules, true)
    }

    /// Is this the position right after a game-ending capture (see
    /// [`Position::validate_reached`]), leaving `side` with `total` gotis?
    fn after_winning_capture(&self, rules: &RuleSet, side: Side, total: u32) -> bool {
        let winner = side.other();
        side == self.side
            && total + 1 == MIN_GOTIS
            && self.total(winner) >= MIN_GOTIS
            && self.quiet_turns == 0
            && rules
                .geometry()
                .lines
                .iter()
                .any(|&l| l & self.gotis(winner) == l)
    }

    /// [`Position::validate`], accepting the position after a game-ending capture
    /// when `finished` is set.
    fn check(&self, rules: &RuleSet, finished: bool) -> Result<(), InvalidPosition> {
        let pieces = rules.pieces;
        if (self.bone | self.seed) & !ALL != 0 {
            return Err(InvalidPosition::OffBoard);
        }
        if let Some(point) = Point::iter(self.bone & self.seed).next() {
            return Err(InvalidPosition::Overlap { point });
        }
        for side in [Side::Bone, Side::Seed] {
            let hand = self.hand(side);
            if hand > pieces {
                return Err(InvalidPosition::HandTooLarge { side, hand, pieces });
            }
        }
        let (bh, sh) = (self.bone_hand, self.seed_hand);
        // Under Lasker's rule a turn may slide instead of placing, so the hands do
        // not follow from the turn.
        let fits = rules.slides_in_hand
            || (bh == 0 && sh == 0)
            || match self.side {
                Side::Bone => bh == sh,
                Side::Seed => sh == bh + 1,
            };
        if !fits {
            return Err(InvalidPosition::HandOrder {
                side: self.side,
                bone_hand: bh,
                seed_hand: sh,
            });
        }
        for side in [Side::Bone, Side::Seed] {
            let on_board = self.gotis(side).count_ones();
            let in_hand = self.hand(side);
            if on_board + in_hand as u32 > pieces as u32 {
                return Err(InvalidPosition::TooManyGotis {
                    pieces,
                    side,
                    on_board,
                    in_hand,
                });
            }
        }
        for side in [Side::Bone, Side::Seed] {
            let total = self.total(side);
            if total < MIN_GOTIS && !(finished && self.after_winning_capture(rules, side, total)) {
                return Err(InvalidPosition::TooFewGotis { side, total });
            }
        }
        if self.phase() == Phase::Placing && !rules.slides_in_hand && self.quiet_turns != 0 {
            return Err(InvalidPosition::QuietTurnsWhilePlacing {
                quiet_turns: self.quiet_turns,
            });
        }
        if self.quiet_turns > QUIET_TURN_LIMIT {
            return Err(InvalidPosition::QuietTurnsTooLarge {
                quiet_turns: self.quiet_turns,
            });
        }
        if !rules.slides_in_hand && (self.bone_hand > 0 || self.seed_hand > 0) {
            // Gotis never move while placing (without Lasker's rule), so a completed tigadi on the board was
            // closed by a placement; the first one a player closes always finds an
            // enemy goti on the board (the enemy has placed before it) and captures.
            for side in [Side::Bone, Side::Seed] {
                let enemy = side.other();
                let enemy_lost = (pieces as u32) > self.total(enemy);
                if !enemy_lost {
                    if let Some(&line) = rules
                        .geometry()
                        .lines
                        .iter()
                        .find(|&&l| l & self.gotis(side) == l)
                    {
                        if let Some(through) = Point::iter(line).next() {
                            return Err(InvalidPosition::UncapturedTigadi { side, through });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Is the player to move in the moving phase with no slide available?
    pub fn is_blocked(&self, rules: &RuleSet) -> bool {
        self.phase() == Phase::Moving && !self.to_board().can_move(rules)
    }

    /// Is every point occupied? Only after the last placement of a game of 12 a
    /// side with no capture while placing: nobody can move, and docs/RULES.md §8
    /// makes that game a draw whatever the blocked switch says.
    pub fn is_full(&self) -> bool {
        self.bone | self.seed == ALL
    }

    /// The winner and why, when the position is decided before anyone moves: a
    /// player with fewer than 3 gotis in all has lost; a blocked player to move loses
    /// where the rule set says so (not on a full board, which is a draw: see
    /// [`Position::ended`]). `None` otherwise (draws by repetition and the 100-turn
    /// rule need the game's history; see [`crate::Game`]).
    pub fn decided(&self, rules: &RuleSet) -> Option<(Side, WinReason)> {
        for side in [self.side, self.side.other()] {
            if self.total(side) < MIN_GOTIS {
                return Some((side.other(), WinReason::Material));
            }
        }
        if rules.blocked_loses && self.is_blocked(rules) && !self.is_full() {
            return Some((self.side.other(), WinReason::Blocked));
        }
        None
    }

    /// How the game ends here before anyone moves, without its history: the win
    /// of [`Position::decided`], or the draw of a full board (docs/RULES.md §8).
    /// `None` while the game goes on (the draws by repetition and by the turn limit
    /// are [`crate::Game`]'s).
    pub fn ended(&self, rules: &RuleSet) -> Option<GameResult> {
        match self.decided(rules) {
            Some((winner, reason)) => Some(GameResult::Win { winner, reason }),
            None if self.is_full() => Some(GameResult::Draw {
                reason: DrawReason::FullBoard,
            }),
            None => None,
        }
    }

    /// Calls `f` with every legal move of the player to move: one per placement or
    /// slide and capture choice, or a single [`Move::Pass`] when a moving-phase
    /// player is blocked and blocked players pass. Calls nothing when the game has
    /// [ended](Position::ended) here. The draw rules of [`crate::Game`] are not
    /// applied here.
    #[inline]
    pub fn for_each_move(&self, rules: &RuleSet, mut f: impl FnMut(Move)) {
        if self.total(Side::Bone) < MIN_GOTIS
            || self.total(Side::Seed) < MIN_GOTIS
            || self.is_full()
        {
            return;
        }
        match self.phase() {
            Phase::Placing => {
                self.to_board().for_each_placement(rules, |p, _| {
                    f(Move::Place {
                        to: p.to,
                        capture: p.capture,
                    })
                });
                if rules.slides_in_hand {
                    // Lasker's rule: a slide instead of a placement (flying when the
                    // gotis on the board and in hand are three). A player with gotis
                    // in hand can always place, so it is never blocked.
                    let hand = self.hand(self.side);
                    self.to_board().for_each_slide_holding(rules, hand, |s, _| {
                        f(Move::Slide {
                            from: s.from,
                            to: s.to,
                            capture: s.capture,
                        })
                    });
                }
            }
            Phase::Moving => {
                let mut any = false;
                self.to_board().for_each_slide(rules, |s, _| {
                    any = true;
                    f(Move::Slide {
                        from: s.from,
                        to: s.to,
                        capture: s.capture,
                    });
                });
                if !any && !rules.blocked_loses {
                    f(Move::Pass);
                }
            }
        }
    }

    /// Every legal move (see [`Position::for_each_move`]), in generation order.
    pub fn legal_moves(&self, rules: &RuleSet) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.for_each_move(rules, |m| v.push(m));
        v
    }

    /// Number of legal moves (see [`Position::for_each_move`]).
    pub fn count_moves(&self, rules: &RuleSet) -> u64 {
        if self.phase() == Phase::Placing
            && !rules.slides_in_hand
            && self.total(Side::Bone) >= MIN_GOTIS
            && self.total(Side::Seed) >= MIN_GOTIS
        {
            // Every empty point once, and each closing one once per capture choice.
            let (own, enemy, empty) = (self.mover(), self.opponent(), self.empty());
            let closing = if enemy == 0 {
                0
            } else {
                closing_points(rules, own, empty)
            };
            let extra = if closing == 0 {
                0
            } else {
                closing.count_ones() as u64
                    * (rules.geometry().capturable(enemy).count_ones() as u64 - 1)
            };
            return empty.count_ones() as u64 + extra;
        }
        let mut n = 0;
        self.for_each_move(rules, |_| n += 1);
        n
    }

    /// The position after `mv`, which must be legal here (as generated by
    /// [`Position::for_each_move`]; [`crate::Game::play`] checks moves first). An
    /// illegal move gives a meaningless position, never a panic.
    #[inline]
    pub fn apply(&self, mv: Move) -> Position {
        let mut p = *self;
        let (own, enemy) = match self.side {
            Side::Bone => (&mut p.bone, &mut p.seed),
            Side::Seed => (&mut p.seed, &mut p.bone),
        };
        match mv {
            Move::Place { to, capture } => {
                *own |= to.bit();
                if let Some(x) = capture {
                    *enemy &= !x.bit();
                }
                let hand = match self.side {
                    Side::Bone => &mut p.bone_hand,
                    Side::Seed => &mut p.seed_hand,
                };
                *hand = hand.saturating_sub(1);
                p.quiet_turns = 0;
            }
            Move::Slide { from, to, capture } => {
                *own = (*own & !from.bit()) | to.bit();
                match capture {
                    Some(x) => {
                        *enemy &= !x.bit();
                        p.quiet_turns = 0;
                    }
                    None => p.quiet_turns = self.quiet_turns.saturating_add(1),
                }
            }
            Move::Pass => p.quiet_turns = self.quiet_turns.saturating_add(1),
        }
        p.side = self.side.other();
        p
    }

    /// The number of move sequences of exactly `depth` turns from here (leaves of the
    /// move tree). A decided position has no moves, so it ends a sequence; the draw
    /// rules (repetition, 100 turns) are ignored, as chess perft ignores them.
    pub fn perft(&self, rules: &RuleSet, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(rules),
            _ => {
                let mut n = 0;
                self.for_each_move(rules, |m| n += self.apply(m).perft(rules, depth - 1));
                n
            }
        }
    }
}

/// The empty points where a goti of `own` would complete a line: the third point of
/// every line holding two of `own`.
#[inline]
fn closing_points(rules: &RuleSet, own: Bits, empty: Bits) -> Bits {
    let mut closing = 0;
    for &line in &rules.geometry().lines {
        let rest = line & !own;
        // Exactly one point of the line is not `own`'s.
        if rest != 0 && rest & (rest - 1) == 0 {
            closing |= rest;
        }
    }
    closing & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        let p = Position::start(&RuleSet::TIGADI);
        assert_eq!(p.validate(&RuleSet::TIGADI), Ok(()));
        assert_eq!(p.phase(), Phase::Placing);
        assert_eq!(p.count_moves(&RuleSet::TIGADI), 24);
        assert_eq!(p.perft(&RuleSet::TIGADI, 2), 24 * 23);
    }

    #[test]
    fn apply_counts_hands_and_turns() {
        let p = Position::start(&RuleSet::TIGADI);
        let q = p.apply(Move::Place {
            to: Point::parse("d5").unwrap(),
            capture: None,
        });
        assert_eq!((q.bone_hand, q.seed_hand, q.side), (8, 9, Side::Seed));
        assert_eq!(q.bone, Point::parse("d5").unwrap().bit());
        let r = Position {
            quiet_turns: 7,
            ..Position::from_board(
                Board {
                    mover: 7,
                    opponent: 7 << 8,
                },
                Side::Bone,
                7,
            )
        };
        assert_eq!(r.apply(Move::Pass).quiet_turns, 8);
        assert_eq!(r.apply(Move::Pass).side, Side::Seed);
    }
}
