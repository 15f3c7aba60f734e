"""What a Ray task does on its node (standard library only): runs one `crownhead` command in a
scratch folder and hands back its exit code, output and the files it wrote.

The command runs in its own process group, and is told to die with the worker (Linux
`PR_SET_PDEATHSIG`), so that a task cancelled by the driver (`ray.cancel` raises
KeyboardInterrupt here), a task past its time limit, or a worker killed outright leaves no
engine running on the node. A command that exits non-zero, or is killed, raises `JobFailed`:
the driver counts that attempt as failed and retries the job once (`pool.py`).

Fault injection, for the tests (`scripts/ci/cluster_check.py`): a job may carry
`fault = {"kind": "kill-command" | "kill-worker", "marker": PATH}`. The first attempt to see no
file at PATH creates it, waits until the command has written some output (a game), then kills
the command's whole process group (as the OOM killer or an operator would) or the Ray worker
itself (as when a node is lost). Later attempts find the marker and run normally. A short
command may write its output and end between two looks (a pair of depth-2 games takes
milliseconds): the fault then strikes at its end, the attempt failing all the same, so that a
test of it never passes by luck of timing.
"""

from __future__ import annotations

import ctypes
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Dict, List, Optional, Tuple

PR_SET_PDEATHSIG = 1
TAIL = 4000  # characters of stderr kept for a failure's message


class JobFailed(Exception):
    """The command failed: what ran, its exit code (negative: killed by that signal) and the
    end of its stderr, in one message (one argument, so that it pickles back to the driver)."""


def make_job(session, argv: List[str], output: str, inputs: Dict[str, bytes]) -> Dict:
    """A job for `run_job`: `argv` run in a scratch folder (`{dir}`) holding `inputs`, in the
    session's working directory and time limit, handing back the file `output`."""
    return {"argv": argv, "cwd": session.cwd, "outputs": [output], "inputs": inputs,
            "timeout": session.timeout}


def openings_input(path: Optional[str]) -> Tuple[Dict[str, bytes], List[str]]:
    """An opening file as a job's input, and the flags that name it in the job's scratch
    folder; nothing without one (the built-in set)."""
    if not path:
        return {}, []
    with open(path, "rb") as f:
        return {"openings.txt": f.read()}, ["--openings", "{dir}/openings.txt"]


def _failed(what: str, returncode: Optional[int], stderr: str) -> JobFailed:
    return JobFailed(f"{what}: exit {returncode}: {stderr[-TAIL:].strip()}")


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL when the worker that started it dies."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: cancellation still kills the group, a killed worker may leave it


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _strike(fault: Dict, proc: subprocess.Popen) -> None:
    """The injected fault: the Ray worker killed (this process), or the command's group."""
    if fault["kind"] == "kill-worker":
        os.kill(os.getpid(), signal.SIGKILL)
    _kill_group(proc)


def _output_started(workdir: str, outputs: List[str], threshold: int) -> bool:
    for name in outputs:
        try:
            if os.path.getsize(os.path.join(workdir, name)) > threshold:
                return True
        except OSError:
            pass
    return False


def _sweep_scratch() -> None:
    """Removes the scratch folders of workers that died without cleaning up (killed, as the
    fault injection does, or by the OOM killer): each folder's name carries its worker's pid."""
    for path in glob.glob(os.path.join(tempfile.gettempdir(), "crownhead-task-*-*")):
        pid = os.path.basename(path).split("-")[2]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except PermissionError:
            pass  # alive, someone else's


def _make_executable(path: str) -> None:
    """A binary shipped in Ray's working_dir may arrive without its execute bit."""
    try:
        if os.path.isfile(path) and not os.access(path, os.X_OK):
            os.chmod(path, os.stat(path).st_mode | 0o111)
    except OSError:
        pass  # not ours to change: the exec below says what is wrong


def run_job(job: Dict) -> Dict:
    """Runs `job["argv"]` (the string `{dir}` in an argument becomes the scratch folder, where
    the files of `job["inputs"]`, {name: bytes}, are written first) in the working directory
    `job.get("cwd")`, at most `job.get("timeout")` seconds. Returns
    `{"stdout", "stderr", "seconds", "files": {name: bytes}}` for the names in
    `job["outputs"]` that exist; raises `JobFailed` on a non-zero exit."""
    _sweep_scratch()
    scratch = tempfile.mkdtemp(prefix=f"crownhead-task-{os.getpid()}-")
    try:
        argv = [a.replace("{dir}", scratch) for a in job["argv"]]
        cwd = job.get("cwd")
        if cwd and not os.path.isdir(cwd):
            cwd = None  # the driver's folder is not on this node: stay in the task's own
        _make_executable(os.path.join(cwd or os.getcwd(), argv[0]))
        for name, data in job.get("inputs", {}).items():
            with open(os.path.join(scratch, name), "wb") as f:
                f.write(data)
        outputs = job.get("outputs", [])
        fault = job.get("fault")
        if fault and os.path.exists(fault["marker"]):
            fault = None
        if fault:
            open(fault["marker"], "w").close()
        start = time.monotonic()
        with open(os.path.join(scratch, ".stdout"), "w+b") as out, \
                open(os.path.join(scratch, ".stderr"), "w+b") as err:
            proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=err, start_new_session=True,
                                    preexec_fn=_die_with_parent)
            try:
                deadline = job.get("timeout")
                while proc.poll() is None:
                    if deadline is not None and time.monotonic() - start > deadline:
                        _kill_group(proc)
                        raise _failed(f"timed out after {deadline} s", None, "")
                    if fault and _output_started(scratch, outputs, fault.get("after_bytes", 0)):
                        _strike(fault, proc)
                        fault = None
                    time.sleep(0.005 if fault else 0.05)
            except BaseException:
                # KeyboardInterrupt from ray.cancel, or the time limit: no engine outlives it.
                _kill_group(proc)
                raise
            what = " ".join(job["argv"][:2])
            if fault:
                # The command ended before the fault was seen to strike: strike now.
                _strike(fault, proc)
                raise _failed(what, -signal.SIGKILL, "killed by the injected fault")
            out.seek(0)
            err.seek(0)
            stdout = out.read().decode("utf-8", "replace")
            stderr = err.read().decode("utf-8", "replace")
        if proc.returncode != 0:
            raise _failed(what, proc.returncode, stderr)
        files = {}
        for name in outputs:
            path = os.path.join(scratch, name)
            if os.path.exists(path):
                with open(path, "rb") as f:
                    files[name] = f.read()
        return {"stdout": stdout, "stderr": stderr[-TAIL:], "files": files,
                "seconds": time.monotonic() - start}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
