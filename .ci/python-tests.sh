#!/usr/bin/env bash
# The Python package's tests (crates/tigadi-py) from a fresh clone: a virtualenv
# with maturin and pytest from PyPI, the extension built and installed into it,
# the `tigadi` CLI built unless $TIGADI_BIN names one (the tests solve small
# tablebases with it), then pytest.
#
# Needs python3 (3.8 or later, with venv) and the Rust toolchain; nothing else.
# The virtualenv goes to $TIGADI_VENV (default target/py-venv, ignored by git)
# and is reused by later runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
venv="${TIGADI_VENV:-target/py-venv}"

python3 --version
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
venv="$(cd "$venv" && pwd)"  # absolute: TIGADI_VENV may be either
# open_spiel (a binary wheel) for tigadi.openspiel's tests (test_openspiel.py).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin pytest open_spiel

# The CLI the tests solve with: $TIGADI_BIN where given (.ci/run passes the one
# `cargo test --workspace` built, whose features differ from a build of the CLI
# alone: building it again here took CI a minute), else built here.
if [ -z "${TIGADI_BIN:-}" ]; then
    cargo build --release -p tigadi-cli
    TIGADI_BIN="$PWD/target/release/tigadi"
fi
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --release --manifest-path crates/tigadi-py/Cargo.toml

TIGADI_BIN="$TIGADI_BIN" "$venv/bin/python" -m pytest -q crates/tigadi-py/tests
