#!/usr/bin/env python3
"""Tests of the run scripts benches/same_bytes.sh, benches/lasker_run.sh and
benches/instructions.sh, against stand-in binaries (small shell scripts):
seconds, no solve. The instruction counts need valgrind (skipped without it).

    python3 benches/test_run_scripts.py

Python 3 standard library only.
"""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SAME_BYTES = os.path.join(HERE, "same_bytes.sh")
LASKER_RUN = os.path.join(HERE, "lasker_run.sh")
INSTRUCTIONS = os.path.join(HERE, "instructions.sh")

# A stand-in for `tigadi --rules R solve --dir D ...`: appends its arguments to
# $CALLS, writes two tables into D (their bytes from the rules and, where $FLIP
# names the rules, a different byte), a manifest with a time in it and a lock
# that differ every run. $FAIL names rules whose solve fails; $FLIP, rules
# whose table the binary under test (the stand-in named `new`) writes otherwise.
SOLVER = r"""#!/usr/bin/env bash
echo "$0 $*" >> "$CALLS"
rules="$2" dir="$5"
[ "$3" = solve ] && [ "$4" = --dir ] || exit 9
[ "$rules" != "${FAIL:-}" ] || { echo "no such rules" >&2; exit 2; }
mkdir -p "$dir/sub"
printf '%s' "$rules" > "$dir/sub/3v3.tgtb"
if [ "$rules" = "${FLIP:-}" ] && [ "${0##*/}" = new ]; then printf 'x' > "$dir/sub/3v3.tghz"
else printf 'y' > "$dir/sub/3v3.tghz"; fi
date +%s%N > "$dir/sub/manifest.json"
echo $$ > "$dir/sub/.lock"
"""

# A stand-in for the Lasker chain's commands: appends its arguments to $CALLS;
# exits with $FAIL_AT's status when its command is $FAIL_AT's (e.g. "verify
# --kind game=5"); with $SLOW, waits until a TERM, notes it, and exits with
# $TERM_EXIT (default 143; 0 for a command that had just finished).
CHAIN_STEP = r"""#!/usr/bin/env bash
# The trap is set before the call is noted: the test sends its TERM once it
# sees the call.
[ -z "${SLOW:-}" ] || trap 'echo TERM >> "$CALLS"; exit "${TERM_EXIT:-143}"' TERM
echo "$*" >> "$CALLS"
if [ -n "${SLOW:-}" ]; then
    while :; do sleep 0.05; done
fi
cmd="$*"; cmd="${cmd#--rules lasker }"; cmd="${cmd% --dir *}"
if [ -n "${FAIL_AT:-}" ] && [ "$cmd" = "${FAIL_AT%=*}" ]; then exit "${FAIL_AT#*=}"; fi
exit 0
"""


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.calls = self.path("calls")
        self.env = dict(os.environ, CALLS=self.calls)

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def stand_in(self, name, text):
        path = self.path(name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, 0o755)
        return path

    def called(self):
        """The stand-ins' calls so far, one line each."""
        if not os.path.exists(self.calls):
            return []
        with open(self.calls, encoding="utf-8") as f:
            return f.read().splitlines()


