//! Lasker's rule (`slides=always`, docs/RULES.md §8.2) against the naive Lasker
//! morris of `support/lasker.rs`, written from the rules text and not from the
//! rules crate: the same moves in every position of random games, the same perft
//! from the start, and the naive oracle's value iteration on games with known values.

use crate::support;

use std::collections::BTreeSet;
use support::lasker::{
    solve_classes, solve_graph, symmetries, Class, Naive, Value, LINES16, NAMES,
};
use tigadi_rules::{check_move, parse_position, Game, Rng, RuleSet};

fn lasker(pieces: u8) -> RuleSet {
    RuleSet {
        pieces,
        ..RuleSet::LASKER
    }
}

/// The moves of the naive generator and of the rules crate, both in notation.
fn both(rules: &RuleSet, n: &Naive) -> (BTreeSet<String>, BTreeSet<String>) {
    let naive = n.moves().into_iter().map(Naive::notation).collect();
    let fast = n
        .to_position()
        .legal_moves(rules)
        .iter()
        .map(|m| m.to_string())
        .collect();
    (naive, fast)
}

/// The move tree from the start to depth 4, counted by both generators. The
/// counts themselves are in docs/RULES.md §8.2 and docs/CLI-RULES.md.
#[test]
fn perft_of_the_start_matches_the_naive_count() {
    let rules = RuleSet::LASKER;
    let start = tigadi_rules::Position::start(&rules);
    let naive = Naive::start(rules.pieces);
    assert_eq!(naive.to_position(), start);
    for depth in 1..=4 {
        assert_eq!(
            start.perft(&rules, depth),
            naive.perft(depth),
            "depth {depth}"
        );
    }
    // Lasker's rule adds slides from the third turn on, so the count differs from
    // the same board without it (a test that would pass with the rule ignored
    // would not be one).
    let without = RuleSet {
        slides_in_hand: false,
        ..rules
    };
    assert_ne!(start.perft(&without, 3), naive.perft(3));
}

/// Random games of `lasker` and of small Lasker games: in every position both
/// generators give the same moves, every move passes `check_move` and `Game::play`,
/// and both reach the same position after it.
#[test]
fn random_games_match_the_naive_generator() {
    for (pieces, games) in [(10, 60), (4, 120), (3, 120)] {
        let rules = lasker(pieces);
        let mut rng = Rng::seeded(53 + pieces as u64);
        let mut slides_in_hand = 0;
        for _ in 0..games {
            let mut n = Naive::start(pieces);
            let mut game = Game::new(rules);
            for _turn in 0..120 {
                let (naive, fast) = both(&rules, &n);
                assert_eq!(naive, fast, "{}", n.to_position());
                let p = n.to_position();
                assert_eq!(game.position().bone, p.bone);
                assert_eq!(game.position().hand(p.side), p.hand(p.side));
                p.validate_reached(&rules).unwrap();
                // The string states the hands, and reads back as the same position.
                assert_eq!(
                    tigadi_rules::parse_reached_position(&rules, &p.to_string())
                        .unwrap()
                        .to_string(),
                    p.to_string()
                );
                let moves = n.moves();
                if moves.is_empty() || game.result().is_over() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                if m.from.is_some() && n.hand[n.side as usize - 1] > 0 {
                    slides_in_hand += 1;
                }
                let mv = tigadi_rules::parse_move(&Naive::notation(m)).unwrap();
                check_move(&rules, &p, mv).unwrap();
                game.play(mv).unwrap();
                n = n.play(m);
                assert_eq!(game.position().bone, n.to_position().bone);
                assert_eq!(game.position().seed, n.to_position().seed);
                assert_eq!(game.position().bone_hand, n.hand[0]);
                assert_eq!(game.position().seed_hand, n.hand[1]);
            }
        }
        assert!(slides_in_hand > 0, "pieces={pieces}: no slide from a hand");
    }
}

/// Without Lasker's rule a slide while gotis are in hand is refused, and with it
/// accepted; flying counts the hand.
#[test]
fn slides_and_flying_with_gotis_in_hand() {
    let text = "B../.../.../....../.../.../... B 9 10";
    let lasker = RuleSet::LASKER;
    let morris = RuleSet::parse("morris,pieces=10").unwrap();
    // Under morris the hands do not fit the turn; under Lasker they may.
    assert!(parse_position(&morris, text).is_err());
    assert!(parse_position(&lasker, text).is_ok());
    let p = parse_position(&lasker, "B../S../.../....../.../.../... B 9 9").unwrap();
    let slide = tigadi_rules::parse_move("a7-a4").unwrap();
    assert!(check_move(&lasker, &p, slide).is_ok());
    assert!(check_move(&morris, &p, slide).is_err());
    assert!(p.legal_moves(&lasker).contains(&slide));
    assert!(!p.legal_moves(&morris).contains(&slide));
    // One goti on the board and two in hand: three in all, so it flies.
    let q = parse_position(&lasker, "B../S../.../....../.../.../S.. B 2 8").unwrap();
    let fly = tigadi_rules::parse_move("a7-g1").unwrap();
    assert!(q.legal_moves(&lasker).contains(&fly));
    assert!(check_move(&lasker, &q, fly).is_ok());
    let r = parse_position(&lasker, "B../S../.../....../.../.../S.. B 3 8").unwrap();
    assert!(!r.legal_moves(&lasker).contains(&fly));
    assert!(check_move(&lasker, &r, fly).is_err());
}

