//! The notation of docs/RULES.md §9: points, moves, game records and position strings,
//! read and written; and an ASCII drawing of a position.
//!
//! Every parser returns a [`NotationError`] naming the problem; none panics, whatever
//! the input.

use crate::geometry::{BoardKind, Geometry, Point, POINTS};
use crate::position::{InvalidPosition, Move, Position, Side};
use crate::rules::RuleSet;
use std::fmt;
use std::str::FromStr;

/// The points of each rank in a position string, rank 7 first, left to right.
pub const RANKS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

/// A notation error: what was read and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a point name `a1` … `g7`.
    BadPoint {
        /// The text read.
        text: String,
    },
    /// Not a move.
    BadMove {
        /// The text read.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A move of a game record that does not parse.
    BadRecord {
        /// The move's number in the record, counting moves (not move numbers) from 1.
        number: usize,
        /// The error for that move.
        error: Box<NotationError>,
    },
    /// A position string that does not parse.
    BadPosition {
        /// What is wrong.
        reason: String,
    },
    /// A position string that parses but no game can produce.
    Impossible(InvalidPosition),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadPoint { text } => {
                write!(
                    f,
                    "'{text}' is not a point (a1 … g7, as in docs/RULES.md §1)"
                )
            }
            NotationError::BadMove { text, reason } => write!(f, "bad move '{text}': {reason}"),
            NotationError::BadRecord { number, error } => write!(f, "move {number}: {error}"),
            NotationError::BadPosition { reason } => write!(f, "bad position string: {reason}"),
            NotationError::Impossible(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<InvalidPosition> for NotationError {
    fn from(e: InvalidPosition) -> Self {
        NotationError::Impossible(e)
    }
}

/// Longest piece of the input an error message repeats (in characters).
const MAX_SHOWN: usize = 40;

/// `text` as an error message quotes it: whole when short, else its first
/// `MAX_SHOWN` characters and how long it was, so a huge bad input does not
/// make a huge message.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// Parses a point name such as `d5`.
pub fn parse_point(text: &str) -> Result<Point, NotationError> {
    Point::parse(text).ok_or_else(|| NotationError::BadPoint { text: shown(text) })
}

/// Parses one move: `d5`, `a1-a4`, `d5xg7`, `a1-a4xg7` or `pass`. Only the syntax is
/// checked; [`crate::Game::play`] checks legality.
pub fn parse_move(text: &str) -> Result<Move, NotationError> {
    let bad = |reason: String| NotationError::BadMove {
        text: shown(text),
        reason,
    };
    if text == "pass" {
        return Ok(Move::Pass);
    }
    if text.is_empty() {
        return Err(bad("empty".into()));
    }
    let (main, capture) = match text.split_once('x') {
        Some((m, c)) => {
            if c.contains('x') {
                return Err(bad("more than one capture".into()));
            }
            let c = Point::parse(c)
                .ok_or_else(|| bad(format!("'{}' after 'x' is not a point (a1 … g7)", shown(c))))?;
            (m, Some(c))
        }
        None => (text, None),
    };
    let point = |s: &str| {
        Point::parse(s).ok_or_else(|| {
            bad(format!(
                "'{}' is not a point (a move is d5, a1-a4, d5xg7, a1-a4xg7 or pass)",
                shown(s)
            ))
        })
    };
    match main.split_once('-') {
        Some((from, to)) => {
            let (from, to) = (point(from)?, point(to)?);
            Ok(Move::Slide { from, to, capture })
        }
        None => Ok(Move::Place {
            to: point(main)?,
            capture,
        }),
    }
}

impl FromStr for Move {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_move(s)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place { to, .. } => write!(f, "{to}")?,
            Move::Slide { from, to, .. } => write!(f, "{from}-{to}")?,
            Move::Pass => return f.write_str("pass"),
        }
        if let Some(x) = self.capture() {
            write!(f, "x{x}")?;
        }
        Ok(())
    }
}

/// Is `token` a move number such as `12.` or `12...` (ignored in records)?
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Parses a game record: moves separated by white space, move numbers such as `12.`
/// ignored. The error names the first bad move by its number in the record.
pub fn parse_record(text: &str) -> Result<Vec<Move>, NotationError> {
    let mut moves = Vec::new();
    for token in text.split_whitespace().filter(|t| !is_move_number(t)) {
        let mv = parse_move(token).map_err(|e| NotationError::BadRecord {
            number: moves.len() + 1,
            error: Box::new(e),
        })?;
        moves.push(mv);
    }
    Ok(moves)
}

