//! One test (or more) per clause of docs/RULES.md §3–§6, on small hand-built positions.

use tigadi_rules::{
    check_move, parse_move, parse_position, DrawReason, Game, GameResult, IllegalMove, Move, Phase,
    Point, Position, RuleSet, Side, WinReason,
};

/// A set of points from names separated by spaces.
fn bits(names: &str) -> u32 {
    names
        .split_whitespace()
        .map(|n| Point::parse(n).expect(n).bit())
        .fold(0, |a, b| a | b)
}

/// A position from the point lists of each colour.
fn pos(bone: &str, seed: &str, side: Side, hands: (u8, u8), quiet_turns: u16) -> Position {
    let p = Position {
        bone: bits(bone),
        seed: bits(seed),
        side,
        bone_hand: hands.0,
        seed_hand: hands.1,
        quiet_turns,
    };
    p.validate(&tigadi_rules::RuleSet::TIGADI)
        .unwrap_or_else(|e| panic!("test position invalid: {e}"));
    p
}

fn mv(text: &str) -> Move {
    parse_move(text).unwrap()
}

fn moves(rules: RuleSet, p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves(&rules)
        .iter()
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn refusal(rules: RuleSet, p: &Position, m: &str) -> String {
    check_move(&rules, p, mv(m)).expect_err(m).to_string()
}

// §3 Placing: any empty point, and a tigadi while placing captures at once.
#[test]
fn placing_targets_every_empty_point() {
    let p = pos("a1 d1", "a7", Side::Seed, (7, 8), 0);
    assert_eq!(p.phase(), Phase::Placing);
    assert_eq!(p.legal_moves(&RuleSet::TIGADI).len(), 21);
    assert_eq!(refusal(RuleSet::TIGADI, &p, "d1"), "d1 is occupied");
    assert!(refusal(RuleSet::TIGADI, &p, "a7-a4").contains("must place"));
    assert!(refusal(RuleSet::TIGADI, &p, "pass").contains("must place"));
}

#[test]
fn tigadi_while_placing_captures_at_once() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d1", "a7 d7", Side::Bone, (7, 7), 0);
    let ms = moves(rules, &p);
    assert!(ms.contains(&"g1xa7".to_string()) && ms.contains(&"g1xd7".to_string()));
    assert!(!ms.contains(&"g1".to_string()));
    assert_eq!(
        refusal(rules, &p, "g1"),
        "g1 closes a tigadi and must capture"
    );
    assert_eq!(
        refusal(rules, &p, "g4xa7"),
        "g4 does not close a tigadi, so it cannot capture"
    );
    assert_eq!(
        refusal(rules, &p, "g1xd1"),
        "d1 holds no Seed goti to capture"
    );
    let mut game = Game::from_position(rules, p).unwrap();
    assert_eq!(game.play(mv("g1xa7")), Ok(GameResult::InProgress));
    assert_eq!(game.position().seed, bits("d7"));
    assert_eq!(
        game.position().total(Side::Seed),
        8,
        "captured gotis do not return to hand"
    );
}

#[test]
fn tigadi_while_placing_takes_nothing_when_the_enemy_has_no_goti_on_the_board() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d1 b6 d6", "", Side::Bone, (5, 5), 0);
    assert!(moves(rules, &p).contains(&"g1".to_string()));
    assert!(check_move(&rules, &p, mv("g1")).is_ok());
    assert_eq!(
        refusal(rules, &p, "g1xa7"),
        "a7 holds no Seed goti to capture"
    );
}

// §1/§8: the corner diagonals are lines of the tigadi board only.
#[test]
fn diagonal_tigadi_counts_in_tigadi_not_in_navakankari() {
    let p = pos("a1 b2", "d7 g7", Side::Bone, (7, 7), 0);
    assert!(moves(RuleSet::TIGADI, &p).contains(&"c3xd7".to_string()));
    assert!(!moves(RuleSet::TIGADI, &p).contains(&"c3".to_string()));
    assert!(moves(RuleSet::NAVAKANKARI, &p).contains(&"c3".to_string()));
    assert!(!moves(RuleSet::NAVAKANKARI, &p).contains(&"c3xd7".to_string()));
    // And the diagonal adjacency: a1-b2 is a slide on the tigadi board only.
    let q = pos("a1 d7 g7", "g1 g4 f4", Side::Bone, (0, 0), 0);
    assert!(moves(RuleSet::TIGADI, &q).contains(&"a1-b2".to_string()));
    assert!(!moves(RuleSet::NAVAKANKARI, &q).contains(&"a1-b2".to_string()));
    assert_eq!(
        refusal(RuleSet::NAVAKANKARI, &q, "a1-b2"),
        "b2 is not next to a1, so a1-b2 is no slide"
    );
}

