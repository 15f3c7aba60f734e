#!/usr/bin/env bash
# CI step: Crownhead in the browser. Installs Debian's chromium and chromium-driver if missing,
# builds web/dist with scripts/build_web.sh (the wasm32 target and npm's wasm-opt come with it;
# the JavaScript module is written by hand, so no bindings generator is compiled), builds the
# native engine the checks compare with, and runs the browser checks (scripts/web/engine_test.py,
# run as a module; with --full, deeper searches and longer games). --install-only installs
# Chromium, the wasm32 target and wasm-opt and stops (.ci/provision.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
full=()
[ "${1:-}" = "--full" ] && full=(--full)

if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
    apt-get install -y chromium chromium-driver >/dev/null 2>&1 ||
        { apt-get update >/dev/null 2>&1 && apt-get install -y chromium chromium-driver >/dev/null; }
fi
if [ "${1:-}" = "--install-only" ]; then
    exec scripts/build_web.sh --tools-only
fi
dist=$(scripts/build_web.sh 2>/tmp/build_web.log | tail -1) || { tail -30 /tmp/build_web.log; exit 1; }
built=$(date +%s)
echo "web/dist built in $((built - start)) s: $dist"
# Skipped when .ci/run has built the native engine (CROWNHEAD_NATIVE_BUILT).
[ -n "${CROWNHEAD_NATIVE_BUILT:-}" ] || cargo build --release >/dev/null 2>&1 || cargo build --release
python3 -m scripts.web.engine_test --dist "$dist" "${full[@]}"
echo "browser checks: $(($(date +%s) - built)) s; the web step in all: $(($(date +%s) - start)) s"
