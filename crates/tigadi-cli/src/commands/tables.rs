//! Opening a rule set's tables for the commands that read them, with a word at
//! start when the directory holds none of them: a missing directory, or one that
//! holds only other rule sets' tables (named, with the `--rules` that reads them),
//! instead of a "no table" for the first position asked about.

use std::path::Path;
use tigadi_rules::RuleSet;
use tigadi_tablebase::{Tablebase, TablebaseDir};

/// The tables of `rules` under `dir`, or the message of [`missing`].
pub fn open(dir: &Path, rules: &RuleSet) -> Result<Tablebase, String> {
    match missing(dir, rules) {
        Some(why) => Err(why),
        None => Ok(Tablebase::open(dir, rules)),
    }
}

/// Why `dir` holds no tables of `rules`, `None` when it has their folder.
pub fn missing(dir: &Path, rules: &RuleSet) -> Option<String> {
    if !dir.is_dir() {
        return Some(format!(
            "tablebase directory {} does not exist (write tables there with `tigadi solve --dir {}`)",
            dir.display(),
            dir.display()
        ));
    }
    let own = TablebaseDir::new(dir, rules);
    if own.path().is_dir() {
        return None;
    }
    let mut others: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let theirs = TablebaseDir::rules_named(&name)?;
            Some(format!("found {name}/: add --rules {}", theirs.name()))
        })
        .collect();
    others.sort();
    let advice = match others.is_empty() {
        true => format!(
            "write them with `tigadi --rules {} solve --dir {}`",
            rules.name(),
            dir.display()
        ),
        false => others.join("; "),
    };
    Some(format!(
        "{} holds no tables of the rule set {} (looked for {}/); {advice}",
        dir.display(),
        rules.name(),
        own.path().display()
    ))
}
