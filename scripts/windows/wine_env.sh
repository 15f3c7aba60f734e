# The Wine set-up of the Windows tests, sourced by the scripts beside it (bash).
#
# wine_setup: a Wine prefix of our own under target/wine/prefix (made on first use), quiet
# (WINEDEBUG=-all), without the Mono and Gecko installers, without Wine's debugger (winedbg,
# which Wine starts on a crash, and which ended a crashed 32-bit test binary with status 0, so
# that cargo saw no failure: without it a crash ends the program with a failure status), and
# with the test-only stand-in for
# bcryptprimitives.dll (processprng.c) installed as a system DLL of that prefix, 64-bit in
# system32 and 32-bit in syswow64: Rust's standard library imports ProcessPrng from it, which
# Windows 10 and later have and Wine 8 lacks. The stand-in lives only in this test prefix;
# nothing we ship contains or needs it.
# wine32_works: whether this machine runs 32-bit Windows programs (Debian's wine32:i386).

WINE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

wine_setup() {
    export WINEPREFIX=${WINEPREFIX:-$WINE_ROOT/target/wine/prefix}
    export WINEDEBUG=${WINEDEBUG:--all}
    export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=;winedbg.exe=d}
    export WINEARCH=win64
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
        mkdir -p "$WINEPREFIX"
        wineboot -i >/dev/null 2>&1 || { echo "wineboot failed" >&2; return 1; }
        wineserver -w
    fi
    local src=$WINE_ROOT/scripts/windows/processprng.c
    local sys64=$WINEPREFIX/drive_c/windows/system32 sys32=$WINEPREFIX/drive_c/windows/syswow64
    if [ ! -f "$sys64/bcryptprimitives.dll" ] || [ "$src" -nt "$sys64/bcryptprimitives.dll" ]; then
        x86_64-w64-mingw32-gcc -O2 -shared -static-libgcc -Wl,--kill-at \
            -o "$sys64/bcryptprimitives.dll" "$src" -ladvapi32 || return 1
    fi
    if command -v i686-w64-mingw32-gcc >/dev/null &&
        { [ ! -f "$sys32/bcryptprimitives.dll" ] || [ "$src" -nt "$sys32/bcryptprimitives.dll" ]; }; then
        i686-w64-mingw32-gcc -O2 -shared -static-libgcc -Wl,--kill-at \
            -o "$sys32/bcryptprimitives.dll" "$src" -ladvapi32 || return 1
    fi
    # One wine server for all the runs that follow: each program then starts in a fraction of
    # a second instead of starting a server of its own.
    wineserver -p 2>/dev/null || true
}

wine32_works() {
    local probe=$WINE_ROOT/target/wine/probe32.exe
    command -v i686-w64-mingw32-gcc >/dev/null || return 1
    if [ ! -f "$probe" ]; then
        mkdir -p "$(dirname "$probe")"
        printf 'int main(void) { return 42; }\n' >"$probe.c"
        i686-w64-mingw32-gcc -o "$probe" "$probe.c" -static 2>/dev/null || return 1
    fi
    wine "$probe" >/dev/null 2>&1
    [ $? = 42 ]
}
