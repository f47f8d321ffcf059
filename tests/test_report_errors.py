"""Bad input at the top: one clear line and exit 2, never a traceback (``--debug`` shows it); degraded parts."""
from __future__ import annotations


import pytest

from symtf.cli import main
from symtf.errors import InputError
from symtf.report import run as report_run


def _missing(tmp_path):
    return tmp_path / "nope.md"


def _directory(tmp_path):
    return tmp_path


def _binary(tmp_path):
    p = tmp_path / "post.md"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    return p


def _latin1(tmp_path):
    p = tmp_path / "post.md"
    p.write_bytes("caf\u00e9 $$x$$\n".encode("latin-1"))
    return p


def _empty(tmp_path):
    p = tmp_path / "post.md"
    p.write_text("")
    return p


def _huge(tmp_path):
    p = tmp_path / "post.md"
    p.write_text("$$q_n = W_Q x_n$$\n" * (10_000_000 // 18 + 1))
    return p


BAD = {
    "missing": (_missing, "no such file"),
    "directory": (_directory, "is a directory"),
    "binary": (_binary, "binary file"),
    "not-utf8": (_latin1, "not UTF-8"),
    "empty": (_empty, "empty file"),
    "10MB": (_huge, "too large"),
}


@pytest.mark.parametrize("command", ["report", "check", "render"])
@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_and_exit_2(command, case, tmp_path, capsys):
    make, message = BAD[case]
    path = make(tmp_path)
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"symtf {command}: error: {path}")
    assert message in lines[0]
    assert "Traceback" not in err


def test_debug_shows_the_traceback(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        main(["--debug", "report", str(tmp_path / "nope.md")])


def test_an_unexpected_error_is_one_line_too(monkeypatch, tmp_path, capsys):
    post = tmp_path / "post.md"
    post.write_text("# A post\n\n$$q_n = W_Q x_n$$\n")

    def boom(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(report_run, "build_report", boom)
    assert main(["report", str(post)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "symtf report: internal error: ZeroDivisionError: a bug (run `symtf --debug ...` for the traceback)"


def test_out_must_be_a_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(report_run, "CLAIMS", {})  # keep it fast: no claims
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["report", "--out", str(target)]) == 2
    assert "exists and is not a directory" in capsys.readouterr().err


# --------------------------------------------------------------------------- degraded parts


def test_no_claims_is_reported_not_faked(monkeypatch, tmp_path):
    monkeypatch.setattr(report_run, "CLAIMS", {})
    post = tmp_path / "post.md"
    post.write_text("## Simplified\n\n$$q_n = W_Q x_n$$\n")
    report = report_run.build_report(post)
    assert report["claims"] == {"unavailable": report["claims"]["unavailable"]}
    assert report["claims"]["unavailable"] == "claims unavailable: no claims to prove"
    assert report["status"]["ok"] is False
    assert report["post"]["summary"]["verified"] == 1


def test_a_broken_checker_is_reported_not_faked(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("parser exploded")

    monkeypatch.setattr(report_run, "check_text", broken)
    monkeypatch.setattr(report_run, "CLAIMS", {})
    report = report_run.build_report()
    assert report["post"]["unavailable"] == "checker failed: RuntimeError: parser exploded"
    assert "findings" not in report["post"]
    assert "checker failed: RuntimeError: parser exploded" in report_run.to_text(report, tables=False)
    assert report["status"]["ok"] is False


def test_progress_is_silent_when_stderr_is_not_a_terminal(capfd, monkeypatch):
    monkeypatch.setattr(report_run, "CLAIMS", {})
    report_run.run_report(None, show_progress=True)
    assert capfd.readouterr().err == ""
