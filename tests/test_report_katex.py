"""``symtf.report.katex``: the site's KaTeX fetched with npm at build time, its digest checked."""
from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import stat
import tarfile

import pytest

from symtf.report import katex


def _tarball(path, files: dict[str, bytes]):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


PACKAGE = {"package/dist/katex.min.js": b"js", "package/dist/katex.min.css": b"css",
           "package/dist/fonts/KaTeX_Main-Regular.woff2": b"font", "package/README.md": b"not wanted",
           "package/dist/katex.mjs": b"not wanted"}


@pytest.fixture()
def fake_npm(tmp_path, monkeypatch):
    """An ``npm`` on the PATH whose ``pack`` copies a prepared tarball (no network in the test)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    source = tmp_path / "katex-9.9.9.tgz"
    integrity = _tarball(source, PACKAGE)
    npm = bin_dir / "npm"
    npm.write_text(f'#!/bin/sh\n# npm pack katex@9.9.9 --pack-destination DIR --silent\ncp "{source}" "$4/"\n')
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return integrity


def test_the_pin_is_the_render_tests_lock():
    version, integrity = katex.pinned()
    lock = json.loads(katex.LOCK.read_text())["packages"]["node_modules/katex"]
    assert (version, integrity) == (lock["version"], lock["integrity"]) and integrity.startswith("sha512-")


def test_fetch_unpacks_only_the_dist_files_once(tmp_path, fake_npm):
    dist = katex.fetch("9.9.9", fake_npm, cache=tmp_path / "cache")
    files = sorted(str(p.relative_to(dist)) for p in dist.rglob("*") if p.is_file())
    assert files == ["fonts/KaTeX_Main-Regular.woff2", "katex.min.css", "katex.min.js"]
    assert os.listdir(tmp_path / "cache") == ["9.9.9"]  # no temporary folder left
    (tmp_path / "bin" / "npm").unlink()  # cached: npm is not needed again
    assert katex.fetch("9.9.9", fake_npm, cache=tmp_path / "cache") == dist


def test_a_tarball_with_another_digest_is_refused(tmp_path, fake_npm):
    wrong = "sha512-" + base64.b64encode(hashlib.sha512(b"other").digest()).decode()
    with pytest.raises(katex.KatexError, match=r"katex-9\.9\.9\.tgz: sha512 digest .* does not match"):
        katex.fetch("9.9.9", wrong, cache=tmp_path / "cache")
    assert os.listdir(tmp_path / "cache") == []


def test_without_npm_the_error_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(katex.KatexError, match=r"install Node\.js \(npm\), or set SYMTF_KATEX_DIST"):
        katex.fetch("9.9.9", "sha512-x", cache=tmp_path / "cache")
