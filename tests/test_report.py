"""``symtf report``: the example post's planted mistakes, the report's JSON and text, the exit code."""
from __future__ import annotations

import json
import re

import pytest

from symtf.report.run import EXAMPLE_POST, check_post, status, summary_lines, to_text

from .report_run import main_job, run_main_job

# The example post's deliberate mistakes, each a different kind, with the form the model gives.
# (fragment as written in the post, checker rule, expected form, the fix that makes it right)
MISTAKES = [
    # swapped transpose: S = qᵀk/√d_head, row i = query i; kᵀq is its transpose
    (r"S = k^\top q / \sqrt{d_\text{head}}", "definition", r"S = q^\top k / \sqrt{d_{\text{head}}}",
     r"S = q^\top k / \sqrt{d_\text{head}}"),
    # missing √d_head inside softmax* of the end-to-end layer formula
    (r"\text{softmax}^*\big( (x^{(0)})^\top (W_Q^h)^\top W_K^h x^{(0)} \big)^\top", "definition", r"W_K^h x^{(0)} / \sqrt{d_{\text{head}}}",
     r"\text{softmax}^*\big( (x^{(0)})^\top (W_Q^h)^\top W_K^h x^{(0)} / \sqrt{d_\text{head}} \big)^\top"),
    # wrong shape cell: W_O^h maps d_head back to d_model, so it is d_model × d_head
    (r"| $$W_O^h$$               | $$d_\text{head} \times d_\text{model}$$  |", "shape",
     r"d_\text{model} \times d_\text{head}",
     r"| $$W_O^h$$               | $$d_\text{model} \times d_\text{head}$$  |"),
    # wrong number: GPT-2 Small has 12 layers
    (r"$$n_\text{layers} = 24$$", "figures", "12", r"$$n_\text{layers} = 12$$"),
]


def _line_of(text: str, fragment: str) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(lines) == 1, f"{fragment!r} should occur on exactly one line, found {lines}"
    return lines[0]


@pytest.fixture(scope="module")
def example_text() -> str:
    return EXAMPLE_POST.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def example_check(example_text) -> dict:
    return check_post(example_text)


def test_example_post_is_a_post_of_the_right_size(example_text):
    lines = example_text.splitlines()
    assert 60 <= len(lines) <= 120
    for topic in (r"W_E t", r"q_n = W_Q x_n", r"\text{softmax}^*", r"\sum_{h=1}^{H}", r"\text{ReLU}",
                  r"\text{LayerNorm}", "| Layer"):
        assert topic in example_text, topic


def test_every_planted_mistake_is_a_mismatch_with_the_right_fix(example_text, example_check):
    mismatches = {(f["line"], f["rule"]): f for f in example_check["findings"] if f["status"] == "mismatch"}
    for fragment, rule, expected, _ in MISTAKES:
        line = _line_of(example_text, fragment)
        found = mismatches.get((line, rule))
        assert found is not None, f"line {line} ({fragment}): no {rule} mismatch; got {sorted(mismatches)}"
        assert expected in (found["expected"] or ""), (fragment, found)


def test_nothing_else_is_a_mismatch(example_text, example_check):
    planted = {_line_of(example_text, fragment) for fragment, *_ in MISTAKES}
    lines = {f["line"] for f in example_check["findings"] if f["status"] == "mismatch"}
    assert lines == planted
    # claims verified, mentions recognized (a mention is never "verified")
    assert example_check["summary"]["verified"] >= 30
    assert example_check["summary"]["verified"] + example_check["summary"]["recognized"] >= 40


def test_fixing_the_mistakes_leaves_no_mismatch(example_text):
    fixed = example_text
    for fragment, _, _, fix in MISTAKES:
        assert fixed.count(fragment) == 1
        fixed = fixed.replace(fragment, fix)
    result = check_post(fixed)
    assert result["summary"]["mismatch"] == 0, [f for f in result["findings"] if f["status"] == "mismatch"]


# --------------------------------------------------------------------------- the main job


