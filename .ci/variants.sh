#!/usr/bin/env bash
# The five variants beyond russian and english (brazilian, pool, italian, spanish, czech): each
# plays a short self-play match with the match tool, which must end with no illegal move, crash
# or time forfeit (4 games each; 20 with --full). The deep perft of positions/ (the forums' tables
# to depth 10, Ed Gilbert's italian positions to their last depth, about 2 minutes on 2 cores)
# and the 4-piece databases of the five are ignored tests, which `.ci/run --full` runs with the
# others. The pydraughts cross-check and Hub games of brazilian and italian run in
# crosscheck.py and hub_pydraughts.py.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# Skipped when .ci/run has built the native engine (CROWNHEAD_NATIVE_BUILT).
[ -n "${CROWNHEAD_NATIVE_BUILT:-}" ] || cargo build --release
bin=target/release/crownhead
games=4
[ "${1:-}" = "--full" ] && games=20
for v in brazilian pool italian spanish czech; do
    out=$("$bin" match --engine "$bin" --engine "$bin" --variant "$v" --games "$games" --depth 5)
    echo "$v: $(echo "$out" | grep '^Score of')"
    faults=$(echo "$out" | grep '^Faults of')
    if echo "$faults" | grep -qv 'illegal moves 0, crashes 0, time forfeits 0'; then
        echo "$out"
        echo "variants: FAILED: a fault in the $v self-play match"
        exit 1
    fi
done
echo "variants: done in $(($(date +%s) - start)) s"
