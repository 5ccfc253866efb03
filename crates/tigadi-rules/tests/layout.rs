//! Every crate's integration tests are the modules of one binary,
//! `tests/main.rs` (`autotests = false` in its Cargo.toml): a file in `tests/`
//! that its `main.rs` does not declare would be neither compiled nor run. This
//! checks the whole workspace's crates, so a forgotten file fails here.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

#[test]
fn every_test_file_is_a_module_of_its_crates_test_binary() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for krate in fs::read_dir(&crates).unwrap() {
        let tests = krate.unwrap().path().join("tests");
        let Ok(entries) = fs::read_dir(&tests) else {
            continue;
        };
        let files: BTreeSet<String> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .filter(|stem| stem != "main")
            .collect();
        if files.is_empty() {
            continue;
        }
        let main = fs::read_to_string(tests.join("main.rs"))
            .unwrap_or_else(|e| panic!("{}: test files but no main.rs: {e}", tests.display()));
        let declared: BTreeSet<String> = main
            .lines()
            .filter_map(|l| l.trim().strip_prefix("mod "))
            .filter_map(|l| l.strip_suffix(';'))
            .map(str::to_string)
            .collect();
        let missing: Vec<_> = files.difference(&declared).collect();
        assert!(
            missing.is_empty(),
            "{}: {missing:?} not declared in main.rs, so never compiled or run",
            tests.display()
        );
        let manifest = fs::read_to_string(tests.join("../Cargo.toml")).unwrap();
        assert!(
            manifest.contains("autotests = false") && manifest.contains("path = \"tests/main.rs\""),
            "{}: tests/main.rs is not the crate's one test binary",
            tests.display()
        );
        checked += files.len();
    }
    assert!(checked > 50, "only {checked} test files found");
}