// §4: slides go to adjacent empty points only.
#[test]
fn slides_go_to_adjacent_empty_points() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d7 g7", "g1 g4 f4", Side::Bone, (0, 0), 0);
    assert_eq!(
        moves(rules, &p),
        ["a1-a4", "a1-b2", "a1-d1", "d7-a7", "d7-d6", "g7-f6"].map(String::from)
    );
    assert_eq!(
        refusal(rules, &p, "a1-d5"),
        "d5 is not next to a1, so a1-d5 is no slide"
    );
    assert_eq!(refusal(rules, &p, "g7-g4"), "g4 is occupied");
    assert_eq!(refusal(rules, &p, "g1-d1"), "g1 holds no Bone goti");
    assert!(refusal(rules, &p, "d5").contains("no gotis in hand"));
}

// §5: the running tigadi.
#[test]
fn moving_out_of_a_tigadi_and_back_captures_again() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d1 g1 b6", "a7 d7 e5 c4", Side::Bone, (0, 0), 0);
    let mut game = Game::from_position(rules, p).unwrap();
    game.play(mv("g1-g4")).unwrap();
    game.play(mv("d7-d6")).unwrap();
    assert_eq!(
        check_move(&rules, game.position(), mv("g4-g1"))
            .unwrap_err()
            .to_string(),
        "g4-g1 closes a tigadi and must capture"
    );
    game.play(mv("g4-g1xa7")).unwrap();
    assert_eq!(game.position().seed, bits("d6 e5 c4"));
    assert_eq!(game.position().quiet_turns, 0);
}

#[test]
fn an_untouched_complete_line_does_not_capture_again() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d1 g1 b6", "a7 d7 e5 c4", Side::Bone, (0, 0), 0);
    assert!(moves(rules, &p).contains(&"b6-d6".to_string()));
    assert_eq!(
        refusal(rules, &p, "b6-d6xa7"),
        "b6-d6 does not close a tigadi, so it cannot capture"
    );
}

#[test]
fn two_tigadis_in_one_move_capture_one_goti() {
    let rules = RuleSet::TIGADI;
    // a1 closes a1-a4-a7 and a1-d1-g1 at once.
    let p = pos("a4 a7 d1 g1", "d5 e5 f6", Side::Bone, (5, 5), 0);
    let from_a1: Vec<Move> = p
        .legal_moves(&rules)
        .into_iter()
        .filter(|m| m.to() == Point::parse("a1"))
        .collect();
    assert_eq!(from_a1.len(), 3, "one move per capture choice: {from_a1:?}");
    for m in from_a1 {
        let q = p.apply(m);
        assert_eq!(q.seed.count_ones(), 2, "exactly one goti taken by {m}");
    }
}

#[test]
fn protected_gotis_cannot_be_taken_unless_all_are_protected() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d1 b6", "a7 d7 g7 e4", Side::Bone, (1, 1), 0);
    let caps: Vec<String> = moves(rules, &p)
        .into_iter()
        .filter(|m| m.starts_with("g1"))
        .collect();
    assert_eq!(caps, ["g1xe4"]);
    assert_eq!(
        refusal(rules, &p, "g1xg7"),
        "g7 is protected (it stands in a tigadi and other gotis do not)"
    );
    // All of Seed's gotis stand in tigadis: any may be taken.
    let q = pos("a1 d1 b6", "a7 d7 g7 c5 d5 e5", Side::Bone, (1, 1), 0);
    let caps: Vec<String> = moves(rules, &q)
        .into_iter()
        .filter(|m| m.starts_with("g1"))
        .collect();
    assert_eq!(caps.len(), 6, "{caps:?}");
    assert!(check_move(&rules, &q, mv("g1xg7")).is_ok());
}

// §6: winning.
#[test]
fn below_three_on_board_with_gotis_in_hand_is_not_a_loss() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d1 b6 d6", "c5 e5", Side::Bone, (3, 3), 0);
    let mut game = Game::from_position(rules, p).unwrap();
    assert_eq!(game.result(), GameResult::InProgress);
    game.play(mv("g1xc5")).unwrap();
    assert_eq!(game.position().seed.count_ones(), 1);
    assert_eq!(game.result(), GameResult::InProgress);
    assert!(!game.legal_moves().is_empty());
}

