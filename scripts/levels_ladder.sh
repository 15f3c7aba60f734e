#!/usr/bin/env bash
# The strength levels' Elo ladder (docs/WEB.md, "Strength levels"): each level against the next
# one up, and each against full strength, with `crownhead match` over Hub. A benchmark, not a
# test: it takes minutes to hours with the defaults.
#
#   scripts/levels_ladder.sh [--games N] [--movetime MS] [--variant V] [--exe PATH] [--concurrency K]
#                            [--margin MS]
#
# A level is set by sending `set-param name=skill value=<level>` ahead of the match's own Hub
# dialogue (Hub takes set-param at any time), so the engine under test is the plain binary.
set -euo pipefail
cd "$(dirname "$0")/.."
games=40
movetime=100
variant=russian
exe=target/release/crownhead
concurrency=1
# Overrun allowed past the move time before a forfeit: generous, since a loaded machine can hold
# an engine off its core (the levels are bounded by depth and nodes, not by the clock).
margin=1000
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --movetime) movetime=$2; shift 2 ;;
        --variant) variant=$2; shift 2 ;;
        --exe) exe=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --margin) margin=$2; shift 2 ;;
        *) echo "levels_ladder.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -x "$exe" ] || { echo "levels_ladder.sh: build $exe first (cargo build --release)" >&2; exit 1; }
levels=$(printf 'hub\nquit\n' | "$exe" hub | sed -n 's/^param name=skill .*values="\(.*\)"$/\1/p')
[ -n "$levels" ] || { echo "levels_ladder.sh: $exe has no skill param" >&2; exit 1; }
engine() {
    echo "{ printf 'set-param name=skill value=$1\n'; cat; } | $exe hub"
}
play() {
    local a=$1 b=$2
    echo "== $a v $b: $games games, $variant, ${movetime} ms a move"
    "$exe" match --hub --variant "$variant" --games "$games" --movetime "$movetime" \
        --concurrency "$concurrency" --margin "$margin" --engine "$(engine "$a")" --engine "$(engine "$b")" 2>&1 |
        grep -E "^(Score of|Elo difference|Faults|Endings)"
}
set -- $levels
prev=""
for level in "$@"; do
    [ -n "$prev" ] && play "$level" "$prev"
    prev=$level
done
for level in "$@"; do
    [ "$level" != full ] && play "$level" full
done
