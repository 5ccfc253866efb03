//! Python bindings of the Tigadi toolkit: the extension module `tigadi._tigadi`,
//! which `python/tigadi/__init__.py` re-exports as `tigadi`.
//!
//! What Python gets: `Position` (docs/RULES.md §9 notation, legal moves, playing a
//! move), `Tablebase` (value, DTC and every move's value of a position through
//! `tigadi_tablebase::Tablebase`, batches with the GIL released) and the
//! exceptions `TablebaseError`, `MissingTableError`, `CorruptTableError`.
//!
//! Not here: any game or value logic of its own. Moves come from
//! `tigadi_rules::Position`, values (also under the 100-turn rule) and their order
//! from the one door `tigadi_tablebase::Tablebase::answer` (`answer_value` without
//! the moves). Position strings are parsed under the rule set they are probed
//! under.
//!
//! The bindings compile only with the `python` feature, which maturin enables
//! (`pyproject.toml`); without it this crate is empty, so the Rust workspace
//! builds and tests without PyO3 or a Python installation.

#[cfg(feature = "python")]
mod bindings;
