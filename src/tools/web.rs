//! `crownhead web`: serves the browser page (`web/page/`) and the engine's WebAssembly build
//! (`web/dist/`, made by `scripts/build_web.sh`) together at `/` on 127.0.0.1, with the
//! cross-origin isolation headers the worker's stop flag needs (a `SharedArrayBuffer` exists
//! only in an isolated page). Static files only: the page talks to the engine inside the
//! browser, never to this process.

use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The one command that builds `web/dist/`.
pub(crate) const BUILD_COMMAND: &str = "scripts/build_web.sh";
/// The file whose absence means the engine's browser files are not built.
const WORKER: &str = "crownhead-worker.js";
/// Requests served at once: a page loads a handful of files in parallel.
const THREADS: usize = 4;

/// The arguments of `crownhead web`.
#[derive(Args, Debug, Clone)]
pub struct WebArgs {
    /// The port on 127.0.0.1 (0: any free port; the address printed says which).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The folder holding `page/` and `dist/` (default: `web/` of the source tree this binary
    /// was built from, else `web/` under the current directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The folders served, in the order they are searched for a path.
struct Roots {
    page: PathBuf,
    dist: PathBuf,
}

impl Roots {
    fn find(dir: Option<&Path>) -> Result<Roots, String> {
        let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let candidates: Vec<PathBuf> = match dir {
            Some(d) => vec![d.to_path_buf()],
            None => vec![PathBuf::from("web"), built_in],
        };
        let Some(web) = candidates
            .iter()
            .find(|d| d.join("page").join("index.html").is_file())
        else {
            return Err(format!(
                "no page to serve: none of {} holds page/index.html",
                candidates
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        let roots = Roots {
            page: web.join("page"),
            dist: web.join("dist"),
        };
        if !roots.dist.join(WORKER).is_file() {
            return Err(format!(
                "the engine's browser files are not built ({} is missing); build them with: {BUILD_COMMAND}",
                roots.dist.join(WORKER).display()
            ));
        }
        Ok(roots)
    }

    /// The file a request path names, if it is in one of the folders.
    fn file(&self, url: &str) -> Option<PathBuf> {
        let rel = safe_path(url)?;
        [&self.page, &self.dist]
            .into_iter()
            .map(|root| root.join(&rel))
            .find(|p| p.is_file())
    }
}

/// The relative file path of a URL's path: `/` is `index.html`; the query is dropped; only
/// plain names are allowed (no `..`, no hidden files, no escapes), so nothing outside the
/// served folders can be named.
fn safe_path(url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = path.strip_prefix('/')?;
    let path = if path.is_empty() { "index.html" } else { path };
    let mut out = PathBuf::new();
    for part in path.split('/') {
        let plain = !part.is_empty()
            && !part.starts_with('.')
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !plain {
            return None;
        }
        out.push(part);
    }
    Some(out)
}

/// The MIME type of a file by its extension: `.wasm` must be `application/wasm` for streaming
/// compilation, and module scripts must be JavaScript.
fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "pdn" | "txt" | "md" => "text/plain; charset=utf-8",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// The headers every answer carries: cross-origin isolation (COOP + COEP, so the page may make
/// a `SharedArrayBuffer`), same-origin resources, and no caching (a rebuilt `.wasm` is seen at
/// once).
pub(crate) const HEADERS: [(&str, &str); 4] = [
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Embedder-Policy", "require-corp"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Cache-Control", "no-cache"),
];

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("the header names and values here are plain ASCII")
}

fn answer(roots: &Roots, request: tiny_http::Request) {
    use tiny_http::{Method, Response, StatusCode};
    let method = request.method().clone();
    let found = match method {
        Method::Get | Method::Head => roots.file(request.url()),
        _ => {
            let mut r = Response::from_string("only GET and HEAD\n").with_status_code(405);
            r.add_header(header("Allow", "GET, HEAD"));
            let _ = request.respond(r);
            return;
        }
    };
    let opened = found
        .as_ref()
        .and_then(|p| std::fs::File::open(p).ok().map(|f| (p, f)));
    let result = match opened {
        Some((path, file)) => {
            let mut r = Response::from_file(file);
            r.add_header(header("Content-Type", mime(path)));
            for (k, v) in HEADERS {
                r.add_header(header(k, v));
            }
            log::debug!("200 {}", request.url());
            request.respond(r)
        }
        None => {
            let mut r = Response::from_string("not found\n").with_status_code(StatusCode(404));
            for (k, v) in HEADERS {
                r.add_header(header(k, v));
            }
            log::debug!("404 {}", request.url());
            request.respond(r)
        }
    };
    if let Err(e) = result {
        // A browser that closed the connection; nothing to do.
        log::debug!("answer not sent: {e}");
    }
}

/// Opens `url` in the desktop's default browser.
fn open_browser(url: &str) -> Result<(), String> {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    std::process::Command::new(program)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| format!("cannot start {program} to open {url}: {e}"))
}

/// Runs `crownhead web`: serves until killed.
pub fn run(args: WebArgs) -> Result<(), String> {
    let roots = Arc::new(Roots::find(args.dir.as_deref())?);
    let server = tiny_http::Server::http(("127.0.0.1", args.port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let port = server.server_addr().to_ip().map_or(args.port, |a| a.port());
    let url = format!("http://127.0.0.1:{port}/");
    // Written, not println!: a reader that has gone (`crownhead web | head -1`, a test that
    // reads only the address) must not stop the server with a broken-pipe panic.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "Crownhead is at {url}");
    let _ = writeln!(
        out,
        "(serving {} and {}; Ctrl-C stops)",
        roots.page.display(),
        roots.dist.display()
    );
    let _ = out.flush();
    drop(out);
    if args.open {
        if let Err(e) = open_browser(&url) {
            eprintln!("crownhead: {e}; open {url} yourself");
        }
    }
    let server = Arc::new(server);
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let (server, roots) = (Arc::clone(&server), Arc::clone(&roots));
            std::thread::spawn(move || {
                for request in server.incoming_requests() {
                    answer(&roots, request);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_served_folders() {
        assert_eq!(safe_path("/"), Some(PathBuf::from("index.html")));
        assert_eq!(safe_path("/?x=1"), Some(PathBuf::from("index.html")));
        assert_eq!(
            safe_path("/js/board.js?v=2"),
            Some(PathBuf::from("js").join("board.js"))
        );
        for bad in [
            "/../Cargo.toml",
            "/js/../../x",
            "/.git/config",
            "/a//b",
            "/%2e%2e/x",
            "relative",
            "/a\\b",
        ] {
            assert_eq!(safe_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn wasm_and_modules_get_their_types() {
        assert_eq!(
            mime(Path::new("x/crownhead_web_bg.wasm")),
            "application/wasm"
        );
        assert!(mime(Path::new("a.js")).starts_with("text/javascript"));
        assert!(mime(Path::new("index.html")).starts_with("text/html"));
        assert_eq!(mime(Path::new("blob")), "application/octet-stream");
    }
}
