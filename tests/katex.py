"""Render LaTeX fragments with KaTeX (Node.js) from the tests: ``render_all(fragments)``.

One node process renders the whole list (tests/js/render.js). Plain KaTeX, no custom macros,
``throwOnError: true``. Without ``node`` on the PATH the calling test is skipped, unless
``SYMTF_REQUIRE_KATEX`` is set (``.ci/run`` sets it): then it fails, so CI cannot pass by skipping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

JS_DIR = Path(__file__).resolve().parent / "js"
RENDER_JS = JS_DIR / "render.js"
_TIMEOUT_S = 300


@dataclass(frozen=True)
class Rendered:
    latex: str
    display: bool
    ok: bool
    error: str | None
    warnings: tuple[str, ...] = ()


def _pinned_version() -> str:
    return json.loads((JS_DIR / "package.json").read_text())["dependencies"]["katex"]


def _installed_version() -> str | None:
    manifest = JS_DIR / "node_modules" / "katex" / "package.json"
    if not manifest.is_file():
        return None
    return json.loads(manifest.read_text())["version"]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        message = "node not on PATH: KaTeX render test needs Node.js"
        if os.environ.get("SYMTF_REQUIRE_KATEX"):
            pytest.fail(message + " (SYMTF_REQUIRE_KATEX is set)")
        pytest.skip(message)
    return node


def _ensure_katex() -> None:
    if _installed_version() == _pinned_version():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"KaTeX {_pinned_version()} is not installed in {JS_DIR} and npm is not on PATH")
    command = [npm, "install", "--no-audit", "--no-fund", "--no-progress"]
    done = subprocess.run(command, cwd=JS_DIR, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=_TIMEOUT_S)
    if done.returncode != 0:
        pytest.fail(f"`{' '.join(command)}` in {JS_DIR} failed ({done.returncode}):\n"
                    f"{done.stdout}\n{done.stderr}")
    if _installed_version() != _pinned_version():
        pytest.fail(f"npm install left KaTeX {_installed_version()} in {JS_DIR}, "
                    f"package.json pins {_pinned_version()}")


def render_all(fragments: Iterable[str | tuple[str, bool]]) -> list[Rendered]:
    """Render each fragment (inline if a bare string, else ``(latex, display)``) with KaTeX."""
    items = [(f, False) if isinstance(f, str) else (f[0], bool(f[1])) for f in fragments]
    node = _node()
    _ensure_katex()
    payload = json.dumps([{"latex": latex, "display": display} for latex, display in items])
    done = subprocess.run([node, str(RENDER_JS)], cwd=JS_DIR, input=payload,
                          capture_output=True, text=True, timeout=_TIMEOUT_S)
    if done.returncode != 0:
        pytest.fail(f"{RENDER_JS.name} exited {done.returncode}: {done.stderr.strip()}")
    results = json.loads(done.stdout)
    if len(results) != len(items):
        pytest.fail(f"{RENDER_JS.name} returned {len(results)} results for {len(items)} fragments")
    return [
        Rendered(latex, display, r["ok"], r["error"], tuple(r.get("warnings", ())))
        for (latex, display), r in zip(items, results)
    ]
