//! The fallback player: a depth-limited alpha-beta search with a simple evaluation,
//! for positions the tables do not cover (the placing phase, missing subspaces) and
//! for the weaker levels, which play by it alone.
//!
//! It does not read the tables at its leaves: measured, level 3 with table values
//! at the leaves of its placing-phase search beat level 1 in 82 of 100 games from
//! the empty board, without them in 94 (exact values say "lost" where a weak
//! opponent would still go wrong, and the search then stops fighting).
//!
//! Scores are from the point of view of the player to move, in hundredths of a
//! goti: a won game is worth [`WIN`] less the turns it takes, so quicker wins score
//! higher. The evaluation counts gotis (board and hand), lines two of whose points
//! hold a player's gotis and whose third is empty (tigadis one turn from closing),
//! and in the moving phase the slides each side has. Repetition and the 100-turn
//! rule are not seen. The search is single-threaded and visits moves in a fixed
//! order, so its result depends only on the position and the depth.

use tigadi_rules::{GameResult, Move, Phase, Position, RuleSet, Side};

/// The score of a won game (less the turns to the win).
pub const WIN: i32 = 1_000_000;
/// One goti more than the opponent (board plus hand).
const GOTI: i32 = 100;
/// One line more than the opponent two of whose points hold own gotis and whose
/// third is empty.
const OPEN_LINE: i32 = 10;
/// One slide more than the opponent (moving phase).
const SLIDE: i32 = 1;

/// The result of a search from one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Every move with the best score, in move-generation order.
    pub best: Vec<Move>,
    /// That score, for the player to move (see the module docs).
    pub score: i32,
    /// Positions visited.
    pub nodes: u64,
}

/// Searches `position` `depth` turns deep (at least 1) under `rules`. `None` when
/// the position has no legal move (the game is over).
pub fn search(rules: &RuleSet, position: &Position, depth: u32) -> Option<Searched> {
    let mut s = Search { rules, nodes: 0 };
    let moves = s.ordered_moves(position);
    if moves.is_empty() {
        return None;
    }
    let mut best: Vec<Move> = Vec::new();
    let mut best_score = -WIN - 1;
    for mv in moves {
        // A window just below the best so far: scores above it are exact, so ties
        // with the best are recognised (the root's beta is infinite).
        let alpha = best_score.saturating_sub(1);
        let score = -s.negamax(&position.apply(mv), depth.max(1) - 1, -(WIN + 1), -alpha, 1);
        if score > best_score {
            best_score = score;
            best.clear();
            best.push(mv);
        } else if score == best_score {
            best.push(mv);
        }
    }
    Some(Searched {
        best,
        score: best_score,
        nodes: s.nodes,
    })
}

struct Search<'a> {
    rules: &'a RuleSet,
    nodes: u64,
}

impl Search<'_> {
    /// Legal moves, captures first (better cut-offs), otherwise in generation order.
    fn ordered_moves(&self, p: &Position) -> Vec<Move> {
        let mut moves = p.legal_moves(self.rules);
        moves.sort_by_key(|m| m.capture().is_none());
        moves
    }

    fn negamax(&mut self, p: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        match p.ended(self.rules) {
            Some(GameResult::Win { winner, .. }) if winner == p.side => return WIN - ply,
            Some(GameResult::Win { .. }) => return -(WIN - ply),
            Some(_) => return 0,
            None => {}
        }
        if depth == 0 {
            return evaluate(self.rules, p);
        }
        let mut best = -(WIN + 1);
        for mv in self.ordered_moves(p) {
            let score = -self.negamax(&p.apply(mv), depth - 1, -beta, -alpha, ply + 1);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The static evaluation of `p` for the player to move (see the module docs).
pub fn evaluate(rules: &RuleSet, p: &Position) -> i32 {
    let me = p.side;
    let you = me.other();
    let material = p.total(me) as i32 - p.total(you) as i32;
    let open = open_lines(rules, p, me) - open_lines(rules, p, you);
    let slides = if p.phase() == Phase::Moving && p.hand(you) == 0 {
        let board = p.to_board();
        count_slides(rules, board) - count_slides(rules, board.flipped())
    } else {
        0
    };
    material * GOTI + open * OPEN_LINE + slides * SLIDE
}

/// Lines with two of `side`'s gotis and an empty third point.
fn open_lines(rules: &RuleSet, p: &Position, side: Side) -> i32 {
    let own = p.gotis(side);
    let empty = p.empty();
    rules
        .geometry()
        .lines
        .iter()
        .filter(|&&l| (l & own).count_ones() == 2 && (l & empty).count_ones() == 1)
        .count() as i32
}

fn count_slides(rules: &RuleSet, board: tigadi_rules::Board) -> i32 {
    let mut n = 0;
    board.for_each_slide(rules, |_, _| n += 1);
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use tigadi_rules::parse_position;

    #[test]
    fn takes_a_capture_that_wins_at_once() {
        // Bone closes a7 d7 g7 with d6-d7 and takes a Seed goti: Seed is left with 2.
        let p = parse_position(
            &tigadi_rules::RuleSet::TIGADI,
            "B.B/.B./.../S....S/.../.../..S B",
        )
        .unwrap();
        let r = search(&RuleSet::TIGADI, &p, 1).unwrap();
        assert!(r.best.iter().all(|m| m.capture().is_some()), "{:?}", r.best);
        assert_eq!(r.score, WIN - 1);
    }

    #[test]
    fn deeper_search_sees_the_threat() {
        // The same position with Seed to move: no Seed goti can reach d7, so every
        // move loses to d6-d7; one turn deep that is not seen, two turns deep it is.
        let p = parse_position(
            &tigadi_rules::RuleSet::TIGADI,
            "B.B/.B./.../S....S/.../.../..S S",
        )
        .unwrap();
        let shallow = search(&RuleSet::TIGADI, &p, 1).unwrap();
        let deep = search(&RuleSet::TIGADI, &p, 2).unwrap();
        assert!(shallow.score > -WIN / 2);
        assert!(deep.score < -WIN / 2, "{deep:?}");
    }
}
