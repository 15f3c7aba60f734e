#!/usr/bin/env bash
# Release archives of Crownhead for every platform this machine builds:
#
#   crownhead-VERSION-linux-x86_64.tar.gz   crownhead, libcrownhead.so
#   crownhead-VERSION-windows-x86_64.zip    crownhead.exe, crownhead.dll (64-bit CheckerBoard)
#   crownhead-VERSION-windows-i686.zip      crownhead.exe, crownhead.dll (32-bit CheckerBoard)
#   SHA256SUMS
#
# each with README.md, LICENSE, docs/CHECKERBOARD.md and INSTALL-CHECKERBOARD.txt, in a folder
# named like the archive. The Linux build is profile-guided (scripts/pgo_build.sh, for any
# x86-64-v2 CPU) unless --no-pgo; the Windows builds are plain optimised builds (their profile
# would have to be gathered under Wine). The `dist` profile is used when Cargo.toml has one,
# else `release`. The Windows builds need MinGW-w64 and rustup's windows-gnu targets
# (.ci/windows.sh installs them).
#
# Usage: scripts/release.sh VERSION [--no-pgo] [--test] [--out DIR]
#   --test  unpacks each archive into DIR/test and runs what is in it: the Linux engine and
#           library, the Windows ones under Wine (the 32-bit ones when wine32 works), and checks
#           SHA256SUMS. Prints "N passed, N failed".
# Output: DIR (default target/dist).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=${1:?usage: scripts/release.sh VERSION [--no-pgo] [--test] [--out DIR]}
shift
pgo=1
test=0
out=target/dist
while [ $# -gt 0 ]; do
    case $1 in
    --no-pgo) pgo=0; shift ;;
    --test) test=1; shift ;;
    --out) out=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
case $version in */* | *' '* | '') echo "bad VERSION '$version'" >&2; exit 2 ;; esac
crate_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
[ "$version" = "$crate_version" ] ||
    echo "note: VERSION $version is not Cargo.toml's $crate_version (the engine names itself by the latter)" >&2
profile=release
grep -q '^\[profile\.dist\]' Cargo.toml && profile=dist
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/stage
rm -rf "$stage" "$out"/crownhead-"$version"-* "$out/SHA256SUMS"
mkdir -p "$stage"

common() { # common DIR: the files every archive carries
    mkdir -p "$1/docs"
    cp README.md LICENSE "$1/"
    cp docs/CHECKERBOARD.md "$1/docs/"
    sed "s/VERSION/$version/g" scripts/windows/INSTALL-CHECKERBOARD.txt >"$1/INSTALL-CHECKERBOARD.txt"
}

# --- Linux x86_64
name=crownhead-$version-linux-x86_64
common "$stage/$name"
if [ $pgo = 1 ]; then
    echo "== Linux: profile-guided build (scripts/pgo_build.sh, x86-64-v2)" >&2
    bin=$(PGO_TARGET_CPU=x86-64-v2 PGO_DIR=target/pgo-dist scripts/pgo_build.sh | tail -1)
    lib=$(dirname "$bin")/libcrownhead.so
else
    echo "== Linux: cargo build --profile $profile" >&2
    cargo build --profile "$profile" >&2
    bin=target/$profile/crownhead
    lib=target/$profile/libcrownhead.so
fi
cp "$bin" "$lib" "$stage/$name/"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"

# --- Windows
for arch in x86_64 i686; do
    name=crownhead-$version-windows-$arch
    echo "== Windows $arch: cargo build --profile $profile --target $arch-pc-windows-gnu" >&2
    cargo build --profile "$profile" --target "$arch-pc-windows-gnu" >&2
    common "$stage/$name"
    cp "target/$arch-pc-windows-gnu/$profile/crownhead.exe" \
        "target/$arch-pc-windows-gnu/$profile/crownhead.dll" "$stage/$name/"
    # Windows users expect CRLF in text files they open in Notepad.
    for f in INSTALL-CHECKERBOARD.txt; do sed -i 's/$/\r/' "$stage/$name/$f"; done
    (cd "$stage" && python3 -c '
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for dirpath, _, files in sorted(os.walk(sys.argv[2])):
        for f in sorted(files):
            z.write(os.path.join(dirpath, f))
' "$out/$name.zip" "$name")
done
(cd "$out" && sha256sum crownhead-"$version"-*.tar.gz crownhead-"$version"-*.zip >SHA256SUMS)
rm -rf "$stage"
echo "== archives in $out" >&2
(cd "$out" && ls -l crownhead-"$version"-* SHA256SUMS) >&2

[ $test = 1 ] || exit 0

# --- The archives as a user gets them: unpacked and run. Every check is counted, none stops.
set +e
passed=0
failed=0
check() { # check STATUS MESSAGE
    if [ "$1" = 0 ]; then echo "ok - $2"; passed=$((passed + 1)); else echo "FAIL - $2"; failed=$((failed + 1)); fi
}
t=$out/test
rm -rf "$t"
mkdir -p "$t"
(cd "$out" && sha256sum -c --quiet SHA256SUMS)
check $? "SHA256SUMS matches the archives"
want_common="INSTALL-CHECKERBOARD.txt LICENSE README.md docs/CHECKERBOARD.md"
contents() { (cd "$1" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' '); }

name=crownhead-$version-linux-x86_64
tar -C "$t" -xzf "$out/$name.tar.gz"
got=$(contents "$t/$name")
want=$(for f in $want_common crownhead libcrownhead.so; do echo "$f"; done | sort | tr '\n' ' ')
[ "$got" = "$want" ]
check $? "$name.tar.gz holds: $got"
for v in english russian; do
    n=$("$t/$name/crownhead" perft --depth 9 --variant $v | sed -n 's/^Nodes: //p')
    [ -n "$n" ] && grep -Eq "^$v;[^;]*W21-32:B1-12;.*[ /]$n([ /]|\$)" positions/perft_start.txt
    check $? "$name: crownhead perft 9 $v = $n, as positions/perft_start.txt"
done
reply=$(python3 -c "
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
r = ctypes.create_string_buffer(1024)
ok = lib.enginecommand(b'name', r)
print(ok, r.value.decode())" "$t/$name/libcrownhead.so")
[ "$reply" = "1 Crownhead $crate_version" ]
check $? "$name: libcrownhead.so answers 'name' through ctypes: '$reply'"
linux_bench=$("$t/$name/crownhead" bench | sed -n 's/^Nodes: \([0-9]*\).*/\1/p')

