//! Play and analysis through both phases, on whole small games solved once per
//! test binary (`tigadi,pieces=4` and `navakankari,pieces=4`: every moving-phase
//! subspace and every placing layer, with the values under the 100-turn rule and
//! the depth to win).
//!
//! Every check reads the tables directly ([`Tablebase::get_position`], one
//! value per position), never through the ranked answer that the library follows,
//! so a ranking or phase-switching bug in the library shows up as a disagreement.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tigadi_jobs::{
    solve_pairs, solve_placing, solve_placing_dtw, solve_placing_horizon, JobObserver,
    PlacingObserver,
};
use tigadi_play::{
    analyze, choose, hint, line_with, play_match, Level, LineEnd, MatchSettings, Rng, Verdict,
};
use tigadi_rules::{Game, GameResult, Move, Phase, Position, RuleSet, Side};
use tigadi_solve::{Metric, Value, Wdl};
use tigadi_tablebase::{field, Tablebase};

struct Silent;
impl tigadi_solve::Observer for Silent {}
impl JobObserver for Silent {}
impl PlacingObserver for Silent {}

const GAMES: [&str; 2] = ["tigadi,pieces=4", "navakankari,pieces=4"];

/// The whole game of each rule set in [`GAMES`], in one directory.
fn whole_games() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("tigadi-play-whole-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        for name in GAMES {
            let rules = RuleSet::parse(name).unwrap();
            let pairs = tigadi_solve::pairs_up_to_pieces(4, 8);
            solve_pairs(
                &d,
                &rules,
                &pairs,
                &[
                    tigadi_tablebase::TableKind::Horizon,
                    tigadi_tablebase::TableKind::Dtw,
                ],
                &Silent,
            )
            .unwrap();
            solve_placing(&d, &rules, &Silent).unwrap();
            solve_placing_horizon(&d, &rules, &Silent).unwrap();
            solve_placing_dtw(&d, &rules, &Silent).unwrap();
        }
        d
    })
}

fn tables(name: &str) -> Tablebase {
    Tablebase::open(whole_games(), &RuleSet::parse(name).unwrap())
}

/// The value of `p` for its player to move, read directly from its own table.
fn direct(tb: &Tablebase, p: &Position) -> Value {
    tb.get_position::<field::Dtc>(p).unwrap()
}

