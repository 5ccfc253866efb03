//! `include/tigadi.h` is what cbindgen makes of `src/lib.rs`: the header and the
//! library cannot drift apart. After changing the C interface, rewrite the header
//! with `TIGADI_BLESS=1 cargo test --release -p tigadi-ffi --test ffi header::`.

use std::path::Path;

#[test]
fn header_matches_the_rust_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen reads src/lib.rs");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8 header");
    let path = dir.join("include/tigadi.h");
    if std::env::var_os("TIGADI_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("writes the header");
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "{} is out of date with src/lib.rs; rewrite it with \
         TIGADI_BLESS=1 cargo test --release -p tigadi-ffi --test ffi header::",
        path.display()
    );
}
