"""Virtual environments for the scripts that need packages from PyPI (standard library only).

The scripts must run on a fresh machine with nothing but python3 (with venv and pip), so each
set of packages is a requirements file beside the scripts that use it (``requirements*.txt``,
exact pins), and its environment is made on first use under ``scripts/.venv/``, one per file:
``scripts/oracles/requirements-pydraughts.txt`` becomes ``scripts/.venv/oracles-pydraughts``,
``scripts/tools/cluster/requirements.txt`` becomes ``scripts/.venv/tools-cluster``. Three ways
to use one:

* ``ensure(requirements)`` makes (or reuses) the environment and returns its interpreter, for
  a driver that starts workers in one or several environments (``hub_pydraughts``: one per
  pydraughts version; the ruff check);
* ``reexec_into(requirements)`` returns at once when the running interpreter already has every
  pinned package, else makes the environment and runs the calling script again inside it, as
  ``python -m`` the same module (or the same file) with the same arguments;
* ``python3 -m scripts.lib.venv REQUIREMENTS...`` makes them ahead of use (CI does, while it
  compiles).

An environment remembers the requirements it was filled from (a copy inside it): when the file
changes (a new pin), the next run installs into the same environment again, and pip upgrades
or downgrades what the pins say.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENVS = os.path.join(SCRIPTS, ".venv")
# The copy of the requirements an environment was filled from.
STAMP = "crownhead-requirements.txt"
# Set (to the environment's path) when a script re-executes itself inside an environment, so
# that an environment which still lacks a package fails with a message instead of looping.
_REEXEC_MARK = "_CROWNHEAD_VENV_REEXEC"


def _log(msg: str) -> None:
    print(f"[venv] {msg}", file=sys.stderr, flush=True)


def path_of(requirements: str) -> str:
    """The environment of a requirements file: its folder below scripts/ and the part of its
    name after ``requirements``, joined by dashes."""
    folder, name = os.path.split(os.path.relpath(os.path.abspath(requirements), SCRIPTS))
    stem = os.path.splitext(name)[0].removeprefix("requirements").strip("-")
    parts = [p for p in folder.split(os.sep) if p] + ([stem] if stem else [])
    return os.path.join(VENVS, "-".join(parts) or "scripts")


def interpreter(path: str) -> str:
    """The Python interpreter of the virtual environment at `path`."""
    if os.name == "nt":
        return os.path.join(path, "Scripts", "python.exe")
    return os.path.join(path, "bin", "python")


def executable(requirements: str, name: str) -> str:
    """A command that a package of the environment installed (``ray``, ``ruff``)."""
    folder = os.path.dirname(interpreter(path_of(requirements)))
    return os.path.join(folder, name + (".exe" if os.name == "nt" else ""))


def pins(requirements: str) -> dict[str, str | None]:
    """The packages of a requirements file and their pinned versions (None: any version)."""
    out: dict[str, str | None] = {}
    with open(requirements, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, version = line.partition("==")
            out[name.strip()] = version.strip() or None
    return out


def satisfied_here(requirements: str) -> bool:
    """Whether the running interpreter has every package of the file at its pinned version."""
    for name, version in pins(requirements).items():
        try:
            found = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if version is not None and found != version:
            return False
    return True


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def ensure(requirements: str) -> str:
    """Makes the environment of `requirements` if it is missing, installs the file into it
    unless it was filled from this very text, and returns its interpreter. Exits with a
    message saying what to do when a step fails."""
    requirements = os.path.abspath(requirements)
    path = path_of(requirements)
    python = interpreter(path)
    if not os.path.exists(python):
        _log(f"creating virtual environment {path}")
        try:
            subprocess.run([sys.executable, "-m", "venv", path], check=True)
        except subprocess.CalledProcessError:
            sys.exit(f"error: `{sys.executable} -m venv {path}` failed "
                     "(on Debian/Ubuntu install the python3-venv package)")
    wanted = _read(requirements)
    if wanted is None:
        sys.exit(f"error: cannot read {requirements}")
    stamp = os.path.join(path, STAMP)
    if _read(stamp) != wanted:
        _log(f"installing {os.path.relpath(requirements)} into {path}")
        if subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                           "-r", requirements]).returncode != 0:
            sys.exit(f"error: could not install {requirements} into {path} "
                     "(is PyPI reachable? if the environment is broken, delete it and retry)")
        with open(stamp, "w", encoding="utf-8") as f:
            f.write(wanted)
    return python


def reexec_into(requirements: str) -> None:
    """Returns if the running interpreter has every package of `requirements`; otherwise makes
    the environment as ``ensure`` does and runs the calling script there again, with the same
    arguments: as ``-m`` the same module when it was started so, else as the same file. Does
    not return in that case."""
    if satisfied_here(requirements):
        return
    path = path_of(requirements)
    if os.environ.get(_REEXEC_MARK) == path:
        sys.exit(f"error: the packages of {requirements} are still not importable with "
                 f"{sys.executable} after setting up {path}; delete that directory and retry")
    python = ensure(requirements)
    os.environ[_REEXEC_MARK] = path
    sys.stdout.flush()
    sys.stderr.flush()
    spec = getattr(sys.modules["__main__"], "__spec__", None)
    if spec is not None and spec.name:
        # `python -m scripts.x.y` from the repository root: the same module, from the same
        # working directory, so that the package imports as it did.
        module = spec.name.removesuffix(".__main__")
        os.execv(python, [python, "-m", module] + sys.argv[1:])
    os.execv(python, [python, os.path.abspath(sys.argv[0])] + sys.argv[1:])


if __name__ == "__main__":
    # `python3 -m scripts.lib.venv REQUIREMENTS...`: makes (or updates) each file's environment
    # ahead of the scripts that use it (.ci/provision.sh, while CI compiles).
    for requirements_file in sys.argv[1:]:
        ensure(requirements_file)
