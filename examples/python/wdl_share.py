"""Plots the win/draw/loss share of every solved subspace (over symmetry
classes, for the player to move) as stacked bars, from ``tigadi stats --json``.

    tigadi stats --dir tablebases --json > stats.jsonl
    python examples/python/wdl_share.py stats.jsonl --out wdl.png

or let it run the CLI itself (``tigadi`` on PATH, or --tigadi PATH):

    python examples/python/wdl_share.py --dir tablebases --out wdl.png

Needs matplotlib (``pip install matplotlib``) for the picture; without it, or
with --text, it prints the shares as a table instead.
"""

import argparse
import json
import subprocess
import sys


def read_stats(args):
    """One dict per subspace: mover, opponent, classes, win, draw, loss, ..."""
    if args.stats:
        with open(args.stats) as f:
            lines = f.read().splitlines()
    else:
        cmd = [args.tigadi, "--rules", args.rules, "stats", "--dir", args.dir, "--json"]
        lines = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return sorted(rows, key=lambda r: (r["mover"] + r["opponent"], r["mover"]))


def shares(row):
    n = row["classes"]
    return tuple(row[k] / n for k in ("win", "draw", "loss"))


def print_table(rows):
    print(f"{'subspace':>8} {'classes':>12} {'win':>7} {'draw':>7} {'loss':>7}")
    for r in rows:
        w, d, l = shares(r)
        print(f"{r['mover']}v{r['opponent']:<6} {r['classes']:>12,} {w:>7.1%} {d:>7.1%} {l:>7.1%}")


def plot(rows, out, rules):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [f"{r['mover']}v{r['opponent']}" for r in rows]
    win, draw, loss = zip(*(shares(r) for r in rows))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(rows)), 4))
    ax.bar(names, win, color="#2e7d32", label="win")
    ax.bar(names, draw, bottom=win, color="#9e9e9e", label="draw")
    ax.bar(names, loss, bottom=[w + d for w, d in zip(win, draw)], color="#c62828", label="loss")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of symmetry classes")
    ax.set_xlabel("subspace (gotis of the player to move v the other's)")
    ax.set_title(f"{rules}: value for the player to move")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stats", nargs="?", help="output of `tigadi stats --json` (else the CLI is run)")
    ap.add_argument("--dir", default="tablebases", help="tablebase directory for the CLI")
    ap.add_argument("--rules", default="tigadi", help="rule set for the CLI")
    ap.add_argument("--tigadi", default="tigadi", help="the tigadi command")
    ap.add_argument("--out", default="wdl-share.png", help="picture to write")
    ap.add_argument("--text", action="store_true", help="print a table, draw nothing")
    args = ap.parse_args()
    rows = read_stats(args)
    if not rows:
        sys.exit("no solved subspaces in the stats")
    if args.text:
        print_table(rows)
        return
    try:
        plot(rows, args.out, args.rules)
    except ImportError:
        print_table(rows)
        print("(matplotlib is not installed: pip install matplotlib for the picture)", file=sys.stderr)


if __name__ == "__main__":
    main()
