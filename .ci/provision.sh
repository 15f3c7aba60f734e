#!/usr/bin/env bash
# Installs, ahead of time, what the default CI steps after the tests fetch from the network:
# Debian's packages (MinGW and Wine for the Windows step, Chromium for the browser steps),
# rustup's targets, npm's binaryen and the Python environments of the checks. `.ci/run` starts
# it in the background while the Rust steps compile, since on a fresh machine these downloads
# are minutes of waiting on the network, not of CPU; the steps that follow wait for it. Each
# step still installs what it finds missing, so a failure here costs time, not the run.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
status=0
.ci/windows.sh --install-only || status=1
.ci/web.sh --install-only || status=1
python3 -m scripts.lib.venv scripts/oracles/requirements-pydraughts.txt \
    scripts/oracles/requirements-pydraughts-0.5.7.txt scripts/web/requirements.txt || status=1
echo "provision.sh: $((SECONDS - start)) s, status $status"
exit $status
