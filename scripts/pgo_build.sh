#!/usr/bin/env bash
# The fastest build of Crownhead: a profile-guided (PGO) binary of the `dist` profile (fat LTO).
#
#     scripts/pgo_build.sh            # prints the binary's path on its last line
#
# It builds an instrumented binary, lets it play a few self-play games in both variants and run
# perft (the training run: the engine's real work, but not the bench, so that the bench stays a
# fair measure of the result), merges the profiles, and builds again with them. The compiler then
# lays out the hot paths of the search and the generators by what the training run did. The
# search is unchanged: the binary gives the same bench signature as `cargo build --release`.
#
# Needs an `llvm-profdata` that reads rustc's raw profiles. rustc's own (the rustup component
# llvm-tools) is tried first; otherwise Debian's llvm-NN packages, newest first (`apt-get install
# llvm-19` serves rustc 1.95: its LLVM 22 writes raw profiles of version 10, which LLVM 19 reads).
# Environment: PGO_DIR (default target/pgo) holds the builds and the profiles; PGO_TARGET_CPU
# (default native) is the CPU the binary is for.
set -euo pipefail
cd "$(dirname "$0")/.."

PGO_DIR=${PGO_DIR:-target/pgo}
mkdir -p "$PGO_DIR"
PGO_DIR=$(cd "$PGO_DIR" && pwd)
PROFILES="$PGO_DIR/profiles"
MERGED="$PGO_DIR/merged.profdata"

# The binary is for this machine: it may use every instruction of this CPU (on x86-64 BMI1 and
# BMI2 take a few percent off the instructions per node). PGO_TARGET_CPU=x86-64-v2 (or any
# `rustc --print target-cpus` name) builds one to copy to other machines. RUSTFLAGS replaces the
# rustflags of .cargo/config.toml, whose popcnt every x86-64-v2 CPU has.
BASE_FLAGS="-C target-cpu=${PGO_TARGET_CPU:-native}"

echo "== instrumented build" >&2
rm -rf "$PROFILES" "$MERGED"
mkdir -p "$PROFILES"
RUSTFLAGS="$BASE_FLAGS -C profile-generate=$PROFILES" \
    cargo build --profile dist --target-dir "$PGO_DIR/generate" >&2
TRAINER="$PGO_DIR/generate/dist/crownhead"

echo "== training run" >&2
export LLVM_PROFILE_FILE="$PROFILES/crownhead-%p.profraw"
for variant in russian english; do
    "$TRAINER" match --engine "$TRAINER" --engine "$TRAINER" --variant "$variant" \
        --games 6 --depth 9 >&2
done
"$TRAINER" perft --variant russian --depth 9 >&2
"$TRAINER" perft --variant english --depth 10 >&2
unset LLVM_PROFILE_FILE

echo "== merging the profiles" >&2
SYSROOT_TOOL="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata"
CANDIDATES=("$SYSROOT_TOOL")
for v in $(seq 30 -1 19); do
    CANDIDATES+=("llvm-profdata-$v")
done
CANDIDATES+=("llvm-profdata")
merged=""
for tool in "${CANDIDATES[@]}"; do
    if command -v "$tool" >/dev/null 2>&1 &&
        "$tool" merge -o "$MERGED" "$PROFILES"/*.profraw 2>/dev/null; then
        merged="$tool"
        break
    fi
done
if [ -z "$merged" ]; then
    echo "error: no llvm-profdata here reads rustc's profiles (rustc's LLVM: $(rustc -vV | sed -n 's/^LLVM version: //p'));" >&2
    echo "install rustup's llvm-tools component, or Debian's llvm-19 or newer" >&2
    exit 1
fi
echo "merged with $merged" >&2

echo "== optimised build" >&2
RUSTFLAGS="$BASE_FLAGS -C profile-use=$MERGED" \
    cargo build --profile dist --target-dir "$PGO_DIR/use" >&2
echo "$PGO_DIR/use/dist/crownhead"
