"""Connecting to Ray and placing the binary: what every subcommand does before its jobs.

The `crownhead` binary reaches the workers in one of two ways:
- by path (the default): `--crownhead PATH` (target/release/crownhead of this checkout unless
  given) is made absolute and must exist at that path on every node: a shared mount (NFS), or
  the same checkout built at the same place on each. Commands run in the driver's working
  directory when that exists on the node.
- `--ship`: the binary is copied into a folder sent with the job as Ray's runtime_env
  `working_dir`; Ray unpacks it on each node, and the tasks run in it as `./crownhead`.
  (Ray's package size limit, hundreds of MB, is far above the binary's 4 MB.)
The one function of this package that runs on the workers, `runner.run_job` (standard library
only), goes to them pickled by value (`pool.py`), so no node needs this package on its path,
on a local Ray as on a cluster, or inside a shipped working_dir.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from typing import Optional

import ray

from scripts.lib.engine import RELEASE_BINARY as DEFAULT_BINARY


@dataclass
class Session:
    """Where the binary is as the workers see it, the commands' working directory, how many
    tasks to keep in flight and the tasks' time limit."""
    crownhead: str
    cwd: Optional[str]
    in_flight: int
    timeout: Optional[float]
    cpus: int


def connect(args) -> Session:
    """Starts a local Ray or joins `--address` (unless this process is connected already, as
    in scripts/ci/cluster_check.py) and says where the binary is."""
    binary = os.path.abspath(args.crownhead or DEFAULT_BINARY)
    runtime_env = {}
    if args.ship:
        if not os.path.isfile(binary):
            sys.exit(f"error: --ship: no binary at {binary} (cargo build --release)")
        folder = tempfile.mkdtemp(prefix="crownhead-ship-")
        atexit.register(shutil.rmtree, folder, True)
        shutil.copy2(binary, os.path.join(folder, "crownhead"))
        runtime_env["working_dir"] = folder
    if not ray.is_initialized():
        if args.address:
            ray.init(address=args.address, runtime_env=runtime_env or None,
                     logging_level="WARNING")
        else:
            # "local" always starts a new instance, never joins one left running here.
            ray.init(address="local", num_cpus=args.cpus, runtime_env=runtime_env or None,
                     include_dashboard=False, logging_level="WARNING")
    elif args.ship or args.address:
        sys.exit("error: --ship and --address need a fresh connection")
    cpus = int(ray.cluster_resources().get("CPU", 1))
    in_flight = args.in_flight or 2 * cpus
    if args.ship:
        return Session("./crownhead", None, in_flight, args.task_timeout, cpus)
    if not args.address and not os.path.isfile(binary):
        sys.exit(f"error: no crownhead binary at {binary} (cargo build --release, "
                 "or --crownhead PATH)")
    return Session(binary, os.getcwd(), in_flight, args.task_timeout, cpus)

