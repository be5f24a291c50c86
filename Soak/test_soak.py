#!/usr/bin/env python3
"""Tests of the soak's accounting: it fails, naming the shortfall, when the load it set out to
create was not reached.

`python3 Soak/test_soak.py` (scripts/test runs it). The first tests check `shortfalls` alone;
the last runs `scripts/soak 10` for real against a debug `livery serve` made artificially slow
(stopped 95 % of every 100 ms), which cannot carry 2,000 conditional GETs or 10 pushes a second.
"""
import os
import pathlib
import subprocess
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Soak"))
import soak  # noqa: E402

TARGETS = {"held clients": 1000, "conditional GETs/s": 2000, "pushes/s": 10}


class ShortfallTests(unittest.TestCase):
    def test_the_load_reached_passes(self):
        self.assertEqual(soak.shortfalls(TARGETS, {"held clients": 1000, "conditional GETs/s": 2227, "pushes/s": 10}), [])

    def test_exactly_the_floor_passes(self):
        self.assertEqual(soak.shortfalls(TARGETS, {"held clients": 800, "conditional GETs/s": 1600, "pushes/s": 8}), [])

    def test_each_target_below_the_floor_is_named_with_its_shortfall(self):
        # The figures of a debug soak that used to print PASS: 425 GETs/s, 245 pushes in 60 s.
        lines = soak.shortfalls(TARGETS, {"held clients": 1000, "conditional GETs/s": 425, "pushes/s": 245 / 60})
        self.assertEqual(lines, [
            "conditional GETs/s: 425 of 2,000 (21.2 % of target, 78.8 % short; at least 80 % needed)",
            "pushes/s: 4.1 of 10 (40.8 % of target, 59.2 % short; at least 80 % needed)",
        ])

    def test_held_clients_below_the_floor_are_named(self):
        lines = soak.shortfalls(TARGETS, {"held clients": 799, "conditional GETs/s": 2000, "pushes/s": 10})
        self.assertEqual(lines, ["held clients: 799 of 1,000 (79.9 % of target, 20.1 % short; at least 80 % needed)"])


class SlowDaemonTests(unittest.TestCase):
    def test_a_soak_of_a_slow_daemon_fails_naming_the_load_it_missed(self):
        environment = dict(os.environ, SOAK_CONFIG="debug", SOAK_THROTTLE="0.95")
        run = subprocess.run([str(ROOT / "scripts" / "soak"), "10"], cwd=ROOT, env=environment,
                             capture_output=True, text=True, timeout=900)
        output = run.stdout + run.stderr
        self.assertEqual(run.returncode, 1, output)
        self.assertIn("build soaked:        debug", output)
        self.assertIn("artificially slow", output)
        self.assertRegex(output, r"load below target: conditional GETs/s: [\d,]+ of 2,000 \([\d.]+ % of target, [\d.]+ % short")
        self.assertRegex(output, r"load below target: pushes/s: [\d.]+ of 10 \([\d.]+ % of target, [\d.]+ % short")
        # The held clients connect before the daemon is slowed, so that target is met.
        self.assertNotIn("load below target: held clients", output)


if __name__ == "__main__":
    unittest.main(verbosity=2)
