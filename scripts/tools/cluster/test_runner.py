"""Unit tests of a task's runner (standard library only): the fault injection that
scripts/ci/cluster_check.py relies on strikes on the first attempt whatever the timing, and
later attempts run normally."""

from __future__ import annotations

import os
import tempfile
import unittest

from scripts.tools.cluster import runner


class FaultInjection(unittest.TestCase):
    def job(self, marker: str, script: str, after_bytes: int = 0) -> dict:
        return {"argv": ["sh", "-c", script], "outputs": ["out.txt"],
                "fault": {"kind": "kill-command", "marker": marker, "after_bytes": after_bytes}}

    def test_a_command_killed_after_its_output_fails_then_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            marker = os.path.join(tmp, "marker")
            job = self.job(marker, "echo game > {dir}/out.txt; sleep 5; echo more >> {dir}/out.txt")
            with self.assertRaises(runner.JobFailed) as failed:
                runner.run_job(job)
            self.assertIn("exit -9", str(failed.exception))
            self.assertTrue(os.path.exists(marker))
            quick = self.job(marker, "echo game > {dir}/out.txt")
            self.assertEqual(runner.run_job(quick)["files"], {"out.txt": b"game\n"})

    def test_a_command_that_ends_before_the_fault_is_seen_fails_all_the_same(self):
        # The output never reaches the threshold the fault waits for: the command ends first.
        with tempfile.TemporaryDirectory() as tmp:
            job = self.job(os.path.join(tmp, "marker"), "echo game > {dir}/out.txt", 10**9)
            with self.assertRaises(runner.JobFailed) as failed:
                runner.run_job(job)
            self.assertIn("killed by the injected fault", str(failed.exception))
            self.assertEqual(runner.run_job(job)["files"], {"out.txt": b"game\n"})


if __name__ == "__main__":
    unittest.main()