/// The oracle's value iteration on a game whose values are known in closed form:
/// take one or two from a heap, the player who cannot move loses; heaps that are
/// multiples of 3 are lost in 2n/3 turns, the others won in 2(n/3)+1. A loop of
/// two states with a way out only into a won state for the opponent is a draw.
#[test]
fn oracle_value_iteration_on_known_games() {
    let values = solve_graph(30u32, |&n| {
        (1..=2).filter(|&k| k <= n).map(|k| n - k).collect()
    });
    assert_eq!(values.len(), 31);
    for (n, v) in values {
        let expected = if n % 3 == 0 {
            Value::Loss(2 * n / 3)
        } else {
            Value::Win(2 * (n / 3) + 1)
        };
        assert_eq!(v, expected, "heap {n}");
    }
    // 0 -> 1 -> 0 loops; 1 may also go to 2, where the player to move wins (2 -> 3,
    // 3 has no move): so 1 avoids 2 and the loop is drawn.
    let values = solve_graph(0u8, |&s| match s {
        0 => vec![1],
        1 => vec![0, 2],
        2 => vec![3],
        _ => vec![],
    });
    assert_eq!(values[&3], Value::Loss(0));
    assert_eq!(values[&2], Value::Win(1));
    assert_eq!(values[&1], Value::Draw);
    assert_eq!(values[&0], Value::Draw);
}

/// Under Lasker's rule a position with gotis in hand can recur (both players slide
/// to and fro), so the repetition rule counts it: the third occurrence draws. A
/// placement starts the count afresh, as a capture does.
#[test]
fn repetition_with_gotis_in_hand() {
    let rules = RuleSet::LASKER;
    let mut game = Game::new(rules);
    let play = |game: &mut Game, record: &str| {
        for m in tigadi_rules::parse_record(record).unwrap() {
            game.play(m).unwrap();
        }
    };
    play(&mut game, "d5 g7");
    assert_eq!(game.occurrences(), 1);
    play(&mut game, "d5-d6 g7-g4 d6-d5 g4-g7");
    assert_eq!(game.occurrences(), 2);
    assert!(!game.result().is_over());
    play(&mut game, "d5-d6 g7-g4 d6-d5");
    assert!(!game.result().is_over());
    play(&mut game, "g4-g7");
    assert_eq!(
        game.result(),
        tigadi_rules::GameResult::Draw {
            reason: tigadi_rules::DrawReason::Repetition
        }
    );
    // A placement in between: the positions before it never recur.
    let mut game = Game::new(rules);
    play(&mut game, "d5 g7 d5-d6 g7-g4 d6-d5 g4-g7 a1");
    assert_eq!(game.occurrences(), 1);
    assert_eq!(game.position().quiet_turns, 0);
}

/// The oracle's symmetries are the board's: 16 different permutations of the
/// points, each mapping every line of three onto a line (and so neighbours onto
/// neighbours), the identity among them.
#[test]
fn oracle_symmetries_map_lines_to_lines() {
    let perms = symmetries();
    let at = |n: &str| NAMES.iter().position(|m| *m == n).unwrap();
    let lines: BTreeSet<[usize; 3]> = LINES16
        .iter()
        .map(|l| {
            let mut l = l.map(at);
            l.sort();
            l
        })
        .collect();
    assert!(perms.iter().any(|p| (0..24).all(|i| p[i] == i)));
    let distinct: BTreeSet<[usize; 24]> = perms.iter().copied().collect();
    assert_eq!(distinct.len(), 16);
    for p in &perms {
        for l in &lines {
            let mut image = l.map(|i| p[i]);
            image.sort();
            assert!(lines.contains(&image), "{p:?} maps {l:?} to {image:?}");
        }
    }
}

/// The lean oracle (retrograde by rounds over symmetry classes, grouped by the
/// gotis in all) against the plain value iteration of [`solve_graph`] over the
/// same classes, on the whole game of `lasker,pieces=3`: there every capture
/// ends the game, so the depth to the next capture is the depth to the end and
/// both count alike.
#[test]
fn lean_oracle_matches_value_iteration_on_lasker_3() {
    let clock = std::time::Instant::now();
    let lean = solve_classes(3);
    let lean_time = clock.elapsed();
    let plain = solve_graph(Naive::start(3).class(), |c: &Class| {
        let n = c.to_naive();
        n.moves().into_iter().map(|m| n.play(m).class()).collect()
    });
    eprintln!(
        "lasker,pieces=3: {} classes, lean oracle {lean_time:?}, both {:?}",
        lean.len(),
        clock.elapsed()
    );
    assert_eq!(lean.len(), plain.len());
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (c, v) in &lean {
        assert_eq!(Some(v), plain.get(c), "{c:?}");
        match v {
            Value::Win(_) => wins += 1,
            Value::Draw => draws += 1,
            Value::Loss(_) => losses += 1,
        }
    }
    assert!(
        wins > 0 && draws > 0 && losses > 0,
        "{wins} {draws} {losses}"
    );
}

/// The lean oracle on `lasker,pieces=4`, for its time and memory (the tier
/// solver's comparison of four a side runs it): counts only.
#[test]
#[ignore = "measures the oracle on four a side: minutes and gigabytes"]
fn lean_oracle_on_lasker_4() {
    let clock = std::time::Instant::now();
    let values = solve_classes(4);
    let draws = values.values().filter(|v| **v == Value::Draw).count();
    eprintln!(
        "lasker,pieces=4: {} classes ({draws} draws), lean oracle {:?}",
        values.len(),
        clock.elapsed()
    );
    assert!(values.len() > solve_classes(3).len());
}
