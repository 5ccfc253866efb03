#!/usr/bin/env python3
"""Totals of the moving-phase pair lines that `tigadi solve` writes to a log (not to
a terminal): pairs, slots, CPU seconds, peak memory and random words touched.

Usage: python3 benches/solve_log_totals.py LOG [LOG ...]

A resumed run prints "already solved" for the pairs an earlier run solved, so pass
every log of the run in order; each pair counts once (its first result line).
"""
import re
import sys

LINE = re.compile(
    r"(\S+): (\d+) slots, ([\d.]+) s \(([\d.]+) CPU s, peak ([\d.]+) GB\).*?"
    r"(\d+) random words touched"
)


def main(paths):
    seen = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                m = LINE.match(line)
                if m and m.group(1) not in seen:
                    seen[m.group(1)] = (int(m.group(2)), float(m.group(4)),
                                        float(m.group(5)), int(m.group(6)))
    if not seen:
        sys.exit("no pair lines with a random-words count in " + ", ".join(paths))
    slots = sum(v[0] for v in seen.values())
    cpu = sum(v[1] for v in seen.values())
    words = sum(v[3] for v in seen.values())
    peak = max(v[2] for v in seen.values())
    print(f"{len(seen)} pairs, {slots} slots, {cpu:.1f} CPU s, peak {peak} GB, "
          f"{words} random words touched, {cpu / slots * 1e6:.3f} us CPU a slot, "
          f"{words / slots:.2f} words a slot")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
