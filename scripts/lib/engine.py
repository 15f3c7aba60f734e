"""The engine as the scripts talk to it: a `crownhead` process (or any program speaking its
text protocols, such as the Windows build under Wine) over pipes, line by line (standard
library only).

    with Engine.uci(RELEASE_BINARY, variant="english", Threads=2) as e:
        e.send("position startpos", "go depth 8")
        best = e.read_until("bestmove")[-1].split()[1]

`read_until(prefix)` returns every line up to the first that is `prefix` or starts with
`prefix` and a space (so `ready` never stops at `readyok`). A thread reads the engine's output
as it comes, so a wait can have a time limit, and an engine that exits or stops answering
raises `EngineError` with what was awaited rather than hanging the script.
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from typing import Sequence

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(SCRIPTS)
# What `cargo build --release` makes: the engine and its CheckerBoard library.
RELEASE_BINARY = os.path.join(REPO_ROOT, "target", "release", "crownhead")
RELEASE_LIBRARY = os.path.join(REPO_ROOT, "target", "release", "libcrownhead.so")


class EngineError(Exception):
    """The engine exited, closed its input, or did not answer in time."""


class EngineTimeout(EngineError):
    """No awaited line within the time limit; the engine may still answer later."""


class Engine:
    """One engine process: `send` lines, `read_until` a line, `close`."""

    def __init__(self, argv: Sequence[str] | str, *, cwd: str | None = None,
                 stderr: int | None = subprocess.DEVNULL) -> None:
        self.argv = [argv] if isinstance(argv, str) else list(argv)
        try:
            self.proc = subprocess.Popen(self.argv, cwd=cwd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=stderr, text=True,
                                         bufsize=1)
        except OSError as e:
            raise EngineError(f"cannot start {' '.join(self.argv)}: {e}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ended = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @classmethod
    def uci(cls, binary: str, variant: str | None = None, timeout: float = 30,
            **options: object) -> Engine:
        """The engine in its UCI-style dialect, past `uciok`, with the variant and the options
        (`Threads=2`, `Hash=16`) set and `readyok` read."""
        e = cls([binary])
        e.send("uci")
        e.read_until("uciok", timeout)
        if variant:
            options = {"Variant": variant, **options}
        for name, value in options.items():
            e.send(f"setoption name {name} value {value}")
        e.send("isready")
        e.read_until("readyok", timeout)
        return e

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip("\r\n"))
        finally:
            # The reader closes the pipe it reads: closed under it from another thread, a read
            # in progress could fail.
            self._lines.put(None)
            self.proc.stdout.close()

    def send(self, *lines: str) -> None:
        """Writes each line, then flushes."""
        assert self.proc.stdin is not None
        try:
            for line in lines:
                self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"the engine closed its input ({self._exit()})") from None

    def read_until(self, prefix: str, timeout: float | None = None) -> list[str]:
        """The lines read up to and including the first that is `prefix` or begins with it and
        a space. Raises `EngineTimeout` after `timeout` seconds (None: no limit), and
        `EngineError` when the engine's output ends first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        lines: list[str] = []
        while True:
            line = self._next(deadline, prefix, lines)
            lines.append(line)
            if line == prefix or line.startswith(prefix + " "):
                return lines

    def ask(self, *lines: str, until: str, timeout: float | None = None) -> list[str]:
        """`send` the lines, then `read_until(until)`."""
        self.send(*lines)
        return self.read_until(until, timeout)

    def show(self, start: str | None,
             moves: Sequence[str] = ()) -> tuple[list[str], dict[str, str]]:
        """The UCI dialect's `d` of the position after `moves` from the FEN `start` (None: the
        variant's start position): the error lines the engine answered with, and the fields of
        `d` by name (`FEN`, `Side to move`, `Legal moves`, `Result` when the game is over)."""
        where = f"fen {start}" if start else "startpos"
        lines = self.ask(f"position {where}" + (" moves " + " ".join(moves) if moves else ""),
                         "d", "isready", until="readyok")
        errors = [line for line in lines if line.startswith("info string error")]
        fields = {}
        for line in lines:
            key, sep, value = line.partition(": ")
            if not sep and line.endswith(":"):  # an empty field, its space trimmed
                key, sep, value = line[:-1], ":", ""
            if sep:
                # `Legal moves (7): ...` is the field `Legal moves`.
                fields[key.split(" (")[0]] = value
        return errors, fields

    def drain(self) -> list[str]:
        """The lines the engine has written that no `read_until` has read yet, without waiting."""
        out: list[str] = []
        while not self._ended:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._ended = True
            else:
                out.append(line)
        return out

    def _next(self, deadline: float | None, awaited: str, seen: list[str]) -> str:
        if not self._ended:
            try:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                line = self._lines.get(timeout=left)
            except queue.Empty:
                raise EngineTimeout(f"no '{awaited}' from the engine in time; "
                                    f"its last lines: {seen[-3:]}") from None
            if line is not None:
                return line
            self._ended = True
        raise EngineError(f"the engine ended ({self._exit()}) while we waited for '{awaited}'; "
                          f"its last lines: {seen[-3:]}")

    def _exit(self) -> str:
        try:
            return f"exit code {self.proc.wait(timeout=5)}"
        except subprocess.TimeoutExpired:
            return "still running"

    def close(self, command: str | None = "quit", timeout: float = 10) -> int | None:
        """Sends `command` (none if None), waits for the process to end, killing it after
        `timeout` seconds, and closes its input. Returns the exit code, or None if it had to
        be killed."""
        code: int | None = None
        if command is not None and self.proc.poll() is None:
            try:
                self.send(command)
            except EngineError:
                pass
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        return code

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