#[test]
fn falling_to_two_in_all_loses_at_once() {
    let rules = RuleSet::TIGADI;
    // While placing: Seed has 2 on board and 1 in hand.
    let p = pos("a1 d1 b6 d6", "c5 e5", Side::Bone, (1, 1), 0);
    let mut game = Game::from_position(rules, p).unwrap();
    let r = game.play(mv("g1xe5")).unwrap();
    assert_eq!(
        r,
        GameResult::Win {
            winner: Side::Bone,
            reason: WinReason::Material
        }
    );
    // Moving phase.
    let p = pos("a1 d1 b6 d6 g4", "c5 e5 f2", Side::Bone, (0, 0), 0);
    let mut game = Game::from_position(rules, p).unwrap();
    let r = game.play(mv("g4-g1xc5")).unwrap();
    assert_eq!(
        r,
        GameResult::Win {
            winner: Side::Bone,
            reason: WinReason::Material
        }
    );
    assert_eq!(r.to_string(), "Bone wins: Seed has fewer than 3 gotis left");
    assert!(game.legal_moves().is_empty());
    assert!(matches!(
        game.play(mv("f2-e3")),
        Err(IllegalMove::GameOver { .. })
    ));
}

/// Seed to move, every Seed goti hemmed in (on both boards).
fn blocked_seed() -> Position {
    pos(
        "d1 a4 d7 g4 b2 b6 f2 f6",
        "a1 a7 g1 g7",
        Side::Seed,
        (0, 0),
        0,
    )
}

#[test]
fn blocked_player_passes_in_tigadi() {
    let rules = RuleSet::TIGADI;
    let p = blocked_seed();
    assert!(p.is_blocked(&rules));
    assert_eq!(p.legal_moves(&rules), [Move::Pass]);
    let mut game = Game::from_position(rules, p).unwrap();
    assert_eq!(game.play(Move::Pass), Ok(GameResult::InProgress));
    assert_eq!(game.position().side, Side::Bone);
    assert_eq!(game.position().quiet_turns, 1, "a pass is a turn");
    // Bone is not blocked and may not pass.
    assert!(
        refusal(rules, game.position(), "pass").starts_with("pass is only allowed when blocked")
    );
}

#[test]
fn blocked_player_loses_in_navakankari_morris_and_morabaraba() {
    for rules in [RuleSet::NAVAKANKARI, RuleSet::MORRIS, RuleSet::MORABARABA] {
        let p = blocked_seed();
        assert!(p.legal_moves(&rules).is_empty(), "{rules}");
        assert_eq!(p.decided(&rules), Some((Side::Bone, WinReason::Blocked)));
        let game = Game::from_position(rules, p).unwrap();
        assert_eq!(
            game.result(),
            GameResult::Win {
                winner: Side::Bone,
                reason: WinReason::Blocked
            }
        );
        assert!(matches!(
            check_move(&rules, &p, Move::Pass),
            Err(IllegalMove::GameOver { .. })
        ));
    }
    // Blocking by a move ends the game on that move where blocked players lose.
    let p = pos(
        "d1 a4 d7 b2 b6 f2 f6 f4",
        "a1 a7 g1 g7",
        Side::Bone,
        (0, 0),
        0,
    );
    for (rules, expected) in [
        (
            RuleSet::NAVAKANKARI,
            GameResult::Win {
                winner: Side::Bone,
                reason: WinReason::Blocked,
            },
        ),
        (RuleSet::TIGADI, GameResult::InProgress),
    ] {
        let mut game = Game::from_position(rules, p).unwrap();
        assert_eq!(game.play(mv("f4-g4")), Ok(expected), "{rules}");
    }
    assert_eq!(
        GameResult::Win {
            winner: Side::Bone,
            reason: WinReason::Blocked
        }
        .to_string(),
        "Bone wins: Seed is blocked and cannot move"
    );
}

#[test]
fn flying_in_morris_with_exactly_three() {
    let p = pos("a1 d7 g7 b4", "g1 g4 f4", Side::Seed, (0, 0), 0);
    let empties = 24 - 7;
    // Seed has three and none in hand: each may fly to any empty point.
    let morris = p.legal_moves(&RuleSet::MORRIS);
    assert!(morris.len() >= 3 * empties, "{}", morris.len());
    assert!(check_move(&RuleSet::MORRIS, &p, mv("g1-c4")).is_ok());
    assert!(check_move(&RuleSet::NAVAKANKARI, &p, mv("g1-c4")).is_err());
    // Bone has four: no flying for it.
    let q = Position {
        side: Side::Bone,
        ..p
    };
    assert!(check_move(&RuleSet::MORRIS, &q, mv("a1-c4")).is_err());
    // Three on board with gotis in hand is placing, not flying.
    let r = pos("a1 d7 g7", "g1 g4 f4", Side::Seed, (1, 2), 0);
    assert!(r
        .legal_moves(&RuleSet::MORRIS)
        .iter()
        .all(|m| matches!(m, Move::Place { .. })));
}

