/* A CheckerBoard engine host for testing crownhead.dll on Windows (or under Wine).
 *
 * It loads the DLL with LoadLibrary and resolves its functions with GetProcAddress by their
 * plain names, exactly as CheckerBoard's load_engine does, calls them through pointers of the
 * API's types (WINAPI: __stdcall on 32-bit), and checks: the engine commands, islegal, bad
 * input of every kind (null pointers, bad boards, colours and times, unknown commands), that
 * *playnow stops a long search while commands are answered, and a whole game in each variant
 * played through getmove with the history sent as CheckerBoard sends it (set gamehist). The
 * games' moves are printed as "move" lines (the position before, the move, the position
 * after) for scripts/windows/check_games.py to judge with the Linux engine; the host itself
 * judges only what the API promises about each call.
 *
 * Build: x86_64-w64-mingw32-gcc -O2 -static -o cbhost.exe cbhost.c (or i686-w64-mingw32-gcc)
 * Usage: cbhost.exe crownhead.dll [--games N] [--maxtime S]
 * Output: "ok - ..." and "FAIL - ..." lines, "move ..." and "game ..." lines, and at the end
 * "N passed, N failed"; exit status 0 only when nothing failed. */
#include <windows.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The API's types, as source/cb_interface.h declares them. */
#define CB_WHITE 1
#define CB_BLACK 2
#define CB_MAN 4
#define CB_KING 8
#define CB_DRAW 0
#define CB_WIN 1
#define CB_LOSS 2
#define CB_UNKNOWN 3
#define GT_ENGLISH 21
#define GT_RUSSIAN 25

typedef struct { int x, y; } coor;
typedef struct {
    int jumps, newpiece, oldpiece;
    coor from, to;
    coor path[12];
    coor del[12];
    int delpiece[12];
} CBmove;
typedef int Board8x8[8][8];
typedef INT (WINAPI *CB_GETMOVE)(Board8x8 board, int color, double maxtime, char str[1024],
                                 int *playnow, int info, int unused, CBmove *move);
typedef INT (WINAPI *CB_ISLEGAL)(Board8x8 board, int color, int from, int to, CBmove *move);
typedef INT (WINAPI *CB_ENGINECOMMAND)(const char *command, char reply[1024]);

static CB_GETMOVE getmove;
static CB_ISLEGAL islegal;
static CB_ENGINECOMMAND enginecommand;
static int passed, failed;

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf(ok ? "ok - " : "FAIL - ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    if (ok)
        passed++;
    else
        failed++;
}

static double now(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}

/* CheckerBoard's frame (numbertocoors for English and Russian): square n on row r = (n-1)/4
 * from the top; board[x][y] with y = r and x = 7 - file. */
static coor square(int n)
{
    int r = (n - 1) / 4;
    int file = 2 * ((n - 1) % 4) + (r % 2 == 0 ? 1 : 0);
    coor c = {7 - file, r};
    return c;
}

static int number(coor c)
{
    for (int n = 1; n <= 32; n++) {
        coor s = square(n);
        if (s.x == c.x && s.y == c.y)
            return n;
    }
    return 0;
}

static void start_board(Board8x8 b)
{
    memset(b, 0, sizeof(Board8x8));
    for (int n = 1; n <= 12; n++)
        b[square(n).x][square(n).y] = CB_BLACK | CB_MAN;
    for (int n = 21; n <= 32; n++)
        b[square(n).x][square(n).y] = CB_WHITE | CB_MAN;
}

/* The board as a PDN FEN with `color` to move. */
static void fen(Board8x8 b, int color, char *out, size_t size)
{
    int len = snprintf(out, size, "%c", color == CB_WHITE ? 'W' : 'B');
    for (int side = CB_WHITE; side <= CB_BLACK; side++) {
        int first = 1;
        len += snprintf(out + len, size - len, ":%c", side == CB_WHITE ? 'W' : 'B');
        for (int n = 1; n <= 32; n++) {
            int v = b[square(n).x][square(n).y];
            if (v & side) {
                len += snprintf(out + len, size - len, "%s%s%d", first ? "" : ",",
                                (v & CB_KING) ? "K" : "", n);
                first = 0;
            }
        }
    }
}

