//! Values made at most once per test process and kept for its life: naive
//! oracles' solutions that several tests of one binary compare against.
//!
//! The lock is held only to find a key's cell, so tests that need different
//! values make them at the same time; a test that needs one being made waits
//! for it. The cells are leaked: the values live as long as the process.
//! Crates' tests include this file with `#[path]`.

#![allow(dead_code)]

use std::sync::{Mutex, OnceLock};

/// A map from keys to values, each made once on first use.
pub struct Memo<K, V: 'static> {
    cells: Mutex<Vec<(K, &'static OnceLock<V>)>>,
}

impl<K: PartialEq, V> Memo<K, V> {
    pub const fn new() -> Memo<K, V> {
        Memo {
            cells: Mutex::new(Vec::new()),
        }
    }

    /// The value of `key`, made with `make` unless another call made it (or is
    /// making it) before.
    pub fn get(&self, key: K, make: impl FnOnce() -> V) -> &'static V {
        let cell: &'static OnceLock<V> = {
            let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
            match cells.iter().find(|(k, _)| *k == key) {
                Some(&(_, cell)) => cell,
                None => {
                    let cell: &'static OnceLock<V> = Box::leak(Box::new(OnceLock::new()));
                    cells.push((key, cell));
                    cell
                }
            }
        };
        cell.get_or_init(make)
    }
}
