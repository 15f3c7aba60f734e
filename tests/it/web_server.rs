//! `crownhead web` as a browser meets it: the page and the built engine served together from
//! 127.0.0.1 with the cross-origin isolation headers and the `.wasm` MIME type, nothing outside
//! the two folders, and without a built engine one error naming the command that builds it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

fn folder(name: &str, built: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crownhead-web-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("page/js")).unwrap();
    std::fs::write(dir.join("page/index.html"), "<!doctype html><p>board").unwrap();
    std::fs::write(dir.join("page/js/app.js"), "export {};").unwrap();
    std::fs::write(dir.join("secret.txt"), "outside").unwrap();
    if built {
        std::fs::create_dir_all(dir.join("dist")).unwrap();
        std::fs::write(dir.join("dist/crownhead-worker.js"), "// worker").unwrap();
        std::fs::write(dir.join("dist/crownhead_web_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    }
    dir
}

struct Server {
    child: Child,
    port: u16,
    /// Held open so the server's later lines have a reader, as a terminal would.
    stdout: Option<BufReader<std::process::ChildStdout>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .args(["web", "--port", "0", "--dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start crownhead web");
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    stdout.read_line(&mut first).expect("the address line");
    let port = first
        .trim()
        .strip_prefix("Crownhead is at http://127.0.0.1:")
        .and_then(|r| r.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    Server {
        child,
        port,
        stdout: Some(stdout),
    }
}

/// The status line, headers (lower-case names) and body of a GET.
fn get(port: u16, path: &str) -> (String, Vec<(String, String)>, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("end of headers");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().unwrap().to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}

fn header<'a>(h: &'a [(String, String)], name: &str) -> Option<&'a str> {
    h.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn serves_page_and_engine_isolated_with_the_right_types() {
    let dir = folder("ok", true);
    let server = serve(&dir);
    let (status, h, body) = get(server.port, "/");
    assert!(status.contains(" 200"), "{status}");
    assert_eq!(body, b"<!doctype html><p>board");
    assert_eq!(header(&h, "content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(
        header(&h, "cross-origin-opener-policy"),
        Some("same-origin")
    );
    assert_eq!(
        header(&h, "cross-origin-embedder-policy"),
        Some("require-corp")
    );
    let (status, h, _) = get(server.port, "/crownhead_web_bg.wasm");
    assert!(status.contains(" 200"), "{status}");
    assert_eq!(header(&h, "content-type"), Some("application/wasm"));
    let (_, h, body) = get(server.port, "/crownhead-worker.js");
    assert_eq!(body, b"// worker");
    assert!(header(&h, "content-type")
        .unwrap()
        .starts_with("text/javascript"));
    let (_, h, _) = get(server.port, "/js/app.js?v=1");
    assert!(header(&h, "content-type")
        .unwrap()
        .starts_with("text/javascript"));
    for bad in [
        "/../secret.txt",
        "/js/../../secret.txt",
        "/nothing.js",
        "/%2e%2e/secret.txt",
    ] {
        let (status, _, body) = get(server.port, bad);
        assert!(status.contains(" 404"), "{bad}: {status}");
        assert!(!String::from_utf8_lossy(&body).contains("outside"));
    }
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn without_the_built_engine_it_names_the_build_command() {
    let dir = folder("unbuilt", false);
    let out = Command::new(env!("CARGO_BIN_EXE_crownhead"))
        .args(["web", "--port", "0", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("scripts/build_web.sh"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn goes_on_serving_when_its_output_is_no_longer_read() {
    // As `crownhead web | head -1` would: the address is read, then the pipe closes. Any line
    // the server wrote after that (a request log on stdout, say) would end it with EPIPE.
    let dir = folder("unread", true);
    let mut server = serve(&dir);
    drop(server.stdout.take());
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (status, _, body) = get(server.port, "/");
    assert!(status.contains(" 200"), "{status}");
    assert_eq!(body, b"<!doctype html><p>board");
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}
