/* A test-only stand-in for bcryptprimitives.dll, which Windows 10 and later have and Wine 8
 * lacks. Rust's standard library imports one function from it, ProcessPrng, to seed its hash
 * maps, so without this neither crownhead.exe nor crownhead.dll loads under Wine 8. It is
 * placed beside the test executable (the host, CheckerBoard) and never shipped: on Windows
 * the system's own DLL is the one loaded.
 *
 * ProcessPrng fills a buffer with random bytes and always succeeds; RtlGenRandom
 * (advapi32's SystemFunction036) does the same on every Windows and in Wine. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a ULONG length: fill a larger buffer in pieces. */
    while (length > 0) {
        ULONG piece = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
