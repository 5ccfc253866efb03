//! Rule sets: the switches of docs/RULES.md §8 (board, flying, blocked player, gotis per
//! side, turn limit) and the named presets.

use crate::geometry::{BoardKind, Geometry};
use std::fmt;

/// A rule set: the board, whether a player with exactly three gotis (on the board
/// and in hand together) may fly, what happens to a player with no legal move, how
/// many gotis each player starts with, and whether a player with gotis in hand may
/// slide instead of placing (Lasker's rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// 20 lines (with the corner diagonals) or 16.
    pub board: BoardKind,
    /// A player with exactly 3 gotis on the board and in hand together may move a
    /// goti to any empty point (without Lasker's rule a player slides only with an
    /// empty hand, so that is 3 on the board).
    pub flying: bool,
    /// A player to move with no legal move loses (otherwise they pass).
    pub blocked_loses: bool,
    /// The turn limit of the 100-turn rule (docs/RULES.md §6, §8 `quiet=N`): this many
    /// consecutive turns without a capture draw the game, and it is the horizon of
    /// the values under the rule (§7). 1..=[`MAX_QUIET`], [`DEFAULT_QUIET`] by default.
    pub quiet: u16,
    /// Gotis each player starts with (`pieces=N`, [`MIN_PIECES`]`..=`[`MAX_PIECES`];
    /// [`DEFAULT_PIECES`] unless a switch says otherwise). The placing phase has
    /// twice this many placements.
    pub pieces: u8,
    /// Lasker's rule (`slides=always`, docs/RULES.md §8): a player with gotis in
    /// hand either places one or slides a goti on the board. Without it
    /// (`slides=after`, the default) a player slides only once its hand is empty.
    pub slides_in_hand: bool,
}

/// The default turn limit of the 100-turn rule (docs/RULES.md §6).
pub const DEFAULT_QUIET: u16 = 100;
/// The largest turn limit `quiet=N` accepts (docs/RULES.md §8).
pub const MAX_QUIET: u16 = 100;

/// Gotis per side in the standard game (docs/RULES.md §2); rule sets with this count
/// keep their names without a `pieces=` switch.
pub const DEFAULT_PIECES: u8 = 9;
/// Fewest gotis per side a rule set may have (`pieces=3`: any capture wins).
pub const MIN_PIECES: u8 = 3;
/// Most gotis per side a rule set may have: 2 × 12 fills the 24 points.
pub const MAX_PIECES: u8 = 12;

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::TIGADI
    }
}

/// Gotis per side in Lasker morris (the `lasker` preset).
pub const LASKER_PIECES: u8 = 10;

/// Goti count at which flying applies, when the rule set has flying.
pub const FLYING_COUNT: u32 = 3;

impl RuleSet {
    /// `tigadi`: 20 lines, never flying, a blocked player passes (the default).
    pub const TIGADI: RuleSet = RuleSet {
        board: BoardKind::Diagonals,
        flying: false,
        blocked_loses: false,
        quiet: DEFAULT_QUIET,
        pieces: DEFAULT_PIECES,
        slides_in_hand: false,
    };
    /// `navakankari`: 16 lines, never flying, a blocked player loses.
    pub const NAVAKANKARI: RuleSet = RuleSet {
        board: BoardKind::Plain,
        flying: false,
        blocked_loses: true,
        quiet: DEFAULT_QUIET,
        pieces: DEFAULT_PIECES,
        slides_in_hand: false,
    };
    /// `morris`: 16 lines, flying at three, a blocked player loses (nine men's morris).
    pub const MORRIS: RuleSet = RuleSet {
        board: BoardKind::Plain,
        flying: true,
        blocked_loses: true,
        quiet: DEFAULT_QUIET,
        pieces: DEFAULT_PIECES,
        slides_in_hand: false,
    };
    /// `morabaraba`: 20 lines, flying at three, a blocked player loses, 12 gotis a
    /// side (the rules of Gévay and Danner's Malom, docs/RULES.md §8).
    pub const MORABARABA: RuleSet = RuleSet {
        board: BoardKind::Diagonals,
        flying: true,
        blocked_loses: true,
        quiet: DEFAULT_QUIET,
        pieces: MAX_PIECES,
        slides_in_hand: false,
    };
    /// `lasker`: 16 lines, flying at three (counting the hand), a blocked player
    /// loses, 10 gotis a side, and a player with gotis in hand may slide instead of
    /// placing (Lasker morris as Gévay and Danner solved it with Malom,
    /// docs/RULES.md §8.2).
    pub const LASKER: RuleSet = RuleSet {
        board: BoardKind::Plain,
        flying: true,
        blocked_loses: true,
        quiet: DEFAULT_QUIET,
        pieces: LASKER_PIECES,
        slides_in_hand: true,
    };

