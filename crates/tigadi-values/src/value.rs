//! Solved values: win/draw/loss for the player to move and the DTC, and their
//! 16-bit packing shared by the solver's arrays and the tablebase files.

use std::fmt;

/// The game-theoretic value of a moving-phase position for the player to move,
/// with its DTC (depth to capture, docs/RULES.md §7) in turns for a win or a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins; the next capture comes after this many turns
    /// (counting the capturing turn itself, so a capture now is 1).
    Win(u16),
    /// Neither side can force a win.
    Draw,
    /// The player to move loses; the opponent's next capture comes after this many
    /// turns (0 for a terminal loss: a blocked player in a rule set where that loses).
    Loss(u16),
}

/// Win/draw/loss without the DTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The player to move loses.
    Loss = 0,
    /// Draw.
    Draw = 1,
    /// The player to move wins.
    Win = 2,
}

/// Largest DTC the packing can hold.
pub const MAX_DTC: u16 = 0x7FFE;

/// A [`Value`] (or "no value": padding and not-yet-solved slots) in 16 bits:
/// `0` draw, `1..=0x7FFE` a win with that DTC, `0x8000 | d` a loss with DTC `d`
/// (`d <= 0x7FFE`), and [`Packed::NONE`] (`0xFFFF`) for no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Packed(pub u16);

impl Packed {
    /// No value: a padding slot, or a position not yet decided while solving.
    pub const NONE: Packed = Packed(0xFFFF);
    /// A draw.
    pub const DRAW: Packed = Packed(0);
    const LOSS_FLAG: u16 = 0x8000;

    /// Packs a value. DTCs above [`MAX_DTC`] are a solver bug and panic.
    #[inline]
    pub fn new(v: Value) -> Packed {
        match v {
            Value::Draw => Packed::DRAW,
            Value::Win(d) => {
                assert!((1..=MAX_DTC).contains(&d), "win DTC {d} out of range");
                Packed(d)
            }
            Value::Loss(d) => {
                assert!(d <= MAX_DTC, "loss DTC {d} out of range");
                Packed(Packed::LOSS_FLAG | d)
            }
        }
    }

    /// The value, or `None` for [`Packed::NONE`].
    #[inline]
    pub fn get(self) -> Option<Value> {
        match self.0 {
            0xFFFF => None,
            0 => Some(Value::Draw),
            d if d & Packed::LOSS_FLAG != 0 => Some(Value::Loss(d & !Packed::LOSS_FLAG)),
            d => Some(Value::Win(d)),
        }
    }

    /// Is this a real value (not [`Packed::NONE`])?
    #[inline]
    pub fn is_some(self) -> bool {
        self != Packed::NONE
    }
}

impl Value {
    /// Win, draw or loss.
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// The DTC in turns, `None` for a draw.
    pub fn dtc(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value of the position before a turn that leads to a position of value
    /// `self` for the other player: a turn into a lost position wins, with one more
    /// turn to the capture; `capture` says the turn itself captured, so the
    /// count restarts at 1.
    pub fn before_turn(self, capture: bool) -> Value {
        let step = |d: u16| if capture { 1 } else { d + 1 };
        match self {
            Value::Loss(d) => Value::Win(step(d)),
            Value::Win(d) => Value::Loss(step(d)),
            Value::Draw => Value::Draw,
        }
    }

    /// Orders values from the mover's point of view: is `self` a better choice than
    /// `other` (a quicker win, a draw over a loss, a slower loss)?
    pub fn better_than(self, other: Value) -> bool {
        self.rank() > other.rank()
    }

    fn rank(self) -> i32 {
        match self {
            Value::Win(d) => 100_000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -100_000 + d as i32,
        }
    }
}

/// Which depth a [`Value`] carries (docs/RULES.md §7): **DTC**, the turns to the
/// next capture, or **DTW**, the turns to the end of the game. The two differ in one
/// step only: through a capture, DTC restarts at 1 while DTW goes on counting. The
/// one type, its packing and its order ([`Value::better_than`]: a quicker win, a
/// slower loss) serve both, so a DTW table is a table of [`Packed`] values whose
/// depth is the DTW, and its win/draw/loss are the position's game-theoretic ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Depth to the next capture.
    #[default]
    Dtc,
    /// Depth to win: to the end of the game, across captures and phases.
    Dtw,
    /// Depth to zeroing: to the next turn that restarts the 100-turn counter, a
    /// capture or, under Lasker's rule (`slides=always`, docs/RULES.md §8), a
    /// placement. The depth of the values under the rule (DTC₁₀₀) of Lasker's
    /// tiers with gotis in hand; the same as [`Metric::Dtc`] wherever no
    /// placement is a turn.
    Dtz,
}

impl Metric {
    /// The value before a turn into a position worth `next` to the other player
    /// ([`Value::before_turn`]); `capture` says the turn captured, which restarts
    /// the count for DTC and not for DTW.
    #[inline]
    pub fn before_turn(self, next: Value, capture: bool) -> Value {
        next.before_turn(capture && self != Metric::Dtw)
    }

    /// The value before a placement into a position worth `next` to the other
    /// player: [`Metric::before_turn`], except that every placement restarts
    /// the count for [`Metric::Dtz`].
    #[inline]
    pub fn before_placement(self, next: Value, capture: bool) -> Value {
        self.before_turn(next, capture || self == Metric::Dtz)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Win(MAX_DTC),
            Value::Loss(0),
            Value::Loss(MAX_DTC),
        ] {
            assert_eq!(Packed::new(v).get(), Some(v));
            assert!(Packed::new(v).is_some());
        }
        assert_eq!(Packed::NONE.get(), None);
    }

    #[test]
    fn ordering_prefers_quick_wins_and_slow_losses() {
        assert!(Value::Win(1).better_than(Value::Win(2)));
        assert!(Value::Win(90).better_than(Value::Draw));
        assert!(Value::Draw.better_than(Value::Loss(90)));
        assert!(Value::Loss(9).better_than(Value::Loss(2)));
        assert_eq!(Value::Loss(3).before_turn(false), Value::Win(4));
        assert_eq!(Value::Win(3).before_turn(true), Value::Loss(1));
    }

    #[test]
    fn dtw_counts_on_through_captures() {
        assert_eq!(Metric::Dtc.before_turn(Value::Win(3), true), Value::Loss(1));
        assert_eq!(Metric::Dtw.before_turn(Value::Win(3), true), Value::Loss(4));
        assert_eq!(
            Metric::Dtw.before_turn(Value::Loss(0), false),
            Value::Win(1)
        );
        assert_eq!(Metric::Dtw.before_turn(Value::Draw, true), Value::Draw);
    }

    #[test]
    fn dtz_restarts_at_placements_too() {
        assert_eq!(Metric::Dtz.before_turn(Value::Win(3), true), Value::Loss(1));
        assert_eq!(
            Metric::Dtz.before_turn(Value::Win(3), false),
            Value::Loss(4)
        );
        assert_eq!(
            Metric::Dtz.before_placement(Value::Loss(5), false),
            Value::Win(1)
        );
        assert_eq!(
            Metric::Dtc.before_placement(Value::Loss(5), false),
            Value::Win(6)
        );
        assert_eq!(
            Metric::Dtw.before_placement(Value::Loss(5), true),
            Value::Win(6)
        );
        assert_eq!(
            Metric::Dtz.before_placement(Value::Draw, false),
            Value::Draw
        );
    }
}
