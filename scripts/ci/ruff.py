"""ruff over every Python file of the repository (`python3 -m scripts.ci.ruff [ARGS]`), with the
settings of ruff.toml at the root. ruff comes from PyPI at the version pinned in
requirements-ruff.txt, into its own virtual environment (scripts/.venv/ci-ruff) on first use.
ARGS go to `ruff check` (`--fix`, `--statistics`, a path); the exit status is ruff's."""

import os
import subprocess
import sys

from scripts.lib import venv
from scripts.lib.engine import REPO_ROOT

REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "requirements-ruff.txt")


def main() -> int:
    venv.ensure(REQUIREMENTS)
    ruff = venv.executable(REQUIREMENTS, "ruff")
    args = sys.argv[1:] or ["."]
    return subprocess.run([ruff, "check", *args], cwd=REPO_ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
