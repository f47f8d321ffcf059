"""The docs site: built strictly with mkdocs, served locally, every page opened in headless Chromium.

Asserts that every formula rendered with KaTeX (no ``.katex-error``, no ``.arithmatex`` left
unrendered, no raw ``$$`` or ``\\(`` in the text outside code, ``.katex`` nodes on the math pages)
and saves a screenshot of the tables page. Skips with the reason when mkdocs, Chromium,
chromedriver, selenium or npm (which fetches KaTeX for the build) is missing, unless ``SYMTF_REQUIRE_BROWSER=1``
(``.ci/run`` sets it): then it fails.
"""
from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from .report_run import REPO, main_job

CHROMIUM = os.environ.get("SYMTF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("SYMTF_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,1600", "--hide-scrollbars",
         # nothing but the local server resolves: a page that needs a CDN fails here
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
MATH_PAGES = ("", "tables/", "claims/", "check/", "conventions/", "text/")  # pages that must show rendered formulas

pytestmark = pytest.mark.slow


def _require(condition: bool, reason: str) -> None:
    if condition:
        return
    if os.environ.get("SYMTF_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (SYMTF_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    _require(importlib.util.find_spec("mkdocs") is not None and importlib.util.find_spec("material") is not None,
             "mkdocs / mkdocs-material not installed: pip install -e '.[docs]'")
    _require(shutil.which("npm") is not None or bool(os.environ.get("SYMTF_KATEX_DIST")),
             "npm not found: the site fetches KaTeX with it at build time (or set SYMTF_KATEX_DIST)")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "SYMTF_REPORT_JSON": str(main_job().out / "report.json"), "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    missing: list[str] = []

    def log_message(self, *args) -> None:
        pass

    def send_error(self, code, *args, **kwargs):
        if code == 404 and not self.path.endswith("favicon.ico"):
            _QuietHandler.missing.append(self.path)
        return super().send_error(code, *args, **kwargs)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    _require(Path(CHROMIUM).is_file(), f"{CHROMIUM} not found: apt-get install chromium chromium-driver")
    _require(Path(CHROMEDRIVER).is_file(), f"{CHROMEDRIVER} not found: apt-get install chromium-driver")
    _require(importlib.util.find_spec("selenium") is not None, "selenium not installed: pip install -e '.[docs]'")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    # An explicit driver path: selenium-manager (which would download one) is never run.
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _pages(site: Path) -> list[str]:
    pages = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        pages.append("" if rel == "." else rel + "/")
    return pages


_STATE_JS = r"""
const body = document.querySelector("article") || document.body;
const copy = body.cloneNode(true);
copy.querySelectorAll("pre, code, .katex").forEach(e => e.remove());
return {
  katex: body.querySelectorAll(".katex").length,
  errors: Array.from(body.querySelectorAll(".katex-error")).map(e => e.getAttribute("title") || e.textContent),
  pending: body.querySelectorAll(".arithmatex:not([data-katex=done])").length,
  text: copy.textContent,
  title: document.title,
};
"""


def _load(browser, url: str) -> dict:
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(url)
    WebDriverWait(browser, 15).until(
        lambda d: d.execute_script("return document.querySelectorAll('.arithmatex:not([data-katex=done])').length") == 0)
    return browser.execute_script(_STATE_JS)


def test_every_page_renders_its_math(site, server, browser, tmp_path_factory):
    pages = _pages(site)
    for expected in ("", "tables/", "claims/", "check/", "conventions/", "derivations/", "figures/", "cli/", "ci/"):
        assert expected in pages, f"page {expected or 'index'} missing from the site: {pages}"
    _QuietHandler.missing.clear()
    counts = {}
    for page in pages:
        state = _load(browser, server + page)
        assert state["errors"] == [], f"{page}: KaTeX errors {state['errors'][:3]}"
        assert state["pending"] == 0, f"{page}: formulas left unrendered"
        assert "$$" not in state["text"], f"{page}: raw $$ left in the text"
        assert "$" not in state["text"], f"{page}: a stray $ left in the text (a formula half-parsed)"
        assert "\\(" not in state["text"] and "\\[" not in state["text"], f"{page}: raw \\( or \\[ left"
        assert "404" not in state["title"], page
        counts[page] = state["katex"]
    math_pages = MATH_PAGES + (("derivations/",) if any((REPO / "derivations").glob("*.py")) else ())
    for page in math_pages:
        if page == "claims/" and "unavailable" in main_job().report["claims"]:
            continue  # no claims to show: the page says why instead (checked in test_report_pages)
        assert counts[page] > 0, f"{page}: no KaTeX formulas rendered ({counts})"
    rows = sum(len(t["rows"]) for t in main_job().report["tables"])
    assert counts["tables/"] >= 2 * rows  # an expression and a shape per row
    assert _QuietHandler.missing == [], f"404s while loading the site: {sorted(set(_QuietHandler.missing))}"

    browser.get(server + "tables/")
    shot = tmp_path_factory.mktemp("screenshots") / "tables.png"
    assert browser.save_screenshot(str(shot))
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    keep = os.environ.get("SYMTF_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy2(shot, Path(keep) / "tables.png")
    print(f"screenshot of the tables page: {shot}")


def test_the_checks_catch_a_broken_page(site, server, browser):
    # A control: the tables page with an unknown command in one formula and raw $$ in the text.
    html = (site / "tables" / "index.html").read_text(encoding="utf-8")
    assert html.count(r"\(t = ") >= 1
    broken = html.replace(r"\(t = ", r"\(\undefinedcommand t = ", 1).replace("<h1", "<p>raw $$x$$</p><h1", 1)
    (site / "broken").mkdir(exist_ok=True)
    (site / "broken" / "index.html").write_text(broken, encoding="utf-8")
    try:
        state = _load(browser, server + "broken/")
    finally:
        shutil.rmtree(site / "broken")
    assert len(state["errors"]) == 1 and "undefinedcommand" in state["errors"][0]
    assert "$$" in state["text"]


def test_fonts_and_scripts_are_vendored(site):
    assert (site / "assets" / "katex" / "katex.min.js").is_file()
    assert any((site / "assets" / "katex" / "fonts").glob("KaTeX_Main-Regular.woff2"))
    html = (site / "tables" / "index.html").read_text(encoding="utf-8")
    assert "cdn.jsdelivr" not in html and "fonts.googleapis" not in html
