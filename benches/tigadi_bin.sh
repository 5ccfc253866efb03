# Sourced by the bench scripts (reproduce.sh, morabaraba.sh): `tigadi_bin NAME`
# sets $bin, unless the caller set it (--bin PATH), to $TIGADI_BIN, else
# $repo/target/release/tigadi, else tigadi on PATH, and exits 2 naming the
# script NAME when there is none.
tigadi_bin() {
    bin="${bin:-${TIGADI_BIN:-}}"
    if [ -z "$bin" ]; then
        if [ -x "$repo/target/release/tigadi" ]; then bin="$repo/target/release/tigadi"
        else bin="$(command -v tigadi || true)"
        fi
    fi
    if [ -z "$bin" ] || [ ! -x "$bin" ]; then
        echo "$1: no tigadi binary${bin:+ at $bin}; build it with" \
            "'cargo build --release -p tigadi-cli' or pass --bin PATH" >&2
        exit 2
    fi
}
