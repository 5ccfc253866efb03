//! The library against direct probes of small tables (every subspace with at most
//! seven gotis, with the values under the 100-turn rule, solved once per test
//! binary): lines, level-3 choices, analyses of the shipped records, matches.
//!
//! `TIGADI_PLAY_TABLES=DIR` runs the record checks against the tables in `DIR`
//! instead (for example a full run's, where the sample game is judged throughout).

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tigadi_jobs::{solve, steps, JobObserver, Scope};
use tigadi_play::{
    analyze, choose, line, play_game, play_match, Level, LineEnd, MatchSettings, Rng, Verdict,
};
use tigadi_rules::{parse_record, Board, Game, GameResult, Position, RuleSet, Side};
use tigadi_solve::{value_at_counter, Value, Wdl};
use tigadi_tablebase::{field, Tablebase};

struct Silent;
impl tigadi_solve::Observer for Silent {}
impl JobObserver for Silent {}

/// Every subspace with at most 7 gotis, game-theoretic and horizon tables.
fn small_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = common::scratch::scratch_dir("play-tables");
        solve(
            &d,
            &RuleSet::TIGADI,
            &steps(&RuleSet::TIGADI, Scope::BoardUpTo(7)),
            &[
                tigadi_tablebase::TableKind::GameTheoretic,
                tigadi_tablebase::TableKind::Horizon,
            ],
            &Default::default(),
            &Silent,
        )
        .unwrap();
        d
    })
}

fn small() -> Tablebase {
    Tablebase::open(small_tables(), &RuleSet::TIGADI)
}

/// A random moving-phase board with `mover` and `opponent` gotis.
fn random_board(rng: &mut Rng, mover: u32, opponent: u32) -> Board {
    let mut free: Vec<u32> = (0..24).collect();
    let mut take = |n: u32| {
        let mut bits = 0u32;
        for _ in 0..n {
            let p = free.swap_remove(rng.below(free.len()));
            bits |= 1 << p;
        }
        bits
    };
    let m = take(mover);
    Board {
        mover: m,
        opponent: take(opponent),
    }
}

/// Random positions of 3v3, 4v3 and 3v4 with Bone or Seed to move.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::seeded(seed);
    (0..n)
        .map(|i| {
            let (m, o) = [(3, 3), (4, 3), (3, 4)][i % 3];
            let side = if i % 2 == 0 { Side::Bone } else { Side::Seed };
            Position::from_board(random_board(&mut rng, m, o), side, 0)
        })
        .collect()
}