/// The game of `bone` and `seed` (point names, in the order placed), Bone and Seed
/// placing in turn from the empty board.
fn placed(rules: RuleSet, bone: &str, seed: &str) -> Game {
    let mut game = Game::new(rules);
    for (b, s) in bone.split_whitespace().zip(seed.split_whitespace()) {
        for p in [b, s] {
            game.play(mv(p))
                .unwrap_or_else(|e| panic!("{rules} {p}: {e}"));
        }
    }
    game
}

// §8: with 12 a side and no capture while placing, the last placement fills the
// board; nobody can move and the game is a draw, whatever the blocked switch says.
#[test]
fn a_full_board_after_the_last_placement_is_a_draw() {
    // No line of one colour anywhere, so no placement captured.
    let bone = "d7 g7 d6 c5 e5 a4 b4 e4 c3 d2 f2 g1";
    let seed = "a7 b6 f6 d5 c4 f4 g4 d3 e3 b2 a1 d1";
    let draw = GameResult::Draw {
        reason: DrawReason::FullBoard,
    };
    for rules in [
        RuleSet::MORABARABA,
        RuleSet::parse("tigadi,pieces=12").unwrap(),
        RuleSet::parse("navakankari,pieces=12").unwrap(),
        RuleSet::parse("morris,pieces=12").unwrap(),
    ] {
        let game = placed(rules, bone, seed);
        let p = *game.position();
        assert!(p.is_full(), "{rules}");
        assert_eq!((p.side, p.phase()), (Side::Bone, Phase::Moving), "{rules}");
        assert_eq!(game.result(), draw, "{rules}");
        // Not a blocked player's loss, and no pass either.
        assert_eq!(p.decided(&rules), None, "{rules}");
        assert_eq!(p.ended(&rules), Some(draw), "{rules}");
        assert!(p.legal_moves(&rules).is_empty(), "{rules}");
        assert_eq!(
            check_move(&rules, &p, Move::Pass),
            Err(IllegalMove::GameOver { result: draw }),
            "{rules}"
        );
        // A position string of the full board reads the same.
        let q = parse_position(&rules, &p.to_string()).unwrap();
        assert_eq!(Game::from_position(rules, q).unwrap().result(), draw);
    }
    assert_eq!(
        draw.to_string(),
        "draw: the board is full and nobody can move"
    );
    // A board with an empty point is no draw: a blocked player there still loses
    // where blocked players lose (the ordinary clause).
    let p = blocked_seed();
    assert!(!p.is_full());
    assert_eq!(
        p.ended(&RuleSet::MORABARABA).map(|r| r.is_over()),
        Some(true)
    );
    assert_ne!(p.ended(&RuleSet::MORABARABA), Some(draw));
}

// §5 with §8: a last placement that closes a tigadi captures, so the board is not
// full and the moving phase starts.
#[test]
fn a_last_placement_that_closes_a_tigadi_captures_instead_of_filling_the_board() {
    // Seed's last placement, b2, closes b2 d2 f2 (the only line of one colour).
    let bone = "d7 b6 f6 c5 d5 a4 c4 g4 d3 e3 a1 g1";
    let seed = "a7 g7 d6 e5 b4 e4 f4 c3 d2 f2 d1";
    let rules = RuleSet::MORABARABA;
    let mut game = placed(rules, &bone[..bone.len() - 3], seed);
    assert_eq!(game.play(mv("g1")), Ok(GameResult::InProgress));
    assert!(refusal(rules, game.position(), "b2").contains("must capture"));
    // Taking d7 leaves Bone nothing next to the one empty point: blocked, it loses.
    let mut blocked = game.clone();
    assert_eq!(
        blocked.play(mv("b2xd7")),
        Ok(GameResult::Win {
            winner: Side::Seed,
            reason: WinReason::Blocked
        })
    );
    // Taking b6 leaves Bone one slide, c5-b6.
    assert_eq!(game.play(mv("b2xb6")), Ok(GameResult::InProgress));
    let p = *game.position();
    assert_eq!((p.bone.count_ones(), p.seed.count_ones()), (11, 12));
    assert!(!p.is_full());
    assert_eq!((p.side, p.phase()), (Side::Bone, Phase::Moving));
    assert_eq!(moves(rules, &p), ["c5-b6"]);
}

