#!/usr/bin/env bash
# CI's Windows steps: cross-builds with MinGW-w64 from Debian's packages and rustup's
# windows-gnu targets, and tests the builds under Wine (docs/CHECKERBOARD.md, "On Windows").
#
# Default (a few minutes): the 64-bit crownhead.exe and crownhead.dll; their exports and
# imports (pe_check.sh); the DLL through the MinGW test host (cbhost.c: commands, islegal, bad
# input, *playnow, a whole game per variant) with every game move judged by the Linux engine;
# the exe against the Linux build (dialogues of both protocols, stop, perft 9 in both
# variants, the bench signature).
# --full adds: the same for the 32-bit builds (wine32), the bench speed against Linux (medians
# of 7 alternate runs), clippy, the unit tests (64- and 32-bit) and the end-to-end tests
# (tests/it, 64-bit) for Windows, the release archives (scripts/release.sh, unpacked and run),
# and the real CheckerBoard, 64- and 32-bit (checkerboard_wine.sh), when CHECKERBOARD_SRC
# names a folder of its source.
# --install-only installs the default run's toolchains and stops (.ci/provision.sh).
# Needs target/release/crownhead (the Linux engine, the judge): built here if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
full=0
install_only=0
[ "${1:-}" = --full ] && full=1
[ "${1:-}" = --install-only ] && install_only=1

echo "== Windows: toolchains (Debian's mingw-w64 and wine, rustup's windows-gnu targets)"
packages="gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine wine64 python3"
targets="x86_64-pc-windows-gnu"
if [ $full = 1 ]; then
    packages="$packages gcc-mingw-w64-i686 binutils-mingw-w64-i686 g++-mingw-w64-x86-64 g++-mingw-w64-i686 xvfb imagemagick zip unzip"
    targets="$targets i686-pc-windows-gnu"
    # wine32 comes from Debian's i386 architecture; without it the 32-bit builds are still
    # built and checked statically, but not run.
    if ! dpkg --print-foreign-architectures | grep -qx i386; then
        dpkg --add-architecture i386 && apt-get update >/dev/null 2>&1 || true
    fi
fi
missing=$(for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
        { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing >/dev/null; }
fi
if [ $full = 1 ] && ! dpkg -s wine32:i386 >/dev/null 2>&1; then
    apt-get install -y --no-install-recommends wine32:i386 >/dev/null 2>&1 ||
        echo "(wine32:i386 could not be installed: the 32-bit builds are not run)"
fi
rustup target add $targets >/dev/null 2>&1 || echo "(rustup could not add $targets)"
echo "toolchains ready after $((SECONDS - start)) s"
[ $install_only = 1 ] && exit 0

[ -x target/release/crownhead ] || cargo build --release
# shellcheck source=../scripts/windows/wine_env.sh
source scripts/windows/wine_env.sh
wine_setup

test_arch() { # test_arch ARCH: build, check statically, run under Wine
    local arch=$1 dir=target/$1-pc-windows-gnu/release
    echo "== Windows $arch: cargo build --release --target $arch-pc-windows-gnu"
    cargo build --release --target "$arch-pc-windows-gnu"
    echo "== Windows $arch: exports, calling convention, imports"
    scripts/windows/pe_check.sh "$dir" "$arch"
    if [ "$arch" = i686 ] && ! wine32_works; then
        echo "(no wine32 here: the i686 builds are checked statically only)"
        return 0
    fi
    echo "== Windows $arch: crownhead.dll through the MinGW test host, games judged on Linux"
    "$arch-w64-mingw32-gcc" -O2 -Wall -static -o "$dir/cbhost.exe" scripts/windows/cbhost.c
    local log=target/wine/cbhost-$arch.log
    mkdir -p target/wine
    wine "$dir/cbhost.exe" "$dir/crownhead.dll" >"$log" 2>/dev/null || { grep -v '^move' "$log"; return 1; }
    grep -v '^move' "$log"
    python3 -m scripts.windows.check_games "$log" --expect 2
    echo "== Windows $arch: crownhead.exe against the Linux build"
    # The speed target (within 15% of Linux) is the 64-bit build's; the 32-bit one is slower by
    # construction (docs/CHECKERBOARD.md), so its speed is shown with no floor.
    local extra=()
    [ $full = 1 ] && extra=(--bench-runs 7)
    [ $full = 1 ] && [ "$arch" = i686 ] && extra+=(--min-ratio 0)
    python3 -m scripts.windows.exe_check --windows "$dir/crownhead.exe" "${extra[@]}"
}

test_arch x86_64
if [ $full = 1 ]; then
    test_arch i686
    echo "== Windows: lints of the cfg(windows) code"
    cargo clippy --target x86_64-pc-windows-gnu --all-targets -- -D warnings
    echo "== Windows: the unit tests under Wine"
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine cargo test --target x86_64-pc-windows-gnu --lib
    if wine32_works; then
        # Without backtraces: Wine 8's 32-bit dbghelp.dll faults while walking the stack of a
        # panic in a test build (with debug information), which the pool's tests cause on purpose.
        RUST_BACKTRACE=0 CARGO_TARGET_I686_PC_WINDOWS_GNU_RUNNER=wine cargo test --target i686-pc-windows-gnu --lib
    fi
    # The release builds above are reused; the match tests' stand-in engine is built first, as
    # the Linux cargo cannot be run from inside Wine to build it (tests/it/match_tool.rs).
    echo "== Windows: the end-to-end tests (tests/it) under Wine"
    cargo build --release --target x86_64-pc-windows-gnu --example uci_fixture
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine cargo test --release --target x86_64-pc-windows-gnu --test it
    # The release profile: the builds above are reused; the shipped archives use dist.
    echo "== release archives: built, unpacked and run"
    scripts/release.sh "$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)" --no-pgo --profile release --test
    if [ -n "${CHECKERBOARD_SRC:-}" ] && [ -d "$CHECKERBOARD_SRC" ]; then
        echo "== the real CheckerBoard under Wine (CHECKERBOARD_SRC=$CHECKERBOARD_SRC)"
        scripts/windows/checkerboard_wine.sh "$CHECKERBOARD_SRC"
        if wine32_works; then
            echo "== the real 32-bit CheckerBoard under wine32, with the 32-bit DLL"
            scripts/windows/checkerboard_wine.sh "$CHECKERBOARD_SRC" --arch i686
        fi
    else
        echo "== the real CheckerBoard: skipped (set CHECKERBOARD_SRC to a folder of its source)"
    fi
fi
echo "Windows steps took $((SECONDS - start)) s"
