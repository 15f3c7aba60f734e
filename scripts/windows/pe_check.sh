#!/usr/bin/env bash
# Checks a Windows build's files without running them (MinGW's objdump reads them on Linux):
#   - crownhead.dll exports exactly getmove, enginecommand and islegal, by the plain names
#     that CheckerBoard asks GetProcAddress for (no _getmove@36 decoration on 32-bit);
#   - on 32-bit, each export is __stdcall as the API's WINAPI declares: the function pops its
#     own arguments (ret $36 for getmove's 9 words, $8 for enginecommand, $20 for islegal),
#     where a C-convention function would end in a plain ret and corrupt CheckerBoard's stack;
#   - both files import only Windows system DLLs (no MinGW runtime such as libgcc_s_*.dll or
#     libwinpthread-1.dll, which a user would not have).
# Usage: pe_check.sh DIR ARCH   (DIR holds crownhead.exe and crownhead.dll; ARCH x86_64 or i686)
# Prints ok/FAIL lines; exit status 0 when all passed.
set -uo pipefail
dir=$1
arch=$2
objdump=$arch-w64-mingw32-objdump
passed=0
failed=0
check() { # check OK-STATUS MESSAGE
    if [ "$1" = 0 ]; then
        echo "ok - $2"
        passed=$((passed + 1))
    else
        echo "FAIL - $2"
        failed=$((failed + 1))
    fi
}

dll=$dir/crownhead.dll
exe=$dir/crownhead.exe
exports=$($objdump -p "$dll" | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
    awk '/\[/ && !/Table/ {print $NF}' | sort | tr '\n' ' ')
[ "$exports" = "enginecommand getmove islegal " ]
check $? "$arch crownhead.dll exports exactly: $exports"

# The system DLLs a Rust program may import; anything else would have to be shipped.
system='^(kernel32|ntdll|msvcrt|userenv|ws2_32|advapi32|bcrypt|bcryptprimitives|api-ms-win-[a-z0-9-]+|user32|shell32|ole32|secur32|crypt32)\.dll$'
for f in "$exe" "$dll"; do
    imports=$($objdump -p "$f" | awk '/DLL Name:/ {print tolower($3)}' | sort -u | tr '\n' ' ')
    others=$(for i in $imports; do echo "$i"; done | grep -Ev "$system" | tr '\n' ' ')
    [ -n "$imports" ] && [ -z "$others" ]
    check $? "$arch $(basename "$f") imports only system DLLs: $imports${others:+(not system: $others)}"
done

if [ "$arch" = i686 ]; then
    base=$($objdump -p "$dll" | awk '/^ImageBase/ {print $2}')
    # Export RVAs in name order (enginecommand, getmove, islegal), then the bytes each pops.
    mapfile -t names < <($objdump -p "$dll" | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
        awk '/\[/ && !/Table/ {print $2, $NF}')
    declare -A rvas
    while read -r ord rva; do
        rvas[$ord]=$rva
    done < <($objdump -p "$dll" | sed -n '/Export Address Table --/,/^$/p' |
        awk '/\+base\[/ {gsub(/[\[\]]/, " "); print $1, $4}')
    declare -A want=([getmove]=0x24 [enginecommand]=0x8 [islegal]=0x14)
    for entry in "${names[@]}"; do
        ord=${entry%% *}
        ord=${ord%]}
        name=${entry##* }
        rva=${rvas[$ord]:-}
        start=$(printf '0x%x' $((0x$base + 0x$rva)))
        stop=$(printf '0x%x' $((0x$base + 0x$rva + 8192)))
        # The function's first return, in address order from its entry.
        ret=$($objdump -d --start-address="$start" --stop-address="$stop" "$dll" |
            grep -m1 -P '\tret' | awk '{print $NF}')
        [ "$ret" = "\$${want[$name]}" ]
        check $? "$arch $name is __stdcall: its first return is 'ret $ret' (want \$${want[$name]})"
    done
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