def test_main_job_runs_in_under_a_minute_and_reports_all_parts():
    job = main_job()
    assert job.seconds < 60, f"symtf report took {job.seconds:.1f} s"
    report = job.report
    assert {t["id"] for t in report["tables"]} >= {"zero-layer", "simplified-one-layer", "full-one-layer"}
    assert report["post"]["builtin"] is True
    assert report["post"]["summary"]["mismatch"] == len(MISTAKES)
    claims = report["claims"]
    if "unavailable" in claims:  # degraded, and says so; never a made-up result
        assert claims["unavailable"].startswith("claims unavailable")
        assert report["status"]["ok"] is False and job.returncode == 1
    else:
        assert claims["summary"]["total"] == len(claims["claims"]) > 0
        for record in claims["claims"]:
            assert record["result"] in ("proved", "refuted", "unknown")
            assert record["statement"]
        assert job.returncode == (0 if report["status"]["ok"] else 1)
    # stderr is not a terminal: no progress display, only the note about --out
    assert "━" not in job.stderr and "Traceback" not in job.stderr
    assert job.stderr.strip().startswith("symtf report: wrote")


def test_out_dir_has_every_page_and_the_json():
    job = main_job()
    names = {p.name for p in job.out.iterdir()}
    assert {"tables.md", "claims.md", "check.md", "conventions.md", "cli.md", "report.json"} <= names
    assert json.loads((job.out / "report.json").read_text())["tables"] == job.report["tables"]
    check = (job.out / "check.md").read_text()
    assert check.count("| mismatch |") == len(MISTAKES)


@pytest.mark.slow
def test_a_second_run_changes_no_file_and_prints_the_same_json():
    job = main_job()

    def snapshot():
        return {p.relative_to(job.out): (p.read_bytes(), p.stat().st_mtime_ns)
                for p in sorted(job.out.rglob("*")) if p.is_file()}

    before = snapshot()
    again = run_main_job(job.out)
    assert again.returncode == job.returncode
    assert again.stdout == job.stdout  # no timing field: identical bytes
    assert snapshot() == before  # every file the same bytes, none even rewritten
    assert "seconds" not in job.report and all("seconds" not in r for r in job.report["claims"]["claims"])


def test_text_output_ends_with_a_short_summary():
    report = main_job().report
    text = to_text(report)
    assert "### Full one-layer Transformer" in text  # the tables are emitted
    summary = text[text.index("== Summary"):].splitlines()
    assert len(summary) <= 8
    assert re.search(r"post: \d+ claims verified, 4 mismatch \(the built-in example has deliberate mistakes\), "
                     r"\d+ mentions recognized", text)
    for f in report["post"]["findings"]:
        if f["status"] == "mismatch":
            assert f"line {f['line']:>4}  MISMATCH" in text


def test_status_rests_on_user_mismatches_claims_and_gaps():
    post_ok = {"builtin": True, "summary": {"mismatch": 4}, "file": "x"}
    claims_ok = {"summary": {"total": 3, "as_expected": 3}}
    assert status(post_ok, claims_ok)["ok"]
    assert not status({**post_ok, "builtin": False}, claims_ok)["ok"]
    assert not status(post_ok, {"summary": {"total": 3, "as_expected": 2}})["ok"]
    gap = status({"builtin": True, "unavailable": "checker unavailable: boom"}, {"unavailable": "claims unavailable: x"})
    assert gap["problems"] == ["checker unavailable: boom", "claims unavailable: x"]


def test_summary_says_when_a_part_is_unavailable():
    report = {"post": {"file": "p.md", "builtin": False, "unavailable": "checker unavailable: ImportError: x"},
              "claims": {"unavailable": "claims unavailable: no claims registry found in symtf.proofs"},
              "tables": [], "seconds": {"check": 0.0}}
    report["status"] = status(report["post"], report["claims"])
    lines = "\n".join(summary_lines(report))
    assert "post: checker unavailable: ImportError: x" in lines
    assert "claims: claims unavailable" in lines
    assert "status: needs attention" in lines
