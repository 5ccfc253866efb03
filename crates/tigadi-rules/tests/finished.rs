//! Positions right after the capture that ends a game: refused by
//! `Position::validate` (the game is over), accepted by `validate_reached`,
//! `parse_reached_position` and `Game::from_reached_position`, which answer them as
//! won by the player who captured; every other position with too few gotis is still
//! refused.

use tigadi_rules::{
    parse_position, parse_reached_position, Game, GameResult, InvalidPosition, Move, NotationError,
    Position, Rng, RuleSet, Side, WinReason,
};

/// Random games under `rules` from the empty board (a fixed seed), each played until
/// it ends or reaches `max_turns`: every position reached, with the game's result
/// there.
fn playouts(rules: RuleSet, games: usize, max_turns: usize) -> Vec<(Position, GameResult)> {
    let mut rng = Rng::seeded(0x2545_F491_4F6C_DD1D);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(rules);
        for _ in 0..max_turns {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures first, so that games end by material.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.capture().is_some())
                .collect();
            let pool = if captures.is_empty() {
                &moves
            } else {
                &captures
            };
            let m = pool[rng.below(pool.len())];
            let result = game.play(m).unwrap();
            out.push((*game.position(), result));
            if result.is_over() {
                break;
            }
        }
    }
    out
}

#[test]
fn the_position_after_a_winning_capture_is_a_finished_game() {
    for rules in [
        RuleSet::TIGADI,
        RuleSet::parse("tigadi,pieces=4").unwrap(),
        RuleSet::parse("morris,pieces=3").unwrap(),
        RuleSet::NAVAKANKARI,
    ] {
        let reached = playouts(rules, 300, 400);
        let mut finished = 0;
        for (p, result) in &reached {
            // Every position a game reaches passes the check for reached positions.
            assert_eq!(p.validate_reached(&rules), Ok(()), "{p} under {rules}");
            let text = p.to_string();
            assert_eq!(parse_reached_position(&rules, &text).unwrap(), *p);
            let g = Game::from_reached_position(rules, *p).unwrap();
            if let GameResult::Win {
                winner,
                reason: WinReason::Material,
            } = result
            {
                finished += 1;
                // `validate` still refuses it: the game is over.
                assert!(
                    matches!(
                        p.validate(&rules),
                        Err(InvalidPosition::TooFewGotis { side, total: 2 }) if side == p.side
                    ),
                    "{p}"
                );
                assert!(parse_position(&rules, &text).is_err());
                assert!(Game::from_position(rules, *p).is_err());
                assert_eq!(g.result(), *result, "{p}");
                assert_eq!(*winner, p.side.other());
                assert!(g.legal_moves().is_empty());
            } else {
                assert_eq!(p.validate(&rules), Ok(()), "{p}");
            }
        }
        assert!(
            finished > 20,
            "{rules}: only {finished} games ended by material"
        );
    }
}

#[test]
fn other_positions_with_too_few_gotis_are_still_refused() {
    let rules = RuleSet::TIGADI;
    let refused = |text: &str| {
        let e = parse_reached_position(&rules, text).unwrap_err();
        assert!(
            matches!(
                e,
                NotationError::Impossible(InvalidPosition::TooFewGotis { .. })
            ),
            "{text}: {e}"
        );
        let p = parse_position_unchecked(text);
        assert!(p.validate_reached(&rules).is_err(), "{text}");
        assert!(Game::from_reached_position(rules, p).is_err(), "{text}");
    };
    // Bone a7 d7 g7 (a tigadi) and d1; Seed a1 g1 after the capture, Seed to move:
    // accepted.
    let after = "BBB/.../.../....../.../.../SBS S";
    let p = parse_reached_position(&rules, after).unwrap();
    assert_eq!(
        Game::from_reached_position(rules, p).unwrap().result(),
        GameResult::Win {
            winner: Side::Bone,
            reason: WinReason::Material
        }
    );
    // The same board with Bone to move: the loser is always the player to move.
    refused("BBB/.../.../....../.../.../SBS B");
    // A nonzero 100-turn counter: the last turn was no capture.
    refused("BBB/.../.../....../.../.../SBS S 0 0 5");
    // The winner has no tigadi: no capture made this position.
    refused("BB./.../.../.....B/.../.../SBS S");
    // One goti left: two below three, no single capture did it.
    refused("BBB/.../.../....../.../.../S.B S");
    // Both sides below three.
    refused(
        "BBB/.../.../....../.../.../SS. S 0 0 0"
            .replace("BBB", "B.B")
            .as_str(),
    );
}

/// A position string parsed without the reachability check: the rules crate's
/// parser with a rule set that lets the board through, then the fields copied.
fn parse_position_unchecked(text: &str) -> Position {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let board = format!("{} {}", fields[0], fields[1]);
    // Parse the board as a position with enough gotis by checking fields by hand.
    let ranks = board.split(' ').next().unwrap();
    let mut bone = 0u32;
    let mut seed = 0u32;
    for (rank, names) in ranks.split('/').zip([
        ["a7", "d7", "g7"].as_slice(),
        &["b6", "d6", "f6"],
        &["c5", "d5", "e5"],
        &["a4", "b4", "c4", "e4", "f4", "g4"],
        &["c3", "d3", "e3"],
        &["b2", "d2", "f2"],
        &["a1", "d1", "g1"],
    ]) {
        for (c, name) in rank.chars().zip(names) {
            let bit = tigadi_rules::Point::parse(name).unwrap().bit();
            match c {
                'B' => bone |= bit,
                'S' => seed |= bit,
                _ => {}
            }
        }
    }
    Position {
        bone,
        seed,
        side: if fields[1] == "B" {
            Side::Bone
        } else {
            Side::Seed
        },
        bone_hand: 0,
        seed_hand: 0,
        quiet_turns: fields.get(4).map_or(0, |q| q.parse().unwrap()),
    }
}
