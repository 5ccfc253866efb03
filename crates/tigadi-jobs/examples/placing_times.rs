//! The time of one tier with gotis in hand, with its successors read from a solved
//! tablebase directory: prints the slots, the wall time and the CPU seconds (user +
//! system, all threads) of `solve_tier`, and checks the result against
//! the table already in the directory, when there is one.
//!
//! `cargo run --release -p tigadi-jobs --example placing_times -- DIR LAYER SUBSPACE [RULES]`
//! where DIR is a tablebase directory holding the tier's successor tables, LAYER
//! the placements made (e.g. `17`, which with SUBSPACE names the tier of the
//! standard alternation) and SUBSPACE e.g. `4v8`. Nothing is written.
//!
//! DIR `-` times the pass without tables: every successor is a draw. The pass
//! does the same work whatever the values are (every placement is valued, every
//! capture choice compared), so this measures a tier of a game not solved yet
//! (`- 21 10v11 morabaraba`, for the estimate in docs/PERFORMANCE.md).

#[path = "../../tigadi-solve/examples/phase_times.rs"]
#[allow(dead_code)]
mod phase_times;

use phase_times::cpu_seconds;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_solve::{solve_tier, Packed, Quiet, SolvedTable};
use tigadi_values::{successor_tiers, Tier};

fn main() {
    let (dir, placed, sub, rules) = phase_times::placing_args();
    let tier = Tier::after_placements(&rules, placed, sub);
    let store = tigadi_tablebase::TablebaseDir::new(&dir, &rules);
    let loaded: Vec<(Subspace, Vec<Packed>)> = successor_tiers(&rules, tier)
        .into_iter()
        .map(|next| {
            let s = next.subspace;
            if dir.as_os_str() == "-" {
                let idx = tigadi_index::SubspaceIndex::new(s);
                return (s, vec![Packed::DRAW; idx.slots() as usize]);
            }
            let id =
                tigadi_tablebase::TableId::new(tigadi_tablebase::TableKind::GameTheoretic, next);
            (s, store.load(id).expect("successor table"))
        })
        .collect();
    let tables = SolvedTable::views(loaded.iter().map(|(s, v)| (s, v)));
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let solved = solve_tier(&rules, tier, &tables, &Quiet).unwrap();
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let slots = solved.values.len();
    println!(
        "p{placed}-{sub}: {slots} slots, wall {wall:.2} s, cpu {cpu:.2} s, {:.2} M slots/s",
        slots as f64 / wall / 1e6
    );
    if dir.as_os_str() == "-" {
        return;
    }
    let id = tigadi_tablebase::TableId::new(tigadi_tablebase::TableKind::GameTheoretic, tier);
    if let Ok(mut stored) = store.load(id) {
        tigadi_tablebase::mark_padding(sub, &mut stored);
        assert!(stored == solved.values, "differs from the stored table");
        println!("same values as the stored table");
    }
}
