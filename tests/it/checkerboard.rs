//! The CheckerBoard engine API end to end, through the exported C functions themselves
//! (`getmove`, `enginecommand`, `islegal`) as a host calls them, with raw pointers and a
//! second thread; scripts/ci/checkerboard_host.py does the same through the built shared library.
//! The functions share one session per process, so the tests take turns.

use crate::common::SLACK;
use crownhead::checkerboard::frame::{board_of, color_code, read_board};
use crownhead::checkerboard::{
    enginecommand, getmove, islegal, Board8x8, CBmove, Coor, CB_UNKNOWN, CB_WHITE,
};
use crownhead::{parse_fen, Square, Variant};
use std::ffi::{c_char, c_int, CStr, CString};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static TURN: Mutex<()> = Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// `enginecommand` as a host calls it: the handled flag and the reply.
fn command(text: &str) -> (c_int, String) {
    let cmd = CString::new(text).unwrap();
    let mut reply = [0x55 as c_char; 1024];
    let handled = unsafe { enginecommand(cmd.as_ptr(), reply.as_mut_ptr()) };
    (handled, text_of(&reply))
}

fn text_of(buf: &[c_char; 1024]) -> String {
    let bytes: Vec<u8> = buf.iter().map(|&c| c as u8).collect();
    CStr::from_bytes_until_nul(&bytes)
        .expect("a NUL inside the buffer")
        .to_string_lossy()
        .into_owned()
}

fn set_variant(variant: Variant) {
    let (handled, reply) = command(&format!("set gametype {}", variant.game_type()));
    assert_eq!(handled, 1, "{reply}");
}

struct Call {
    result: c_int,
    board: Board8x8,
    status: String,
    mv: CBmove,
    elapsed: Duration,
}

fn call(board: Board8x8, color: c_int, maxtime: f64, info: c_int, playnow: *const c_int) -> Call {
    let mut board = board;
    let mut status = [0 as c_char; 1024];
    let mut mv = CBmove::default();
    let start = Instant::now();
    let result = unsafe {
        getmove(
            &mut board,
            color,
            maxtime,
            status.as_mut_ptr(),
            playnow,
            info,
            0,
            &mut mv,
        )
    };
    Call {
        result,
        board,
        status: text_of(&status),
        mv,
        elapsed: start.elapsed(),
    }
}

#[test]
fn name_version_and_game_types() {
    let _turn = turn();
    let (handled, name) = command("name");
    assert_eq!(
        (handled, name.starts_with("Crownhead ")),
        (1, true),
        "{name}"
    );
    assert_eq!(command("get protocolversion"), (1, "2".into()));
    for variant in Variant::ALL {
        set_variant(variant);
        assert_eq!(
            command("get gametype"),
            (1, variant.game_type().to_string())
        );
    }
    assert_eq!(command("set enable_wld 1"), (0, "?".into()));
    assert_eq!(command("bogus").0, 0);
}

#[test]
fn getmove_plays_a_legal_move_and_reports_it_in_both_variants() {
    let _turn = turn();
    for variant in Variant::ALL {
        set_variant(variant);
        let before = parse_fen(variant.start_fen()).unwrap();
        let c = call(
            board_of(&before),
            color_code(before.side()),
            0.05,
            2,
            std::ptr::null(),
        );
        assert_eq!(c.result, CB_UNKNOWN, "{}", c.status);
        let after = read_board(&c.board, color_code(before.side().opponent())).unwrap();
        let mv = variant
            .legal_moves(&before)
            .into_iter()
            .find(|m| before.play(m) == after)
            .expect("the board after a legal move");
        let coor = |sq: Square| {
            let (x, y) = crownhead::checkerboard::frame::coords(sq);
            Coor {
                x: x as c_int,
                y: y as c_int,
            }
        };
        assert_eq!(
            (c.mv.from, c.mv.to, c.mv.jumps),
            (coor(mv.from()), coor(mv.to()), 0)
        );
        assert!(c.status.starts_with("Crownhead played "), "{}", c.status);
        assert!(
            c.elapsed < Duration::from_millis(50) + SLACK,
            "{:?}",
            c.elapsed
        );
    }
}

