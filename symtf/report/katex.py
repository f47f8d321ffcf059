"""KaTeX for the docs site, fetched at build time from the npm registry (no CDN at view time).

The version and its sha512 come from ``tests/js/package-lock.json``, so the site renders with the
same KaTeX the render tests use. :func:`katex_dist` returns a folder with ``katex.min.js``,
``katex.min.css`` and ``fonts/``: ``SYMTF_KATEX_DIST`` when set, else ``build/katex/<version>``,
filled on first use by ``npm pack katex@<version>`` (the tarball's digest checked against the lock
file). Nothing is borrowed from ``tests/js/node_modules``.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "tests" / "js" / "package-lock.json"
CACHE = ROOT / "build" / "katex"
FILES = ("katex.min.js", "katex.min.css")


class KatexError(RuntimeError):
    """KaTeX could not be found or fetched; the message says what to do."""


def pinned(lock: Path = LOCK) -> tuple[str, str]:
    """``(version, integrity)`` of katex in the npm lock file (integrity as ``sha512-<base64>``)."""
    try:
        entry = json.loads(lock.read_text(encoding="utf-8"))["packages"]["node_modules/katex"]
        return entry["version"], entry["integrity"]
    except (OSError, ValueError, KeyError) as exc:
        raise KatexError(f"{lock}: no pinned katex version ({type(exc).__name__}: {exc})") from None


def _check_digest(tarball: Path, integrity: str) -> None:
    algorithm, _, expected = integrity.partition("-")
    if algorithm not in ("sha512", "sha384", "sha256"):
        raise KatexError(f"unsupported integrity {integrity!r} in {LOCK}")
    actual = base64.b64encode(hashlib.new(algorithm, tarball.read_bytes()).digest()).decode()
    if actual != expected:
        raise KatexError(f"{tarball.name}: {algorithm} digest {actual} does not match {LOCK} ({expected})")


def _unpack(tarball: Path, into: Path) -> None:
    """The dist files of the npm tarball (``package/dist/...``) into ``into``, nothing else."""
    with tarfile.open(tarball) as tar:
        wanted = [m for m in tar.getmembers() if m.isfile() and (
            m.name in {f"package/dist/{f}" for f in FILES} or m.name.startswith("package/dist/fonts/"))]
        for member in wanted:
            member.name = member.name[len("package/dist/"):]
        tar.extractall(into, members=wanted, filter="data")
    missing = [f for f in FILES if not (into / f).is_file()]
    if missing or not (into / "fonts").is_dir():
        raise KatexError(f"{tarball.name}: no {', '.join(missing) or 'fonts/'} in the package's dist/")


def fetch(version: str, integrity: str, cache: Path = CACHE) -> Path:
    """``cache/<version>``, fetched with ``npm pack`` and checked against ``integrity`` if absent."""
    target = cache / version
    if (target / FILES[0]).is_file():
        return target
    npm = shutil.which("npm")
    if npm is None:
        raise KatexError(f"KaTeX {version} is fetched with npm when the site is built: install Node.js (npm), "
                         "or set SYMTF_KATEX_DIST to a folder with katex.min.js, katex.min.css and fonts/")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".fetch-") as tmp:
        proc = subprocess.run([npm, "pack", f"katex@{version}", "--pack-destination", tmp, "--silent"],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
        tarball = Path(tmp) / f"katex-{version}.tgz"
        if proc.returncode != 0 or not tarball.is_file():
            detail = (proc.stderr.strip().splitlines() or ["no tarball"])[-1]
            raise KatexError(f"npm pack katex@{version} failed: {detail}")
        _check_digest(tarball, integrity)
        unpacked = Path(tmp) / "dist"
        _unpack(tarball, unpacked)
        try:
            os.replace(unpacked, target)  # whole or not at all: a half-fetched folder is never used
        except OSError:
            if not (target / FILES[0]).is_file():  # not another build that got there first
                raise
    return target


def katex_dist() -> Path:
    """The folder the site's KaTeX comes from (see the module docstring)."""
    override = os.environ.get("SYMTF_KATEX_DIST")
    if override:
        dist = Path(override)
        if not (dist / FILES[0]).is_file():
            raise KatexError(f"SYMTF_KATEX_DIST={override}: no {FILES[0]} there")
        return dist
    return fetch(*pinned())
