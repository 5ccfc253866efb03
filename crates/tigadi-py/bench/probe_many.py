"""Times tigadi.Tablebase.probe_many per position, against the Rust prober on
the same positions (crates/tigadi-tablebase/examples/probe_batch.rs).

    python crates/tigadi-py/bench/probe_many.py TABLEBASE_DIR [COUNT] [MOVER OPPONENT]

Writes COUNT (default 100000) random moving-phase positions of subspace
MOVER v OPPONENT (default 4v4; the tables must be in TABLEBASE_DIR/tigadi/) to
target/probe-bench-positions.txt, times probe_many on them with and without
moves (best of 5 after one untimed pass) on all cores and on one
(RAYON_NUM_THREADS=1 in a child process), then runs the Rust example on the
same file. Wall and CPU time are both printed; on a shared machine compare the
CPU times of one thread.
"""

import os
import pathlib
import random
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[3]
POINTS = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split()
RANKS = [3, 3, 3, 6, 3, 3, 3]
PASSES = 5


def random_position(rng, mover, opponent):
    side = rng.choice("BS")
    pts = rng.sample(range(24), mover + opponent)
    own, other = set(pts[:mover]), set(pts[mover:])
    bone, seed = (own, other) if side == "B" else (other, own)
    cells = ["B" if i in bone else "S" if i in seed else "." for i in range(24)]
    ranks, i = [], 0
    for n in RANKS:
        ranks.append("".join(cells[i : i + n]))
        i += n
    return "/".join(ranks) + " " + side


def time_python(directory, path):
    import tigadi

    tb = tigadi.Tablebase(directory)
    texts = path.read_text().split("\n")[:-1]
    threads = os.environ.get("RAYON_NUM_THREADS", "all")
    for moves in (True, False):
        tb.probe_many(texts, moves=moves)
        times = [timed(lambda: tb.probe_many(texts, moves=moves)) for _ in range(PASSES)]
        wall, cpu = (min(t[i] for t in times) * 1e9 / len(texts) for i in (0, 1))
        print(
            f"Python probe_many(moves={moves}), {threads} thread(s): {cpu:.0f} ns CPU, "
            f"{wall:.0f} ns wall per position ({len(texts)} positions, best of {PASSES})"
        )


def timed(f):
    """Wall and process CPU seconds (all threads) that f takes."""
    start, start_cpu = time.perf_counter(), time.process_time()
    f()
    return time.perf_counter() - start, time.process_time() - start_cpu


def main():
    directory = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--python-only":
        time_python(directory, pathlib.Path(sys.argv[3]))
        return
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    mover, opponent = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (4, 4)
    rng = random.Random(2026)
    path = REPO / "target" / "probe-bench-positions.txt"
    path.write_text("".join(random_position(rng, mover, opponent) + "\n" for _ in range(count)))
    for threads in (None, "1"):
        env = dict(os.environ)
        if threads:
            env["RAYON_NUM_THREADS"] = threads
        subprocess.run(
            [sys.executable, __file__, directory, "--python-only", str(path)], env=env, check=True
        )
    subprocess.run(
        ["cargo", "run", "--quiet", "--release", "-p", "tigadi-tablebase", "--example",
         "probe_batch", "--", directory, str(path)],
        cwd=REPO, check=True,
    )


if __name__ == "__main__":
    main()
