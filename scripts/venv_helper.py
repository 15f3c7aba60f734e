"""Virtual environments for the scripts that need a package from PyPI (standard library only).

The cross-checks must run on a fresh machine with nothing but python3 (with venv and pip), so a
script that needs a package makes its own virtual environment under scripts/ on first use,
installs the pinned version there, and runs its real work with that environment's interpreter.
Two ways to use it:

* ``ensure(path, package, version)`` makes (or reuses) the environment and returns its
  interpreter, for a driver that starts workers in one or several environments
  (``hub_pydraughts.py``: one per pydraughts version);
* ``reexec_into(path, package, version)`` returns at once when the running interpreter already
  has the package, else makes the environment and re-executes the calling script inside it
  (``pydraughts_bridge.bootstrap()``).

A package counts as present when its module imports and, if a version is pinned, reports that
``__version__``: a venv left over with another version is upgraded or downgraded in place.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from typing import Optional

# Set (to the environment's path) when a script re-executes itself inside an environment, so
# that an environment which still lacks the package fails with a message instead of looping.
_REEXEC_MARK = "_CROWNHEAD_VENV_REEXEC"


def _log(msg: str) -> None:
    print(f"[venv] {msg}", file=sys.stderr, flush=True)


def interpreter(path: str) -> str:
    """The Python interpreter of the virtual environment at `path`."""
    if os.name == "nt":
        return os.path.join(path, "Scripts", "python.exe")
    return os.path.join(path, "bin", "python")


def _probe(module: str, version: Optional[str]) -> str:
    """Python code that exits 0 when `module` imports (at `version`, if given)."""
    check = "True" if version is None else f"getattr(m, '__version__', '') == {version!r}"
    return f"import sys, {module} as m; sys.exit(0 if {check} else 1)"


def _has(python: str, module: str, version: Optional[str]) -> bool:
    """Whether the interpreter `python` imports `module` (at `version`, if given)."""
    return subprocess.run([python, "-c", _probe(module, version)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def _has_here(module: str, version: Optional[str]) -> bool:
    """Whether the running interpreter imports `module` (at `version`, if given)."""
    try:
        m = importlib.import_module(module)
    except ImportError:
        return False
    return version is None or getattr(m, "__version__", None) == version


def ensure(path: str, package: str, version: Optional[str] = None,
           module: Optional[str] = None) -> str:
    """Makes the environment at `path` if it is missing, installs `package` (``==version`` if
    given; imported as `module`, default the package name) unless it is there, and returns the
    environment's interpreter. Exits with a message saying what to do when a step fails."""
    path = os.path.abspath(path)
    module = module or package
    python = interpreter(path)
    if not os.path.exists(python):
        _log(f"creating virtual environment {path}")
        try:
            subprocess.run([sys.executable, "-m", "venv", path], check=True)
        except subprocess.CalledProcessError:
            sys.exit(f"error: `{sys.executable} -m venv {path}` failed "
                     "(on Debian/Ubuntu install the python3-venv package)")
    if not _has(python, module, version):
        requirement = package if version is None else f"{package}=={version}"
        _log(f"installing {requirement} into {path}")
        if subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                           requirement]).returncode != 0:
            sys.exit(f"error: could not install {requirement} into {path} "
                     "(is PyPI reachable? if the environment is broken, delete it and retry)")
    return python


def reexec_into(path: str, package: str, version: Optional[str] = None,
                module: Optional[str] = None) -> None:
    """Returns if the running interpreter has `package` (at `version`); otherwise makes the
    environment at `path` as ``ensure`` does and re-executes the calling script there, with the
    same arguments. Does not return in that case."""
    module = module or package
    if _has_here(module, version):
        return
    path = os.path.abspath(path)
    if os.environ.get(_REEXEC_MARK) == path:
        pinned = package if version is None else f"{package}=={version}"
        sys.exit(f"error: {pinned} is still not importable with {sys.executable} after setting "
                 f"up {path}; delete that directory and retry")
    python = ensure(path, package, version, module)
    os.environ[_REEXEC_MARK] = path
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(python, [python, os.path.abspath(sys.argv[0])] + sys.argv[1:])
