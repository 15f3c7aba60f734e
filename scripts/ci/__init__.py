"""Checks that CI runs (.ci/run) on the built engine: the CheckerBoard library through ctypes
(`checkerboard_host`, `checkerboard_games`), the cluster driver on a local Ray
(`cluster_check`), and ruff over every Python file (`ruff`)."""