/* The move in PDN numbers with every landing square: 11-15, 22x15x6. */
static void move_text(const CBmove *m, char *out, size_t size)
{
    int len = snprintf(out, size, "%d", number(m->from));
    if (m->jumps == 0) {
        snprintf(out + len, size - len, "-%d", number(m->to));
        return;
    }
    for (int i = 1; i < m->jumps && i < 12; i++)
        len += snprintf(out + len, size - len, "x%d", number(m->path[i]));
    snprintf(out + len, size - len, "x%d", number(m->to));
}

/* enginecommand with a fresh reply buffer; returns its value. */
static int command(const char *cmd, char *reply)
{
    memset(reply, 'Z', 1024);
    return enginecommand(cmd, reply);
}

static int terminated(const char *buf)
{
    return memchr(buf, 0, 1024) != NULL;
}

static void test_commands(void)
{
    char reply[1024];
    int r;

    r = command("name", reply);
    check(r == 1 && strncmp(reply, "Crownhead", 9) == 0, "name: %d '%s'", r, reply);
    r = command("about", reply);
    check(r == 1 && terminated(reply) && strlen(reply) > 10, "about: %d, %u bytes", r,
          (unsigned)strlen(reply));
    r = command("get protocolversion", reply);
    check(r == 1 && strcmp(reply, "2") == 0, "get protocolversion: %d '%s'", r, reply);
    r = command("get gametype", reply);
    check(r == 1 && strcmp(reply, "21") == 0, "get gametype (default): %d '%s'", r, reply);
    r = command("set gametype 25", reply);
    check(r == 1, "set gametype 25: %d '%s'", r, reply);
    r = command("get gametype", reply);
    check(r == 1 && strcmp(reply, "25") == 0, "get gametype after set: %d '%s'", r, reply);
    r = command("set gametype 22", reply);
    check(r == 0 && terminated(reply) && reply[0], "set gametype 22 (Italian) refused: %d '%s'",
          r, reply);
    r = command("get gametype", reply);
    check(r == 1 && strcmp(reply, "25") == 0, "gametype kept after a refusal: '%s'", reply);
    r = command("set gametype 21", reply);
    check(r == 1, "set gametype 21: %d", r);
    r = command("set hashsize 32", reply);
    check(r == 1, "set hashsize 32: %d '%s'", r, reply);
    r = command("get hashsize", reply);
    check(r == 1 && strcmp(reply, "32") == 0, "get hashsize: %d '%s'", r, reply);
    r = command("set hashsize lots", reply);
    check(r == 0 && reply[0], "set hashsize lots refused: %d '%s'", r, reply);
    r = command("get hashsize", reply);
    check(r == 1 && strcmp(reply, "32") == 0, "hashsize kept after a refusal: '%s'", reply);
    r = command("set searchthreads 2", reply);
    check(r == 1, "set searchthreads 2: %d '%s'", r, reply);
    r = command("get book", reply);
    check(r == 1 && strcmp(reply, "0") == 0, "get book: %d '%s'", r, reply);
    r = command("get enable_wld", reply);
    check(r == 0 && strcmp(reply, "?") == 0, "get enable_wld is '?': %d '%s'", r, reply);
    r = command("frobnicate the engine", reply);
    check(r == 0 && reply[0] == '?' && strstr(reply, "frobnicate"),
          "unknown command: %d '%s'", r, reply);
    r = command("", reply);
    check(r == 0 && terminated(reply), "empty command: %d '%s'", r, reply);
    r = enginecommand(NULL, reply);
    check(r == 0 && terminated(reply) && reply[0] == '?', "null command: %d '%s'", r, reply);
    r = enginecommand("name", NULL);
    check(r == 1, "null reply buffer: %d", r);
    {
        /* A command longer than the 256 bytes the API declares (CheckerBoard may send one). */
        static char longcmd[5000];
        memset(longcmd, 'x', sizeof longcmd - 1);
        r = command(longcmd, reply);
        check(r == 0 && terminated(reply), "a 4999-byte command: %d, reply terminated", r);
    }
    r = command("get movelist B:W18:BK14,K9,K1", reply);
    check(r == 1 && strncmp(reply, "movelist ", 9) == 0, "get movelist: %d '%.60s'", r, reply);
    r = command("get movelist W:W:B1,2", reply);
    check(r == 1 && strcmp(reply, "movelist 0") == 0, "get movelist without moves: %d '%s'", r,
          reply);
    r = command("help", reply);
    if (r == 1) {
        FILE *f = fopen(reply, "r");
        check(f != NULL, "help writes its page: '%s' %s", reply, f ? "exists" : "missing");
        if (f)
            fclose(f);
    } else {
        check(0, "help: %d '%s'", r, reply);
    }
}

