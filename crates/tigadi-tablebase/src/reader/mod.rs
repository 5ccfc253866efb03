//! Reading tablebase files: one file's parsing and block access ([`table`]) and the
//! decompressed-block cache that probes share ([`cache`]).

pub mod cache;
pub mod table;