// §6: draws.
#[test]
fn third_repetition_draws() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d7 g7", "c5 e3 f4", Side::Bone, (0, 0), 0);
    let mut game = Game::from_position(rules, p).unwrap();
    let shuffle = ["a1-a4", "c5-c4", "a4-a1", "c4-c5"];
    for m in shuffle {
        assert_eq!(game.play(mv(m)), Ok(GameResult::InProgress));
    }
    assert_eq!(game.occurrences(), 2);
    for m in &shuffle[..3] {
        assert_eq!(game.play(mv(m)), Ok(GameResult::InProgress));
    }
    let r = game.play(mv("c4-c5")).unwrap();
    assert_eq!(
        r,
        GameResult::Draw {
            reason: DrawReason::Repetition
        }
    );
    assert_eq!(game.occurrences(), 3);
}

#[test]
fn repetition_counting_starts_with_the_moving_phase() {
    let rules = RuleSet::TIGADI;
    // Placing positions never count; the first moving-phase position is occurrence 1.
    let p = pos("a1 d7 g7", "c5 e3", Side::Seed, (0, 1), 0);
    let mut game = Game::from_position(rules, p).unwrap();
    assert_eq!(game.occurrences(), 0);
    game.play(mv("f4")).unwrap();
    assert_eq!(game.occurrences(), 1);
    assert_eq!(
        game.position().quiet_turns,
        0,
        "the 100-turn counter starts at 0"
    );
}

#[test]
fn hundred_quiet_turns_draw_and_a_capture_resets_the_counter() {
    let rules = RuleSet::TIGADI;
    let p = pos("a1 d7 g7", "c5 e3 f4", Side::Bone, (0, 0), 95);
    let mut game = Game::from_position(rules, p).unwrap();
    for m in ["a1-a4", "c5-c4", "a4-a1", "c4-c5"] {
        assert_eq!(game.play(mv(m)), Ok(GameResult::InProgress));
    }
    assert_eq!(game.position().quiet_turns, 99);
    let r = game.play(mv("a1-a4")).unwrap();
    assert_eq!(
        r,
        GameResult::Draw {
            reason: DrawReason::QuietTurns { limit: 100 }
        }
    );
    assert_eq!(r.to_string(), "draw: 100 turns without a capture");
    // A capture on the 100th turn resets the counter instead.
    let p = pos("a1 d1 g4 b6", "a7 d7 e5 c4", Side::Bone, (0, 0), 99);
    let mut game = Game::from_position(rules, p).unwrap();
    assert_eq!(game.play(mv("g4-g1xa7")), Ok(GameResult::InProgress));
    assert_eq!(game.position().quiet_turns, 0);
}

#[test]
fn a_pass_counts_as_a_turn() {
    let p = Position {
        quiet_turns: 99,
        ..blocked_seed()
    };
    let mut game = Game::from_position(RuleSet::TIGADI, p).unwrap();
    let r = game.play(Move::Pass).unwrap();
    assert_eq!(
        r,
        GameResult::Draw {
            reason: DrawReason::QuietTurns { limit: 100 }
        }
    );
}

#[test]
fn a_full_game_record_replays() {
    // Bone builds d7-d6-d5 while placing and captures.
    let rules = RuleSet::TIGADI;
    let mut game = Game::new(rules);
    for m in tigadi_rules::parse_record("1. d5 g7 2. d6 g4 3. d7xg4").unwrap() {
        game.play(m).unwrap();
    }
    assert_eq!(
        game.position().to_string(),
        ".BS/.B./.B./....../.../.../... S 6 7"
    );
}

