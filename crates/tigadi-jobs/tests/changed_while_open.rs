//! Tables changed while they are open (issue 26): rewritten in place with
//! consistent checksums, given a huge block offset, truncated. The reader answers
//! from what it checked at opening, or says which file is wrong; it never answers
//! another value, never panics and never dies of a signal.

use crate::common;

use common::*;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tigadi_index::Subspace;
use tigadi_rules::RuleSet;
use tigadi_solve::Packed;
use tigadi_tablebase::format::{checksum, BlockEntry, Header, ENTRY_LEN};
use tigadi_tablebase::{Table, Tablebase, TablebaseDir};

const RULES: RuleSet = RuleSet::TIGADI;

fn sub() -> Subspace {
    Subspace::new(3, 3)
}

/// The tables of up to six gotis, solved and written once: their directory and
/// the solver's values of 3v3.
fn solved() -> &'static (tempfile::TempDir, Vec<Packed>) {
    static CELL: OnceLock<(tempfile::TempDir, Vec<Packed>)> = OnceLock::new();
    CELL.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let tables = solve_and_write(dir.path(), RULES, 6);
        (dir, tables[&sub()].clone())
    })
}

/// A fresh copy of the solved directory, and the path of its 3v3 table.
fn copy() -> (tempfile::TempDir, PathBuf) {
    let (src, _) = solved();
    let dst = tempfile::tempdir().unwrap();
    let (from, to) = (src.path().join("tigadi"), dst.path().join("tigadi"));
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let path = TablebaseDir::new(dst.path(), &RULES).table_path(game(sub()));
    (dst, path)
}

/// A tablebase on `dir` with a one-block cache (so nearly every probe reads its
/// block from the file), with the 3v3 table opened by a first, correct probe.
fn opened(dir: &Path) -> Tablebase {
    let tb = Tablebase::with_cache_blocks(dir, &RULES, 1);
    let (slot, board) = boards(sub())[0];
    assert_eq!(
        tb.probe(board).unwrap(),
        solved().1[slot as usize].get().unwrap()
    );
    tb
}

/// Probes every board of 3v3: each answer is the solver's value or an error naming
/// `file` (a Corrupt one when `corrupt_only`). Returns (right values, errors).
fn probe_all(tb: &Tablebase, file: &Path, corrupt_only: bool) -> (usize, usize) {
    let truth = &solved().1;
    let name = file.display().to_string();
    let (mut right, mut errors) = (0, 0);
    for (slot, board) in boards(sub()) {
        match tb.probe(board) {
            Ok(v) => {
                assert_eq!(
                    v,
                    truth[slot as usize].get().unwrap(),
                    "a wrong value for slot {slot} of {board:?}"
                );
                right += 1;
            }
            Err(e) => {
                assert!(!corrupt_only || e.is_corrupt(), "{e}");
                assert!(e.to_string().contains(&name), "{e} does not name {name}");
                errors += 1;
            }
        }
    }
    (right, errors)
}

/// The DTC block table entry `b` of `bytes` (a whole file with header `h`).
fn entry(h: &Header, bytes: &[u8], b: u64) -> BlockEntry {
    let at = (h.dtc.table_offset + b * ENTRY_LEN as u64) as usize;
    BlockEntry::from_bytes(&bytes[at..at + ENTRY_LEN])
}

fn set_entry(h: &Header, bytes: &mut [u8], b: u64, e: BlockEntry) {
    let at = (h.dtc.table_offset + b * ENTRY_LEN as u64) as usize;
    bytes[at..at + ENTRY_LEN].copy_from_slice(&e.to_bytes());
}

/// The decompressed bytes that entry `e` points at in `bytes`.
fn block_at(bytes: &[u8], e: &BlockEntry) -> Vec<u8> {
    let start = e.offset as usize;
    let data = &bytes[start..start + e.compressed_len as usize];
    zstd::bulk::decompress(data, e.raw_len as usize).unwrap()
}

/// Rewrites the file at `path` in place (same length, not a new file) with what
/// `change` makes of its bytes, the head and whole-file checksums recomputed so
/// the file checks out internally.
fn rewrite_in_place(path: &Path, change: impl FnOnce(&Header, &mut [u8])) {
    let mut bytes = std::fs::read(path).unwrap();
    let len = bytes.len();
    let h = Header::parse(&bytes, path).unwrap();
    change(&h, &mut bytes);
    assert_eq!(bytes.len(), len);
    let head = h.head_len() as usize;
    let sum = checksum(&bytes[..head]);
    bytes[head..head + 8].copy_from_slice(&sum.to_le_bytes());
    let sum = checksum(&bytes[..len - 8]);
    bytes[len - 8..].copy_from_slice(&sum.to_le_bytes());
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.write_all_at(&bytes, 0).unwrap();
}

/// The full DTC blocks (all of the same length) of the file with header `h`.
fn full_blocks(h: &Header) -> u64 {
    h.slots / h.dtc.slots_per_block as u64
}

/// The block table rewritten (the case): each full DTC block's entry
/// points at the next full block's data, with its checksum.
fn redirect(h: &Header, bytes: &mut [u8]) {
    let n = full_blocks(h);
    assert!(n >= 2, "3v3 has {n} full DTC blocks");
    let old: Vec<BlockEntry> = (0..n).map(|b| entry(h, bytes, b)).collect();
    let mut differs = 0;
    for b in 0..n {
        let to = old[((b + 1) % n) as usize];
        differs += usize::from(block_at(bytes, &to) != block_at(bytes, &old[b as usize]));
        set_entry(h, bytes, b, to);
    }
    assert!(differs > 0, "the new block table gives the same values");
}

