#!/usr/bin/env python3
"""Totals of the lines that `tigadi solve` writes to a log (not to a terminal): the
moving phase's pairs (slots, wall and CPU seconds, peak memory, random memory
words touched) and the placing phase's tiers (`6v8 with 2+3 in hand: ...`, or in logs
of solves before the tier job `placing layer 9, 6v8: ...`: slots, wall and CPU
seconds, peak memory), each phase's on a line of its own. These are the
game-theoretic pass's lines (a step of Lasker's rule that solves two tiers
with gotis in hand together, `3v2 with 0+1 in hand and 2v3 with 1+0 in hand:
...`, counts its two tiers and its time once). A Lasker step whose
100-turn values were found with its game values (its game line ends "its
100-turn values found with them") counts the time and CPU of both kinds.

The 100-turn pass's lines (`9v9 (100-turn): ...`, `6v8 with 2+3 in hand
(100-turn): ...`) make a third row, "100-turn": its steps, their wall seconds,
and, over the lines that give them (older logs gave neither), their slots, CPU
seconds and peak; a step found with its game values ("found with the game
values") is counted apart (`with_game`), its time and CPU being in the game
line's.

Usage: python3 benches/solve_log_totals.py [--json] LOG [LOG ...]

A resumed run prints "already solved" for the pairs and tiers an earlier run
solved, so pass every log of the run in order; each pair and each placing
tier counts once (its first result line). A run stopped in the middle of a
pair or a tier printed no line for it, so the totals are those of the work a
run without the stop would have done: the sum of the wall times is the solve's
wall time less what runs outside the pairs and tiers (start-up, checking the
tables already written when a phase starts) and less, for a stopped run, the
work redone after the stop.

With --json, one JSON object per phase instead of the text lines.
"""
import json
import re
import sys

PAIR = re.compile(
    r"(\S+): (\d+) slots, ([\d.]+) s \(([\d.]+) CPU s, peak ([\d.]+) GB\).*?"
    # "random memory words": words of memory read or written at random, not the
    # depths in words; older logs say "random words touched".
    r"(\d+) random (?:memory )?words touched"
)
# A tier with gotis in hand, or (Lasker's rule) a step of two tiers solved
# together, named both: `3v2 with 0+1 in hand and 2v3 with 1+0 in hand: ...`.
TIER = re.compile(
    r"(\d+v\d+) with (\d+\+\d+) in hand(?: and (\d+v\d+) with (\d+\+\d+) in hand)?: "
    r"(\d+) slots, ([\d.]+) s \(([\d.]+) CPU s, peak ([\d.]+) GB\)"
)
# The same line as solves before the tier job wrote it (`placing layer 9, 2v3:
# ...`; the 100-turn pass's `placing layer 9, 100-turn rule, 2v3: ...` does not
# match): its hands are named by the placements made.
LAYER = re.compile(
    r"placing layer (\d+), (\d+v\d+): (\d+) slots, ([\d.]+) s \(([\d.]+) CPU s, "
    r"peak ([\d.]+) GB\)"
)
# A 100-turn line: slots, CPU and peak in newer logs; a step found with its
# game values says so instead of its CPU.
HORIZON = re.compile(
    r"(.+?) \(100-turn\): (?:(\d+) slots, )?([\d.]+) s \([\d.]+ s before writing"
    r"(?:; ([\d.]+) CPU s(?:, peak ([\d.]+) GB)?|(, |; )found with the game values)?\)"
)


def common(rows):
    """The fields both phases total, from rows that start (slots, wall seconds,
    CPU seconds, peak GB)."""
    rows = list(rows)
    slots = sum(x[0] for x in rows)
    cpu = sum(x[2] for x in rows)
    return {"slots": slots, "seconds": round(sum(x[1] for x in rows), 1),
            "cpu_seconds": round(cpu, 1), "peak_gb": max(x[3] for x in rows),
            "us_cpu_per_slot": round(cpu / slots * 1e6, 3)}


