"""Crownhead past one machine: matches, self-play and endgame databases on a Ray cluster.

    python3 -m scripts.tools.cluster match    --engine CMD --engine CMD --games N [--sprt 0,5] ...
    python3 -m scripts.tools.cluster selfplay --variant V --games N --out FILE [--shards K] ...
    python3 -m scripts.tools.cluster egtb     --variant V --pieces N --dir SHARED_DIR

Each subcommand splits one `crownhead` command into Ray tasks (one per opening pair, per shard
of games, per pair of database slices) and puts the results together as the local command
would have them. Without `--address` it starts a local Ray on this machine; with `--address`
it joins a cluster started with `ray start` (docs/CLUSTER.md). Flags the driver does not know
are passed to every task's `crownhead` command unchanged (`--depth 4`, `--movetime 100`,
`--nodes 5000`, ...).

The driver makes its own virtual environment (scripts/.venv/tools-cluster, from
requirements.txt beside it) with the pinned Ray on first use and re-executes itself there
(scripts/lib/venv.py); every node of a cluster needs the same Ray and Python versions, which
that environment's `ray` command gives.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from scripts.lib import venv

# The pinned Ray (the modules that import ray are imported only once it is there).
REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "requirements.txt")


def parser() -> argparse.ArgumentParser:
    from . import egtbjob, matchjob, selfplayjob
    from .pool import add_connection_args

    # No abbreviations: a flag meant for crownhead must never be taken for a prefix of ours.
    p = argparse.ArgumentParser(prog="python3 -m scripts.tools.cluster", allow_abbrev=False,
                                description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name, module in (("match", matchjob), ("selfplay", selfplayjob), ("egtb", egtbjob)):
        s = sub.add_parser(name, help=module.HELP, allow_abbrev=False,
                           description=module.HELP + ". Other flags go to each task's "
                           "crownhead command unchanged.")
        module.add_args(s)
        add_connection_args(s)
    return p


def fault_of(text):
    """`--inject-fault KIND:JOB` as the job's fault for runner.py, with a fresh marker file
    (so that only the first attempt is killed)."""
    if text is None:
        return None
    import atexit
    import shutil
    import tempfile

    kind, _, job = text.partition(":")
    if kind not in ("kill-command", "kill-worker") or not job.isdigit():
        sys.exit(f"error: bad --inject-fault '{text}' (kill-command:N or kill-worker:N)")
    folder = tempfile.mkdtemp(prefix="crownhead-fault-")
    atexit.register(shutil.rmtree, folder, True)
    marker = os.path.join(folder, "fired")
    # A data file's 16-byte header is not yet a game; a PDN holds nothing before one.
    return {"kind": kind, "job": int(job), "marker": marker, "after_bytes": 16}


def main(argv=None):
    """Parses `argv`, connects to Ray (unless connected already) and runs the subcommand;
    returns what it returns (the totals, for scripts/ci/cluster_check.py), whose `lost` counts
    the jobs lost after their retry."""
    argv = sys.argv[1:] if argv is None else argv
    if not any(a == "--address" or a.startswith("--address=") for a in argv):
        # A local Ray listens on the loopback address only, not on the machine's network
        # address as a cluster head does. Ray reads this when imported, so before the import
        # that checks its version, and the re-executed driver and the workers inherit it.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    venv.reexec_into(REQUIREMENTS)
    from . import egtbjob, matchjob, selfplayjob, session

    args, extra = parser().parse_known_args(argv)
    module = {"match": matchjob, "selfplay": selfplayjob, "egtb": egtbjob}[args.command]
    if getattr(args, "project", None):
        egtbjob.print_projection(args)
        sys.exit(0)
    start = time.monotonic()
    s = session.connect(args)
    ready = time.monotonic()
    print(f"{args.command}: Ray with {s.cpus} CPUs ready in {ready - start:.1f} s, "
          f"{s.in_flight} tasks in flight, binary {s.crownhead}", flush=True)
    result = module.run(args, extra, s, fault=fault_of(args.inject_fault))
    print(f"{args.command}: {time.monotonic() - ready:.1f} s of tasks", flush=True)
    return result
