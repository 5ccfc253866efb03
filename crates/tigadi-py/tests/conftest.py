"""Fixtures: the ``tigadi`` command built by cargo, and small tablebases that the
tests solve themselves with it (a second or two each)."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]

# Gotis on the board in the tablebases the tests solve: 3v3, 3v4 and 4v3, so
# that captures lead into solved tables and into game over.
MAX_PIECES = 7


def tigadi_bin():
    """The CLI: $TIGADI_BIN, else target/release/tigadi of this checkout."""
    path = pathlib.Path(os.environ.get("TIGADI_BIN", REPO / "target" / "release" / "tigadi"))
    if not path.is_file():
        pytest.fail(
            f"the tigadi command is needed at {path}: run `cargo build --release -p tigadi-cli` "
            "or set TIGADI_BIN"
        )
    return path


def run_cli(*args, stdin=None):
    """Runs the CLI, failing the test with its stderr when it fails."""
    done = subprocess.run(
        [str(tigadi_bin()), *args], input=stdin, capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.fail(f"tigadi {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def cli_probe_json(directory, rules, positions):
    """``tigadi probe --json`` in batch mode: one JSON object per position."""
    out = run_cli(
        "--rules", rules, "probe", "--dir", str(directory), "--json",
        stdin="".join(p + "\n" for p in positions),
    )
    return [json.loads(line) for line in out.splitlines()]


def solve(tmp_path_factory, rules):
    directory = tmp_path_factory.mktemp(f"tb-{rules}")
    # Without the 100-turn tables: moves are ordered by their game-theoretic
    # values, which the naive oracle of the tests checks.
    run_cli(
        "--rules", rules, "solve", "--max-pieces", str(MAX_PIECES), "--no-horizon",
        "--dir", str(directory),
    )
    return directory


@pytest.fixture(scope="session")
def tigadi_tb(tmp_path_factory):
    """A directory with the `tigadi` tables up to MAX_PIECES gotis."""
    return solve(tmp_path_factory, "tigadi")


@pytest.fixture(scope="session")
def navakankari_tb(tmp_path_factory):
    """A directory with the `navakankari` (blocked player loses) tables."""
    return solve(tmp_path_factory, "navakankari")


@pytest.fixture(scope="session")
def morris3_tb(tmp_path_factory):
    """The whole game of `morris,pieces=3` (three gotis a side): every moving-phase
    table and every placing table, with their DTW tables (``--dtw``), so any
    position of a game can be probed with its depth to win."""
    directory = tmp_path_factory.mktemp("tb-morris3")
    run_cli("--rules", "morris,pieces=3", "solve", "--no-horizon", "--dtw", "--dir", str(directory))
    return directory


#: The rule set solved whole, with the 100-turn (horizon) tables, by ``tigadi4_tb``.
PIECES4 = "tigadi,pieces=4"


@pytest.fixture(scope="session")
def tigadi4_tb(tmp_path_factory):
    """The whole game of `tigadi,pieces=4` (four gotis a side): every moving-phase
    and placing table with its horizon table, so that every position of a game is
    answered with its values under the 100-turn rule too."""
    directory = tmp_path_factory.mktemp("tb-tigadi4")
    run_cli("--rules", PIECES4, "solve", "--dir", str(directory))
    return directory


@pytest.fixture(scope="session")
def morris8_tb(tmp_path_factory):
    """`morris` (OpenSpiel's nine_mens_morris) moving-phase tables up to 8 gotis
    on the board (3v3 to 5v3), with their DTW tables: every position a game
    reaches from one of them is answered (a few seconds)."""
    directory = tmp_path_factory.mktemp("tb-morris8")
    run_cli(
        "--rules", "morris", "solve", "--max-pieces", "8", "--no-horizon", "--dtw",
        "--dir", str(directory),
    )
    return directory


@pytest.fixture(scope="session")
def lasker3_tb(tmp_path_factory):
    """The whole game of `lasker,pieces=3` (Lasker's rule: a player with gotis in
    hand may also slide), its game-theoretic tables: without the 100-turn
    tables, turns are ranked by their game values, which the successor checks
    assume."""
    directory = tmp_path_factory.mktemp("tb-lasker3")
    run_cli("--rules", "lasker,pieces=3", "solve", "--no-horizon", "--dir", str(directory))
    return directory


@pytest.fixture(scope="session")
def lasker3_rule_tb(tmp_path_factory):
    """The whole game of `lasker,pieces=3` with its 100-turn tables."""
    directory = tmp_path_factory.mktemp("tb-lasker3-rule")
    run_cli("--rules", "lasker,pieces=3", "solve", "--dir", str(directory))
    return directory