/// Different values in the same bytes: each full DTC block whose values move one
/// slot along compresses (at a higher level) into no more bytes than it had; it is
/// written in place, padded with a zstd skippable frame, and its checksum in the
/// block table updated.
fn new_values(h: &Header, bytes: &mut [u8]) {
    let mut rewritten = 0;
    for b in 0..full_blocks(h) {
        let mut e = entry(h, bytes, b);
        let raw = block_at(bytes, &e);
        let n = raw.len() / 2;
        let mut moved = raw.clone();
        moved[..n].rotate_left(1);
        moved[n..].rotate_left(1);
        let compressed = zstd::bulk::compress(&moved, 19).unwrap();
        let room = e.compressed_len as usize;
        if moved == raw || compressed.len() + 8 > room {
            continue;
        }
        let mut data = compressed;
        let pad = room - data.len() - 8;
        data.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        data.extend_from_slice(&(pad as u32).to_le_bytes());
        data.resize(room, 0);
        e.checksum = checksum(&data);
        let start = e.offset as usize;
        bytes[start..start + room].copy_from_slice(&data);
        assert_eq!(block_at(bytes, &e), moved, "the padded block reads back");
        set_entry(h, bytes, b, e);
        rewritten += 1;
    }
    assert!(rewritten > 0, "no block could be rewritten in place");
}

#[test]
fn a_table_rewritten_in_place_gives_the_checked_values_or_corrupt() {
    for (what, change) in [
        ("block table", redirect as fn(&Header, &mut [u8])),
        ("block data", new_values),
    ] {
        let (dir, path) = copy();
        let tb = opened(dir.path());
        let table = Table::open(&path).unwrap();
        table.check_file_checksum().unwrap();
        rewrite_in_place(&path, change);
        let (right, errors) = probe_all(&tb, &path, true);
        assert!(right > 0, "{what}: nothing read after the rewrite");
        if what == "block data" {
            assert!(errors > 0, "{what}: the changed blocks were not noticed");
        }
        let e = table.check_file_checksum().unwrap_err();
        assert!(e.is_corrupt(), "{what}: {e}");
    }
}

#[test]
fn a_huge_block_offset_written_while_open_is_no_panic() {
    let (dir, path) = copy();
    let tb = opened(dir.path());
    rewrite_in_place(&path, |h, bytes| {
        for b in 0..h.dtc.block_count {
            let mut e = entry(h, bytes, b);
            e.offset = u64::MAX - 3 - b;
            e.compressed_len = u32::MAX;
            set_entry(h, bytes, b, e);
        }
    });
    // The blocks' bytes are where they were: every value is still right.
    let (right, _) = probe_all(&tb, &path, true);
    assert!(right > 0);
    // Opened afresh, the crafted file is refused.
    let fresh = Tablebase::with_cache_blocks(dir.path(), &RULES, 1);
    let (right, errors) = probe_all(&fresh, &path, true);
    assert_eq!((right, errors > 0), (0, true));
}

/// Set in the child process of the truncation test: its tablebase directory.
const CHILD_DIR: &str = "TIGADI_TEST_TRUNCATED_CHILD_DIR";

/// Truncates the open 3v3 table to half its length, probes every board (each
/// answer right or an error naming the file), then puts the same bytes back (as
/// `cp` of the same file over it would) and probes again (every answer right).
fn truncate_and_probe(dir: &Path) {
    let path = TablebaseDir::new(dir, &RULES).table_path(game(sub()));
    let bytes = std::fs::read(&path).unwrap();
    let tb = opened(dir);
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(bytes.len() as u64 / 2).unwrap();
    let (right, errors) = probe_all(&tb, &path, false);
    assert!(errors > 0, "nothing read past the end ({right} right)");
    file.write_all_at(&bytes, 0).unwrap();
    let (back, after) = probe_all(&tb, &path, true);
    assert_eq!(after, 0, "{back} right after the file was put back");
    println!("child: {right} right and {errors} errors after truncation, all right once put back");
}

#[test]
fn a_table_truncated_while_open_is_an_error_naming_it_not_a_crash() {
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        truncate_and_probe(Path::new(&dir));
        return;
    }
    // In a child process, so that a signal (SIGBUS from a mapped file that shrank)
    // shows up as its exit status rather than killing the test run.
    let (dir, _) = copy();
    // The harness names a test by its module path without the crate's name.
    let module = module_path!().split_once("::").map(|(_, m)| m);
    let name = "a_table_truncated_while_open_is_an_error_naming_it_not_a_crash";
    let test = module.map_or(name.to_string(), |m| format!("{m}::{name}"));
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &test, "--nocapture", "--test-threads=1"])
        .env(CHILD_DIR, dir.path())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success(),
        "the child process failed ({:?}, signal {:?}):\n{stdout}\n{stderr}",
        out.status,
        std::os::unix::process::ExitStatusExt::signal(&out.status)
    );
    assert!(
        stdout.contains("child: "),
        "the child did not run:\n{stdout}"
    );
}
