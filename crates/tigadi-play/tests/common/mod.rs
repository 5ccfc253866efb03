//! What the play tests share: the check of a principal variation against direct
//! probes of the tables (one value per position, never the ranked answer the
//! library follows).

#[path = "../../../tigadi-rules/tests/support/scratch.rs"]
pub mod scratch;

use tigadi_play::{line, Line, LineEnd};
use tigadi_rules::{GameResult, Position};
use tigadi_tablebase::{field, Tablebase};
use tigadi_values::Value;

/// `line` from `start` (either phase), checked: its value is the start's direct
/// probe; a draw has no steps and ends as a certain draw; a win or loss makes the
/// first capture at exactly the start's DTC, every turn before it keeps the value
/// one turn closer (the position before a turn has the step's value, the one after
/// a quiet turn the same value one turn closer for the other player), and the
/// line ends with the game won by the side the start's value names. Returns the
/// line.
pub fn checked_line(tb: &Tablebase, start: &Position, max_turns: usize) -> Line {
    let direct = |p: &Position| tb.get_position::<field::Dtc>(p).unwrap();
    let value = direct(start);
    let l = line(tb, start, max_turns).unwrap();
    assert_eq!(l.value, value, "{start}");
    let Some(dtc) = value.dtc() else {
        assert!(l.steps.is_empty(), "{start}");
        assert_eq!(l.end, LineEnd::DrawCertain, "{start}");
        return l;
    };
    let first_capture = l.steps.iter().position(|s| s.mv.capture().is_some());
    assert_eq!(first_capture, Some(dtc as usize - 1), "{start}: {l:?}");
    let mut before = *start;
    for s in &l.steps[..dtc as usize] {
        assert_eq!(direct(&before), s.value, "{start}: at {before}");
        if s.mv.capture().is_none() {
            let d = s.value.dtc().unwrap();
            let expected = match s.value {
                Value::Win(_) => Value::Loss(d - 1),
                _ => Value::Win(d - 1),
            };
            assert_eq!(direct(&s.position), expected, "{start}: at {}", s.position);
        }
        before = s.position;
    }
    // The winner keeps the win through every later capture to the end of the game.
    let winner = match value {
        Value::Win(_) => start.side,
        _ => start.side.other(),
    };
    match l.end {
        LineEnd::GameOver {
            result: GameResult::Win { winner: w, .. },
        } => assert_eq!(w, winner, "{start}"),
        ref e => panic!("{start}: ended by {e:?}"),
    }
    l
}