static int same_board(Board8x8 a, Board8x8 b)
{
    return memcmp(a, b, sizeof(Board8x8)) == 0;
}

static int zeroed(const CBmove *m)
{
    CBmove z;
    memset(&z, 0, sizeof z);
    return memcmp(m, &z, sizeof z) == 0;
}

/* getmove on a bad board or argument: CB_UNKNOWN, the board as it was, the move zeroed and
 * the status text saying why. */
static void refused(const char *what, Board8x8 b, int color, double maxtime)
{
    Board8x8 before;
    CBmove m;
    char status[1024];
    int playnow = 0;
    memcpy(before, b, sizeof before);
    memset(&m, 0x55, sizeof m);
    memset(status, 'Z', sizeof status);
    int r = getmove(b, color, maxtime, status, &playnow, 0, 0, &m);
    check(r == CB_UNKNOWN && same_board(b, before) && zeroed(&m) && terminated(status) &&
              strstr(status, "error"),
          "getmove refuses %s: %d '%s'", what, r, terminated(status) ? status : "(no NUL)");
}

static void test_bad_input(void)
{
    Board8x8 b;
    CBmove m;
    char status[1024];
    int playnow = 0, r;

    command("set gametype 21", status);
    memset(status, 'Z', sizeof status);
    memset(&m, 0x55, sizeof m);
    r = getmove(NULL, CB_BLACK, 0.1, status, &playnow, 0, 0, &m);
    check(r == CB_UNKNOWN && zeroed(&m) && terminated(status) && strstr(status, "null"),
          "getmove with a null board: %d '%s'", r, status);

    start_board(b);
    refused("colour 7", b, 7, 0.1);
    refused("colour 0", b, 0, 0.1);
    refused("a NaN maxtime", b, CB_BLACK, nan(""));
    start_board(b);
    b[square(15).x][square(15).y] = 3;
    refused("a square holding 3", b, CB_BLACK, 0.1);
    start_board(b);
    b[0][1] = CB_BLACK | CB_MAN; /* x + y odd: a light square */
    refused("a piece on a light square", b, CB_BLACK, 0.1);
    start_board(b);
    b[square(2).x][square(2).y] = CB_WHITE | CB_MAN; /* a white man on its crowning row */
    refused("a man on its crowning row", b, CB_BLACK, 0.1);
    start_board(b);
    b[square(15).x][square(15).y] = CB_BLACK | CB_MAN; /* a 13th black piece */
    refused("13 pieces of one colour", b, CB_BLACK, 0.1);

    /* Null status, playnow and move are allowed: a move is still played. */
    start_board(b);
    r = getmove(b, CB_BLACK, 0.05, NULL, NULL, 0, 0, NULL);
    Board8x8 start;
    start_board(start);
    check(r == CB_UNKNOWN && !same_board(b, start), "getmove with null status, playnow, move");

    start_board(b);
    r = islegal(NULL, CB_BLACK, 9, 13, &m);
    check(r == 0, "islegal with a null board: %d", r);
    r = islegal(b, CB_BLACK, 9, 13, NULL);
    check(r == 1, "islegal with a null move: %d", r);
    r = islegal(b, 5, 9, 13, &m);
    check(r == 0, "islegal with colour 5: %d", r);
    r = islegal(b, CB_BLACK, 99, -4, &m);
    check(r == 0, "islegal from 99 to -4: %d", r);
    b[square(15).x][square(15).y] = 3;
    r = islegal(b, CB_BLACK, 9, 13, &m);
    check(r == 0, "islegal on a bad board: %d", r);
}

