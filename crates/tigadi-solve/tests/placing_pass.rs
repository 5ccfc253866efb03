//! The placing pass (`solve_tier`, which groups boards by the opponent's
//! set and values each group's placements from arrays of its own) against the one
//! definition of a placing value, `evaluate_placing`, with every successor looked
//! up by plain indexing: every slot of every layer, on games with four a side,
//! where captures that do not end the game (and so the capture tables) occur.

use tigadi_index::{Subspace, SubspaceIndex};
use tigadi_rules::RuleSet;
use tigadi_solve::leaving::{evaluate_placing, solve_placing};
use tigadi_solve::Quiet;
use tigadi_solve::TableSet;
use tigadi_solve::{solve_up_to, Packed, SolvedTable, Value};

fn check(name: &str) {
    let rules = RuleSet::parse(name).unwrap();
    let moving = solve_up_to(&rules, 2 * rules.pieces as u32, &Quiet, |_, _, _| {});
    let moving_tables = SolvedTable::views(&moving);
    let moving_subs: Vec<Subspace> = moving_tables.iter().map(|t| t.subspace).collect();
    let layers = solve_placing(&rules, &moving_tables, &Quiet, |_, _| {}).unwrap();
    assert_eq!(layers.len() as u32, tigadi_values::placing_turns(&rules));
    let (mut positions, mut wins, mut losses) = (0u64, 0u64, 0u64);
    for (placed, layer) in layers.iter().enumerate() {
        let next_values = layers.get(placed + 1).map(|next| {
            let views = SolvedTable::views(next.iter().map(|s| (&s.subspace, &s.values)));
            let subs: Vec<Subspace> = views.iter().map(|t| t.subspace).collect();
            (views, subs)
        });
        let next = match &next_values {
            Some((views, subs)) => TableSet::new(views, subs).unwrap(),
            None => TableSet::new(&moving_tables, &moving_subs).unwrap(),
        };
        for s in layer {
            let idx = SubspaceIndex::new(s.subspace);
            assert_eq!(idx.slots() as usize, s.values.len());
            for (slot, &stored) in s.values.iter().enumerate() {
                let Some(board) = idx.board(slot as u64) else {
                    assert_eq!(
                        stored,
                        Packed::NONE,
                        "{name} padding slot {slot} of {}",
                        s.subspace
                    );
                    continue;
                };
                let expected = evaluate_placing(
                    &rules,
                    tigadi_values::Hands::after_placements(&rules, placed as u32),
                    board,
                    |n| next.value(n).expect("every successor has a value"),
                );
                assert_eq!(
                    stored.get(),
                    Some(expected),
                    "{name} layer {placed} {} slot {slot} {board:?}",
                    s.subspace
                );
                positions += 1;
                match expected {
                    Value::Win(_) => wins += 1,
                    Value::Loss(_) => losses += 1,
                    Value::Draw => {}
                }
            }
        }
    }
    // The games are not trivial: both outcomes occur.
    assert!(
        positions > 100_000 && wins > 1000 && losses > 1000,
        "{name}: {positions} {wins} {losses}"
    );
}

#[test]
fn tigadi_4_a_side_pass_equals_evaluate_placing() {
    check("tigadi,pieces=4");
}

#[test]
fn navakankari_4_a_side_pass_equals_evaluate_placing() {
    check("navakankari,pieces=4");
}

#[test]
fn morris_4_a_side_pass_equals_evaluate_placing() {
    check("morris,pieces=4");
}
