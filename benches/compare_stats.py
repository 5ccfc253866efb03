#!/usr/bin/env python3
"""Compare two `tigadi stats --json` outputs row by row.

Usage: compare_stats.py [--partial] [--game] COMMITTED RECOMPUTED

COMMITTED is a published file such as data/tigadi-moving-stats.jsonl, RECOMPUTED
the output of `tigadi --rules GAME stats --json --dir DIR` after a re-run.

Rows are matched by their key: the subspace for moving-phase rows ("3v4": 3 gotis
for the player to move, 4 for the other), the placements made for the rows of
tiers with gotis in hand ("placed 5": one hands per number of placements without
Lasker's rule; with it, and whenever the committed file's rows carry `hands`, the
hands: "hands 2+1"),
and "empty board" for the empty board's line. Only the kinds of row present in
the committed file are compared (a placing run's output also holds the moving
rows; data/GAME-moving-stats.jsonl is their reference). Every field is compared
except the timing fields in IGNORED, so classes, win, draw, loss, the longest
DTCs, tables, the 100-turn fields and the empty board's value all count. The
depth-to-win fields in OPTIONAL (written only when the DTW tables were computed,
`tigadi solve --dtw`), a placing row's counts under the 100-turn rule (written
only when its horizon tables were computed), and its `hands` (added to `stats`
after the files were published), are compared when the committed row has them;
a re-run with those tables may then be compared with a file published without
them.

With --partial (a run limited by --max-pieces), committed rows the run did not
compute are listed as not compared instead of missing.

With --game (a re-run solved with --no-horizon), the fields under the
100-turn rule (HORIZON) are left out on both sides: the game values' fields are
compared with a file published with both kinds.

Prints one verdict per committed row and a summary line. Exit status: 0 when
every compared row is equal, 1 when a row differs, is missing, or is extra (or
nothing was compared), 2 for bad usage or unreadable input. Python 3 standard
library only.
"""

import json
import sys

IGNORED = {"seconds"}  # wall-clock time: differs from run to run and machine to machine
# The fields under the 100-turn rule: a row's counts and depths under the rule
# (under Lasker's rule the depth is a DTZ₁₀₀), null or absent without the
# horizon tables.
HORIZON = {"cursed_win", "blessed_loss", "max_dtc100_win", "max_dtc100_loss",
           "max_dtz100_win", "max_dtz100_loss"}
OPTIONAL = {"longest_dtw", "dtw",  # only with DTW tables: compared when committed
            # a placing layer's counts under the 100-turn rule: only with its horizon tables
            *HORIZON,
            # a placing row's hands, [mover, opponent]: newer than the published files
            "hands"}


def row_key(row, by_hands=False):
    """The row's kind and key, e.g. ("moving", "3v4"); a placing row's key is its
    hands with `by_hands` (Lasker's rule gives several hands per count of
    placements), else the placements made."""
    if "mover" in row and "opponent" in row:
        return "moving", f"{row['mover']}v{row['opponent']}"
    if "placed" in row:
        if by_hands:
            mover, opponent = row["hands"]
            return "placing", f"hands {mover}+{opponent}"
        return "placing", f"placed {row['placed']}"
    if "position" in row:
        return "empty", "empty board"
    raise ValueError(f"row of unknown kind: {json.dumps(row, sort_keys=True)}")


def load(path, by_hands=None):
    """The rows of a JSON-lines file as a list of (kind, key, row), in file order;
    placing rows keyed by hands when `by_hands`, or (None) when every placing row
    of the file has them and two share a count of placements."""
    raw = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise ValueError("not a JSON object")
                row_key(row)
                raw.append(row)
            except ValueError as e:
                raise ValueError(f"{path}:{number}: {e}") from None
    if by_hands is None:
        placing = [r for r in raw if "placed" in r and "mover" not in r]
        counts = [r["placed"] for r in placing]
        by_hands = (all("hands" in r for r in placing)
                    and len(set(counts)) < len(counts))
    return [row_key(r, by_hands) + (r,) for r in raw], by_hands


def by_key(rows, path):
    table = {}
    for kind, key, row in rows:
        if key in table:
            raise ValueError(f"{path}: two rows for {key}")
        table[key] = row
    return table


def differences(committed, recomputed, ignored=IGNORED):
    """(field, committed value, recomputed value) for every field that differs,
    the fields in `ignored` left out."""
    extra = (set(recomputed) - set(committed)) & OPTIONAL
    fields = sorted((set(committed) | set(recomputed)) - ignored - extra)
    missing = "(no such field)"
    return [
        (f, committed.get(f, missing), recomputed.get(f, missing))
        for f in fields
        if committed.get(f, missing) != recomputed.get(f, missing)
    ]


def compare(committed_path, recomputed_path, partial=False, out=sys.stdout, game=False):
    """Print the verdicts and the summary; return the exit status (0 or 1).
    With `game`, the fields under the 100-turn rule are not compared."""
    ignored_fields = IGNORED | HORIZON if game else IGNORED
    committed_rows, by_hands = load(committed_path)
    recomputed_rows, _ = load(recomputed_path, by_hands)
    committed = by_key(committed_rows, committed_path)
    kinds = {kind for kind, _, _ in committed_rows}
    recomputed = by_key([r for r in recomputed_rows if r[0] in kinds], recomputed_path)

    equal = differ = missing = 0
    not_run = []
    for _, key, row in committed_rows:
        if key not in recomputed:
            if partial:
                not_run.append(key)
            else:
                missing += 1
                print(f"MISSING  {key}: in {committed_path}, not in the re-run", file=out)
            continue
        diffs = differences(row, recomputed[key], ignored_fields)
        if diffs:
            differ += 1
            for field, was, now in diffs:
                print(f"DIFFERS  {key}: {field}: committed {json.dumps(was)}, "
                      f"recomputed {json.dumps(now)}", file=out)
        else:
            equal += 1
            print(f"equal    {key}", file=out)
    if not_run:
        print(f"not run  {', '.join(not_run)} (not compared: --max-pieces)", file=out)
    skipped = len(not_run)
    extra = [key for _, key, _ in recomputed_rows if key in recomputed and key not in committed]
    for key in extra:
        print(f"EXTRA    {key}: in the re-run, not in {committed_path}", file=out)

    compared = equal + differ
    ignored = ", ".join(sorted(IGNORED)) + (" and the 100-turn fields (--game)" if game else "")
    if differ or missing or extra or compared == 0:
        print(f"SUMMARY: DIFFERENT: {differ} of {compared} compared rows differ, "
              f"{missing} missing, {len(extra)} extra"
              + (f", {skipped} not run (--max-pieces)" if skipped else "")
              + (" (no row compared)" if compared == 0 else "")
              + f" [{committed_path} vs {recomputed_path}]", file=out)
        return 1
    scope = (f"only the {compared} subspaces of this run were compared, "
             f"{skipped} committed rows not run (--max-pieces)" if skipped
             else f"all {compared} committed rows compared")
    print(f"SUMMARY: EQUAL: {equal} of {compared} rows equal in every field but "
          f"{ignored} ({scope}) [{committed_path} vs {recomputed_path}]", file=out)
    return 0


def main(argv):
    args = list(argv)
    partial = "--partial" in args
    if partial:
        args.remove("--partial")
    game = "--game" in args
    if game:
        args.remove("--game")
    if len(args) != 2 or any(a.startswith("-") for a in args):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        return compare(args[0], args[1], partial, game=game)
    except (OSError, ValueError) as e:
        print(f"compare_stats.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
