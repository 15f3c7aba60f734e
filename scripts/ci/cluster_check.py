"""The cluster driver (scripts/tools/cluster) on a local Ray of 2 CPUs, against the local
commands (`python3 -m scripts.ci.cluster_check`):

1. egtb: the 3-piece databases of both variants, one task per pair with the binary shipped
   through Ray's runtime_env, give files identical (by checksum) to `crownhead egtb build
   --pieces 3`; a rerun builds nothing.
2. match: 8 games in 4 tasks give 8 games, a merged PDN that `crownhead analyze` reads in full
   and that holds the games of the local `crownhead match`, move for move.
3. an engine that crashes on start: every pair is retried once and recorded lost, promptly.
4. fault injection: a pair's `crownhead match` killed after its first game is retried and the
   totals and the PDN are those of the run without the fault.
5. selfplay over 2 shards, one shard's Ray worker killed after its first game: the merged file
   is the local run's byte for byte, with positions met in both shards kept once.
6. SPRT: a match of 20 pairs stops when the SPRT decides, cancels what is left, and leaves no
   engine running.

One Ray instance serves every step (starting one takes seconds). Run after `cargo build
--release`; CI runs it from .ci/run. Prints `N passed, 0 failed` at the end; exits 1 on any
failure.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time

from scripts.lib import venv
from scripts.lib.engine import RELEASE_BINARY as DEFAULT_BINARY
from scripts.tools.cluster import driver as cluster

# Loopback only, as the driver does for a local Ray; before ray is first imported.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
venv.reexec_into(cluster.REQUIREMENTS)

import ray  # noqa: E402  (only in the environment that has it)

RESULTS = []


def check(name: str, ok: bool, detail: str = "") -> None:
    RESULTS.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


def run(binary: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, *args], capture_output=True, text=True)


def checksums(folder: str) -> dict:
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.cheg"))):
        with open(path, "rb") as f:
            out[os.path.basename(path)] = hashlib.sha256(f.read()).hexdigest()
    return out


def without_times(pdn: str) -> list:
    """The PDN's words with each move's time left out: the one thing that differs run to run."""
    return re.sub(r"\d+\.\d+s\}", "s}", pdn).split()


def pdn_games(path: str) -> int:
    with open(path) as f:
        return sum(1 for line in f if line.startswith("[Event "))


def task_processes() -> list:
    """Processes still running a task's command (their arguments name its scratch folder)."""
    found = []
    for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(cmdline, "rb") as f:
                text = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if "crownhead-task-" in text and "cluster_check" not in text:
            found.append(text)
    return found


def egtb(binary: str, tmp: str) -> None:
    for i, variant in enumerate(("english", "russian")):
        ray_dir, local_dir = os.path.join(tmp, "egtb-ray"), os.path.join(tmp, "egtb-local")
        ship = ["--ship"] if i == 0 else []
        report = cluster.main(["egtb", "--variant", variant, "--pieces", "3", "--dir", ray_dir,
                               "--crownhead", binary, "--cpus", "2", *ship])
        local = run(binary, "egtb", "build", "--variant", variant, "--pieces", "3", "--dir",
                    local_dir, "--threads", "2")
        a, b = checksums(os.path.join(ray_dir, variant)), checksums(os.path.join(local_dir,
                                                                                 variant))
        check(f"egtb {variant} 3 pieces: the files of crownhead egtb build",
              local.returncode == 0 and len(a) == 16 and a == b and report.lost == 0,
              f"{len(a)} files, {report.built} pairs built as tasks")
        again = cluster.main(["egtb", "--variant", variant, "--pieces", "3", "--dir", ray_dir,
                              "--crownhead", binary])
        check(f"egtb {variant}: a rerun skips every pair", again.built == 0
              and again.skipped == again.pairs)


