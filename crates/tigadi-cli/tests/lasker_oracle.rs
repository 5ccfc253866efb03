//! Issue 53: the tables `tigadi --rules lasker,pieces=3 solve` writes against the
//! naive whole-game oracle of `crates/tigadi-rules/tests/support/lasker.rs`
//! (written from docs/RULES.md, retrograde over symmetry classes of raw states,
//! nothing of the solver): every class a game reaches must have the oracle's
//! value and depth in the table of its tier, read back from the files
//! ([`Tablebase::get_position`]): the DTC of the game tables against
//! [`solve_classes`], and the depth to win of the DTW tables against
//! [`solve_graph`] over the same classes (plain rounds, every turn counting one).
//! `pieces=4` is the same test, ignored: its oracle takes about 12 minutes.
//! The prober ([`Tablebase::probe_moves`]) is checked against the same oracle:
//! every turn it lists (placements, slides, flying slides, with captures) and
//! each turn's value, for every class with gotis in hand.
//!
//! The 100-turn tables (DTC₁₀₀, docs/RULES.md §7–§8) against
//! [`solve_classes_under_rule`]: win, draw or loss of every class at every
//! counter by plain minimax over (class, counter), a capture or placement
//! leading to counter 0; each stored DTC₁₀₀ must give the oracle's value at
//! every counter ([`tigadi_values::value_at_counter`]), which fixes its depth.

use crate::common;
#[path = "../../tigadi-rules/tests/support/lasker.rs"]
mod lasker;
#[path = "../../tigadi-rules/tests/support/memo.rs"]
mod memo;

use common::*;
use lasker::{solve_classes, solve_classes_under_rule, solve_graph, Class, UnderRule, Value};
use memo::Memo;
use std::collections::HashMap;
use tigadi_tablebase::{field, hands_of, Tablebase};

/// Solves `lasker,pieces={pieces}` with the CLI and compares every stored value
/// of a class the oracle reaches; returns how many it compared.
fn tables_match_the_oracle(pieces: u8) -> usize {
    let rules_name = format!("lasker,pieces={pieces}");
    let dir = scratch(&format!("lasker{pieces}-oracle"));
    let d = dir.to_str().unwrap();
    let r = run(&["--rules", &rules_name, "solve", "--dtw", "--dir", d]);
    assert_eq!(
        r.code,
        Some(0),
        "`tigadi --rules {rules_name} solve` failed, so there is nothing to compare \
         with the oracle: {}",
        r.stderr
    );
    let rules = tigadi_rules::RuleSet::parse(&rules_name).unwrap();
    let tables = Tablebase::open(&dir, &rules);
    let mut compared = 0;
    let start = lasker::Naive::start(pieces).class();
    let dtw = solve_graph(start, |c: &Class| {
        let n = c.to_naive();
        n.moves().into_iter().map(|m| n.play(m).class()).collect()
    });
    for (c, v) in solve_classes(pieces) {
        let n = c.to_naive();
        // The game goes on: both sides have three gotis or more in all.
        if n.total(1) < 3 || n.total(2) < 3 {
            continue;
        }
        let p = n.to_position();
        assert!(p.validate(&rules).is_ok(), "{p}");
        let expected = naive_value(v);
        let stored = tables
            .get_position::<field::Dtc>(&p)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(stored, expected, "{p}: oracle {v:?}, tables {stored:?}");
        let expected = naive_value(dtw[&c]);
        let stored = tables
            .get_position::<field::Dtw>(&p)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(
            stored, expected,
            "{p}: DTW oracle {expected:?}, tables {stored:?}"
        );
        compared += 1;
    }
    compared
}

/// [`solve_classes_under_rule`] of `pieces` a side at turn limit `quiet`, solved
/// once per test binary (two tests compare `lasker,pieces=3,quiet=8`).
fn under_rule(pieces: u8, quiet: usize) -> &'static HashMap<Class, UnderRule> {
    static SOLVED: Memo<(u8, usize), HashMap<Class, UnderRule>> = Memo::new();
    SOLVED.get((pieces, quiet), || solve_classes_under_rule(pieces, quiet))
}

