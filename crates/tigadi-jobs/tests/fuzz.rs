//! Random damage to a file's bytes: parsing and reading never panic, and whatever
//! is read back is either an error or the original value.

use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::{Packed, Value};
use tigadi_tablebase::reader::cache::BlockCache;
use tigadi_tablebase::{encode, field, Section, Table, TableData, TableId, TableKind};

/// A synthetic table (no index needed): runs of wins, draws and losses with
/// varied DTCs and some padding, 40,000 slots.
fn original() -> &'static (Vec<Packed>, Vec<u8>) {
    static CELL: OnceLock<(Vec<Packed>, Vec<u8>)> = OnceLock::new();
    CELL.get_or_init(|| {
        let values: Vec<Packed> = (0..40_000u32)
            .map(|i| match (i / 97) % 5 {
                _ if i % 31 == 7 => Packed::NONE,
                0 => Packed::new(Value::Win(1 + (i % 13) as u16)),
                1 | 2 => Packed::DRAW,
                3 => Packed::new(Value::Loss((i % 9) as u16)),
                _ => Packed::new(Value::Win(200 + (i % 300) as u16)),
            })
            .collect();
        let id = TableId::moving(TableKind::GameTheoretic, Subspace::new(3, 3));
        let bytes = encode(&RuleSet::TIGADI, id, TableData::Game(&values)).unwrap();
        (values, bytes)
    })
}

/// Reads everything a prober could read; checks it against the original.
fn read_all(bytes: Vec<u8>) {
    let (values, _) = original();
    let Ok(t) = Table::from_bytes(Path::new("fuzzed.tgtb"), bytes) else {
        return;
    };
    let cache = BlockCache::new(4);
    for slot in (0..values.len() as u64).step_by(61) {
        if let Ok(v) = t.get::<field::Dtc>(&cache, 0, slot) {
            if let Some(truth) = values[slot as usize].get() {
                assert_eq!(v, truth);
            }
        }
        if let Ok(w) = t.get::<field::Wdl>(&cache, 0, slot) {
            if let Some(truth) = values[slot as usize].get() {
                assert_eq!(w, truth.wdl());
            }
        }
    }
    for b in 0..t.header().dtc.block_count {
        let _ = t.read_block(Section::Dtc, b);
    }
    if let Ok(all) = t.values() {
        for (p, v) in all.iter().zip(values) {
            if v.is_some() {
                assert_eq!(p, v);
            }
        }
    }
    let _ = t.decode::<field::Wdl>();
}

#[test]
fn original_reads_back() {
    let (values, bytes) = original();
    let t = Table::from_bytes(Path::new("ok.tgtb"), bytes.clone()).unwrap();
    t.check_file_checksum().unwrap();
    let all = t.values().unwrap();
    for (p, v) in all.iter().zip(values) {
        if v.is_some() {
            assert_eq!(p, v);
        }
    }
}

/// Through a one-block cache, reading the two sections in turn: every miss
/// decompresses into the buffer of the block just evicted, of the other section
/// and so of another size (16 KiB DTC, 8 KiB WDL blocks, and the shorter last
/// blocks), and every value still reads back right.
#[test]
fn reused_block_buffers_read_back() {
    let (values, bytes) = original();
    let t = Table::from_bytes(Path::new("ok.tgtb"), bytes.clone()).unwrap();
    let cache = BlockCache::new(1);
    for slot in (0..values.len() as u64).rev().step_by(7) {
        let Some(truth) = values[slot as usize].get() else {
            continue;
        };
        assert_eq!(t.get::<field::Dtc>(&cache, 0, slot).unwrap(), truth);
        assert_eq!(t.get::<field::Wdl>(&cache, 0, slot).unwrap(), truth.wdl());
    }
    // A buffer larger than the block, holding other bytes, is refilled exactly.
    let mut raw = vec![0xA5u8; 1 << 16];
    for b in 0..t.header().dtc.block_count {
        t.read_block_into(Section::Dtc, b, &mut raw).unwrap();
        assert_eq!(raw, t.read_block(Section::Dtc, b).unwrap(), "block {b}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mutated_bytes(edits in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..6)) {
        let mut bytes = original().1.clone();
        for (at, mask) in edits {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        read_all(bytes);
    }

    #[test]
    fn header_fields_overwritten(at in 0usize..300, value in any::<u64>()) {
        let mut bytes = original().1.clone();
        let end = (at + 8).min(bytes.len());
        bytes[at..end].copy_from_slice(&value.to_le_bytes()[..end - at]);
        read_all(bytes);
    }

    #[test]
    fn truncated(keep in 0usize..20_000) {
        let bytes = original().1.clone();
        let keep = keep.min(bytes.len());
        read_all(bytes[..keep].to_vec());
    }

    #[test]
    fn random_bytes(mut bytes in prop::collection::vec(any::<u8>(), 0..2000), magic in any::<bool>()) {
        if magic && bytes.len() >= 12 {
            bytes[..12].copy_from_slice(&original().1[..12]);
        }
        prop_assert!(Table::from_bytes(Path::new("random.tgtb"), bytes).is_err());
    }
}
