"""The driver's side of the Ray tasks: a window of jobs in flight, results as they finish, one
retry per job, cancellation. Every subcommand (match, selfplay, egtb) runs its jobs here.

A job is a dict for `runner.run_job` (a command line, the files it writes, a time limit). The
pool keeps at most `in_flight` of them submitted, so that a match of 20,000 pairs does not
queue 20,000 tasks it may cancel when the SPRT decides, and tops the window up from its queue
as results come back (`ray.wait`). Ray's own `max_retries` is 0: an attempt that fails, whether
the command failed (`RayTaskError`), the worker died (`WorkerCrashedError`) or the node was lost,
is resubmitted here, once by default, so that the driver can count what was retried and record
what was lost rather than Ray hiding either. A job whose result the caller's `check` refuses (a
pair whose PDN lacks a game) counts as a failed attempt too.
"""

from __future__ import annotations

import collections
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, Hashable, Iterator, List, Optional, Tuple

import ray
from ray import cloudpickle
from ray.exceptions import RayError, RayTaskError

from . import runner

# The task's code travels with it: pickled by value, `runner` needs no import on the workers,
# which have neither this package nor the repository on their path.
cloudpickle.register_pickle_by_value(runner)


@dataclass
class Outcome:
    """What became of one job: its key, its result (None when lost), the errors of its failed
    attempts, in order."""
    key: Hashable
    result: Optional[Dict[str, Any]]
    errors: List[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result is not None

    @property
    def retried(self) -> bool:
        return bool(self.errors)


def describe(e: BaseException) -> str:
    """The useful line of a task's error: the command's own message, not Ray's traceback."""
    cause = getattr(e, "cause", None) if isinstance(e, RayTaskError) else None
    text = str(cause if cause is not None else e).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[-3:]) if lines else type(e).__name__


class Pool:
    """Runs jobs as Ray tasks, `in_flight` at a time, each retried `retries` times."""

    def __init__(self, in_flight: int, retries: int = 1, num_cpus: float = 1,
                 check: Optional[Callable[[Hashable, Dict[str, Any]], None]] = None,
                 label: Callable[[Hashable], str] = str,
                 log: Callable[[str], None] = lambda line: print(line, file=sys.stderr,
                                                               flush=True)):
        self.remote = ray.remote(runner.run_job).options(num_cpus=num_cpus, max_retries=0)
        self.in_flight = max(1, in_flight)
        self.retries = retries
        self.check = check
        self.label = label
        self.log = log
        self.queue: Deque[Tuple[Hashable, Dict]] = collections.deque()
        self.pending: Dict[Any, Tuple[Hashable, Dict, List[str]]] = {}
        self.cancelled = 0

    def add(self, key: Hashable, job: Dict) -> None:
        """Queues a job; it is submitted when the window has room."""
        self.queue.append((key, job))

    def _top_up(self) -> None:
        while self.queue and len(self.pending) < self.in_flight:
            key, job = self.queue.popleft()
            self.pending[self.remote.remote(job)] = (key, job, [])

    def results(self) -> Iterator[Outcome]:
        """Yields each job's outcome as it is settled, in the order they finish. Jobs may be
        added between outcomes; the iteration ends when none is queued or running."""
        self._top_up()
        while self.pending:
            ready, _ = ray.wait(list(self.pending), num_returns=1)
            ref = ready[0]
            key, job, errors = self.pending.pop(ref)
            try:
                result = ray.get(ref)
                if self.check is not None:
                    self.check(key, result)
            except (RayError, ValueError) as e:
                errors.append(describe(e))
                if len(errors) <= self.retries:
                    self.log(f"{self.label(key)}: attempt {len(errors)} failed "
                             f"({errors[-1]}); retrying")
                    self.pending[self.remote.remote(job)] = (key, job, errors)
                    continue
                self.log(f"{self.label(key)}: lost after {len(errors)} attempts ({errors[-1]})")
                result = None
            yield Outcome(key, result, errors)
            self._top_up()

    def cancel(self) -> int:
        """Cancels every job running or queued; returns how many. A running task gets a
        KeyboardInterrupt, on which `runner` kills its command's process group."""
        refs = list(self.pending)
        for ref in refs:
            ray.cancel(ref)
        n = len(refs) + len(self.queue)
        self.pending.clear()
        self.queue.clear()
        self.cancelled += n
        # Wait (briefly) for the cancelled tasks to stop, so that their engines are gone
        # before the driver reports and exits.
        if refs:
            ray.wait(refs, num_returns=len(refs), timeout=10)
        return n


def add_connection_args(parser) -> None:
    """The flags every subcommand takes to find or start Ray, and the binary."""
    parser.add_argument("--address", help="a running Ray cluster (`ray start --head` printed "
                        "it, e.g. 10.0.0.1:6379, or `auto`); default: a local Ray started here")
    parser.add_argument("--cpus", type=int, default=None,
                        help="CPUs of the local Ray (default: all cores); ignored with --address")
    parser.add_argument("--crownhead", default=None,
                        help="the crownhead binary; default target/release/crownhead. Without "
                        "--ship it must be at this path on every node")
    parser.add_argument("--ship", action="store_true",
                        help="send the --crownhead binary to every node with the job (Ray's "
                        "runtime_env working_dir) instead of expecting it there")
    parser.add_argument("--in-flight", type=int, default=None,
                        help="tasks submitted at once (default: twice the cluster's CPUs)")
    parser.add_argument("--task-timeout", type=float, default=None,
                        help="seconds before a task's command is killed (and the task retried)")
    parser.add_argument("--inject-fault", metavar="KIND:JOB",
                        help="testing, local Ray only: the first attempt of job JOB (a pair or "
                        "shard number from 0) is killed once its command has written a game; "
                        "KIND kill-command kills the command, kill-worker the Ray worker")