# shellcheck source=windows/wine_env.sh
source scripts/windows/wine_env.sh
wine_setup
for arch in x86_64 i686; do
    name=crownhead-$version-windows-$arch
    python3 -m zipfile -e "$out/$name.zip" "$t"
    got=$(contents "$t/$name")
    want=$(for f in $want_common crownhead.exe crownhead.dll; do echo "$f"; done | sort | tr '\n' ' ')
    [ "$got" = "$want" ]
    check $? "$name.zip holds: $got"
    if [ $arch = i686 ] && ! wine32_works; then
        echo "(no wine32 here: $name is not run)"
        continue
    fi
    for v in english russian; do
        n=$(wine "$t/$name/crownhead.exe" perft --depth 9 --variant $v 2>/dev/null | tr -d '\r' |
            sed -n 's/^Nodes: //p')
        [ -n "$n" ] && grep -Eq "^$v;[^;]*W21-32:B1-12;.*[ /]$n([ /]|\$)" positions/perft_start.txt
        check $? "$name: crownhead.exe perft 9 $v under Wine = $n, as positions/perft_start.txt"
    done
    b=$(wine "$t/$name/crownhead.exe" bench 2>/dev/null | tr -d '\r' | sed -n 's/^Nodes: \([0-9]*\).*/\1/p')
    [ -n "$b" ] && [ "$b" = "$linux_bench" ]
    check $? "$name: crownhead.exe bench signature $b, the Linux archive's $linux_bench"
    "$arch-w64-mingw32-gcc" -O2 -static -o "$t/cbhost-$arch.exe" scripts/windows/cbhost.c
    summary=$(wine "$t/cbhost-$arch.exe" "$t/$name/crownhead.dll" --games 0 2>/dev/null | tr -d '\r' | tail -1)
    case $summary in *" passed, 0 failed") r=0 ;; *) r=1 ;; esac
    check $r "$name: crownhead.dll through the test host under Wine: $summary"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