    /// The named presets. No two share the four board switches (`lines`,
    /// `flying`, `blocked`, `slides`), so those alone name a rule set's preset.
    pub const PRESETS: [(&'static str, RuleSet); 5] = [
        ("tigadi", RuleSet::TIGADI),
        ("navakankari", RuleSet::NAVAKANKARI),
        ("morris", RuleSet::MORRIS),
        ("morabaraba", RuleSet::MORABARABA),
        ("lasker", RuleSet::LASKER),
    ];

    /// The four switches of the moving rules, which name a preset.
    fn board_key(&self) -> (BoardKind, bool, bool, bool) {
        (
            self.board,
            self.flying,
            self.blocked_loses,
            self.slides_in_hand,
        )
    }

    /// The preset with this rule set's four board switches, if any: its name and
    /// its rule set (whose gotis per side may differ from this one's).
    fn preset(&self) -> Option<(&'static str, RuleSet)> {
        RuleSet::PRESETS
            .iter()
            .copied()
            .find(|(_, r)| r.board_key() == self.board_key())
    }

    /// The board geometry of this rule set.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.board)
    }

    /// May a player with `count` gotis on the board and in hand together fly?
    #[inline]
    pub fn flies(&self, count: u32) -> bool {
        self.flying && count == FLYING_COUNT
    }

    /// The canonical name: the name of the preset with the same three board
    /// switches, or those switches written out as
    /// `lines=20|16,flying=never|3,blocked=passes|loses`; then `,pieces=N` when the
    /// gotis per side are not the preset's (`morris,pieces=4`,
    /// `morabaraba,pieces=9`; without a preset, when they are not 9) and
    /// `,quiet=N` when the turn limit is not the default (`tigadi,quiet=10`).
    /// Defaults are never written, so `tigadi` stays `tigadi` (and the table
    /// directories named after rule sets keep their names).
    pub fn name(&self) -> String {
        match self.preset() {
            Some((name, preset)) => name.to_string() + &self.extra_switches(preset.pieces),
            None => self.board_switches() + &self.extra_switches(DEFAULT_PIECES),
        }
    }

    /// The switches written out, e.g. `lines=20,flying=never,blocked=passes`
    /// (with `,pieces=N` when not 9 and `,quiet=N` when not 100).
    pub fn switches(&self) -> String {
        self.board_switches() + &self.extra_switches(DEFAULT_PIECES)
    }

    /// This rule set with the default turn limit: the part of the rules that the
    /// game-theoretic values (which ignore the 100-turn rule) depend on.
    pub fn without_quiet_limit(&self) -> RuleSet {
        RuleSet {
            quiet: DEFAULT_QUIET,
            ..*self
        }
    }

    /// `,pieces=N` (only when not `pieces`, the count the name before it implies)
    /// and `,quiet=N` (only when not the default).
    fn extra_switches(&self, pieces: u8) -> String {
        let mut s = String::new();
        if self.pieces != pieces {
            s.push_str(&format!(",pieces={}", self.pieces));
        }
        if self.quiet != DEFAULT_QUIET {
            s.push_str(&format!(",quiet={}", self.quiet));
        }
        s
    }