def match(binary: str, tmp: str) -> None:
    common = ["--engine", binary, "--engine", binary, "--games", "8", "--depth", "2",
              "--variant", "english", "--crownhead", binary]
    merged = os.path.join(tmp, "match.pdn")
    t0 = time.monotonic()
    m = cluster.main(["match", *common, "--pdn", merged])
    took = time.monotonic() - t0
    check("match: 8 games in 4 tasks", m.tally.games() == 8 and m.played == 4 and m.lost == 0
          and m.retried == 0 and sum(m.penta.counts) == 4 and pdn_games(merged) == 8,
          f"W {m.tally.wins} D {m.tally.draws} L {m.tally.losses} in {took:.1f} s")
    analyzed = run(binary, "analyze", merged, "--depth", "1", "--json")
    summaries = analyzed.stdout.count('"type":"summary"')
    check("match: crownhead analyze reads the merged PDN in full",
          analyzed.returncode == 0 and summaries == 8 and "skipped" not in analyzed.stderr,
          f"{summaries} game summaries")
    local = os.path.join(tmp, "local.pdn")
    run(binary, "match", *common[:-2], "--pdn", local)
    with open(merged) as f, open(local) as g:
        same = without_times(f.read()) == without_times(g.read())
    check("match: the merged PDN holds the local match's games, in order", same)

    t0 = time.monotonic()
    crash = ["--engine", "sh -c 'kill -SEGV $$'"] + common[2:]
    c = cluster.main(["match", *crash])
    took = time.monotonic() - t0
    check("match: an engine that crashes on start gives recorded failures, not a hang",
          c.lost == 4 and c.retried == 4 and c.played == 0 and c.tally.games() == 0
          and took < 120 and all("could not start" in e for e in c.lost_errors),
          f"4 pairs lost after a retry each, in {took:.1f} s")

    faulty = os.path.join(tmp, "fault.pdn")
    f = cluster.main(["match", *common, "--pdn", faulty, "--inject-fault", "kill-command:1"])
    with open(faulty) as a, open(merged) as b:
        same = without_times(a.read()) == without_times(b.read())
    check("match: a pair killed mid-run is retried and the totals add up",
          f.retried == 1 and f.played == 4 and f.lost == 0 and f.tally.games() == 8
          and (f.tally.wins, f.tally.draws, f.tally.losses)
          == (m.tally.wins, m.tally.draws, m.tally.losses) and same,
          f"retried {f.retried}, played {f.played}, {f.tally.games()} games")

    sprt = os.path.join(tmp, "sprt.pdn")
    # Equal engines score about 1/2, far above the 0.24 of -200 Elo: H1 within a few pairs.
    s = cluster.main(["match", *common[:4], "--games", "40", "--depth", "2", "--variant",
                      "english", "--crownhead", binary, "--sprt=-400,-200", "--pdn", sprt])
    time.sleep(0.5)
    left = task_processes()
    check("match: the SPRT decides, cancels the rest and leaves no engine running",
          s.decided == "H1" and s.played + s.lost < 20 and pdn_games(sprt) == s.tally.games()
          and not left, f"decided after {s.played} pairs; {left[:1]}")


def selfplay(binary: str, tmp: str) -> None:
    openings = os.path.join(tmp, "one_opening.txt")
    with open(openings, "w") as f:
        f.write("11-15 23-19 8-11\n")  # one opening: the games share their first positions
    flags = ["--variant", "english", "--nodes", "5000", "--max-plies", "100", "--seed", "3",
             "--openings", openings]
    merged = os.path.join(tmp, "selfplay.bin")
    m = cluster.main(["selfplay", *flags, "--games", "8", "--shards", "2", "--out", merged,
                      "--crownhead", binary, "--inject-fault", "kill-worker:1"])
    local = os.path.join(tmp, "selfplay-local.bin")
    done = run(binary, "selfplay", *flags, "--games", "8", "--out", local)
    with open(merged, "rb") as a, open(local, "rb") as b:
        same = a.read() == b.read()
    check("selfplay: 2 shards merged are the local run byte for byte",
          done.returncode == 0 and same and m.lost == 0 and m.games == 8 and m.dropped > 0,
          f"{m.positions} positions, {m.dropped} met in an earlier shard and dropped")
    check("selfplay: the shard whose Ray worker was killed was retried",
          m.retried == 1 and m.lost == 0, f"retried {m.retried}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--crownhead", default=DEFAULT_BINARY)
    args = p.parse_args()
    binary = os.path.abspath(args.crownhead)
    if not os.path.isfile(binary):
        sys.exit(f"error: no binary at {binary} (cargo build --release)")
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cluster-check-") as tmp:
        egtb(binary, tmp)  # starts the Ray every step uses (local, 2 CPUs, binary shipped)
        match(binary, tmp)
        selfplay(binary, tmp)
        time.sleep(0.5)
        left = task_processes()
        check("no task's command outlives its task (cancelled, killed or done)", not left,
              "; ".join(left[:2]))
        ray.shutdown()
    passed = sum(RESULTS)
    print(f"cluster check: {time.monotonic() - start:.0f} s")
    print(f"{passed} passed, {len(RESULTS) - passed} failed")
    return 0 if passed == len(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