#[test]
fn position_strings_are_checked() {
    let bad = |s: &str| {
        parse_position(&tigadi_rules::RuleSet::TIGADI, s)
            .unwrap_err()
            .to_string()
    };
    assert!(bad("BBBBBBBBB/S../.../...S../.../.../SB. S 1 2").contains("rank 7"));
    assert!(bad("BB./S../.../...S../.../.../SB. X").contains("side to move"));
    assert!(bad("BB./S../.../...S../.../.../SB. S 3").contains("one hand"));
    assert!(bad("BBB/BBB/BBB/B...../.../.../SSS B 1 1").contains("more than the 9"));
    assert!(bad("BBB/SSS/.../....../.../.../... B 2 3").contains("do not fit the order of placing"));
    assert!(bad("BBB/SSS/.../....../.../.../... S 3 3").contains("do not fit the order of placing"));
    assert!(
        bad("BB./S../.../....../.../.../SB. S").contains("fewer than 3")
            || bad("BB./S../.../....../.../.../SB. S").contains("only 2")
    );
    assert!(bad("BB./S../.../...S../.../.../SB. S 0 0 101").contains("QUIET_TURNS"));
    assert!(bad("BBB/SSS/.../....../.../.../... B 3 3 5").contains("while placing"));
    assert!(bad("BB./S../.../...S../.../.../SB. S 10 10").contains("BONE_HAND"));
    assert!(bad("").contains("empty"));
    assert!(parse_position(
        &tigadi_rules::RuleSet::TIGADI,
        "BBB/SSS/.../....../.../.../... S 2 3"
    )
    .is_ok());
    assert!(parse_position(
        &tigadi_rules::RuleSet::TIGADI,
        "BBB/SSS/.../....../.../.../... B 0 0 100"
    )
    .is_ok());
}

/// §8 `quiet=N`: the referee draws after N quiet turns, and refuses a counter above N.
#[test]
fn turn_limit_switch_draws_after_n_quiet_turns() {
    let rules = RuleSet::parse("tigadi,quiet=10").unwrap();
    let p = pos("a1 d7 g7", "c5 e3 f4", Side::Bone, (0, 0), 6);
    let mut game = Game::from_position(rules, p).unwrap();
    for m in ["a1-a4", "c5-c4", "a4-a1"] {
        assert_eq!(game.play(mv(m)), Ok(GameResult::InProgress));
    }
    let r = game.play(mv("c4-c5")).unwrap();
    assert_eq!(
        r,
        GameResult::Draw {
            reason: DrawReason::QuietTurns { limit: 10 }
        }
    );
    assert_eq!(r.to_string(), "draw: 10 turns without a capture");
    let late = pos("a1 d7 g7", "c5 e3 f4", Side::Bone, (0, 0), 11);
    let e = Game::from_position(rules, late).unwrap_err();
    assert!(e.to_string().contains("turn limit 10"), "{e}");
}

/// docs/RULES.md §9: while placing, a completed tigadi of a player whose opponent
/// has lost no goti is refused (the first tigadi a player closes captures); the
/// same board with one enemy goti gone, or in the moving phase, is accepted.
#[test]
fn a_tigadi_while_placing_needs_a_capture() {
    let four = tigadi_rules::RuleSet::parse("tigadi,pieces=4").unwrap();
    let refused = parse_position(&four, "BBB/SSS/.../....../.../.../... B 1 1")
        .unwrap_err()
        .to_string();
    assert!(refused.contains("completed tigadi"), "{refused}");
    assert!(refused.contains("lost no goti"), "{refused}");
    // Seed has lost one goti (2 on the board, 1 in hand): Bone's tigadi is accounted for.
    assert!(parse_position(&four, "BBB/SS./.../....../.../.../... B 1 1").is_ok());
    // The moving phase: gotis slide, so a tigadi says nothing about captures.
    assert!(parse_position(&four, "BBB/SSS/.../....../.../.../..S B").is_ok());
    // A diagonal is a tigadi on the 20-line board only.
    let diagonal = "S../S../S../....B./.../.BB/... B 1 1";
    let diag = parse_position(&four, diagonal);
    assert!(diag.unwrap_err().to_string().contains("completed tigadi"));
    let plain = tigadi_rules::RuleSet::parse("navakankari,pieces=4").unwrap();
    assert!(parse_position(&plain, diagonal).is_ok());
}

/// Hands above the rule set's gotis a side do not wrap the count of placements made.
#[test]
fn placements_never_wrap() {
    let four = tigadi_rules::RuleSet::parse("tigadi,pieces=4").unwrap();
    let mut p = Position::start(&tigadi_rules::RuleSet::TIGADI);
    assert_eq!(p.placements(&four), 0);
    p.bone_hand = 255;
    assert_eq!(p.placements(&four), 0);
    assert_eq!(Position::start(&four).placements(&four), 0);
    assert_eq!(
        Position::start(&four)
            .apply(Move::Place {
                to: tigadi_rules::Point::parse("d5").unwrap(),
                capture: None
            })
            .placements(&four),
        1
    );
}