static void test_islegal(void)
{
    Board8x8 b;
    CBmove m;
    char reply[1024];
    int r;

    command("set gametype 21", reply);
    start_board(b);
    memset(&m, 0x55, sizeof m);
    r = islegal(b, CB_BLACK, 9, 13, &m);
    check(r == 1 && number(m.from) == 9 && number(m.to) == 13 && m.jumps == 0 &&
              m.oldpiece == (CB_BLACK | CB_MAN) && m.newpiece == (CB_BLACK | CB_MAN),
          "English islegal 9-13: %d, CBmove %d-%d jumps %d", r, number(m.from), number(m.to),
          m.jumps);
    r = islegal(b, CB_BLACK, 9, 15, &m);
    check(r == 0, "English islegal 9-15 (no such move): %d", r);
    r = islegal(b, CB_WHITE, 22, 18, &m);
    check(r == 1, "English islegal 22-18 for White: %d", r);
    r = islegal(b, CB_BLACK, 1, 5, &m);
    check(r == 0, "English islegal 1-5 (blocked): %d", r);

    /* A capture: Black on 15 takes White on 18 from 22's side? Build: black man 14, white 18,
     * 23 empty: 14x23. */
    memset(b, 0, sizeof b);
    b[square(14).x][square(14).y] = CB_BLACK | CB_MAN;
    b[square(18).x][square(18).y] = CB_WHITE | CB_MAN;
    b[square(30).x][square(30).y] = CB_WHITE | CB_MAN;
    r = islegal(b, CB_BLACK, 14, 23, &m);
    check(r == 1 && m.jumps == 1 && number(m.del[0]) == 18 &&
              m.delpiece[0] == (CB_WHITE | CB_MAN),
          "English islegal capture 14x23: %d, jumps %d, took %d", r, m.jumps, number(m.del[0]));
    r = islegal(b, CB_BLACK, 14, 19, &m);
    check(r == 0, "English islegal 14-19 when a capture is due: %d", r);

    command("set gametype 25", reply);
    start_board(b);
    r = islegal(b, CB_WHITE, 22, 18, &m);
    check(r == 1 && number(m.to) == 18, "Russian islegal 22-18 (c3-d4): %d", r);
    r = islegal(b, CB_WHITE, 22, 17, &m);
    check(r == 1, "Russian islegal 22-17 (c3-b4): %d", r);
    r = islegal(b, CB_BLACK, 9, 13, &m);
    check(r == 1, "Russian islegal 9-13 for Black: %d", r);
    command("set gametype 21", reply);
}

struct search_args {
    Board8x8 board;
    int color;
    double maxtime;
    char status[1024];
    volatile int playnow;
    CBmove move;
    int result;
    double returned;
};

static DWORD WINAPI search_thread(LPVOID p)
{
    struct search_args *a = p;
    a->result = getmove(a->board, a->color, a->maxtime, a->status, (int *)&a->playnow, 0, 0,
                        &a->move);
    a->returned = now();
    return 0;
}