/// The value for the player who moved of a turn that reached `after`, from a
/// direct probe of `after` (a finished game is a win for the player who moved).
fn wdl_after(tb: &Tablebase, after: &Position) -> Wdl {
    if after.decided(tb.rules()).is_some() {
        return Wdl::Win;
    }
    match direct(tb, after).wdl() {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

/// Placing positions reached by random legal play from the empty board (every
/// placing layer is met), with the empty board first.
fn placing_positions(rules: &RuleSet, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::seeded(seed);
    let mut out = vec![Position::start(rules)];
    while out.len() < n {
        let mut p = Position::start(rules);
        let stop = rng.below(2 * rules.pieces as usize);
        for _ in 0..stop {
            let moves = p.legal_moves(rules);
            if moves.is_empty() {
                break;
            }
            p = p.apply(moves[rng.below(moves.len())]);
        }
        if p.phase() == Phase::Placing && p.decided(rules).is_none() {
            out.push(p);
        }
    }
    out
}

/// Positions of either phase reached by random legal play from the empty board
/// (up to `2 * pieces + 40` turns), not decided yet.
fn game_positions(rules: &RuleSet, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = Position::start(rules);
        let stop = rng.below(2 * rules.pieces as usize + 40);
        for _ in 0..stop {
            let moves = p.legal_moves(rules);
            if moves.is_empty() || p.decided(rules).is_some() {
                break;
            }
            p = p.apply(moves[rng.below(moves.len())]);
        }
        if p.decided(rules).is_none() && !p.legal_moves(rules).is_empty() {
            out.push(p);
        }
    }
    out
}

/// `line --metric dtw` from random decided positions of both phases ends the game
/// in exactly the start's DTW (read directly from its DTW table) turns: its moves,
/// replayed by the referee from the start, leave the game going on before the
/// last and won by the side the start's value names after it. The DTW is never
/// below the DTC and has the game-theoretic value's win or loss.
#[test]
fn dtw_line_ends_the_game_in_exactly_its_dtw() {
    for name in GAMES {
        let tb = tables(name);
        let rules = *tb.rules();
        let (mut won, mut lost, mut placing, mut moving) = (0, 0, 0, 0);
        for start in game_positions(&rules, 400, 21) {
            let dtw = tb.get_position::<field::Dtw>(&start).unwrap();
            let dtc = direct(&tb, &start);
            assert_eq!(dtw.wdl(), dtc.wdl(), "{name} {start}");
            let Some(depth) = dtw.dtc() else { continue };
            assert!(depth >= dtc.dtc().unwrap(), "{name} {start}: {dtw} {dtc}");
            let l = line_with(&tb, &start, 1000, Metric::Dtw).unwrap();
            assert_eq!(l.value, dtw, "{name} {start}");
            assert_eq!(l.steps.len(), depth as usize, "{name} {start}");
            assert!(matches!(l.end, LineEnd::GameOver { .. }), "{name} {start}");
            let mut game = Game::from_position(rules, start).unwrap();
            for (i, s) in l.steps.iter().enumerate() {
                assert!(!game.result().is_over(), "{name} {start}: over at turn {i}");
                game.play(s.mv).unwrap();
            }
            let winner = match dtw {
                Value::Win(_) => start.side,
                _ => start.side.other(),
            };
            assert!(
                matches!(game.result(), GameResult::Win { winner: w, .. } if w == winner),
                "{name} {start}: {}",
                game.result()
            );
            match dtw {
                Value::Win(_) => won += 1,
                _ => lost += 1,
            }
            match start.phase() {
                Phase::Placing => placing += 1,
                Phase::Moving => moving += 1,
            }
        }
        assert!(
            won > 20 && lost > 20 && placing > 20 && moving > 20,
            "{name}: {won} won, {lost} lost, {placing} placing, {moving} moving"
        );
    }
}

/// `line` from placing positions (the empty board included) follows the stored
/// values through the placing phase: the first capture comes at exactly the
/// start's DTC, every turn before it keeps the value one turn closer (by direct
/// probes of both phases' tables), and the line goes on through the moving phase
/// and further captures to the end of the game, won by the side the start's
/// value names, or stops as a certain draw.
#[test]
fn line_through_the_placing_phase_captures_in_exactly_its_dtc() {
    for name in GAMES {
        let tb = tables(name);
        let rules = *tb.rules();
        let (mut decided, mut into_moving) = (0, 0);
        for start in placing_positions(&rules, 120, 7) {
            let l = common::checked_line(&tb, &start, 400);
            if l.value != Value::Draw {
                decided += 1;
                into_moving += l.steps.iter().any(|s| s.position.phase() == Phase::Moving) as usize;
            }
        }
        assert!(
            decided > 20 && into_moving > 10,
            "{name}: {decided}, {into_moving}"
        );
    }
}

/// Level 3 keeps the value of placing positions (read directly, before and after
/// its placement), and its hint names only placements that keep it.
#[test]
fn level_three_and_hints_keep_the_value_while_placing() {
    for name in GAMES {
        let tb = tables(name);
        let mut rng = Rng::seeded(11);
        for p in placing_positions(tb.rules(), 150, 12) {
            let before = direct(&tb, &p).wdl();
            let c = choose(&tb, &p, Level::Perfect, &mut rng).unwrap();
            assert!(
                matches!(c.how, tigadi_play::How::Table { .. }),
                "{name} {p}: {c:?}"
            );
            assert_eq!(
                wdl_after(&tb, &p.apply(c.mv)),
                before,
                "{name} {p}: {}",
                c.mv
            );
            let h = hint(&tb, &p).unwrap();
            assert!(!h.best.is_empty());
            for m in h.best {
                assert_eq!(wdl_after(&tb, &p.apply(m)), before, "{name} {p}: hint {m}");
            }
        }
    }
}

/// From the empty board of `navakankari,pieces=4` (a win for Seed, read
/// directly), level 3 wins every game in which it plays the winning side against
/// levels 1 and 2, and chooses every turn from the tables (no search).
#[test]
fn level_three_wins_every_won_game_from_the_empty_board() {
    let name = "navakankari,pieces=4";
    let tb = tables(name);
    let start = Position::start(tb.rules());
    let value = direct(&tb, &start);
    let winner = match value {
        Value::Win(_) => Side::Bone,
        Value::Loss(_) => Side::Seed,
        Value::Draw => panic!("{name}: the empty board is a draw"),
    };
    for vs in [Level::Beginner, Level::Club] {
        let r = play_match(
            &tb,
            &MatchSettings {
                level: Level::Perfect,
                vs,
                games: 24,
                seed: 5,
                start,
            },
        )
        .unwrap();
        for g in &r.games {
            assert_eq!(g.searched, 0, "{name}: game {} searched", g.number);
            if g.first_player == winner {
                match g.result {
                    GameResult::Win { winner: w, .. } => {
                        assert_eq!(w, winner, "{name} vs {vs}: game {}", g.number)
                    }
                    other => panic!("{name} vs {vs}: game {}: {other}", g.number),
                }
            }
        }
    }
}

/// A record that throws the win during the placing phase: the winner of the empty
/// board plays, at its first placement, a placement that the tables (read
/// directly) say loses or draws, then both sides play the tables' best. `analyze`
/// marks exactly that placement as throwing the value, with the best placements.
#[test]
fn analyze_marks_a_placement_that_throws_the_win() {
    for name in GAMES {
        let tb = tables(name);
        let rules = *tb.rules();
        let start = Position::start(&rules);
        let value = direct(&tb, &start);
        if value == Value::Draw {
            continue; // tigadi,pieces=4 is a draw: no win to throw.
        }
        // The winner's first placement: turn 1 for Bone, turn 2 for Seed.
        let mut game = Game::new(rules);
        if matches!(value, Value::Loss(_)) {
            let mv = start.legal_moves(&rules)[0];
            game.play(mv).unwrap();
        }
        let before = *game.position();
        let won = direct(&tb, &before).wdl();
        assert_eq!(won, Wdl::Win, "{name}: the winner to place at {before}");
        let thrower = before
            .legal_moves(&rules)
            .into_iter()
            .find(|&m| wdl_after(&tb, &before.apply(m)) < Wdl::Win)
            .expect("some placement throws the win");
        game.play(thrower).unwrap();
        let thrown_at = game.moves().len();
        for _ in 0..6 {
            if game.result().is_over() {
                break;
            }
            let p = *game.position();
            let best = hint(&tb, &p).unwrap().best[0];
            game.play(best).unwrap();
        }
        let moves: Vec<Move> = game.moves().to_vec();
        let a = analyze(&tb, &moves).unwrap();
        let errors: Vec<usize> = a.players.iter().flat_map(|p| p.errors.clone()).collect();
        assert_eq!(errors, vec![thrown_at], "{name}: {moves:?}");
        match &a.turns[thrown_at - 1].verdict {
            Verdict::Judged {
                before,
                after,
                best,
                thrown,
                ..
            } => {
                assert!(*thrown);
                assert_eq!(before.value.wdl(), Wdl::Win);
                assert!(after.value.wdl() < Wdl::Win);
                assert!(!best.is_empty() && !best.contains(&thrower));
                for m in best {
                    let p = a.turns[thrown_at - 1].before_position;
                    assert_eq!(wdl_after(&tb, &p.apply(*m)), Wdl::Win, "{name}: best {m}");
                }
            }
            v => panic!("{name}: turn {thrown_at} {v:?}"),
        }
        // Every placing turn is judged: the tables cover the whole placing phase.
        for t in &a.turns {
            assert!(
                matches!(t.verdict, Verdict::Judged { .. }),
                "{name}: turn {} {:?}",
                t.number,
                t.verdict
            );
        }
    }
}
