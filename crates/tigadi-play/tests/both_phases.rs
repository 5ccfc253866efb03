//! Play and analysis through both phases, on whole small games solved once per
//! test binary (`tigadi,pieces=4` and `navakankari,pieces=4`: every moving-phase
//! subspace and every placing layer, with the values under the 100-turn rule and
//! the depth to win).
//!
//! Every check reads the tables directly ([`Tablebase::get_position`], one
//! value per position), never through the ranked answer that the library follows,
//! so a ranking or phase-switching bug in the library shows up as a disagreement.

use crate::common;

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tigadi_jobs::{solve, steps, JobObserver, Scope};
use tigadi_play::{
    analyze, choose, fallible_chance, hint, line_with, lost_start, play_match, search, Level,
    LineEnd, MatchSettings, Rng, Verdict,
};
use tigadi_rules::{Game, GameResult, Move, Phase, Position, RuleSet, Side};
use tigadi_solve::{Metric, Value, Wdl};
use tigadi_tablebase::{field, Tablebase};

struct Silent;
impl tigadi_solve::Observer for Silent {}
impl JobObserver for Silent {}

const GAMES: [&str; 2] = ["tigadi,pieces=4", "navakankari,pieces=4"];

/// The whole game of each rule set in [`GAMES`], in one directory.
fn whole_games() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = common::scratch::scratch_dir("play-whole");
        for name in GAMES {
            let rules = RuleSet::parse(name).unwrap();
            let steps = steps(&rules, Scope::Whole);
            use tigadi_tablebase::TableKind;
            let kinds = [TableKind::GameTheoretic, TableKind::Horizon, TableKind::Dtw];
            solve(&d, &rules, &steps, &kinds, &Default::default(), &Silent).unwrap();
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

/// The move `level` chooses in `p`, checked: chosen from the tables, and keeping
/// the value `p` has for the player to move (both read directly).
fn kept_choice(tb: &Tablebase, p: &Position, level: Level, rng: &mut Rng) -> Move {
    let c = choose(tb, p, level, rng).unwrap();
    assert!(
        matches!(c.how, tigadi_play::How::Table { .. }),
        "{p}: {c:?}"
    );
    let before = direct(tb, p).wdl();
    assert_eq!(
        wdl_after(tb, &p.apply(c.mv)),
        before,
        "{level} {p}: {}",
        c.mv
    );
    c.mv
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
            kept_choice(&tb, &p, Level::Perfect, &mut rng);
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
                lost_starts: false,
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

/// Undecided positions of both phases reached by random legal play from the empty
/// board (up to twelve turns past the placing phase).
fn walk_positions(rules: &RuleSet, n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::seeded(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = Position::start(rules);
        let stop = rng.below(2 * rules.pieces as usize + 12);
        for _ in 0..stop {
            if p.decided(rules).is_some() {
                break;
            }
            let moves = p.legal_moves(rules);
            p = p.apply(moves[rng.below(moves.len())]);
        }
        if p.decided(rules).is_none() {
            out.push(p);
        }
    }
    out
}

/// The naive oracle of level 4's criterion (README, "The computer's levels"),
/// from direct probes only: the value of turn `m` in `p` for the player who
/// moves, as win/draw/loss and, for a win, its DTW (docs/RULES.md §7: the
/// turns to the end of the game, 1 for a turn that ends it, else one more than
/// the opponent's loss; level 4 prefers the quickest end when the DTW tables
/// exist, and these tables have them).
fn turn_value(tb: &Tablebase, p: &Position, m: Move) -> (Wdl, u16) {
    let after = p.apply(m);
    let wdl = wdl_after(tb, &after);
    let dtw = match wdl {
        Wdl::Win if after.decided(tb.rules()).is_some() => 1,
        Wdl::Win => match tb.get_position::<field::Dtw>(&after).unwrap() {
            Value::Loss(d) => d + 1,
            v => panic!("{after}: DTW {v:?} after a winning turn"),
        },
        _ => 0,
    };
    (wdl, dtw)
}

/// The turns in `p` that keep its value for the player to move (the quickest
/// ones when it is a win).
fn naive_keeping(tb: &Tablebase, p: &Position) -> Vec<Move> {
    let turns: Vec<(Move, (Wdl, u16))> = p
        .legal_moves(tb.rules())
        .into_iter()
        .map(|m| (m, turn_value(tb, p, m)))
        .collect();
    let best = turns.iter().map(|t| t.1 .0).max().unwrap();
    let quickest = turns
        .iter()
        .filter(|t| t.1 .0 == Wdl::Win)
        .map(|t| t.1 .1)
        .min();
    turns
        .into_iter()
        .filter(|(_, (w, d))| *w == best && (best != Wdl::Win || Some(*d) == quickest))
        .map(|(m, _)| m)
        .collect()
}

/// The chance that the opponent to move in `q` goes wrong on its next turn when
/// it is level 1 or level 2, each as likely (README, "The computer's levels":
/// level 1 searches one turn, level 2 three, each playing one of the moves its
/// search scores best, uniformly), "wrong" being a turn worse for it than its best
/// by win/draw/loss (direct probes); and how many of its turns are wrong.
fn naive_fallible(tb: &Tablebase, q: &Position) -> (f64, usize) {
    if q.decided(tb.rules()).is_some() {
        return (0.0, 0);
    }
    let replies = q.legal_moves(tb.rules());
    let values: Vec<Wdl> = replies
        .iter()
        .map(|&r| wdl_after(tb, &q.apply(r)))
        .collect();
    let best = *values.iter().max().unwrap();
    let wrong: Vec<Move> = (0..replies.len())
        .filter(|&i| values[i] < best)
        .map(|i| replies[i])
        .collect();
    let mut chance = 0.0;
    for depth in [1, 3] {
        let picks = search(tb.rules(), q, depth).unwrap().best;
        let hits = picks.iter().filter(|m| wrong.contains(m)).count();
        chance += hits as f64 / picks.len() as f64 / 2.0;
    }
    (chance, wrong.len())
}

/// How often `q` (board and player to move) has occurred in `game`, counted by
/// replaying its moves from its start (docs/RULES.md §6: moving-phase positions
/// only, none from before a capture).
fn naive_occurrences(game: &Game, q: &Position) -> usize {
    let moving = |p: &Position| p.bone_hand == 0 && p.seed_hand == 0;
    let same = |p: &Position| (p.bone, p.seed, p.side) == (q.bone, q.seed, q.side);
    let mut p = *game.start();
    let mut count = (moving(&p) && same(&p)) as usize;
    for &m in game.moves() {
        p = p.apply(m);
        if m.capture().is_some() {
            count = 0;
        }
        count += (moving(&p) && same(&p)) as usize;
    }
    if moving(q) {
        count
    } else {
        0
    }
}

/// Level 4's rank of the turn `m` in `game` by the README, from the oracles: a
/// draw by repetition (the position after `m` occurring for the third time) is
/// avoided unless the game is lost, where it is wanted; then the higher
/// [`naive_fallible`] chance; then the fewer earlier occurrences of the position
/// (lost: the more); then the more wrong replies. Ordered as a tuple.
fn naive_rank(tb: &Tablebase, game: &Game, m: Move) -> Rank {
    let p = game.position();
    let lost = direct(tb, p).wdl() == Wdl::Loss;
    let q = p.apply(m);
    let seen = naive_occurrences(game, &q);
    let draws = seen >= 2 && q.decided(tb.rules()).is_none();
    let (chance, wrong) = naive_fallible(tb, &q);
    let seen = seen as i64;
    (
        draws == lost,
        chance,
        if lost { seen } else { -seen },
        wrong,
    )
}

type Rank = (bool, f64, i64, usize);

/// Two ranks compared field by field, chances to rounding.
fn cmp_rank(a: &Rank, b: &Rank) -> Ordering {
    let chance = if (a.1 - b.1).abs() < 1e-9 {
        Ordering::Equal
    } else {
        a.1.total_cmp(&b.1)
    };
    a.0.cmp(&b.0)
        .then(chance)
        .then(a.2.cmp(&b.2))
        .then(a.3.cmp(&b.3))
}

/// Whether two ranks are equal, chances to rounding.
fn same_rank(a: Rank, b: Rank) -> bool {
    cmp_rank(&a, &b) == Ordering::Equal
}

/// The best of `ranks`.
fn top_rank(ranks: &[Rank]) -> Rank {
    *ranks.iter().max_by(|a, b| cmp_rank(a, b)).unwrap()
}

/// In won positions of both phases level 4 ends the game as soon as it can: its
/// turn is one of those with the least DTW (the naive oracle, from direct probes
/// of the DTW tables), not merely the quickest capture.
#[test]
fn level_four_wins_by_the_least_dtw() {
    for name in GAMES {
        let tb = tables(name);
        let mut rng = Rng::seeded(23);
        let mut won = 0;
        for p in walk_positions(tb.rules(), 400, 6) {
            if direct(&tb, &p).wdl() != Wdl::Win || won == 60 {
                continue;
            }
            won += 1;
            let mv = kept_choice(&tb, &p, Level::Ultra, &mut rng);
            assert!(naive_keeping(&tb, &p).contains(&mv), "{name} {p}: {mv}");
        }
        assert!(won >= 20, "{name}: {won} won positions");
    }
}

/// Level 4 keeps the value of positions of both phases (read directly), its move
/// has the best rank of the naive oracle among the turns that keep the value (with
/// no history: the fallible chance, then the wrong replies), and
/// `fallible_chance` equals the oracle for every such turn.
#[test]
fn level_four_keeps_the_value_and_sets_the_likeliest_trap() {
    for name in GAMES {
        let tb = tables(name);
        let mut rng = Rng::seeded(21);
        let mut trapped = 0;
        for p in walk_positions(tb.rules(), 40, 4) {
            let mv = kept_choice(&tb, &p, Level::Ultra, &mut rng);
            let keeping = naive_keeping(&tb, &p);
            assert!(keeping.contains(&mv), "{name} {p}: {mv}");
            let game = Game::from_position(*tb.rules(), p).unwrap();
            let ranks: Vec<_> = keeping.iter().map(|&m| naive_rank(&tb, &game, m)).collect();
            for (&m, r) in keeping.iter().zip(&ranks) {
                let fast = fallible_chance(&tb, &p.apply(m));
                assert!((r.1 - fast).abs() < 1e-9, "{name} {p} {m}: {r:?} {fast}");
            }
            let top = top_rank(&ranks);
            trapped += (top.1 > 0.0) as usize;
            let picked = naive_rank(&tb, &game, mv);
            assert!(
                same_rank(picked, top),
                "{name} {p}: {mv} {picked:?} < {top:?}"
            );
        }
        assert!(trapped >= 3, "{name}: {trapped} positions with a trap");
    }
}

/// In games where positions recur, level 4 keeps the value and plays the turn of
/// the best naive rank, the repetition rule read from the game's moves: it does
/// not end a drawn game by repetition while another turn keeps it going, and it
/// does end a lost one so.
#[test]
fn level_four_minds_repetitions() {
    for name in GAMES {
        let tb = tables(name);
        let rules = *tb.rules();
        let mut rng = Rng::seeded(5);
        let (mut recurring, mut drawing) = (0, 0);
        for start in game_positions(&rules, 300, 9) {
            if start.phase() != Phase::Moving || recurring >= 40 {
                continue;
            }
            // Random play that often slides the goti just moved back, so
            // positions recur.
            let mut game = Game::from_position(rules, start).unwrap();
            let mut last: [Option<Move>; 2] = [None, None];
            for turn in 0..24 {
                if game.result().is_over() {
                    break;
                }
                let p = *game.position();
                if direct(&tb, &p).wdl() != Wdl::Win {
                    let keeping = naive_keeping(&tb, &p);
                    let ranks: Vec<_> =
                        keeping.iter().map(|&m| naive_rank(&tb, &game, m)).collect();
                    if keeping
                        .iter()
                        .any(|&m| naive_occurrences(&game, &p.apply(m)) > 0)
                    {
                        recurring += 1;
                        drawing += ranks.iter().any(|r| r.2.abs() >= 2) as usize;
                        let mv = tigadi_play::choose_in_game(&tb, &game, Level::Ultra, &mut rng)
                            .unwrap()
                            .mv;
                        assert!(keeping.contains(&mv), "{name} {p}: {mv}");
                        let picked = naive_rank(&tb, &game, mv);
                        let top = top_rank(&ranks);
                        assert!(
                            same_rank(picked, top),
                            "{name} {p}: {mv} {picked:?} < {top:?}"
                        );
                    }
                }
                let moves = game.legal_moves();
                let back = last[turn % 2].and_then(|m| match m {
                    Move::Slide {
                        from,
                        to,
                        capture: None,
                    } => moves.iter().copied().find(|&b| {
                        b == Move::Slide {
                            from: to,
                            to: from,
                            capture: None,
                        }
                    }),
                    _ => None,
                });
                let mv = match back {
                    Some(b) if rng.below(4) != 0 => b,
                    _ => moves[rng.below(moves.len())],
                };
                last[turn % 2] = Some(mv);
                game.play(mv).unwrap();
            }
        }
        assert!(
            recurring >= 20 && drawing >= 5,
            "{name}: {recurring} recurring, {drawing} drawing"
        );
    }
}

/// `lost_start` finds positions lost for the player to move (read directly), and
/// a match from them gives the first player the side to move there; level 4
/// plays them without searching.
#[test]
fn lost_starts_are_lost_for_the_first_player() {
    for name in GAMES {
        let tb = tables(name);
        let start = Position::start(tb.rules());
        let mut rng = Rng::seeded(8);
        for _ in 0..10 {
            let p = lost_start(&tb, &start, &mut rng).unwrap();
            assert_eq!(direct(&tb, &p).wdl(), Wdl::Loss, "{name} {p}");
        }
        let r = play_match(
            &tb,
            &MatchSettings {
                level: Level::Ultra,
                vs: Level::Beginner,
                games: 6,
                seed: 2,
                start,
                lost_starts: true,
            },
        )
        .unwrap();
        for g in &r.games {
            assert_eq!(g.first_player, g.start.side, "{name}: game {}", g.number);
            assert_eq!(
                direct(&tb, &g.start).wdl(),
                Wdl::Loss,
                "{name}: game {}",
                g.number
            );
            assert_eq!(g.searched, 0, "{name}: game {}", g.number);
        }
    }
}
