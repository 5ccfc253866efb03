//! Rule sets: the three switches of docs/RULES.md §8 and the named presets.

use crate::geometry::{BoardKind, Geometry};
use std::fmt;

/// A rule set: the board, whether a player with exactly three gotis (none in hand)
/// may fly, and what happens to a player with no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// 20 lines (with the corner diagonals) or 16.
    pub board: BoardKind,
    /// A player with exactly 3 gotis on the board and none in hand may move a goti
    /// to any empty point.
    pub flying: bool,
    /// A player to move with no legal move loses (otherwise they pass).
    pub blocked_loses: bool,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::TIGADI
    }
}

/// Goti count at which flying applies, when the rule set has flying.
pub const FLYING_COUNT: u32 = 3;

impl RuleSet {
    /// `tigadi`: 20 lines, never flying, a blocked player passes (the default).
    pub const TIGADI: RuleSet = RuleSet {
        board: BoardKind::Diagonals,
        flying: false,
        blocked_loses: false,
    };
    /// `navakankari`: 16 lines, never flying, a blocked player loses.
    pub const NAVAKANKARI: RuleSet = RuleSet {
        board: BoardKind::Plain,
        flying: false,
        blocked_loses: true,
    };
    /// `morris`: 16 lines, flying at three, a blocked player loses (nine men's morris).
    pub const MORRIS: RuleSet = RuleSet {
        board: BoardKind::Plain,
        flying: true,
        blocked_loses: true,
    };

    /// The named presets.
    pub const PRESETS: [(&'static str, RuleSet); 3] = [
        ("tigadi", RuleSet::TIGADI),
        ("navakankari", RuleSet::NAVAKANKARI),
        ("morris", RuleSet::MORRIS),
    ];

    /// The board geometry of this rule set.
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.board)
    }

    /// May a player with `count` gotis on the board (and none in hand) fly?
    #[inline]
    pub fn flies(&self, count: u32) -> bool {
        self.flying && count == FLYING_COUNT
    }

    /// The canonical name: a preset name, or the switches written out as
    /// `lines=20|16,flying=never|3,blocked=passes|loses`.
    pub fn name(&self) -> String {
        if let Some((n, _)) = RuleSet::PRESETS.iter().find(|(_, r)| r == self) {
            return n.to_string();
        }
        self.switches()
    }

    /// The switches written out, e.g. `lines=20,flying=never,blocked=passes`.
    pub fn switches(&self) -> String {
        format!(
            "lines={},flying={},blocked={}",
            if self.board == BoardKind::Diagonals {
                20
            } else {
                16
            },
            if self.flying { "3" } else { "never" },
            if self.blocked_loses {
                "loses"
            } else {
                "passes"
            }
        )
    }

    /// Parses a preset name (`tigadi`, `navakankari`, `morris`) or a comma-separated
    /// list of switches applied on top of `tigadi`: `lines=20|16`,
    /// `flying=never|3`, `blocked=passes|loses`; a preset may come first, as in
    /// `morris,lines=20`.
    pub fn parse(text: &str) -> Result<RuleSet, String> {
        let mut rules = RuleSet::TIGADI;
        let mut seen = std::collections::HashSet::new();
        for (i, part) in text.split(',').map(str::trim).enumerate() {
            if let Some((_, preset)) = RuleSet::PRESETS.iter().find(|(n, _)| *n == part) {
                if i != 0 {
                    return Err(format!(
                        "rule set '{}': preset '{part}' must come first",
                        crate::notation::shown(text)
                    ));
                }
                rules = *preset;
                continue;
            }
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!(
                    "unknown rule set '{}' (expected tigadi, navakankari, morris or \
                     switches such as lines=16,flying=3,blocked=loses)",
                    crate::notation::shown(part)
                )
            })?;
            if !seen.insert(key) {
                return Err(format!(
                    "rule set '{}': switch '{}' is given twice",
                    crate::notation::shown(text),
                    crate::notation::shown(key)
                ));
            }
            match (key, value) {
                ("lines", "20") => rules.board = BoardKind::Diagonals,
                ("lines", "16") => rules.board = BoardKind::Plain,
                ("flying", "never") => rules.flying = false,
                ("flying", "3") => rules.flying = true,
                ("blocked", "passes") => rules.blocked_loses = false,
                ("blocked", "loses") => rules.blocked_loses = true,
                _ => {
                    return Err(format!(
                        "bad rule switch '{}' (lines=20|16, flying=never|3, blocked=passes|loses)",
                        crate::notation::shown(part)
                    ))
                }
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        RuleSet::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip() {
        for (n, r) in RuleSet::PRESETS {
            assert_eq!(RuleSet::parse(n).unwrap(), r);
            assert_eq!(r.name(), n);
            assert_eq!(RuleSet::parse(&r.switches()).unwrap(), r);
        }
        let custom = RuleSet::parse("lines=20,flying=3").unwrap();
        assert_eq!(
            custom,
            RuleSet {
                board: BoardKind::Diagonals,
                flying: true,
                blocked_loses: false
            }
        );
        assert_eq!(RuleSet::parse(&custom.name()).unwrap(), custom);
        assert!(RuleSet::parse("chess").is_err());
        assert!(RuleSet::parse("lines=18").is_err());
        assert!(RuleSet::parse("lines=16,morris").is_err());
    }
}
