#!/usr/bin/env python3
"""Tests of benches/compare_stats.py and benches/reproduce.sh on small synthetic
files: no tablebase is solved (reproduce.sh runs against a stand-in `tigadi`
script), so the whole file runs in about a second.

    python3 benches/test_compare_stats.py

Python 3 standard library only; reproduce.sh needs bash.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "compare_stats.py")
REPRODUCE = os.path.join(HERE, "reproduce.sh")


def moving_row(mover, opponent, win, draw, loss, dtc_win=5, dtc_loss=6, seconds=1.5):
    return {"blessed_loss": None, "classes": win + draw + loss, "cursed_win": None,
            "draw": draw, "loss": loss, "max_dtc100_loss": None, "max_dtc100_win": None,
            "max_dtc_loss": dtc_loss, "max_dtc_win": dtc_win, "mover": mover,
            "opponent": opponent, "rules": "tigadi", "seconds": seconds, "win": win}


MOVING = [moving_row(3, 3, 70, 20, 10), moving_row(3, 4, 10, 5, 85),
          moving_row(4, 3, 85, 5, 10), moving_row(4, 4, 50, 25, 25, 9, 10)]
PLACING = [{"classes": 4, "draw": 0, "loss": 2, "max_dtc_loss": 6, "max_dtc_win": 15,
            "placed": 1, "rules": "tigadi", "tables": 1, "win": 2},
           {"category": None, "dtc": 7, "dtc100": None, "position": ".../... B 9 9",
            "rule_value": None, "rules": "tigadi", "side": "Bone", "value": "win"}]


class Files(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, rows):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            for row in rows:
                f.write((row if isinstance(row, str) else json.dumps(row, sort_keys=True)) + "\n")
        return path

    def compare(self, committed, recomputed, *options):
        p = subprocess.run([sys.executable, COMPARE, *options, self.write("committed", committed),
                            self.write("recomputed", recomputed)],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


class CompareStats(Files):
    def test_equal_rows_ignore_seconds_and_order(self):
        rerun = [dict(r, seconds=99.0) for r in reversed(MOVING)]
        status, out = self.compare(MOVING, rerun)
        self.assertEqual(status, 0, out)
        for key in ("3v3", "3v4", "4v3", "4v4"):
            self.assertIn(f"equal    {key}", out)
        self.assertIn("SUMMARY: EQUAL: 4 of 4 rows", out)

    def test_one_count_changed_is_named(self):
        rerun = [dict(r) for r in MOVING]
        rerun[3]["draw"] += 1
        status, out = self.compare(MOVING, rerun)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  4v4: draw: committed 25, recomputed 26", out)
        self.assertIn("equal    3v3", out)
        self.assertIn("SUMMARY: DIFFERENT: 1 of 4 compared rows differ", out)

    def test_dtc_changed(self):
        rerun = [dict(r) for r in MOVING]
        rerun[0]["max_dtc_loss"] = 7
        status, out = self.compare(MOVING, rerun)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  3v3: max_dtc_loss: committed 6, recomputed 7", out)

    def test_missing_row_is_reported(self):
        status, out = self.compare(MOVING, MOVING[:3])
        self.assertEqual(status, 1, out)
        self.assertIn("MISSING  4v4", out)
        self.assertIn("1 missing", out)

    def test_partial_run_compares_only_its_rows(self):
        status, out = self.compare(MOVING, MOVING[:3], "--partial")
        self.assertEqual(status, 0, out)
        self.assertIn("not run  4v4", out)
        self.assertIn("only the 3 subspaces of this run were compared", out)

    def test_partial_run_still_catches_a_difference(self):
        rerun = [dict(r) for r in MOVING[:2]]
        rerun[1]["win"] -= 1
        status, out = self.compare(MOVING, rerun, "--partial")
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  3v4: win: committed 10, recomputed 9", out)

    def test_partial_run_with_nothing_in_common_fails(self):
        status, out = self.compare(MOVING[:2], MOVING[2:], "--partial")
        self.assertEqual(status, 1, out)
        self.assertIn("no row compared", out)

    def test_extra_row_is_reported(self):
        status, out = self.compare(MOVING[:3], MOVING)
        self.assertEqual(status, 1, out)
        self.assertIn("EXTRA    4v4", out)

    def test_missing_field_is_reported(self):
        rerun = [dict(r) for r in MOVING]
        del rerun[2]["loss"]
        status, out = self.compare(MOVING, rerun)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  4v3: loss: committed 10, recomputed \"(no such field)\"", out)

    def test_dtw_fields_compared_only_when_committed(self):
        with_dtw = [dict(r, longest_dtw=30) for r in MOVING]
        status, out = self.compare(MOVING, with_dtw)
        self.assertEqual(status, 0, out)
        status, out = self.compare(with_dtw, MOVING)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  3v3: longest_dtw: committed 30", out)
        changed = [dict(r) for r in with_dtw]
        changed[1]["longest_dtw"] = 31
        status, out = self.compare(with_dtw, changed)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  3v4: longest_dtw: committed 30, recomputed 31", out)

    def test_placing_horizon_fields_compared_only_when_committed(self):
        rule = {"cursed_win": 1, "blessed_loss": 0, "max_dtc100_win": 9, "max_dtc100_loss": 4}
        with_rule = [dict(PLACING[0], **rule), PLACING[1]]
        status, out = self.compare(PLACING, with_rule)
        self.assertEqual(status, 0, out)
        status, out = self.compare(with_rule, PLACING)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  placed 1: cursed_win: committed 1", out)
        changed = [dict(with_rule[0], blessed_loss=2), PLACING[1]]
        status, out = self.compare(with_rule, changed)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  placed 1: blessed_loss: committed 0, recomputed 2", out)

    def test_game_leaves_out_the_100_turn_fields_only(self):
        # A re-run solved with --no-horizon writes its 100-turn fields as null.
        rule = {"cursed_win": 3, "blessed_loss": 1, "max_dtz100_win": 9, "max_dtz100_loss": 4}
        published = [dict(r, **rule) for r in MOVING]
        rerun = [dict(r, **{k: None for k in rule}) for r in MOVING]
        status, out = self.compare(published, rerun)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  3v3: cursed_win: committed 3, recomputed null", out)
        status, out = self.compare(published, rerun, "--game")
        self.assertEqual(status, 0, out)
        self.assertIn("SUMMARY: EQUAL: 4 of 4 rows equal in every field but seconds and "
                      "the 100-turn fields (--game)", out)
        # The game values' fields are still compared.
        rerun[2]["max_dtc_win"] = 99
        status, out = self.compare(published, rerun, "--game")
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  4v3: max_dtc_win: committed 5, recomputed 99", out)

    def test_placing_hands_compared_only_when_committed(self):
        # `stats` writes a placing row's hands beside `placed`; the published files
        # predate the key, so a re-run with it still compares equal with them.
        with_hands = [dict(PLACING[0], hands=[9, 8]), PLACING[1]]
        status, out = self.compare(PLACING, with_hands)
        self.assertEqual(status, 0, out)
        changed = [dict(PLACING[0], hands=[8, 9]), PLACING[1]]
        status, out = self.compare(with_hands, changed)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  placed 1: hands: committed [9, 8], recomputed [8, 9]", out)

    def test_lasker_rows_are_matched_by_their_hands(self):
        # Under Lasker's rule several hands share a count of placements: the rows
        # are keyed by hands, in any order, and a changed count names its hands.
        lasker = [dict(PLACING[0], placed=3, hands=[2, 3], win=1),
                  dict(PLACING[0], placed=3, hands=[3, 2], win=2), PLACING[1]]
        status, out = self.compare(lasker, [lasker[1], lasker[0], lasker[2]])
        self.assertEqual(status, 0, out)
        self.assertIn("equal    hands 2+3", out)
        self.assertIn("equal    hands 3+2", out)
        changed = [dict(lasker[0], win=5), lasker[1], lasker[2]]
        status, out = self.compare(lasker, changed)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  hands 2+3: win: committed 1, recomputed 5", out)

    def test_placing_file_ignores_the_moving_rows_of_the_run(self):
        status, out = self.compare(PLACING, MOVING + PLACING)
        self.assertEqual(status, 0, out)
        self.assertIn("equal    placed 1", out)
        self.assertIn("equal    empty board", out)
        self.assertNotIn("3v3", out)

    def test_empty_board_value_changed(self):
        rerun = [PLACING[0], dict(PLACING[1], value="draw", dtc=None)]
        status, out = self.compare(PLACING, rerun)
        self.assertEqual(status, 1, out)
        self.assertIn('DIFFERS  empty board: value: committed "win", recomputed "draw"', out)
        self.assertIn("DIFFERS  empty board: dtc: committed 7, recomputed null", out)

    def test_bad_usage_and_bad_input(self):
        p = subprocess.run([sys.executable, COMPARE, "only-one-file"], capture_output=True)
        self.assertEqual(p.returncode, 2)
        status, out = self.compare(MOVING, ["{not json"])
        self.assertEqual(status, 2, out)
        status, out = self.compare(MOVING, MOVING + [MOVING[0]])
        self.assertEqual(status, 2, out)
        self.assertIn("two rows for 3v3", out)


FAKE_TIGADI = """#!/usr/bin/env bash
# Stand-in for the tigadi binary: logs its arguments, prints $FAKE_STATS for stats.
echo "$*" >> "$FAKE_LOG"
case " $* " in *" stats "*) cat "$FAKE_STATS" ;; esac
"""


class Reproduce(Files):
    def run_reproduce(self, *args, stats=MOVING):
        fake = self.write("tigadi", [FAKE_TIGADI.strip()])
        os.chmod(fake, 0o755)
        env = dict(os.environ, FAKE_LOG=os.path.join(self.tmp.name, "log"),
                   FAKE_STATS=self.write("stats", stats))
        p = subprocess.run(["bash", REPRODUCE, *args, "--bin", fake,
                            "--dir", os.path.join(self.tmp.name, "tb")],
                           capture_output=True, text=True, env=env)
        log = ""
        if os.path.exists(env["FAKE_LOG"]):
            with open(env["FAKE_LOG"]) as f:
                log = f.read()
        return p.returncode, p.stdout + p.stderr, log

    def test_partial_moving_run_equal(self):
        data = self.write("data", MOVING + [moving_row(9, 9, 1, 1, 1)])
        status, out, log = self.run_reproduce("tigadi", "moving", "--max-pieces", "8",
                                              "--data", data)
        self.assertEqual(status, 0, out)
        self.assertIn("--rules tigadi solve --dir", log)
        self.assertIn("--no-horizon --no-placing --max-pieces 8", log)
        self.assertIn("--rules tigadi stats --json --dir", log)
        self.assertIn("not run  9v9", out)
        self.assertNotIn("figures", out)

    def test_altered_data_file_fails(self):
        altered = [dict(r) for r in MOVING]
        altered[1]["loss"] += 1
        data = self.write("data", altered)
        status, out, _ = self.run_reproduce("morris", "moving", "--data", data)
        self.assertEqual(status, 1, out)
        self.assertIn("DIFFERS  3v4: loss: committed 86, recomputed 85", out)

    def test_full_moving_run_draws_figures(self):
        data = self.write("data", MOVING)
        status, out, _ = self.run_reproduce("navakankari", "moving", "--data", data)
        self.assertEqual(status, 0, out)
        for kind in ("wdl", "dtc"):
            svg = os.path.join(self.tmp.name, "tb", "figures", f"navakankari-{kind}.svg")
            self.assertTrue(os.path.isfile(svg), out)
            with open(svg) as f:
                self.assertIn("not solved", f.read())  # 45 of the 49 cells are absent

    def test_placing_run_solves_without_no_placing(self):
        data = self.write("data", PLACING)
        status, out, log = self.run_reproduce("tigadi", "placing", "--data", data,
                                              stats=MOVING + PLACING)
        self.assertEqual(status, 0, out)
        self.assertNotIn("--no-placing", log)

    def test_horizon_and_dtw_runs(self):
        data = self.write("data", PLACING)
        status, out, log = self.run_reproduce("tigadi", "horizon", "--data", data,
                                              stats=MOVING + PLACING)
        self.assertEqual(status, 0, out)
        solve = [l for l in log.splitlines() if " solve " in l]
        self.assertEqual(len(solve), 1, log)
        self.assertNotIn("--no-horizon", solve[0])
        self.assertNotIn("--no-placing", solve[0])
        self.assertNotIn("--dtw", solve[0])
        os.remove(os.path.join(self.tmp.name, "log"))
        status, out, log = self.run_reproduce("morris", "dtw", "--max-pieces", "8",
                                              "--data", data, stats=MOVING + PLACING)
        self.assertEqual(status, 0, out)
        self.assertIn("--rules morris solve --dir", log)
        self.assertIn("--dtw --no-horizon --max-pieces 8", log)

    def test_bad_usage(self):
        for args in ([], ["tigadi"], ["chess", "moving"], ["tigadi", "endgame"],
                     ["tigadi", "placing", "--max-pieces", "8"],
                     ["tigadi", "moving", "--max-pieces", "ten"],
                     ["tigadi", "moving", "--bogus"]):
            status, out, log = self.run_reproduce(*args)
            self.assertEqual(status, 2, f"{args}: {out}")
            self.assertEqual(log, "", args)


if __name__ == "__main__":
    unittest.main(verbosity=2)