/* A 60-second search stopped by *playnow, commands answered meanwhile. */
static void test_playnow(int gametype)
{
    static struct search_args a;
    char reply[1024], cmd[32];
    Board8x8 start;
    int r, progress = 0;

    snprintf(cmd, sizeof cmd, "set gametype %d", gametype);
    command(cmd, reply);
    memset(&a, 0, sizeof a);
    start_board(a.board);
    start_board(start);
    a.color = gametype == GT_ENGLISH ? CB_BLACK : CB_WHITE;
    a.maxtime = 60.0;
    HANDLE t = CreateThread(NULL, 0, search_thread, &a, 0, NULL);
    /* Read the status text as CheckerBoard does, on a timer, while the search writes it. */
    for (int i = 0; i < 40; i++) {
        Sleep(25);
        if (!terminated(a.status)) {
            check(0, "status text without a NUL during the search");
            break;
        }
        if (strstr(a.status, "depth"))
            progress = 1;
    }
    check(progress, "the status text shows progress: '%.70s'", a.status);
    double asked = now();
    r = command("get hashsize", reply);
    double answered = now() - asked;
    check(r == 1 && answered < 0.1, "get hashsize during the search: '%s' in %.1f ms", reply,
          answered * 1000);
    r = command("set hashsize 16", reply);
    check(r == 0 && reply[0], "set hashsize during the search refused: '%s'", reply);
    double stop = now();
    a.playnow = 1;
    DWORD w = WaitForSingleObject(t, 10000);
    CloseHandle(t);
    double took = a.returned - stop;
    check(w == WAIT_OBJECT_0 && took < 0.25, "%s: *playnow stopped a 60 s search in %.1f ms",
          gametype == GT_ENGLISH ? "English" : "Russian", took * 1000);
    check(a.result == CB_UNKNOWN && !same_board(a.board, start) && a.move.oldpiece != 0,
          "a move after *playnow: %d, '%.60s'", a.result, a.status);
}

/* One whole game, the engine against itself, sent its history as CheckerBoard sends it. */
static void play_game(int gametype, double maxtime, int maxplies)
{
    Board8x8 b, before;
    CBmove m;
    char status[1024], reply[1024], cmd[8192], f_before[200], f_after[200], text[80];
    char irreversible[200], since[6000] = "";
    const char *name = gametype == GT_ENGLISH ? "English" : "Russian";
    int color = gametype == GT_ENGLISH ? CB_BLACK : CB_WHITE;
    int ply, r = CB_UNKNOWN, bad = 0, playnow = 0;
    const char *end = "adjudicated";

    snprintf(cmd, sizeof cmd, "set gametype %d", gametype);
    r = command(cmd, reply);
    check(r == 1, "%s game: %s", name, cmd);
    start_board(b);
    fen(b, color, irreversible, sizeof irreversible);
    printf("game-start %d %s\n", gametype, irreversible);
    for (ply = 0; ply < maxplies; ply++) {
        snprintf(cmd, sizeof cmd, "set gamehist %s%s", irreversible, since);
        if (command(cmd, reply) != 1 && !bad) {
            check(0, "%s ply %d: '%s' refused: '%s'", name, ply, cmd, reply);
            bad = 1;
        }
        memcpy(before, b, sizeof b);
        fen(b, color, f_before, sizeof f_before);
        memset(&m, 0, sizeof m);
        r = getmove(b, color, maxtime, status, &playnow, 0, 0, &m);
        if (same_board(b, before)) {
            /* No move: the side to move had none (CB_LOSS), or an error. */
            if (r != CB_LOSS && !bad) {
                check(0, "%s ply %d: no move and %d: '%s'", name, ply, r, status);
                bad = 1;
            }
            end = "no-move";
            break;
        }
        fen(b, CB_WHITE + CB_BLACK - color, f_after, sizeof f_after);
        move_text(&m, text, sizeof text);
        printf("move %d %d %s %s %s %d\n", gametype, ply, f_before, text, f_after, r);
        /* What the API promises of the CBmove, against the boards before and after. */
        if (!bad && (before[m.from.x][m.from.y] != m.oldpiece || b[m.to.x][m.to.y] != m.newpiece ||
                     (m.from.x != m.to.x || m.from.y != m.to.y ? b[m.from.x][m.from.y] != 0 : 0) ||
                     (m.oldpiece & color) == 0)) {
            check(0, "%s ply %d: CBmove %s does not match the boards", name, ply, text);
            bad = 1;
        }
        for (int i = 0; i < m.jumps && i < 12 && !bad; i++) {
            if (before[m.del[i].x][m.del[i].y] != m.delpiece[i] || b[m.del[i].x][m.del[i].y] != 0) {
                check(0, "%s ply %d: captured piece %d of %s wrong", name, ply, i, text);
                bad = 1;
            }
        }
        CBmove again;
        if (!bad && islegal(before, color, number(m.from), number(m.to), &again) != 1) {
            check(0, "%s ply %d: islegal refuses the move played, %s", name, ply, text);
            bad = 1;
        }
        /* The history after the last irreversible move (a capture or a man's move), as
         * CheckerBoard's send_game_history builds it. */
        if (m.jumps > 0 || (m.oldpiece & CB_MAN)) {
            snprintf(irreversible, sizeof irreversible, "%s", f_after);
            since[0] = 0;
        } else {
            size_t len = strlen(since);
            snprintf(since + len, sizeof since - len, " %d-%d", number(m.from), number(m.to));
        }
        color = CB_WHITE + CB_BLACK - color;
        if (r != CB_UNKNOWN) {
            end = r == CB_DRAW ? "draw" : r == CB_WIN ? "win" : "loss";
            ply++;
            break;
        }
    }
    printf("game-end %d %d %s %d\n", gametype, ply, end, r);
    check(!bad && ply > 10, "%s game of %d plies through getmove, ended: %s", name, ply, end);
}

