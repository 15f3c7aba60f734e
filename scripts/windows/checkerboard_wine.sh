#!/usr/bin/env bash
# The real client: builds CheckerBoard from a folder of its source with MinGW-w64, runs it under
# Wine in a virtual X display (Xvfb) with crownhead.dll as both of its engines, plays one
# engine-against-engine game in English and one in Russian at 0.1 s a move, keeps a screenshot
# of each game's end, and judges every move of each game's PDN with the Linux engine
# (check_games.py).
#
# CheckerBoard's public source (github.com/eygilbert/CheckerBoard, 1.77a) has no stated licence,
# so this repository carries none of it: give the folder of a copy. Nothing here edits it; the
# build adds a few shims of its own (headers whose case differs from their file names on Linux,
# MSVC's min/max and afxres.h, and the one __stdcall that the 32-bit build needs spelt out) in
# the build folder. --arch i686 builds and runs a 32-bit CheckerBoard (wine32) with the 32-bit
# DLL, under the engine names a 32-bit CheckerBoard looks for.
#
# Usage: scripts/windows/checkerboard_wine.sh CHECKERBOARD_SOURCE_DIR [--arch x86_64|i686]
#            [--dll PATH] [--seconds N]
# Needs: g++-mingw-w64 for the arch, wine (wine32 for i686), xvfb, imagemagick (import),
# python3, and target/release/crownhead (the Linux engine, the judge).
# Output: target/checkerboard/ARCH/{english,russian}.{pdn,png,log}; "N passed, N failed";
# exit status 0 when both games were played and judged right.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=${1:?usage: checkerboard_wine.sh CHECKERBOARD_SOURCE_DIR [--arch A] [--dll P] [--seconds N]}
shift
arch=x86_64
dll=
seconds=300
while [ $# -gt 0 ]; do
    case $1 in
    --arch) arch=$2; shift 2 ;;
    --dll) dll=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
src=$(cd "$src" && pwd) || exit 2
[ -f "$src/CheckerBoard.c" ] || { echo "no CheckerBoard.c in $src" >&2; exit 2; }
dll=${dll:-$root/target/$arch-pc-windows-gnu/release/crownhead.dll}
[ -f "$dll" ] || { echo "no $dll: build it first" >&2; exit 2; }
out=$root/target/checkerboard/$arch
build=$out/build
run=$out/run
mkdir -p "$build/shim" "$run/engines"
passed=0
failed=0
check() { # check STATUS MESSAGE
    if [ "$1" = 0 ]; then echo "ok - $2"; passed=$((passed + 1)); else echo "FAIL - $2"; failed=$((failed + 1)); fi
}

# --- Build CheckerBoard (about a minute; again only when a source is newer than the exe).
cxx=$arch-w64-mingw32-g++
exe=$build/CheckerBoard.exe
sources="app_instance.cpp bitboard.c bmp.c CB_movegen.c CheckerBoard.c coordinates.c crc.c
    dialogs.c fen.c graphics.c PDNfind.c PDNparser.c registry.c saveashtml.c utility.c"
if [ ! -f "$exe" ] || [ -n "$(find "$src" -newer "$exe" -name '*.[ch]*' | head -1)" ]; then
    # Headers included with another case than the file has (Windows does not mind).
    echo '#include <windows.h>' >"$build/shim/Windows.h"
    echo '#include "CBconsts.h"' >"$build/shim/cbconsts.h"
    echo '#include "CheckerBoard.h"' >"$build/shim/checkerboard.h"
    # MSVC's resource header, and the one MFC id the about box uses (a bitmap of the .rc).
    printf '#include <windows.h>\n#include <winres.h>\n#ifndef IDC_STATIC\n#define IDC_STATIC (-1)\n#endif\n#define AFX_IDC_CHANGE 101\n' \
        >"$build/shim/afxres.h"
    # MSVC's windows.h defines min and max for C++ too; three files rely on it.
    printf '#include <algorithm>\n#include <string>\n#include <vector>\n#include <windows.h>\n#ifndef max\n#define max(a, b) (((a) > (b)) ? (a) : (b))\n#endif\n#ifndef min\n#define min(a, b) (((a) < (b)) ? (a) : (b))\n#endif\n' \
        >"$build/shim/minmax.h"
    # CheckerBoard's 32-bit project compiles with __stdcall as the default (MSVC's /Gz). GCC's
    # -mrtd would be the same, but also for the C++ library's functions, whose compiled copies
    # use the C convention; so instead the one function that needs it to compile, the built-in
    # islegal kept as a CB_ISLEGAL when an engine has none (never with Crownhead, which has
    # one), is declared WINAPI in a copy of CheckerBoard.c in the build folder. (The thread
    # functions, cast to LPTHREAD_START_ROUTINE, then leave their one argument for the thread's
    # start to pop as it ends, which it does not mind: MSVC's build has the same for
    # initengines, which takes no argument.) On 64-bit WINAPI changes nothing.
    sed 's/^int builtinislegal(Board8x8 board8, int color, int from, int to, CBmove \*move)/int WINAPI builtinislegal(Board8x8 board8, int color, int from, int to, CBmove *move)/' \
        "$src/CheckerBoard.c" >"$build/CheckerBoard.c"
    objects=()
    for f in $sources; do
        extra=()
        case $f in CheckerBoard.c | dialogs.c | registry.c) extra=(-include "$build/shim/minmax.h") ;; esac
        input=$src/$f
        [ "$f" = CheckerBoard.c ] && input=$build/CheckerBoard.c
        o=$build/${f%.*}.o
        nice "$cxx" -x c++ -std=gnu++17 -O1 -w -fpermissive "${extra[@]}" -I"$build/shim" -I"$src" \
            -I"$src/source" -D_CRT_SECURE_NO_WARNINGS -D_WINDOWS -DNDEBUG -c "$input" -o "$o" \
            2>"$build/${f%.*}.log" ||
            { cat "$build/${f%.*}.log"; check 1 "CheckerBoard: compiling $f"; echo "$passed passed, $failed failed"; exit 1; }
        objects+=("$o")
    done
    "$arch-w64-mingw32-windres" -I"$build/shim" -I"$src" -i "$src/checkerboard.rc" -o "$build/rc.o" &&
        "$cxx" -static -mwindows -o "$exe" "${objects[@]}" "$build/rc.o" -lcomctl32 -lshlwapi \
            -lwinmm -lwininet -lgdi32 -lcomdlg32 -lole32 -luuid -lshell32 2>&1 | grep -v 'warning' >&2
    [ -f "$exe" ]
    check $? "CheckerBoard built from $src with $cxx" || { echo "$passed passed, $failed failed"; exit 1; }