/// Writes moves as a record, separated by single spaces.
pub fn format_record(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The word that names the start of a game ([`Position::start`]) wherever a
/// position string is read.
pub const START: &str = "start";

/// Parses a position string `RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]]`
/// (docs/RULES.md §9), or [`START`] for the empty board at the start of a game,
/// and checks that a game under `rules` can reach it ([`Position::validate`]:
/// hands up to `rules.pieces`, and so on). There is no rule-less parser: a
/// string means a position only under a rule set.
pub fn parse_position(rules: &RuleSet, text: &str) -> Result<Position, NotationError> {
    if text.trim() == START {
        return Ok(Position::start(rules));
    }
    let p = parse_unchecked(rules, text)?;
    p.validate(rules)?;
    Ok(p)
}

/// The position `text` writes, its fields in range for `rules` but not yet
/// checked as a whole ([`Position::validate`]).
fn parse_unchecked(rules: &RuleSet, text: &str) -> Result<Position, NotationError> {
    let bad = |reason: String| NotationError::BadPosition { reason };
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields.len() {
        2 | 4 | 5 => {}
        0 => {
            return Err(bad(
                "empty (expected RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]])".into(),
            ))
        }
        3 => {
            return Err(bad(
                "one hand given; give both BONE_HAND and SEED_HAND, or neither".into(),
            ))
        }
        n => {
            return Err(bad(format!(
                "{n} fields; expected RANKS SIDE [BONE_HAND SEED_HAND [QUIET_TURNS]]"
            )))
        }
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != RANKS.len() {
        return Err(bad(format!(
            "{} ranks in '{}'; expected 7 separated by '/' (rank 7 first)",
            ranks.len(),
            shown(fields[0])
        )));
    }
    let (mut bone, mut seed) = (0, 0);
    for (i, (rank, names)) in ranks.iter().zip(RANKS).enumerate() {
        let number = 7 - i;
        let chars: Vec<char> = rank.chars().collect();
        if chars.len() != names.len() {
            return Err(bad(format!(
                "rank {number} '{}' has {} points; it has {} ({})",
                shown(rank),
                chars.len(),
                names.len(),
                names.join(" ")
            )));
        }
        for (&c, name) in chars.iter().zip(names.iter()) {
            let bit = Point::parse(name).map_or(0, Point::bit);
            match c {
                'B' => bone |= bit,
                'S' => seed |= bit,
                '.' => {}
                _ => {
                    return Err(bad(format!(
                        "'{c}' on {name} (rank {number}); use B (Bone), S (Seed) or . (empty)"
                    )))
                }
            }
        }
    }
    let side = match fields[1] {
        "B" => Side::Bone,
        "S" => Side::Seed,
        s => {
            let s = shown(s);
            return Err(bad(format!("side to move '{s}'; expected B or S")));
        }
    };
    let number = |name: &str, s: &str, max: u16| -> Result<u16, NotationError> {
        match s.parse::<u16>() {
            Ok(n) if n <= max && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(bad(format!(
                "{name} '{}'; expected a whole number from 0 to {max}",
                shown(s)
            ))),
        }
    };
    let (mut bone_hand, mut seed_hand, mut quiet_turns) = (0, 0, 0);
    if fields.len() >= 4 {
        let most = rules.pieces as u16;
        bone_hand = number("BONE_HAND", fields[2], most)? as u8;
        seed_hand = number("SEED_HAND", fields[3], most)? as u8;
    }
    if fields.len() == 5 {
        quiet_turns = number("QUIET_TURNS", fields[4], crate::position::QUIET_TURN_LIMIT)?;
    }
    let p = Position {
        bone,
        seed,
        side,
        bone_hand,
        seed_hand,
        quiet_turns,
    };
    Ok(p)
}

/// As [`parse_position`], but a position right after the capture that ends a game
/// is accepted too ([`Position::validate_reached`]): for answering how a game
/// ended. Every other position no game reaches is still refused.
pub fn parse_reached_position(rules: &RuleSet, text: &str) -> Result<Position, NotationError> {
    match parse_position(rules, text) {
        Err(NotationError::Impossible(InvalidPosition::TooFewGotis { .. })) => {
            let p = parse_unchecked(rules, text)?;
            p.validate_reached(rules)?;
            Ok(p)
        }
        r => r,
    }
}

/// Writes the position string of docs/RULES.md §9: the hands are written when either is
/// nonzero or the counter is, the counter only when nonzero. `parse_position` reads
/// it back to the same position.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, names) in RANKS.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for name in names.iter() {
                let bit = Point::parse(name).map_or(0, Point::bit);
                let c = if self.bone & bit != 0 {
                    'B'
                } else if self.seed & bit != 0 {
                    'S'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
        }
        write!(f, " {}", self.side.letter())?;
        if self.bone_hand != 0 || self.seed_hand != 0 || self.quiet_turns != 0 {
            write!(f, " {} {}", self.bone_hand, self.seed_hand)?;
        }
        if self.quiet_turns != 0 {
            write!(f, " {}", self.quiet_turns)?;
        }
        Ok(())
    }
}

/// Column of each file `a`..`g` in [`diagram`].
const FILE_COLUMN: [usize; 7] = [0, 4, 8, 16, 24, 28, 32];
/// Width of the board drawing in characters.
const DIAGRAM_WIDTH: usize = 33;
/// Height of the board drawing in lines (7 ranks, a line between each two).
const DIAGRAM_HEIGHT: usize = 13;

