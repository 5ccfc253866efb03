#!/usr/bin/env python3
"""Tests of benches/solve_log_totals.py on small synthetic logs (a run stopped and
resumed): each pair and placing tier counts once, both phases are totalled.

    python3 benches/test_solve_log_totals.py

Python 3 standard library only.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOTALS = os.path.join(HERE, "solve_log_totals.py")

# The pairs' lines as older logs ("random words") and newer ones ("random
# memory words") write them: both are summed.
FIRST = """== 2026-12-03 21:19:34 start: tigadi
3v3: 1000 slots, 0.5 s (1.0 CPU s, peak 0.02 GB), 17 rounds, 5 wins, 0 draws, 1 losses (classes), 4000 random words touched
4v3+3v4: 3000 slots, 1.5 s (2.5 CPU s, peak 0.25 GB), 12 rounds, 5 wins, 1 draws, 2 losses (classes), 9000 random memory words touched
6v8 with 2+3 in hand: 2000 slots, 4.0 s (7.0 CPU s, peak 3.15 GB)
"""
# The resumed run: the pairs already solved, one placing line repeated (a table
# written again counts once), a new tier of the same hands, a new hands' tier, and
# the 100-turn pass's line of a tier (not counted).
SECOND = """4v3+3v4: already solved
6v8 with 2+3 in hand: 2000 slots, 9.0 s (9.0 CPU s, peak 3.00 GB)
7v8 with 2+3 in hand: 500 slots, 1.0 s (1.5 CPU s, peak 4.5 GB)
2+3 in hand: 2 tiers, 2500 slots, 5.0 s
7v7 with 3+3 in hand: 100 slots, 0.5 s (0.5 CPU s, peak 1.0 GB)
7v7 with 3+3 in hand (100-turn): 100 slots, 0.7 s (0.7 CPU s, peak 9.0 GB)
"""
# A Lasker solve's log: a step of two tiers solved together names both (its two
# tiers and two hands count, its time once), one of a single tier, a resumed
# run's repeat of the pair step (counted once).
LASKER = """3v3: 1000 slots, 0.5 s (1.0 CPU s, peak 0.02 GB), 17 rounds, 5 wins, 0 draws, 1 losses (classes), 4000 random memory words touched
3v2 with 0+1 in hand and 2v3 with 1+0 in hand: 800 slots, 0.3 s (0.4 CPU s, peak 0.05 GB), 29 rounds, 4 wins, 2 draws, 9 losses (classes), 1200 random memory words touched
2v2 with 1+1 in hand: 70 slots, 0.1 s (0.2 CPU s, peak 0.01 GB), 29 rounds, 3 wins, 1 draws, 4 losses (classes), 990 random memory words touched
3v2 with 0+1 in hand and 2v3 with 1+0 in hand: 800 slots, 0.9 s (0.9 CPU s, peak 0.05 GB), 29 rounds, 4 wins, 2 draws, 9 losses (classes), 1200 random memory words touched
"""


def run(*args):
    return subprocess.run([sys.executable, TOTALS, *args], capture_output=True,
                          text=True)


class Totals(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.logs = [self.log(f"run{i}.log", text) for i, text in enumerate((FIRST, SECOND))]

    def log(self, name, text):
        """Writes `text` to a log file `name` in the scratch folder; its path."""
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def tearDown(self):
        self.tmp.cleanup()

    def test_each_pair_and_tier_counts_once_across_the_logs(self):
        out = run("--json", *self.logs)
        self.assertEqual(out.returncode, 0, out.stderr)
        moving, placing = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual(moving["phase"], "moving")
        self.assertEqual((moving["pairs"], moving["slots"]), (2, 4000))
        self.assertEqual((moving["seconds"], moving["cpu_seconds"]), (2.0, 3.5))
        self.assertEqual((moving["peak_gb"], moving["random_words"]), (0.25, 13000))
        self.assertEqual(moving["words_per_slot"], 3.25)
        self.assertEqual(placing["phase"], "placing")
        self.assertEqual((placing["hands"], placing["tiers"]), (2, 3))
        self.assertEqual(placing["slots"], 2600)
        # The first line of 6v8 (4.0 s, 7.0 CPU s), not the repeat.
        self.assertEqual((placing["seconds"], placing["cpu_seconds"]), (5.5, 9.0))
        self.assertEqual(placing["peak_gb"], 4.5)

    def test_a_lasker_pair_step_counts_both_tiers_and_its_time_once(self):
        path = self.log("lasker.log", LASKER)
        out = run("--json", path)
        self.assertEqual(out.returncode, 0, out.stderr)
        moving, placing = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual((moving["pairs"], moving["slots"]), (1, 1000))
        self.assertEqual((placing["hands"], placing["tiers"]), (3, 3))
        self.assertEqual((placing["slots"], placing["seconds"]), (870, 0.4))
        self.assertEqual(placing["cpu_seconds"], 0.6)

    def test_text_lines_name_both_phases(self):
        out = run(*self.logs)
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual(len(lines), 2)
        self.assertTrue(lines[0].startswith("2 pairs, 4000 slots, 2.0 s, 3.5 CPU s"))
        self.assertTrue(lines[1].startswith("placing: 2 hands, 3 tiers, 2600 slots"))

    def test_a_log_of_the_layer_job_is_summed_too(self):
        # Placing lines as solves before the tier job wrote them; the 100-turn
        # pass's line is not counted.
        path = self.log(
            "layers.log",
            "placing layer 9, 2v3: 400 slots, 1.0 s (2.0 CPU s, peak 0.5 GB)\n"
            "placing layer 9, 2v4: 600 slots, 2.0 s (3.0 CPU s, peak 0.7 GB)\n"
            "placing layer 8, 2v3: 100 slots, 1.0 s (1.0 CPU s, peak 0.6 GB)\n"
            "placing layer 9, 2v3: 400 slots, 5.0 s (5.0 CPU s, peak 0.5 GB)\n"
            "placing layer 9, 100-turn rule, 2v3: 400 slots, 0.0 s "
            "(0.0 CPU s, peak 9.0 GB) (the game-theoretic values)\n")
        out = run("--json", path)
        self.assertEqual(out.returncode, 0, out.stderr)
        (placing,) = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual((placing["hands"], placing["tiers"]), (2, 3))
        self.assertEqual((placing["slots"], placing["seconds"]), (1100, 4.0))
        self.assertEqual(placing["peak_gb"], 0.7)

    def test_a_log_without_result_lines_is_an_error(self):
        path = self.log("empty.log", "4v3+3v4: already solved\n")
        out = run(path)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("no pair, placing-tier or 100-turn lines", out.stderr)

    def test_the_100_turn_lines_make_a_row_of_their_own(self):
        # An older line (no slots, no CPU), a newer one, a step found with its
        # game values (counted apart), and a resumed run's repeat (counted once).
        path = self.log(
            "rule.log",
            "3v3 (100-turn): 2.5 s (2.0 s before writing), 9 rounds, 1 wins\n"
            "4v3+3v4 (100-turn): 3000 slots, 4.0 s (3.0 s before writing; "
            "6.5 CPU s, peak 1.25 GB), 12 rounds, 5 wins\n"
            "2v2 with 1+1 in hand (100-turn): 70 slots, 0.5 s (0.4 s before "
            "writing; found with the game values), 29 rounds, 3 wins\n"
            "4v3+3v4 (100-turn): 3000 slots, 9.0 s (8.0 s before writing; "
            "9.5 CPU s, peak 2.0 GB), 12 rounds, 5 wins\n"
            "2v2 with 1+1 in hand: 70 slots, 0.1 s (0.2 CPU s, peak 0.01 GB), "
            "29 rounds, 3 wins, 1 draws, 4 losses (classes); its 100-turn "
            "values found with them\n")
        out = run("--json", path)
        self.assertEqual(out.returncode, 0, out.stderr)
        placing, rule = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual(placing["phase"], "placing")
        self.assertEqual(rule["phase"], "100-turn")
        self.assertEqual((rule["steps"], rule["with_game"]), (3, 1))
        self.assertEqual(rule["seconds"], 6.5)
        self.assertEqual((rule["measured_steps"], rule["slots"]), (1, 3000))
        self.assertEqual((rule["cpu_seconds"], rule["peak_gb"]), (6.5, 1.25))
        text = run(path).stdout.splitlines()
        self.assertTrue(
            text[1].startswith("100-turn: 3 steps (1 found with the game values), 6.5 s"),
            text)


if __name__ == "__main__":
    unittest.main()
