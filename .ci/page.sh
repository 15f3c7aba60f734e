#!/usr/bin/env bash
# CI step for the browser page: builds the engine for the browser (scripts/build_web.sh) and the
# native binary, installs Debian's chromium and chromium-driver if missing, then drives the real
# page served by `crownhead web` in headless Chromium (scripts/web/test_page.py). --full plays
# three games a variant instead of one. Prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
full=()
[ "${1:-}" = "--full" ] && full=(--full)

if ! { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }; then
    apt-get install -y chromium chromium-driver >/dev/null 2>&1 ||
        { apt-get update >/dev/null 2>&1 && apt-get install -y chromium chromium-driver >/dev/null; }
fi
# The native engine: .ci/run has built it when it sets CROWNHEAD_NATIVE_BUILT (a build here
# would wait on the lock that a Windows cross build beside this step holds); web/dist is a
# quick no-op when .ci/web.sh built it first.
[ -n "${CROWNHEAD_NATIVE_BUILT:-}" ] || cargo build --release >/dev/null 2>&1 || cargo build --release
scripts/build_web.sh >/tmp/page_build_web.log 2>&1 || { tail -30 /tmp/page_build_web.log; exit 1; }
python3 -m scripts.web.test_page "${full[@]}"
echo "page.sh: $(( $(date +%s) - start )) s"
