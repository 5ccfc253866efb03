//! Checks every table's header counts against its positions, as `verify` now
//! does for each table it checks ([`tigadi_tablebase::Table::check_counts`]),
//! without recomputing any value: for sets verified before that check existed.
//!
//! `cargo run --release -p tigadi-jobs --example header_counts -- DIR [RULES]`
//! prints one line per table whose counts differ and a summary; exit status 1
//! when one differs.

use tigadi_rules::RuleSet;
use tigadi_tablebase::TablebaseDir;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(&args[1]);
    let rules = args
        .get(2)
        .map_or(RuleSet::TIGADI, |r| RuleSet::parse(r).unwrap());
    let store = TablebaseDir::new(&dir, &rules);
    let (mut tables, mut positions, mut bad) = (0u64, 0u64, 0u64);
    for id in store.list().expect("a tablebase directory") {
        let table = store.open(id).expect("readable");
        let values = table.values().expect("decodes");
        tables += 1;
        positions += table.header().counts.classes();
        if let Err(e) = table.check_counts(&values) {
            bad += 1;
            println!("{id:?}: {e}");
        }
    }
    println!("{tables} tables, {positions} positions by their headers, {bad} with wrong counts");
    std::process::exit(i32::from(bad > 0));
}