/// The other player's view of a result.
fn flip(w: Wdl) -> Wdl {
    match w {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

/// The value for the player who moved of a turn that reached `after`, read with
/// direct probes only: the opponent's value in `after`, turned round.
fn wdl_after(tb: &Tablebase, after: &Position) -> Wdl {
    if after.decided(tb.rules()).is_some() {
        return Wdl::Win;
    }
    flip(tb.probe(after.to_board()).unwrap().wdl())
}

/// The value under the 100-turn rule of `p` at its own counter for its player to
/// move, from the horizon table.
fn rule_wdl(tb: &Tablebase, p: &Position) -> Wdl {
    let v = tb
        .get::<field::Dtc100>(tigadi_tablebase::Hands::EMPTY, p.to_board())
        .unwrap();
    value_at_counter(v, p.quiet_turns, tb.rules().quiet)
        .unwrap()
        .wdl()
}

/// [`wdl_after`] under the 100-turn rule.
fn rule_wdl_after(tb: &Tablebase, after: &Position) -> Wdl {
    if after.decided(tb.rules()).is_some() {
        return Wdl::Win;
    }
    flip(rule_wdl(tb, after))
}

/// From 240 random moving-phase positions `line` captures at exactly the DTC, every
/// turn checked against direct probes ([`common::checked_line`]); in these tables
/// every capture ends the game or leads into a subspace with a goti fewer.
#[test]
fn line_reaches_the_capture_in_exactly_its_dtc() {
    let tb = small();
    let (mut decided, mut drawn) = (0, 0);
    for start in random_positions(240, 1) {
        let l = common::checked_line(&tb, &start, 500);
        match l.value {
            Value::Draw => drawn += 1,
            _ => decided += 1,
        }
    }
    assert!(
        decided > 100 && drawn > 10,
        "{decided} decided, {drawn} drawn"
    );
}

#[test]
fn line_stops_at_max_turns_and_refuses_placing() {
    let tb = small();
    let start = random_positions(60, 2)
        .into_iter()
        .find(|p| tb.probe(p.to_board()).unwrap().dtc() > Some(3))
        .unwrap();
    let l = line(&tb, &start, 2).unwrap();
    assert_eq!((l.steps.len(), l.end), (2, LineEnd::MaxTurns));
    assert!(line(&tb, &Position::start(&tigadi_rules::RuleSet::TIGADI), 10).is_err());
}

#[test]
fn level_three_never_worsens_a_value() {
    let tb = small();
    let mut rng = Rng::seeded(3);
    for p in random_positions(300, 3) {
        let before = tb.probe(p.to_board()).unwrap().wdl();
        let c = choose(&tb, &p, Level::Perfect, &mut rng).unwrap();
        let after = p.apply(c.mv);
        assert_eq!(wdl_after(&tb, &after), before, "{p}: {}", c.mv);
        // The same check under the rule, from the horizon tables.
        assert_eq!(
            rule_wdl_after(&tb, &after),
            rule_wdl(&tb, &p),
            "{p}: {} under the rule",
            c.mv
        );
    }
}

#[test]
fn level_three_never_loses_from_a_position_it_does_not_lose() {
    let tb = small();
    let mut games = 0;
    for (i, p) in random_positions(90, 4).into_iter().enumerate() {
        if tb.probe(p.to_board()).unwrap().wdl() == Wdl::Loss {
            continue;
        }
        let weak = [Level::Beginner, Level::Club][i % 2];
        let (bone, seed) = match p.side {
            Side::Bone => (Level::Perfect, weak),
            Side::Seed => (weak, Level::Perfect),
        };
        let (_, result, _) = play_game(&tb, &p, bone, seed, &mut Rng::seeded(i as u64)).unwrap();
        if let GameResult::Win { winner, .. } = result {
            assert_eq!(winner, p.side, "{p}: level 3 lost to {weak}");
        }
        games += 1;
    }
    assert!(games > 40, "{games}");
}

#[test]
fn matches_repeat_with_a_seed_whatever_the_threads() {
    let tb = small();
    let settings = MatchSettings {
        level: Level::Perfect,
        vs: Level::Club,
        games: 6,
        seed: 9,
        start: random_positions(1, 5)[0],
        lost_starts: false,
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| play_match(&tb, &settings).unwrap());
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap()
        .install(|| play_match(&tb, &settings).unwrap());
    assert_eq!(one, two);
    assert_eq!(
        one.first_wins.iter().sum::<usize>() + one.second_wins.iter().sum::<usize>() + one.draws,
        6
    );
    let other = play_match(
        &tb,
        &MatchSettings {
            seed: 10,
            ..settings.clone()
        },
    )
    .unwrap();
    assert_eq!(other.games.len(), 6);
}

#[test]
fn a_match_from_the_empty_board_searches_where_the_tables_say_nothing() {
    let tb = small();
    let settings = MatchSettings {
        level: Level::Perfect,
        vs: Level::Beginner,
        games: 2,
        seed: 1,
        start: Position::start(&tigadi_rules::RuleSet::TIGADI),
        lost_starts: false,
    };
    let r = play_match(&tb, &settings).unwrap();
    for g in &r.games {
        // All 18 placements at least are searched by level 3's side (9 of them).
        assert!(g.searched >= 9, "{g:?}");
        let mut game = Game::new(RuleSet::TIGADI);
        for &m in &g.moves {
            game.play(m).unwrap();
        }
        assert_eq!(game.result(), g.result);
        assert!(g.result.is_over());
    }
}

/// The tables the record checks read: `TIGADI_PLAY_TABLES` or the small ones.
fn record_tables() -> Tablebase {
    match std::env::var_os("TIGADI_PLAY_TABLES") {
        Some(d) => Tablebase::open(Path::new(&d), &RuleSet::TIGADI),
        None => small(),
    }
}

fn data(name: &str) -> Vec<tigadi_rules::Move> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name);
    parse_record(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Checks every turn's verdict against direct probes of the positions before and
/// after it; returns the numbers of the turns marked as throwing the value.
fn check_record(tb: &Tablebase, name: &str) -> Vec<usize> {
    let moves = data(name);
    let a = analyze(tb, &moves).unwrap();
    assert_eq!(a.turns.len(), moves.len());
    let mut game = Game::new(RuleSet::TIGADI);
    let mut thrown_turns = Vec::new();
    for (t, &mv) in a.turns.iter().zip(&moves) {
        let before = *game.position();
        game.play(mv).unwrap();
        let after = *game.position();
        assert_eq!((t.mv, t.side, t.before_position), (mv, before.side, before));
        // Judged exactly when the tables hold the position and every successor.
        let covered = before.phase() == tigadi_rules::Phase::Moving
            && tb.probe(before.to_board()).is_ok()
            && before.legal_moves(tb.rules()).iter().all(|&m| {
                let n = before.apply(m);
                n.decided(tb.rules()).is_some() || tb.probe(n.to_board()).is_ok()
            });
        match &t.verdict {
            Verdict::NotJudged { .. } => assert!(!covered, "{name}: turn {} not judged", t.number),
            Verdict::Judged {
                before: b,
                after: aft,
                thrown,
                thrown_under_rule,
                best,
            } => {
                assert!(covered, "{name}: turn {} judged", t.number);
                let wdl_before = tb.probe(before.to_board()).unwrap();
                assert_eq!(b.value, wdl_before, "{name}: turn {}", t.number);
                let wdl_after = wdl_after(tb, &after);
                assert_eq!(aft.value.wdl(), wdl_after, "{name}: turn {}", t.number);
                assert_eq!(
                    *thrown,
                    wdl_after < wdl_before.wdl(),
                    "{name}: turn {}",
                    t.number
                );
                if *thrown {
                    thrown_turns.push(t.number);
                    assert!(!best.is_empty());
                }
                match b.rule_value {
                    Some(v) => {
                        let (rb, ra) = (rule_wdl(tb, &before), rule_wdl_after(tb, &after));
                        assert_eq!(v.wdl(), rb, "{name}: turn {}", t.number);
                        assert_eq!(aft.rule_value.map(|v| v.wdl()), Some(ra));
                        assert_eq!(*thrown_under_rule, ra < rb, "{name}: turn {}", t.number);
                    }
                    None => assert!(!thrown_under_rule),
                }
            }
        }
    }
    assert_eq!(a.result, game.result());
    let errors: Vec<usize> = a.players.iter().flat_map(|p| p.errors.clone()).collect();
    for n in &thrown_turns {
        assert!(
            errors.contains(n),
            "{name}: turn {n} missing from the summary"
        );
    }
    thrown_turns
}

#[test]
fn analyses_of_the_shipped_records_agree_with_direct_probes() {
    let tb = record_tables();
    let full = std::env::var_os("TIGADI_PLAY_TABLES").is_some();
    let sample = check_record(&tb, "sample-game.txt");
    let thrown_win = check_record(&tb, "game-thrown-win.txt");
    let other = check_record(&tb, "game-club-players.txt");
    if !full {
        // The small tables judge the end of the two generated records, where each
        // throws a value; the sample game never goes below 9 gotis.
        assert!(sample.is_empty());
        assert!(!thrown_win.is_empty());
        assert!(!other.is_empty());
    }
}
