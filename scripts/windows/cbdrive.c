/* Drives a running CheckerBoard without clicks, for checkerboard_wine.sh: posts its own menu
 * commands to its main window (WM_COMMAND with the menu ids of CheckerBoard.h), as choosing
 * them in the menus does:
 *   LEVEL01S 357   Level > 0.1 s a move
 *   ENGINEVSENGINE 316   Play > engine against engine (the primary and secondary engines)
 *   MOVESPLAY 201  Play, which starts the engine on the side to move
 *   GAMECOPY 107   Game > copy: the game's PDN to the clipboard
 * then waits until the status bar stops changing (the game is over) or the time is up, copies
 * the game and writes its PDN to a file.
 *
 * Build: x86_64-w64-mingw32-gcc -O2 -static -o cbdrive.exe cbdrive.c
 * Usage: cbdrive.exe OUT.pdn [SECONDS]; exit status 0 when the game ended and was written,
 * 3 when it was written at the time limit, 1 on failure. */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAMECOPY 107
#define MOVESPLAY 201
#define ENGINEVSENGINE 316
#define LEVEL01S 357

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cbdrive OUT.pdn [SECONDS]\n");
        return 2;
    }
    int seconds = argc > 2 ? atoi(argv[2]) : 300;
    HWND hwnd = NULL;
    for (int i = 0; i < 600 && !hwnd; i++) {
        hwnd = FindWindowA("CheckerBoard", NULL);
        if (!hwnd)
            Sleep(100);
    }
    if (!hwnd) {
        printf("cbdrive: no CheckerBoard window\n");
        return 1;
    }
    /* Let it finish loading its engines before the first command. */
    Sleep(3000);
    char title[256];
    GetWindowTextA(hwnd, title, sizeof title);
    printf("cbdrive: window '%s'\n", title);
    PostMessageA(hwnd, WM_COMMAND, LEVEL01S, 0);
    Sleep(500);
    PostMessageA(hwnd, WM_COMMAND, ENGINEVSENGINE, 0);
    Sleep(500);
    PostMessageA(hwnd, WM_COMMAND, MOVESPLAY, 0);
    fflush(stdout);

    /* The status bar shows the engines' progress: once it has not changed for ten seconds
     * at 0.1 s a move, the game is over. */
    HWND bar = FindWindowExA(hwnd, NULL, "msctls_statusbar32", NULL);
    char status[1024] = "", seen[1024] = "";
    int still = 0, changes = 0;
    DWORD start = GetTickCount();
    while (GetTickCount() - start < (DWORD)seconds * 1000 && still < 10) {
        Sleep(1000);
        status[0] = 0;
        if (bar)
            SendMessageTimeoutA(bar, WM_GETTEXT, sizeof status, (LPARAM)status, SMTO_NORMAL, 2000, NULL);
        if (strcmp(status, seen) != 0) {
            strcpy(seen, status);
            still = 0;
            if (changes++ % 10 == 0) {
                printf("cbdrive: %lus: %.100s\n", (unsigned long)(GetTickCount() - start) / 1000, status);
                fflush(stdout);
            }
        } else {
            still++;
        }
    }
    printf("cbdrive: %s after %lu s; status '%.100s'\n", still >= 10 ? "game over" : "time up",
           (unsigned long)(GetTickCount() - start) / 1000, status);
    GetWindowTextA(hwnd, title, sizeof title);
    printf("cbdrive: window '%s' at the end\n", title);
    /* Game > copy shows the PDN in a message box (and puts it on the clipboard once the box
     * is closed). */
    PostMessageA(hwnd, WM_COMMAND, GAMECOPY, 0);
    HWND box = NULL;
    for (int i = 0; i < 100 && !box; i++) {
        Sleep(100);
        box = FindWindowA("#32770", "printout is");
    }
    if (!box) {
        printf("cbdrive: Game > copy showed no PDN\n");
        return 1;
    }
    /* Beside the board, not over it, for the screenshot. */
    RECT r;
    GetWindowRect(hwnd, &r);
    SetWindowPos(box, NULL, r.right + 10, r.top, 0, 0, SWP_NOSIZE | SWP_NOZORDER);
    Sleep(500);
    /* The PDN is the box's longest static text; reading it there is the same text that goes
     * to the clipboard. The box stays open for the screenshot. */
    static char pdn[65536];
    char *last = NULL;
    for (HWND c = FindWindowExA(box, NULL, "Static", NULL); c;
         c = FindWindowExA(box, c, "Static", NULL)) {
        int n = (int)SendMessageA(c, WM_GETTEXT, sizeof pdn, (LPARAM)pdn);
        if (n > 0 && (!last || (size_t)n > strlen(last))) {
            free(last);
            last = _strdup(pdn);
        }
    }
    if (!last || !strchr(last, '.')) {
        printf("cbdrive: no game in the PDN box\n");
        return 1;
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f)
        return 1;
    fputs(last, f);
    fclose(f);
    printf("cbdrive: the game written to %s\n", argv[1]);
    return still >= 10 ? 0 : 3;
}