def totals(paths):
    """The moving, placing and 100-turn totals of the logs `paths`, as dicts
    (None for a phase with no lines)."""
    pairs, tiers, horizon = {}, {}, {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = HORIZON.match(line)
                if m:
                    if m.group(1) not in horizon:
                        horizon[m.group(1)] = m.groups()[1:]
                    continue
                m = PAIR.match(line)
                if m and m.group(1) not in pairs:
                    pairs[m.group(1)] = (int(m.group(2)), float(m.group(3)),
                                         float(m.group(4)), float(m.group(5)),
                                         int(m.group(6)))
                    continue
                key = None
                m = TIER.match(line)
                if m:
                    # ((hands, subspace), ...) of every tier the step names.
                    key = ((m.group(2), m.group(1)),)
                    if m.group(3):
                        key += ((m.group(4), m.group(3)),)
                    fields = m.groups()[4:]
                else:
                    m = LAYER.match(line)
                    key = m and (("layer " + m.group(1), m.group(2)),)
                    fields = m and m.groups()[2:]
                if m and key not in tiers:
                    tiers[key] = (int(fields[0]), float(fields[1]),
                                  float(fields[2]), float(fields[3]))
    moving = placing = None
    if pairs:
        words = sum(x[4] for x in pairs.values())
        moving = {"phase": "moving", "pairs": len(pairs), **common(pairs.values()),
                  "random_words": words}
        moving["words_per_slot"] = round(words / moving["slots"], 2)
    if tiers:
        named = [t for step in tiers for t in step]
        placing = {"phase": "placing", "hands": len({t[0] for t in named}),
                   "tiers": len(named), **common(tiers.values())}
    rule = None
    if horizon:
        alone = [h for h in horizon.values() if h[4] is None]
        used = [(int(h[0]), float(h[1]), float(h[2]), float(h[3] or 0))
                for h in alone if h[0] and h[2]]
        rule = {"phase": "100-turn", "steps": len(horizon),
                "with_game": len(horizon) - len(alone),
                "seconds": round(sum(float(h[1]) for h in alone), 1),
                "measured_steps": len(used)}
        if used:
            rule.update({k: v for k, v in common(used).items() if k != "seconds"})
    return moving, placing, rule


def main(args):
    as_json = "--json" in args
    paths = [a for a in args if a != "--json"]
    moving, placing, rule = totals(paths)
    if not moving and not placing and not rule:
        sys.exit("no pair, placing-tier or 100-turn lines in " + ", ".join(paths))
    for t in (moving, placing, rule):
        if t is None:
            continue
        if as_json:
            print(json.dumps(t, sort_keys=True))
        elif t["phase"] == "moving":
            print(f"{t['pairs']} pairs, {t['slots']} slots, {t['seconds']:.1f} s, "
                  f"{t['cpu_seconds']:.1f} CPU s, peak {t['peak_gb']} GB, "
                  f"{t['random_words']} random words touched, "
                  f"{t['us_cpu_per_slot']:.3f} us CPU a slot, "
                  f"{t['words_per_slot']:.2f} words a slot")
        elif t["phase"] == "100-turn":
            line = (f"100-turn: {t['steps']} steps ({t['with_game']} found with the "
                    f"game values), {t['seconds']:.1f} s")
            if t["measured_steps"]:
                line += (f"; the {t['measured_steps']} steps with figures: "
                         f"{t['slots']} slots, {t['cpu_seconds']:.1f} CPU s, "
                         f"peak {t['peak_gb']} GB, {t['us_cpu_per_slot']:.3f} us CPU a slot")
            print(line)
        else:
            print(f"placing: {t['hands']} hands, {t['tiers']} tiers, "
                  f"{t['slots']} slots, {t['seconds']:.1f} s, {t['cpu_seconds']:.1f} CPU s, "
                  f"peak {t['peak_gb']} GB, {t['us_cpu_per_slot']:.3f} us CPU a slot")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    main(sys.argv[1:])
