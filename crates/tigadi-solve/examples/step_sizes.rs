//! The steps with gotis in hand of a rule set's whole game, in the walk's
//! order, with what their memory follows from (`in_hand`'s "Memory"): per step
//! its slots and its exit tiers' slots, and per part its slots and the slots of
//! the tables its placements and its slides read. Tab-separated, a header
//! first: `cargo run --release -p tigadi-solve --example step_sizes -- lasker`.
use tigadi_index::SubspaceIndex;
use tigadi_solve::{exit_tiers, part_exits, step_tiers};
use tigadi_values::{tier_steps, Tier};

fn main() {
    let spec = std::env::args().nth(1).unwrap_or("lasker".into());
    let rules = tigadi_rules::RuleSet::parse(&spec).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let slots = |t: &Tier| SubspaceIndex::new(t.subspace).slots();
    println!("step\tslots\texit_slots\texits\t(part_slots\tplacement_slots\tslide_slots)...");
    for step in tier_steps(&rules) {
        if step[0].is_moving() {
            continue;
        }
        let tiers = step_tiers(&rules, step[0]);
        let exits = exit_tiers(&rules, &tiers);
        let mut line = format!(
            "{}\t{}\t{}\t{}",
            tiers
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            tiers.iter().map(slots).sum::<u64>(),
            exits.iter().map(slots).sum::<u64>(),
            exits.len()
        );
        for (p, t) in tiers.iter().enumerate() {
            let read = |hands| -> u64 {
                let exits = part_exits(&rules, &tiers, p, hands);
                exits.iter().map(slots).sum()
            };
            let (placed, slid) = (read(t.hands.after_placement()), read(t.flipped().hands));
            line += &format!("\t{}\t{placed}\t{slid}", slots(t));
        }
        println!("{line}");
    }
}
