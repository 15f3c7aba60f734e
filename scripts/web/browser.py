"""The shared harness of the browser tests: a static file server (with or without the
cross-origin isolation headers) and Debian's headless Chromium driven through Selenium.

Selenium comes from PyPI (``requirements.txt`` beside this) into the virtual environment that
``scripts.lib.venv`` makes, scripts/.venv/web (``bootstrap()``, called first by every test
script); the browser and its driver are Debian's
``chromium`` and ``chromium-driver`` (/usr/bin/chromium, /usr/bin/chromedriver), never one that a
package downloads: Selenium Manager is kept offline. Each browser starts with a fresh profile
in a temporary directory, with everything that talks to the network in the background off.

    from scripts.web import browser
    browser.bootstrap()
    with browser.serve(folder, isolated=True) as base, browser.chromium() as driver:
        browser.open_page(driver, base + "/page.html", "window.someTest")
        answer = browser.call(driver, "return await window.someTest(arguments[0]);", 42)
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
from typing import Any, Iterator

from scripts.lib import venv
from scripts.lib.engine import REPO_ROOT

ROOT = REPO_ROOT  # the repository, for the tests that use this harness
REQUIREMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "requirements.txt")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def bootstrap() -> None:
    """Re-executes the calling script in the venv that has Selenium, making it if needed."""
    venv.reexec_into(REQUIREMENTS)


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, never cached, with the isolation headers when the server asks for them."""

    isolated = False
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".mjs": "text/javascript"}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args: Any) -> None:  # quiet: the tests print what matters
        pass


class _Server(http.server.ThreadingHTTPServer):
    # A page, its module imports, workers and .wasm open many connections at once; the
    # default listen queue of 5 can overflow on a busy machine.
    request_queue_size = 64


@contextlib.contextmanager
def serve(folder: str, isolated: bool = True) -> Iterator[str]:
    """Serves `folder` on a free local port while the block runs; yields its base URL. With
    `isolated`, every answer carries COOP: same-origin and COEP: require-corp, which make the
    page cross-origin isolated (and SharedArrayBuffer available)."""
    handler = type("Handler", (_Handler,), {"isolated": isolated})
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium(width: int = 1200, height: int = 900) -> Iterator[Any]:
    """A headless Chromium with a fresh profile, quit and deleted after the block."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        sys.exit("error: needs Debian's chromium and chromium-driver "
                 "(apt-get install chromium chromium-driver)")
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download a browser
    profile = tempfile.mkdtemp(prefix="crownhead-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_page(driver: Any, url: str, ready: str, timeout: float = 30) -> None:
    """Loads `url` and waits until the JavaScript expression `ready` holds in it. The load
    event alone is not enough on a busy machine: a module script that is still fetching its
    imports has not yet run. A page that never gets ready fails with the browser console's
    messages, which say why (a failed import, a script error)."""
    driver.get(url)
    deadline = time.monotonic() + timeout
    while not driver.execute_script(f"return !!({ready});"):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} not ready ({ready}) after {timeout:.0f} s; "
                               f"console: {console(driver)}")
        time.sleep(0.05)


def call(driver: Any, body: str, *args: Any, timeout: float = 60) -> Any:
    """Runs `body` (an async function body: it may `await`; its `return` is the answer) in the
    page and returns its answer; a thrown error fails with its message."""
    driver.set_script_timeout(timeout)
    script = ("const done = arguments[arguments.length - 1];"
              "(async (...a) => { " + body + " })(...Array.from(arguments).slice(0, -1))"
              ".then(v => done({ok: v}), e => done({error: String(e && e.stack || e)}));")
    answer = driver.execute_async_script(script, *args)
    if answer is None or "error" in answer:
        raise RuntimeError(f"in the page: {answer and answer.get('error')}")
    return answer.get("ok")


def console(driver: Any) -> list:
    """The browser console's messages since the last call."""
    try:
        return driver.get_log("browser")
    except Exception:  # noqa: BLE001 - not every driver keeps the log
        return []


def version(driver: Any) -> str:
    """The browser's name and version, as the driver reports them."""
    caps = driver.capabilities
    return f"{caps.get('browserName', '?')} {caps.get('browserVersion', '?')}"
