//! The values under the 100-turn rule as probers read them: the value at a given
//! counter from DTC₁₀₀ ([`value_at_counter`]) and the five classes ([`Category`]).

use crate::value::{Value, Wdl};
use std::fmt;

/// The value under the rule of a position whose DTC₁₀₀ is `dtc100`, at counter
/// `counter` (turns since the last capture) under turn limit `quiet`: the decided
/// value (with its DTC₁₀₀) when it is decided within the `quiet - counter` turns
/// left, a draw otherwise. `None` when `counter > quiet` (no game reaches it).
pub fn value_at_counter(dtc100: Value, counter: u16, quiet: u16) -> Option<Value> {
    let left = quiet.checked_sub(counter)?;
    Some(match dtc100 {
        Value::Win(h) | Value::Loss(h) if h > left => Value::Draw,
        v => v,
    })
}

/// The five classes of a position at counter 0 (docs/RULES.md §7, the chess tablebases'
/// `category`), combining the game-theoretic value and the value under the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Lost under the rule at counter 0 (and so lost ignoring it).
    Loss = 0,
    /// Lost ignoring the rule, drawn under it: the winner cannot force it in time.
    BlessedLoss = 1,
    /// Drawn ignoring the rule (and so under it).
    Draw = 2,
    /// Won ignoring the rule, drawn under it.
    CursedWin = 3,
    /// Won under the rule at counter 0 (and so won ignoring it).
    Win = 4,
}

impl Category {
    /// All five, from the worst for the player to move to the best.
    pub const ALL: [Category; 5] = [
        Category::Loss,
        Category::BlessedLoss,
        Category::Draw,
        Category::CursedWin,
        Category::Win,
    ];

    /// The class of a position with game-theoretic value `game` and value under the
    /// rule at counter 0 `rule`. `None` when they contradict each other (a win under
    /// the rule must be a win ignoring it, a loss a loss).
    pub fn of(game: Wdl, rule: Wdl) -> Option<Category> {
        match (game, rule) {
            (Wdl::Win, Wdl::Win) => Some(Category::Win),
            (Wdl::Loss, Wdl::Loss) => Some(Category::Loss),
            (Wdl::Win, Wdl::Draw) => Some(Category::CursedWin),
            (Wdl::Loss, Wdl::Draw) => Some(Category::BlessedLoss),
            (Wdl::Draw, Wdl::Draw) => Some(Category::Draw),
            _ => None,
        }
    }

    /// The class's code: 0 loss, 1 blessed loss, 2 draw, 3 cursed win, 4 win.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The class with code `code`, `None` for codes above 4.
    pub fn from_code(code: u8) -> Option<Category> {
        Category::ALL.get(code as usize).copied()
    }

    /// Win, draw or loss under the rule at counter 0.
    pub fn rule_wdl(self) -> Wdl {
        match self {
            Category::Win => Wdl::Win,
            Category::Loss => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }
}

impl fmt::Display for Category {
    /// `win`, `cursed-win`, `draw`, `blessed-loss`, `loss` (the chess tablebase API's
    /// words).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Win => "win",
            Category::CursedWin => "cursed-win",
            Category::Draw => "draw",
            Category::BlessedLoss => "blessed-loss",
            Category::Loss => "loss",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_at_counter_follows_the_turns_left() {
        assert_eq!(value_at_counter(Value::Win(7), 0, 10), Some(Value::Win(7)));
        assert_eq!(value_at_counter(Value::Win(7), 3, 10), Some(Value::Win(7)));
        assert_eq!(value_at_counter(Value::Win(7), 4, 10), Some(Value::Draw));
        assert_eq!(
            value_at_counter(Value::Loss(0), 10, 10),
            Some(Value::Loss(0))
        );
        assert_eq!(value_at_counter(Value::Loss(1), 10, 10), Some(Value::Draw));
        assert_eq!(value_at_counter(Value::Draw, 0, 10), Some(Value::Draw));
        assert_eq!(value_at_counter(Value::Draw, 11, 10), None);
    }

    #[test]
    fn categories_combine_both_values() {
        assert_eq!(Category::of(Wdl::Win, Wdl::Draw), Some(Category::CursedWin));
        assert_eq!(
            Category::of(Wdl::Loss, Wdl::Draw),
            Some(Category::BlessedLoss)
        );
        assert_eq!(Category::of(Wdl::Draw, Wdl::Win), None);
        assert_eq!(Category::of(Wdl::Loss, Wdl::Win), None);
        for c in Category::ALL {
            assert_eq!(Category::from_code(c.code()), Some(c));
        }
        assert_eq!(Category::from_code(5), None);
        assert_eq!(Category::CursedWin.to_string(), "cursed-win");
    }
}
