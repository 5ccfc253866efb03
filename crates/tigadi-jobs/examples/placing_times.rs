//! The time of one placing-layer subspace, with its successors read from a solved
//! tablebase directory: prints the slots, the wall time and the CPU seconds (user +
//! system, all threads) of `solve_layer_subspace`, and checks the result against
//! the table already in the directory, when there is one.
//!
//! `cargo run --release -p tigadi-jobs --example placing_times -- DIR LAYER SUBSPACE [RULES]`
//! where DIR is a tablebase directory holding the layer's successor tables (the
//! next layer's, or the moving phase's for the last layer), LAYER the placements
//! made (e.g. `17`) and SUBSPACE e.g. `4v8`. Nothing is written.
//!
//! DIR `-` times the pass without tables: every successor is a draw. The pass
//! does the same work whatever the values are (every placement is valued, every
//! capture choice compared), so this measures a layer of a game not solved yet
//! (`- 21 10v11 morabaraba`, for the estimate in docs/PERFORMANCE.md).

#[path = "../../tigadi-solve/examples/phase_times.rs"]
#[allow(dead_code)]
mod phase_times;

use phase_times::cpu_seconds;
use std::time::Instant;
use tigadi_index::Subspace;
use tigadi_solve::placing::{solve_layer_subspace, subspace_successors};
use tigadi_solve::retrograde::Quiet;
use tigadi_solve::{Packed, SolvedTable};

fn main() {
    let (dir, placed, sub, rules) = phase_times::placing_args();
    let store = tigadi_tablebase::TablebaseDir::new(&dir, &rules);
    let loaded: Vec<(Subspace, Vec<Packed>)> = subspace_successors(&rules, placed, sub)
        .into_iter()
        .map(|s| {
            if dir.as_os_str() == "-" {
                let idx = tigadi_index::SubspaceIndex::new(s);
                return (s, vec![Packed::DRAW; idx.slots() as usize]);
            }
            let next = tigadi_tablebase::Tier::after_placements(&rules, placed + 1, s);
            let id =
                tigadi_tablebase::TableId::new(tigadi_tablebase::TableKind::GameTheoretic, next);
            (s, store.load(id).expect("successor table"))
        })
        .collect();
    let tables = SolvedTable::views(loaded.iter().map(|(s, v)| (s, v)));
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let solved = solve_layer_subspace(&rules, placed, sub, &tables, &Quiet).unwrap();
    let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    let slots = solved.values.len();
    println!(
        "p{placed}-{sub}: {slots} slots, wall {wall:.2} s, cpu {cpu:.2} s, {:.2} M slots/s",
        slots as f64 / wall / 1e6
    );
    if dir.as_os_str() == "-" {
        return;
    }
    let id = tigadi_tablebase::TableId::new(
        tigadi_tablebase::TableKind::GameTheoretic,
        tigadi_tablebase::Tier::after_placements(&rules, placed, sub),
    );
    if let Ok(mut stored) = store.load(id) {
        tigadi_tablebase::mark_padding(sub, &mut stored);
        assert!(stored == solved.values, "differs from the stored table");
        println!("same values as the stored table");
    }
}