fi
"$arch-w64-mingw32-gcc" -O2 -Wall -static -o "$build/cbdrive.exe" "$root/scripts/windows/cbdrive.c" || exit 1

# --- CheckerBoard's folder: its bitmaps, and Crownhead under the names of the engines that a
# fresh registry selects (registry.c: cake64.dll and simplech64.dll on 64-bit, cake.dll and
# simplech.dll on 32-bit): the primary and secondary engines, two copies so that each is a
# session of its own, as two engines in a match are.
cp "$exe" "$build/cbdrive.exe" "$run/"
cp -r "$src/bmp" "$src/toolbar.bmp" "$src/help.htm" "$run/"
if [ "$arch" = x86_64 ]; then names="cake64.dll simplech64.dll"; else names="cake.dll simplech.dll"; fi
for n in $names; do cp "$dll" "$run/engines/$n"; done

# --- Wine (a prefix of its own: CheckerBoard keeps its settings in the registry) and Xvfb.
export WINEPREFIX=$root/target/checkerboard/prefix
# shellcheck source=wine_env.sh
source "$root/scripts/windows/wine_env.sh"
wine_setup || exit 1
exec 5< <(Xvfb -displayfd 1 -screen 0 1024x768x24 -nolisten tcp 2>/dev/null)
xvfb_pid=$!
read -r -t 30 display <&5 || { echo "Xvfb did not start" >&2; exit 1; }
export DISPLAY=:$display
cleanup() {
    wineserver -k 2>/dev/null
    kill "$xvfb_pid" 2>/dev/null
}
trap cleanup EXIT

for variant in english russian; do
    gametype=21
    [ $variant = russian ] && gametype=25
    # A fresh registry for CheckerBoard: its default settings and engines, no saved game.
    wine reg delete 'HKCU\Software\Martin Fierz' /f >/dev/null 2>&1
    (cd "$run" && CROWNHEAD_GAMETYPE=$gametype exec wine CheckerBoard.exe >"$out/$variant-cb.log" 2>&1) &
    (cd "$run" && timeout $((seconds + 60)) wine cbdrive.exe game.pdn "$seconds") >"$out/$variant.log" 2>&1
    rc=$?
    sed 's/^/  /' "$out/$variant.log"
    import -window root "$out/$variant.png" 2>/dev/null
    check $? "$variant: screenshot $out/$variant.png"
    [ -f "$run/game.pdn" ] && mv "$run/game.pdn" "$out/$variant.pdn"
    check $rc "$variant: CheckerBoard played an engine game to its end (cbdrive exit $rc)"
    if [ -f "$out/$variant.pdn" ]; then
        (cd "$root" && python3 -m scripts.windows.check_games "$out/$variant.pdn" --pdn $gametype) |
            sed 's/^/  /' | tee "$out/$variant-judged.log"
        grep -q '^  1 passed, 0 failed' "$out/$variant-judged.log"
        check $? "$variant: every move of CheckerBoard's PDN right in the Linux engine"
    fi
    wineserver -k 2>/dev/null
    sleep 1
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