#[test]
fn playnow_from_another_thread_stops_the_search_and_commands_are_answered_meanwhile() {
    let _turn = turn();
    set_variant(Variant::Russian);
    let start = parse_fen(Variant::Russian.start_fen()).unwrap();
    let playnow: &'static mut c_int = Box::leak(Box::new(0));
    let flag = playnow as *mut c_int as usize;
    let host = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        // A command during the search is answered at once; a change is refused.
        let t = Instant::now();
        let get = command("get hashsize");
        let set = command("set hashsize 8");
        let answered_in = t.elapsed();
        let pressed = Instant::now();
        unsafe { (flag as *mut c_int).write_volatile(1) };
        (get, set, answered_in, pressed)
    });
    let c = call(board_of(&start), CB_WHITE, 60.0, 0, playnow);
    let returned = Instant::now();
    let (get, set, answered_in, pressed) = host.join().unwrap();
    let latency = returned - pressed;
    // At once: SLACK bounds it (scripts/ci/checkerboard_games.py measures the latency).
    assert!(latency < SLACK, "stopped {latency:?} after playnow");
    assert!(
        c.elapsed < Duration::from_millis(300) + SLACK,
        "{:?}",
        c.elapsed
    );
    assert!(read_board(&c.board, CB_WHITE ^ 3).is_ok());
    assert_eq!(get, (1, "64".into()));
    assert_eq!(set.0, 0, "{}", set.1);
    assert!(set.1.contains("a search is running"), "{}", set.1);
    assert!(answered_in < SLACK, "{answered_in:?}");
    assert_eq!(command("get hashsize"), (1, "64".into()));
}

#[test]
fn bad_calls_are_refused_without_harm() {
    let _turn = turn();
    set_variant(Variant::English);
    let start = board_of(&parse_fen(Variant::English.start_fen()).unwrap());
    // A bad colour, a value that is no piece, a piece on a light square.
    let mut odd = start;
    odd[4][4] = 3;
    let mut light = start;
    light[0][1] = CB_WHITE | 4;
    for (board, color, why) in [
        (start, 0, "color 0"),
        (odd, 2, "board[4][4] holds 3"),
        (light, 2, "board[0][1] is a light square"),
    ] {
        let mut mv = CBmove {
            jumps: 7,
            ..CBmove::default()
        };
        let mut b = board;
        let mut status = [0 as c_char; 1024];
        let r = unsafe {
            getmove(
                &mut b,
                color,
                0.01,
                status.as_mut_ptr(),
                std::ptr::null(),
                0,
                0,
                &mut mv,
            )
        };
        assert_eq!(r, CB_UNKNOWN);
        assert_eq!(b, board, "{why}: the board must be unchanged");
        assert_eq!(mv, CBmove::default());
        let status = text_of(&status);
        assert!(
            status.starts_with("Crownhead error: bad board") && status.contains(why),
            "{status}"
        );
    }
    // Null pointers.
    let r = unsafe {
        getmove(
            std::ptr::null_mut(),
            2,
            0.01,
            std::ptr::null_mut(),
            std::ptr::null(),
            0,
            0,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CB_UNKNOWN);
    assert_eq!(
        unsafe { enginecommand(std::ptr::null(), std::ptr::null_mut()) },
        0
    );
    let cmd = CString::new("name").unwrap();
    assert_eq!(
        unsafe { enginecommand(cmd.as_ptr(), std::ptr::null_mut()) },
        1
    );
    assert_eq!(
        unsafe { islegal(std::ptr::null(), 2, 9, 13, std::ptr::null_mut()) },
        0
    );
    // Still working after all that.
    let c = call(start, 2, 0.02, 0, std::ptr::null());
    assert_ne!(c.board, start);
}

#[test]
fn islegal_fills_the_move_for_a_legal_one_only() {
    let _turn = turn();
    set_variant(Variant::Russian);
    let start = board_of(&parse_fen(Variant::Russian.start_fen()).unwrap());
    let mut mv = CBmove::default();
    assert_eq!(unsafe { islegal(&start, CB_WHITE, 22, 17, &mut mv) }, 1);
    assert_eq!(
        (mv.from, mv.to, mv.jumps, mv.oldpiece),
        (Coor { x: 5, y: 5 }, Coor { x: 6, y: 4 }, 0, 5)
    );
    for (from, to) in [(22, 26), (22, 15), (9, 13), (0, 5), (-1, 40)] {
        assert_eq!(
            unsafe { islegal(&start, CB_WHITE, from, to, &mut mv) },
            0,
            "{from}-{to}"
        );
    }
    // A capture: c3 takes d4, landing on e5.
    let board = board_of(&parse_fen("W:W22:B18,1").unwrap());
    assert_eq!(unsafe { islegal(&board, CB_WHITE, 22, 15, &mut mv) }, 1);
    assert_eq!((mv.jumps, mv.delpiece[0]), (1, 6));
    assert_eq!(
        unsafe { islegal(&board, CB_WHITE, 22, 17, std::ptr::null_mut()) },
        0
    );
}