/// The oracle's value as the tables hold it.
fn naive_value(v: Value) -> tigadi_values::Value {
    match v {
        Value::Win(d) => tigadi_values::Value::Win(d as u16),
        Value::Loss(d) => tigadi_values::Value::Loss(d as u16),
        Value::Draw => tigadi_values::Value::Draw,
    }
}

#[test]
fn lasker_3_tables_match_the_naive_oracle() {
    let compared = tables_match_the_oracle(3);
    assert!(compared > 200_000, "{compared}");
}

#[test]
#[ignore = "the naive oracle of lasker,pieces=4 takes about 12 minutes (run with nice -n 19)"]
fn lasker_4_tables_match_the_naive_oracle() {
    let compared = tables_match_the_oracle(4);
    assert!(compared > 1_000_000, "{compared}");
}

/// The oracle's value of a turn into a class worth `child` to the next player,
/// counted from before the turn as the tables count it (a capture counts 1).
fn turn_value(child: Value, capture: bool) -> tigadi_values::Value {
    naive_value(match child {
        Value::Win(d) => Value::Loss(if capture { 1 } else { d + 1 }),
        Value::Loss(d) => Value::Win(if capture { 1 } else { d + 1 }),
        Value::Draw => Value::Draw,
    })
}

/// On solved `lasker,pieces={pieces}` tables, the prober lists for every class
/// with gotis in hand that a game reaches exactly the oracle's turns (by name),
/// each with the value the oracle gives the class it leads to, one turn later;
/// its best turn's value is the oracle's value of the class. Classes where the
/// mover has gotis on the board and in hand (placements and slides both), and
/// where it may fly, are counted to make sure they are there; returns (classes
/// compared, with both kinds of turn, with a flying slide).
fn prober_turns_match_the_oracle(pieces: u8) -> (usize, usize, usize) {
    let rules_name = format!("lasker,pieces={pieces}");
    let dir = scratch(&format!("lasker{pieces}-prober-oracle"));
    let r = run(&[
        "--rules",
        &rules_name,
        "solve",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let rules = tigadi_rules::RuleSet::parse(&rules_name).unwrap();
    let tables = Tablebase::open(&dir, &rules);
    let values = solve_classes(pieces);
    let (mut compared, mut both_kinds, mut flying) = (0, 0, 0);
    for (c, v) in &values {
        let n = c.to_naive();
        if n.total(1) < 3 || n.total(2) < 3 {
            continue;
        }
        let p = n.to_position();
        let hands = hands_of(&p);
        if hands.is_empty() {
            continue;
        }
        let turns = tables
            .probe_moves(hands, p.to_board())
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        let mut got: Vec<(String, tigadi_values::Value)> =
            turns.iter().map(|(m, v)| (m.to_string(), *v)).collect();
        let mut want: Vec<(String, tigadi_values::Value)> = n
            .moves()
            .into_iter()
            .map(|m| {
                let child = values[&n.play(m).class()];
                (
                    lasker::Naive::notation(m),
                    turn_value(child, m.capture.is_some()),
                )
            })
            .collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        want.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(got, want, "{p}: prober's turns, then the oracle's");
        assert_eq!(
            turns.first().map(|t| t.1),
            Some(naive_value(*v)),
            "{p}: the best turn's value is the class's"
        );
        let slides = turns
            .iter()
            .filter(|(m, _)| matches!(m, tigadi_rules::Move::Slide { .. }));
        if hands.mover > 0 && slides.clone().count() > 0 {
            both_kinds += 1;
        }
        let board = p.to_board();
        if board.mover.count_ones() + u32::from(hands.mover) == 3
            && slides.clone().any(|(m, _)| match m {
                tigadi_rules::Move::Slide { from, to, .. } => {
                    rules.geometry().neighbours[from.index()] & to.bit() == 0
                }
                _ => false,
            })
        {
            flying += 1;
        }
        compared += 1;
    }
    (compared, both_kinds, flying)
}

#[test]
fn lasker_3_prober_turns_match_the_naive_oracle() {
    let (compared, both_kinds, flying) = prober_turns_match_the_oracle(3);
    assert!(compared > 10_000, "{compared}");
    assert!(
        both_kinds > 1_000 && flying > 1_000,
        "{both_kinds} {flying}"
    );
}

/// Four a side also tells a capture that leaves the opponent two gotis on the
/// board but one in hand (the game goes on) from one that ends the game.
#[test]
#[ignore = "the naive oracle of lasker,pieces=4 takes about 12 minutes (run with nice -n 19)"]
fn lasker_4_prober_turns_match_the_naive_oracle() {
    let (compared, both_kinds, flying) = prober_turns_match_the_oracle(4);
    assert!(compared > 100_000, "{compared}");
    assert!(
        both_kinds > 10_000 && flying > 10_000,
        "{both_kinds} {flying}"
    );
}

/// What [`horizon_tables_match_the_oracle`] saw: the classes compared, and
/// among them the cursed wins and blessed losses (won or lost ignoring the
/// rule, drawn under it at counter 0), and the classes with gotis in hand
/// whose value under the rule changes between counter 0 and the limit.
#[derive(Debug, Default)]
struct HorizonCounts {
    compared: usize,
    cursed: usize,
    blessed: usize,
    in_hand_cursed: usize,
    in_hand_counter_matters: usize,
}

/// Solves the whole game of `rules_name` with every default kind into a scratch
/// directory named by it and `tag`; its rule set, directory and tables.
fn solved_whole(
    rules_name: &str,
    tag: &str,
) -> (tigadi_rules::RuleSet, std::path::PathBuf, Tablebase) {
    let rules = tigadi_rules::RuleSet::parse(rules_name).unwrap();
    let dir = scratch(&format!("{}-{tag}", rules.name().replace([',', '='], "-")));
    let r = run(&[
        "--rules",
        rules_name,
        "solve",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let tables = Tablebase::open(&dir, &rules);
    (rules, dir, tables)
}

/// Solves `rules_name` (a `lasker,pieces=N` rule set, with `quiet=L` or not)
/// and compares every class's stored DTC₁₀₀ with the oracle's values under the
/// rule at every counter from 0 to the limit.
fn horizon_tables_match_the_oracle(rules_name: &str) -> HorizonCounts {
    let (rules, _, tables) = solved_whole(rules_name, "horizon-oracle");
    let quiet = rules.quiet;
    let mut counts = HorizonCounts::default();
    for (c, under) in under_rule(rules.pieces, quiet as usize) {
        let n = c.to_naive();
        if n.total(1) < 3 || n.total(2) < 3 {
            continue;
        }
        let p = n.to_position();
        let dtc100 = tables
            .get_position::<field::Dtc100>(&p)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        for (counter, want) in under.at.iter().enumerate() {
            let got = tigadi_values::value_at_counter(dtc100, counter as u16, quiet).unwrap();
            assert_eq!(
                got.wdl(),
                naive_value(*want).wdl(),
                "{p} at counter {counter}: oracle {want:?}, tables {dtc100:?} ({got:?})"
            );
        }
        let game = tables.get_position::<field::Dtc>(&p).unwrap();
        let in_hand = n.hand != [0, 0];
        match (game.wdl(), under.at[0]) {
            (tigadi_values::Wdl::Win, Value::Draw) => {
                counts.cursed += 1;
                counts.in_hand_cursed += in_hand as usize;
            }
            (tigadi_values::Wdl::Loss, Value::Draw) => counts.blessed += 1,
            _ => {}
        }
        if in_hand && under.at[0] != under.at[quiet as usize - 1] {
            counts.in_hand_counter_matters += 1;
        }
        counts.compared += 1;
    }
    counts
}

#[test]
fn lasker_3_horizon_tables_match_the_naive_oracle() {
    // A short limit: cursed wins and blessed losses, with and without gotis in
    // hand, and classes in hand whose value the counter changes.
    let short = horizon_tables_match_the_oracle("lasker,pieces=3,quiet=8");
    assert!(short.compared > 200_000, "{short:?}");
    assert!(
        short.cursed > 1_000 && short.blessed > 1_000 && short.in_hand_cursed > 100,
        "{short:?}"
    );
    assert!(short.in_hand_counter_matters > 1_000, "{short:?}");
    // The default limit.
    let full = horizon_tables_match_the_oracle("lasker,pieces=3");
    eprintln!("quiet=8: {short:?}; quiet=100: {full:?}");
    assert!(full.compared > 200_000, "{full:?}");
    assert!(full.in_hand_counter_matters > 1_000, "{full:?}");
}

/// The one door of every prober (probe, line, analyze, the server, C, Python:
/// [`Tablebase::answer`]) on solved `lasker,pieces=3,quiet=8`, for classes with
/// gotis in hand at counters from 0 to one below the limit: the position's
/// value under the rule at its counter, and every turn's, must be the oracle's
/// ([`solve_classes_under_rule`]: a capture or placement leads to counter 0, a
/// slide to the counter plus one). Returns the positions compared.
fn answers_under_the_rule_match_the_oracle(rules_name: &str, every: usize) -> usize {
    let (rules, dir, tables) = solved_whole(rules_name, "answer-oracle");
    let quiet = rules.quiet as usize;
    let oracle = under_rule(rules.pieces, quiet);
    let mut classes: Vec<&Class> = oracle.keys().collect();
    classes.sort();
    let wdl = |v: Value| naive_value(v).wdl();
    let (mut compared, mut printed) = (0, 0);
    for c in classes.into_iter().step_by(every) {
        let n = c.to_naive();
        if n.total(1) < 3 || n.total(2) < 3 || n.hand == [0, 0] {
            continue;
        }
        for counter in 0..quiet {
            let mut p = n.to_position();
            p.quiet_turns = counter as u16;
            let report = tables.answer(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
            let want = oracle[c].at[counter];
            if report.over.is_some() {
                assert_eq!(wdl(want), report.value.wdl(), "{p}: over");
                continue;
            }
            let rule = report
                .rule
                .unwrap_or_else(|| panic!("{p}: no value under the rule"));
            assert_eq!(
                rule.rule_value.wdl(),
                wdl(want),
                "{p}: oracle {want:?}, {rule:?}"
            );
            // The answer's turns by their notation, each written once.
            let turns: HashMap<String, _> = report
                .moves
                .iter()
                .map(|t| (t.turn.to_string(), t))
                .collect();
            for m in n.moves() {
                let name = lasker::Naive::notation(m);
                let turn = turns
                    .get(&name)
                    .unwrap_or_else(|| panic!("{p}: {name} not among the answer's turns"));
                let reset = m.capture.is_some() || m.from.is_none();
                let child = &oracle[&n.play(m).class()];
                let theirs = child.at[if reset { 0 } else { counter + 1 }];
                let mine = match theirs {
                    Value::Win(_) => Value::Loss(0),
                    Value::Loss(_) => Value::Win(0),
                    Value::Draw => Value::Draw,
                };
                let got = turn.rule.unwrap().rule_value;
                assert_eq!(
                    got.wdl(),
                    wdl(mine),
                    "{p}: {name}: oracle {mine:?}, {got:?}"
                );
            }
            // `probe --json` prints the same answer, counter included.
            if counter == 3 && compared % 1_000 < 8 {
                printed += 1;
                let text = p.to_string();
                let d = dir.to_str().unwrap();
                let r = run(&["--rules", rules_name, "probe", "--json", "--dir", d, &text]);
                assert_eq!(r.code, Some(0), "{}", r.stderr);
                let json: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
                assert_eq!(json["quiet_turns"], counter, "{text}: {json}");
                assert_eq!(json, report.to_json(), "{text}");
            }
            compared += 1;
        }
    }
    assert!(printed > 0, "no position checked with `probe --json`");
    compared
}

#[test]
fn lasker_3_answers_under_the_rule_match_the_naive_oracle() {
    let compared = answers_under_the_rule_match_the_oracle("lasker,pieces=3,quiet=8", 5);
    assert!(compared > 50_000, "{compared}");
}