/// Row and column of a point in [`diagram`].
fn cell(p: Point) -> (usize, usize) {
    let b = p.name().as_bytes();
    let file = (b[0] - b'a') as usize;
    let rank = (b[1] - b'0') as usize;
    (2 * (7 - rank), FILE_COLUMN[file])
}

/// Draws the board of `board` with the gotis of `position`: `B` Bone, `S` Seed,
/// `·` empty, lines as in docs/RULES.md §1, rank numbers on the left and files below.
pub fn diagram(position: &Position, board: BoardKind) -> String {
    let g = Geometry::of(board);
    let mut grid = vec![vec![' '; DIAGRAM_WIDTH]; DIAGRAM_HEIGHT];
    for p in Point::all() {
        let mut n = g.neighbours[p.index()];
        while n != 0 {
            let q = n.trailing_zeros() as usize;
            n &= n - 1;
            let Some(q) = Point::new(q) else { continue };
            let ((r1, c1), (r2, c2)) = (cell(p), cell(q));
            if r1 == r2 {
                for cell in &mut grid[r1][c1.min(c2) + 1..c1.max(c2)] {
                    *cell = '-';
                }
            } else if c1 == c2 {
                for row in grid.iter_mut().take(r1.max(r2)).skip(r1.min(r2) + 1) {
                    row[c1] = '|';
                }
            } else {
                // A corner diagonal spans one gap line; its mark sits halfway.
                let (r, c) = ((r1 + r2) / 2, (c1 + c2) / 2);
                let down_right = (r2 > r1) == (c2 > c1);
                grid[r][c] = if down_right { '\\' } else { '/' };
            }
        }
    }
    for p in Point::all() {
        let (r, c) = cell(p);
        grid[r][c] = if position.bone & p.bit() != 0 {
            'B'
        } else if position.seed & p.bit() != 0 {
            'S'
        } else {
            '·'
        };
    }
    let mut out = String::new();
    for (r, row) in grid.iter().enumerate() {
        let label = if r % 2 == 0 {
            format!("{} ", 7 - r / 2)
        } else {
            "  ".to_string()
        };
        let line: String = row.iter().collect();
        out.push_str(&label);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("  a   b   c       d       e   f   g\n");
    debug_assert_eq!(Point::all().count(), POINTS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_example_position() {
        let p = parse_position(&RuleSet::TIGADI, "BB./S../.../...S../.../.../SB. S").unwrap();
        let names = |b: u32| Point::iter(b).map(|p| p.name()).collect::<Vec<_>>();
        let mut bone = names(p.bone);
        let mut seed = names(p.seed);
        bone.sort();
        seed.sort();
        assert_eq!(bone, ["a7", "d1", "d7"]);
        assert_eq!(seed, ["a1", "b6", "e4"]);
        assert_eq!(p.side, Side::Seed);
        assert_eq!(p.to_string(), "BB./S../.../...S../.../.../SB. S");
        let start =
            parse_position(&RuleSet::TIGADI, ".../.../.../....../.../.../... B 9 9").unwrap();
        assert_eq!(start, Position::start(&RuleSet::TIGADI));
        assert_eq!(start.to_string(), ".../.../.../....../.../.../... B 9 9");
    }

    /// `start` reads as the empty board with full hands, Bone to place, under
    /// every rule set (its own `pieces`), as the explicit string of docs/RULES.md
    /// §9 does; nothing else near it does.
    #[test]
    fn start_names_the_empty_board_of_the_rule_set() {
        for spec in [
            "tigadi",
            "navakankari",
            "morris",
            "morabaraba",
            "lasker",
            "lasker,pieces=4",
        ] {
            let rules = RuleSet::parse(spec).unwrap();
            let n = rules.pieces;
            let written = format!(".../.../.../....../.../.../... B {n} {n}");
            let explicit = parse_position(&rules, &written).unwrap();
            for text in ["start", " start\n"] {
                assert_eq!(
                    parse_position(&rules, text).unwrap(),
                    explicit,
                    "{spec}: {text:?}"
                );
                assert_eq!(parse_reached_position(&rules, text).unwrap(), explicit);
            }
            for text in ["Start", "starts", "start B", "start 9 9"] {
                assert!(parse_position(&rules, text).is_err(), "{spec}: {text:?}");
            }
        }
    }

    #[test]
    fn moves_round_trip() {
        for t in ["d5", "a1-a4", "d5xg7", "a1-a4xg7", "pass"] {
            assert_eq!(parse_move(t).unwrap().to_string(), t);
        }
        for t in [
            "",
            "x",
            "d5x",
            "a1-",
            "-a4",
            "h1",
            "a1-a4xg7xg1",
            "D5",
            "a1a4",
            "é",
        ] {
            assert!(parse_move(t).is_err(), "{t}");
        }
    }

    #[test]
    fn records_skip_move_numbers() {
        let r = parse_record("1. d5 g7 2. a1xg7\n3... pass").unwrap();
        assert_eq!(format_record(&r), "d5 g7 a1xg7 pass");
        let e = parse_record("1. d5 g7 2. zz").unwrap_err();
        assert!(
            matches!(e, NotationError::BadRecord { number: 3, .. }),
            "{e}"
        );
    }
}
