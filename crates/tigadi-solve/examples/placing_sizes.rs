//! Slots of every placing layer of a rule set (symmetry-reduced index, reachable
//! goti counts only), the memory a layer-at-a-time solve needs (the layer being
//! solved plus the one it reads, 2 bytes a slot) and the moving-phase tables the
//! last layer reads.
//!
//! `cargo run --release -p tigadi-solve --example placing_sizes -- tigadi`

use tigadi_index::SubspaceIndex;
use tigadi_rules::RuleSet;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "tigadi".into());
    let rules = RuleSet::parse(&arg).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let slots = |subs: &[tigadi_index::Subspace]| -> u64 {
        subs.iter().map(|&s| SubspaceIndex::new(s).slots()).sum()
    };
    let mut sizes = Vec::new();
    for placed in 0..tigadi_values::placing_turns(&rules) {
        let subs = tigadi_values::tiers_after(&rules, placed)
            .into_iter()
            .map(|t| t.subspace)
            .collect::<Vec<_>>();
        sizes.push((placed, subs.len(), slots(&subs)));
    }
    let leaves = tigadi_values::tiers_with_hands(&rules, tigadi_values::Hands::EMPTY)
        .into_iter()
        .map(|t| t.subspace)
        .collect::<Vec<_>>();
    let leaf_slots = slots(&leaves);
    let mut peak = 0u64;
    for (i, &(placed, n, s)) in sizes.iter().enumerate() {
        let above = sizes.get(i + 1).map_or(leaf_slots, |x| x.2);
        peak = peak.max(2 * (s + above));
        println!("layer {placed:2}: {n:3} subspaces, {s:14} slots");
    }
    let total: u64 = sizes.iter().map(|x| x.2).sum();
    println!(
        "{rules}: {total} placing slots in all ({:.2} GiB at 2 bytes); the last layer reads {} \
         moving-phase subspaces, {leaf_slots} slots ({:.2} GiB); peak of a layer plus what it \
         reads: {:.2} GiB",
        2.0 * total as f64 / (1u64 << 30) as f64,
        leaves.len(),
        2.0 * leaf_slots as f64 / (1u64 << 30) as f64,
        peak as f64 / (1u64 << 30) as f64
    );
}
