"""``symtf.io.write_atomic``: the file it replaces survives any failure byte for byte."""
from __future__ import annotations

import errno
import os
import stat

import pytest

from symtf.errors import WriteError
from symtf.io import write_atomic


def failing_write_halfway(monkeypatch):
    """Make ``os.write`` write half of its first buffer, then fail with ENOSPC (a disk filling up)."""
    real_write = os.write
    calls = []

    def write(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[: max(1, len(data) // 2)]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", write)
    return calls


def test_replaces_content_and_keeps_mode(tmp_path):
    path = tmp_path / "post.md"
    path.write_text("old\n")
    path.chmod(0o640)
    assert write_atomic(path, "new é\n") == path
    assert path.read_bytes() == "new é\n".encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["post.md"]


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.bin", b"\x00\x01")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.bin").stat().st_mode) == 0o640
    assert (tmp_path / "new.bin").read_bytes() == b"\x00\x01"


def test_failure_halfway_leaves_the_original_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "post.md"
    original = b"line one\n" * 1000
    path.write_bytes(original)
    calls = failing_write_halfway(monkeypatch)
    with pytest.raises(WriteError, match=rf"^cannot write {path}: No space left on device; the original is unchanged$"):
        write_atomic(path, b"x" * 5000)
    assert len(calls) == 2  # the failure came after part of the data was written
    assert path.read_bytes() == original
    assert os.listdir(tmp_path) == ["post.md"]


def test_interrupt_removes_the_temporary_and_propagates(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    path.write_text("keep")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, "other")
    assert path.read_text() == "keep" and os.listdir(tmp_path) == ["a.txt"]


def test_identical_content_is_not_rewritten(tmp_path):
    path = tmp_path / "page.md"
    path.write_text("same")
    os.utime(path, (1_000_000, 1_000_000))
    write_atomic(path, "same")
    assert path.stat().st_mtime == 1_000_000


def test_a_symlink_keeps_pointing_at_its_target(tmp_path):
    target = tmp_path / "real.md"
    target.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_errors_name_the_file(tmp_path):
    with pytest.raises(WriteError, match=rf"^cannot write {tmp_path}: exists and is not a regular file$"):
        write_atomic(tmp_path, "x")
    missing = tmp_path / "no-such-dir" / "f.md"
    with pytest.raises(WriteError, match=rf"^cannot write {missing}: No such file or directory$"):
        write_atomic(missing, "x")


# --------------------------------------------------------------------------- every writer of the CLI
# Each writer is run with a write that fails: a file-size limit (RLIMIT_FSIZE, in a child process)
# below the new file's size, and a write that raises half-way. The file it would replace must come
# out byte-identical, with no temporary file beside it and exit 2 with one line naming it.

import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from symtf.cli import main  # noqa: E402
from symtf.report import run as report_run  # noqa: E402

STALE_POST = ("# A post\n\n<!-- symtf:begin full-one-layer -->\n<!-- symtf:end full-one-layer -->\n\n"
              "The end.\n")
EVAL_ARGS = ["eval", "--random", "--d-model", "7", "--d-head", "5", "--n-vocab", "13", "--tokens", "3,1,4"]
# `symtf report` with no claims to prove (the check and the pages still run), so the test stays fast.
REPORT_NO_CLAIMS = ("import sys\nfrom symtf.report import run\nrun.CLAIMS = {}\nfrom symtf.cli import main\n"
                    "sys.exit(main(sys.argv[1:]))\n")


def _writers(tmp_path):
    """(argv of the child, argv for main(), the file at stake, its original bytes) per writer."""
    post = tmp_path / "render" / "post.md"
    acts = tmp_path / "eval" / "acts.npz"
    pages = tmp_path / "report"
    for d in (post.parent, acts.parent, pages):
        d.mkdir()
    post.write_text(STALE_POST)
    acts.write_bytes(b"activations of an earlier run")
    (pages / "tables.md").write_text("# tables of an earlier run\n")
    return [
        ([sys.executable, "-m", "symtf", "render", str(post)], ["render", str(post)], post),
        ([sys.executable, "-m", "symtf", *EVAL_ARGS, "--out", str(acts)], [*EVAL_ARGS, "--out", str(acts)], acts),
        ([sys.executable, "-c", REPORT_NO_CLAIMS, "report", "--out", str(pages)], ["report", "--out", str(pages)],
         pages / "tables.md"),
    ]


def _limit_file_size(limit: int):
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.slow
def test_every_writer_survives_a_file_size_limit(tmp_path):
    for child, _, path in _writers(tmp_path):
        before = path.read_bytes()
        listing = sorted(os.listdir(path.parent))
        limit = 200  # above every original, below every new file
        assert len(before) < limit
        proc = subprocess.run(child, capture_output=True, text=True, preexec_fn=_limit_file_size(limit),
                              stdin=subprocess.DEVNULL, timeout=120)
        assert proc.returncode == 2, (child, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and f"cannot write {path}: file too large" in lines[0], proc.stderr
        assert "internal error" not in proc.stderr
        assert path.read_bytes() == before
        assert sorted(os.listdir(path.parent)) == listing


def test_every_writer_survives_a_write_failing_halfway(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(report_run, "CLAIMS", {})
    for _, argv, path in _writers(tmp_path):
        before = path.read_bytes()
        listing = sorted(os.listdir(path.parent))
        with monkeypatch.context() as m:
            calls = failing_write_halfway(m)
            assert main(argv) == 2
        assert len(calls) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err == f"symtf {argv[0]}: error: cannot write {path}: No space left on device; the original is unchanged"
        assert path.read_bytes() == before
        assert sorted(os.listdir(path.parent)) == listing