    /// The switches of the moving rules, without `pieces` and `quiet`;
    /// `,slides=always` only with Lasker's rule (the default is never written, so
    /// the names of the other rule sets stay as they were).
    fn board_switches(&self) -> String {
        format!(
            "lines={},flying={},blocked={}{}",
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
            },
            if self.slides_in_hand {
                ",slides=always"
            } else {
                ""
            }
        )
    }

    /// Parses a preset name (`tigadi`, `navakankari`, `morris`, `morabaraba`,
    /// `lasker`) or a comma-separated list of switches applied on top of `tigadi`:
    /// `lines=20|16`, `flying=never|3`, `blocked=passes|loses`,
    /// `slides=after|always`, `pieces=3..12`, `quiet=1..100`; a preset may come
    /// first, as in `morris,lines=20`, `morabaraba,pieces=4`, `lasker,pieces=4` or
    /// `tigadi,quiet=10`.
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
                    "unknown rule set '{}' (expected tigadi, navakankari, morris, \
                     morabaraba, lasker or switches such as lines=16,flying=3,blocked=loses)",
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
                ("slides", "after") => rules.slides_in_hand = false,
                ("slides", "always") => rules.slides_in_hand = true,
                ("quiet", n) => {
                    rules.quiet = match n.parse::<u16>() {
                        Ok(q) if (1..=MAX_QUIET).contains(&q) => q,
                        _ => {
                            return Err(format!(
                                "bad turn limit '{}' (quiet=N with N from 1 to {MAX_QUIET})",
                                crate::notation::shown(part)
                            ))
                        }
                    }
                }
                ("pieces", n) => {
                    rules.pieces = n
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (MIN_PIECES..=MAX_PIECES).contains(n))
                        .ok_or_else(|| {
                            format!(
                                "bad rule switch '{}' (pieces={MIN_PIECES}..{MAX_PIECES}, \
                                 gotis per side)",
                                crate::notation::shown(part)
                            )
                        })?
                }
                _ => {
                    return Err(format!(
                        "bad rule switch '{}' (lines=20|16, flying=never|3, blocked=passes|loses, slides=after|always, pieces=3..12, quiet=1..100)",
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
                blocked_loses: false,
                quiet: DEFAULT_QUIET,
                pieces: DEFAULT_PIECES,
                slides_in_hand: false,
            }
        );
        assert_eq!(RuleSet::parse(&custom.name()).unwrap(), custom);
        assert!(RuleSet::parse("chess").is_err());
        assert!(RuleSet::parse("lines=18").is_err());
        assert!(RuleSet::parse("lines=16,morris").is_err());
    }

    #[test]
    fn turn_limit_switch() {
        let r = RuleSet::parse("tigadi,quiet=10").unwrap();
        assert_eq!(r.quiet, 10);
        assert_eq!(r.without_quiet_limit(), RuleSet::TIGADI);
        assert_eq!(r.name(), "tigadi,quiet=10");
        assert_eq!(RuleSet::parse(&r.name()).unwrap(), r);
        assert_eq!(RuleSet::parse(&r.switches()).unwrap(), r);
        let m = RuleSet::parse("morris,quiet=12").unwrap();
        assert_eq!(m.name(), "morris,quiet=12");
        // The default limit is not written, so existing names stay as they are.
        assert_eq!(RuleSet::parse("tigadi,quiet=100").unwrap().name(), "tigadi");
        assert_eq!(RuleSet::parse("quiet=1").unwrap().quiet, 1);
        for bad in ["tigadi,quiet=0", "quiet=101", "quiet=x", "quiet="] {
            let e = RuleSet::parse(bad).unwrap_err();
            assert!(e.contains("quiet=N"), "{bad}: {e}");
        }
    }

    #[test]
    fn pieces_switch() {
        let r = RuleSet::parse("morris,pieces=4").unwrap();
        assert_eq!(r.pieces, 4);
        assert_eq!(RuleSet { pieces: 9, ..r }, RuleSet::MORRIS);
        assert_eq!(r.name(), "morris,pieces=4");
        assert_eq!(RuleSet::parse(&r.name()).unwrap(), r);
        assert_eq!(RuleSet::parse(&r.switches()).unwrap(), r);
        // Nine a side is the default and never named.
        assert_eq!(RuleSet::parse("tigadi,pieces=9").unwrap().name(), "tigadi");
        let custom = RuleSet::parse("lines=20,flying=3,pieces=12").unwrap();
        assert_eq!(custom.name(), "lines=20,flying=3,blocked=passes,pieces=12");
        assert_eq!(RuleSet::parse(&custom.name()).unwrap(), custom);
        for bad in [
            "pieces=2",
            "pieces=13",
            "pieces=",
            "pieces=x",
            "tigadi,pieces=-4",
        ] {
            let e = RuleSet::parse(bad).unwrap_err();
            assert!(e.contains("pieces=3..12"), "{bad}: {e}");
        }
    }

    #[test]
    fn morabaraba_preset() {
        let m = RuleSet::parse("morabaraba").unwrap();
        assert_eq!(m, RuleSet::MORABARABA);
        assert_eq!(
            (m.board, m.flying, m.blocked_loses, m.pieces, m.quiet),
            (BoardKind::Diagonals, true, true, 12, 100)
        );
        assert_eq!(m.name(), "morabaraba");
        assert_eq!(m.switches(), "lines=20,flying=3,blocked=loses,pieces=12");
        // The switches of the preset, in any order, are named by it.
        for text in [
            "lines=20,flying=3,blocked=loses,pieces=12",
            "pieces=12,blocked=loses,flying=3",
            "morabaraba,pieces=12",
            "morris,lines=20,pieces=12",
        ] {
            assert_eq!(RuleSet::parse(text).unwrap().name(), "morabaraba", "{text}");
        }
        // Other goti counts are written against the preset's 12, 9 included.
        let small = RuleSet::parse("morabaraba,pieces=4").unwrap();
        assert_eq!((small.pieces, small.flying), (4, true));
        assert_eq!(small.name(), "morabaraba,pieces=4");
        assert_eq!(
            RuleSet::parse("lines=20,flying=3,blocked=loses")
                .unwrap()
                .name(),
            "morabaraba,pieces=9"
        );
        let limited = RuleSet::parse("morabaraba,quiet=50,pieces=5").unwrap();
        assert_eq!(limited.name(), "morabaraba,pieces=5,quiet=50");
        for r in [m, small, limited] {
            assert_eq!(RuleSet::parse(&r.name()).unwrap(), r);
            assert_eq!(RuleSet::parse(&r.switches()).unwrap(), r);
        }
        // The other presets keep their 9 a side.
        assert_eq!(
            RuleSet::parse("tigadi,pieces=12").unwrap().name(),
            "tigadi,pieces=12"
        );
        assert!(RuleSet::parse("pieces=4,morabaraba").is_err());
    }

    /// Each preset has board switches of its own, so that a name is unambiguous.
    #[test]
    fn presets_differ_in_their_board_switches() {
        for (i, (a, x)) in RuleSet::PRESETS.iter().enumerate() {
            for (b, y) in &RuleSet::PRESETS[i + 1..] {
                assert_ne!(x.board_key(), y.board_key(), "{a} {b}");
            }
        }
    }

    #[test]
    fn lasker_preset() {
        let l = RuleSet::parse("lasker").unwrap();
        assert_eq!(l, RuleSet::LASKER);
        assert_eq!(
            (
                l.board,
                l.flying,
                l.blocked_loses,
                l.pieces,
                l.slides_in_hand
            ),
            (BoardKind::Plain, true, true, 10, true)
        );
        assert_eq!(l.name(), "lasker");
        assert_eq!(
            l.switches(),
            "lines=16,flying=3,blocked=loses,slides=always,pieces=10"
        );
        for text in [
            "lines=16,flying=3,blocked=loses,slides=always,pieces=10",
            "morris,slides=always,pieces=10",
            "slides=always,pieces=10,lines=16,flying=3,blocked=loses",
        ] {
            assert_eq!(RuleSet::parse(text).unwrap().name(), "lasker", "{text}");
        }
        let small = RuleSet::parse("lasker,pieces=4").unwrap();
        assert_eq!(small.name(), "lasker,pieces=4");
        // Morris with Lasker's rule but 9 a side is named against Lasker's 10.
        assert_eq!(
            RuleSet::parse("morris,slides=always").unwrap().name(),
            "lasker,pieces=9"
        );
        // Lasker's rule without a preset's other switches is written out.
        let odd = RuleSet::parse("slides=always").unwrap();
        assert_eq!(
            odd.name(),
            "lines=20,flying=never,blocked=passes,slides=always"
        );
        assert_eq!(
            RuleSet::parse("lasker,slides=after").unwrap().name(),
            "morris,pieces=10"
        );
        for r in [l, small, odd] {
            assert_eq!(RuleSet::parse(&r.name()).unwrap(), r);
            assert_eq!(RuleSet::parse(&r.switches()).unwrap(), r);
        }
        let e = RuleSet::parse("slides=sometimes").unwrap_err();
        assert!(e.contains("slides=after|always"), "{e}");
    }

    #[test]
    fn pieces_and_turn_limit_together() {
        let r = RuleSet::parse("morris,quiet=12,pieces=4").unwrap();
        assert_eq!((r.pieces, r.quiet), (4, 12));
        assert_eq!(r.name(), "morris,pieces=4,quiet=12");
        assert_eq!(RuleSet::parse(&r.name()).unwrap(), r);
        assert_eq!(RuleSet::parse(&r.switches()).unwrap(), r);
        assert!(RuleSet::parse("pieces=4,pieces=5").is_err());
    }
}