class SameBytes(Scratch):
    def setUp(self):
        super().setUp()
        self.ref = self.stand_in("ref", SOLVER)
        self.new = self.stand_in("new", SOLVER)

    def run_check(self, *args, **env):
        return subprocess.run(
            [SAME_BYTES, "--ref", self.ref, "--bin", self.new, "--work",
             self.path("work"), *args],
            capture_output=True, text=True, env=dict(self.env, **env))

    def test_equal_tables_pass_and_the_manifest_and_lock_are_not_compared(self):
        out = self.run_check()
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("lasker5: 2 files equal", out.stdout)
        self.assertIn("same bytes: 14 of 14 files equal", out.stdout)

    def test_a_table_that_differs_fails_naming_the_set_and_file(self):
        out = self.run_check(FLIP="morris,pieces=5")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn("morris5: 1 files equal, 1 not:\n  sub/3v3.tghz (differs)",
                      out.stdout)
        self.assertIn("same bytes: 13 of 14 files equal", out.stdout)

    def test_the_reference_is_solved_once_while_its_binary_is_the_same(self):
        self.assertEqual(self.run_check("--only", "tigadi6").returncode, 0)
        self.assertEqual(self.run_check("--only", "tigadi6").returncode, 0)
        by_ref = [c for c in self.called() if c.startswith(self.ref + " ")]
        self.assertEqual(len(by_ref), 1, self.called())
        with open(self.ref, "a", encoding="utf-8") as f:
            f.write("# another build\n")
        self.assertEqual(self.run_check("--only", "tigadi6").returncode, 0)
        by_ref = [c for c in self.called() if c.startswith(self.ref + " ")]
        self.assertEqual(len(by_ref), 2, self.called())

    def test_threads_go_to_the_binary_under_test_only(self):
        out = self.run_check("--only", "lasker5", "--threads", "1")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        new, = [c for c in self.called() if c.startswith(self.new + " ")]
        self.assertTrue(new.endswith("--threads 1"), new)
        ref, = [c for c in self.called() if c.startswith(self.ref + " ")]
        self.assertNotIn("--threads", ref)

    def test_a_failed_solve_exits_3_and_bad_usage_2(self):
        out = self.run_check("--only", "tigadi10", FAIL="tigadi")
        self.assertEqual(out.returncode, 3, out.stdout + out.stderr)
        self.assertIn("failed", out.stderr)
        for args in (["--only", "nine"], ["--threads", "0"], ["--bogus"]):
            out = self.run_check(*args)
            self.assertEqual(out.returncode, 2, args)
        out = subprocess.run([SAME_BYTES, "--bin", self.new], capture_output=True,
                             text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("--ref REF_BIN is required", out.stderr)


# A stand-in for a command to count: loops $1 times in the shell (more loops,
# more instructions), then exits with $2 (default 0). Its interpreter is named
# directly: valgrind does not follow `env`'s exec into bash.
LOOP = r"""#!/bin/bash
i=0
while [ "$i" -lt "$1" ]; do i=$((i + 1)); done
exit "${2:-0}"
"""


class Instructions(Scratch):
    def setUp(self):
        super().setUp()
        self.ref = self.stand_in("ref", LOOP)
        self.new = self.stand_in("new", LOOP)

    def count(self, *args, ref=None, new=None):
        return subprocess.run(
            [INSTRUCTIONS, "--ref", ref or self.ref, "--bin", new or self.new,
             "--", *args],
            capture_output=True, text=True, env=self.env)

    def test_bad_usage_exits_2(self):
        out = subprocess.run([INSTRUCTIONS, "--ref", self.ref], capture_output=True,
                             text=True)
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("--ref and --bin are both needed", out.stderr)
        out = self.count("1", new=self.path("missing"))
        self.assertEqual(out.returncode, 2, out.stderr)
        self.assertIn("is not an executable file", out.stderr)

    @unittest.skipUnless(shutil.which("valgrind"), "valgrind is not installed")
    def test_more_work_counts_more_instructions(self):
        # The same command for both: the ratio is near 1. The binary under
        # test doing 50 times the loops: well above.
        out = self.count("2000")
        self.assertEqual(out.returncode, 0, out.stderr)
        ref, new = [json.loads(line) for line in out.stdout.splitlines()]
        self.assertEqual((ref["role"], new["role"]), ("ref", "bin"))
        self.assertEqual((ref["binary"], new["binary"]), (self.ref, self.new))
        self.assertGreater(ref["instructions"], 0)
        self.assertAlmostEqual(new["ratio"], 1.0, delta=0.02)
        busy = self.stand_in("busy", LOOP.replace('"$1"', '"$(($1 * 50))"'))
        out = self.count("2000", new=busy)
        self.assertEqual(out.returncode, 0, out.stderr)
        new = json.loads(out.stdout.splitlines()[1])
        self.assertGreater(new["ratio"], 5, out.stdout)
        self.assertAlmostEqual(
            new["ratio"], new["instructions"] / ref["instructions"], places=3)

    @unittest.skipUnless(shutil.which("valgrind"), "valgrind is not installed")
    def test_a_failed_command_exits_3(self):
        out = self.count("10", "4")
        self.assertEqual(out.returncode, 3, out.stdout + out.stderr)
        self.assertIn("failed", out.stderr)
        self.assertEqual(out.stdout, "")


class LaskerRun(Scratch):
    def setUp(self):
        super().setUp()
        self.bin = self.stand_in("tigadi", CHAIN_STEP)
        self.dir = self.path("lasker")

    def start(self, **env):
        return subprocess.Popen(
            [LASKER_RUN, "--bin", self.bin, "--dir", self.dir, "session 1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(self.env, **env))

    def commands(self):
        return [c.replace(f" --dir {self.dir}", "") for c in self.called()]

    def test_the_game_values_then_their_verify_then_the_100_turn_tables(self):
        self.assertEqual(self.start().wait(timeout=30), 0)
        self.assertEqual(self.commands(), [
            "--rules lasker solve --no-horizon",
            "--rules lasker verify --kind game",
            "--rules lasker solve",
            "--rules lasker verify",
        ])
        with open(self.dir + ".log", encoding="utf-8") as f:
            log = f.read()
        self.assertIn("session 1 " + self.bin + " solve --no-horizon", log)
        self.assertEqual(log.count("exit 0"), 2)

    def test_a_failed_command_ends_the_chain_with_its_status(self):
        self.assertEqual(self.start(FAIL_AT="verify --kind game=5").wait(timeout=30), 5)
        self.assertEqual(len(self.commands()), 2, self.commands())
        with open(self.dir + "-verify.log", encoding="utf-8") as f:
            self.assertIn("exit 5", f.read())

    def stopped(self, **env):
        """Starts the chain with a slow first command, sends the chain a TERM
        once that command runs, and returns the chain's exit status."""
        chain = self.start(SLOW="1", **env)
        deadline = time.time() + 20
        while not self.called() and time.time() < deadline:
            time.sleep(0.05)
        chain.send_signal(signal.SIGTERM)
        return chain.wait(timeout=20)

    def test_term_stops_the_command_in_progress_and_the_chain(self):
        self.assertEqual(self.stopped(), 143)
        self.assertEqual(self.commands(), ["--rules lasker solve --no-horizon", "TERM"])

    def test_term_starts_no_further_command_when_the_last_one_ended_well(self):
        self.assertEqual(self.stopped(TERM_EXIT="0"), 143)
        self.assertEqual(self.commands(), ["--rules lasker solve --no-horizon", "TERM"])
        # Not even begun: no line of the verify in its log.
        self.assertFalse(os.path.exists(self.dir + "-verify.log"))


if __name__ == "__main__":
    unittest.main()
