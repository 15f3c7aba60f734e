//! A harness for end-to-end protocol tests: runs the built `crownhead` binary, writes lines to
//! its stdin and reads its stdout on a thread, so that a test can wait for a line with a timeout
//! and a hung engine fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single expected answer may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(20);

pub use crate::slack::SLACK;

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts the binary with `args`.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crownhead"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start crownhead");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        // Lines are read as bytes and cut only at `\n`, so that a stray `\r` or other control
        // byte, or text that is not UTF-8 (shown as U+FFFD), reaches the test to be seen.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let bytes = buf.strip_suffix(b"\n").unwrap_or(&buf);
                        let line = String::from_utf8_lossy(bytes).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (for binary garbage).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them, the last being that one.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => panic!("timed out; lines so far: {:#?}", self.tail()),
            }
        }
    }

    /// Reads until a line that starts with `prefix`; returns that line.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        let lines = self.until(|l| l.starts_with(prefix));
        lines.last().cloned().unwrap_or_default()
    }

    /// Asserts that no line arrives within `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Some(l) = self.next_line(wait) {
            panic!("unexpected line {l:?}");
        }
    }

    /// The last lines read, for failure messages.
    pub fn tail(&self) -> Vec<String> {
        self.log.iter().rev().take(20).rev().cloned().collect()
    }

    /// Closes stdin, then reads every line until the engine closes stdout.
    pub fn read_to_end(&mut self) {
        self.stdin = None;
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(l) => self.log.push(l),
                Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => panic!("engine output did not end"),
            }
        }
    }

    /// Closes stdin and waits for a clean exit.
    pub fn finish(mut self) {
        self.stdin = None;
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.child.try_wait().expect("wait") {
                Some(status) => {
                    assert!(status.success(), "exit status {status}");
                    return;
                }
                None if Instant::now() > deadline => {
                    let _ = self.child.kill();
                    panic!("engine did not exit at end of input");
                }
                None => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Everything the engine wrote to stderr (after it exited).
    pub fn stderr(&mut self) -> String {
        let mut s = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
        }
        s
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A small deterministic generator for test data (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Runs the binary with `args` to the end with `input` on its stdin, and returns its status and
/// output. The input is written on its own thread while the output is read, so that neither
/// pipe can fill and block the other; a write error is ignored, since a command that refuses
/// its arguments may exit (closing stdin) before reading any input.
pub fn run_with_input(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start crownhead");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("output");
    writer.join().expect("the writer thread");
    out
}

/// Whether a line of output is free of control characters (the `\n` that ended it is already
/// cut off): echoed input must come back escaped, never raw.
pub fn printable(line: &str) -> bool {
    !line.chars().any(char::is_control)
}

/// A folder for one test's files, removed with everything in it when the guard drops (on
/// success or failure), so that test runs leave nothing in the system temp folder. Each guard
/// has its own folder: tests run at once, and one rewriting a shared file while another read
/// it once gave that one an empty file.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    /// A new empty folder under the system temp folder.
    pub fn new() -> Scratch {
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("crownhead-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("make a scratch folder");
        Scratch(dir)
    }

    /// The path of `name` in the folder (not created).
    pub fn file(&self, name: &str) -> std::path::PathBuf {
        self.0.join(name)
    }

    /// Writes `bytes` to `name` in the folder and returns the file's path as text.
    pub fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.file(name);
        std::fs::write(&path, bytes).expect("write a scratch file");
        path.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// English network weights (`learned::network`), small and varied: a weights file to play or
/// read that is not the embedded one.
pub fn sample_network() -> crownhead::learned::Weights {
    crownhead::learned::Weights {
        variant: crownhead::Variant::English,
        k: 60.0,
        values: (0..crownhead::learned::WEIGHT_COUNT)
            .map(|i| ((i * 7919) % 61) as i16 - 30)
            .collect(),
        base: Default::default(),
    }
}