int main(int argc, char **argv)
{
    int games = 1;
    double maxtime = 0.02;
    if (argc < 2) {
        fprintf(stderr, "usage: cbhost DLL [--games N] [--maxtime S]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--games") == 0)
            games = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--maxtime") == 0)
            maxtime = atof(argv[i + 1]);
    }
    printf("host: %d-bit\n", (int)(8 * sizeof(void *)));
    HMODULE lib = LoadLibraryA(argv[1]);
    if (!lib) {
        printf("FAIL - LoadLibrary(%s): error %lu\n0 passed, 1 failed\n", argv[1],
               (unsigned long)GetLastError());
        return 1;
    }
    /* The names CheckerBoard asks for (CheckerBoard.c, load_engine). */
    getmove = (CB_GETMOVE)(void (*)(void))GetProcAddress(lib, "getmove");
    islegal = (CB_ISLEGAL)(void (*)(void))GetProcAddress(lib, "islegal");
    enginecommand = (CB_ENGINECOMMAND)(void (*)(void))GetProcAddress(lib, "enginecommand");
    check(getmove && islegal && enginecommand,
          "GetProcAddress finds getmove, islegal, enginecommand by their plain names");
    /* The decorated __stdcall names a 32-bit linker might export instead: reported, since
     * CheckerBoard would not find them. */
    static const char *decorated[] = {"_getmove@36", "getmove@36", "_islegal@20", "islegal@20",
                                      "_enginecommand@8", "enginecommand@8"};
    for (size_t i = 0; i < sizeof decorated / sizeof *decorated; i++)
        printf("decorated name %s: %s\n", decorated[i],
               GetProcAddress(lib, decorated[i]) ? "exported" : "absent");
    if (!(getmove && islegal && enginecommand)) {
        printf("%d passed, %d failed\n", passed, failed);
        return 1;
    }
    test_commands();
    test_islegal();
    test_bad_input();
    test_playnow(GT_ENGLISH);
    test_playnow(GT_RUSSIAN);
    for (int g = 0; g < games; g++) {
        play_game(GT_ENGLISH, maxtime, 300);
        play_game(GT_RUSSIAN, maxtime, 300);
    }
    /* Bad input did not break the session: one more move after all of it. */
    {
        Board8x8 b, start;
        char status[1024], reply[1024];
        command("set gametype 21", reply);
        start_board(b);
        start_board(start);
        int r = getmove(b, CB_BLACK, 0.05, status, NULL, 0, 0, NULL);
        check(r == CB_UNKNOWN && !same_board(b, start), "a move after everything: '%.60s'",
              status);
    }
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed ? 1 : 0;
}
