"""The report's claims part and the generated docs pages, on claims made here with ``symtf.proofs.claim``."""
from __future__ import annotations

import re

import pytest

from symtf.proofs.claim import Claim, Method, NumericCheck, Status, proved, refuted, unknown
from symtf.report import pages
from symtf.report import run as report_run

CLAIMS = [
    Claim("demo-symbolic", r"\sum_{i=1}^{n} \text{softmax}(s)_i = 1", lambda: proved(Method.SYMBOLIC),
          assumptions=("n a symbolic positive integer", "s_i real, any *value*"),
          numeric=lambda: NumericCheck(True, 2.5e-16, 20)),
    Claim("demo-refuted", r"\text{LayerNorm}(x) \text{ has mean } \beta",
          lambda: refuted({"gamma": [1, 2], "mean": "3/2"}, "fails for non-constant gamma", Method.CONCRETE,
                          sizes=({"d_model": 2},)),
          expected=Status.REFUTED),
    Claim("demo-unknown", r"W_O R = \sum_h W_O^h r^h", lambda: unknown("SymPy could not decide | the sum")),
    Claim("demo-crash", r"a = b", lambda: 1 / 0),
]


@pytest.fixture()
def fake_registry(monkeypatch):
    monkeypatch.setattr(report_run, "CLAIMS", {c.id: c for c in CLAIMS})


@pytest.fixture()
def report(fake_registry, tmp_path):
    post = tmp_path / "post.md"
    post.write_text("## The simplified model\n\n$$q_n = W_Q x_n$$ and $$o_n = W_O r_n$$\n\n"
                    "## Multiple heads\n\n$$S^h = k^h (q^h)^\\top / \\sqrt{d_\\text{head}}$$\n")
    return report_run.build_report(post)


def test_claims_are_proved_through_the_registry(report):
    records = {r["id"]: r for r in report["claims"]["claims"]}
    assert list(records) == [c.id for c in CLAIMS]
    assert records["demo-symbolic"]["result"] == "proved" and records["demo-symbolic"]["method"] == "symbolic"
    assert records["demo-refuted"]["as_expected"] is True
    assert records["demo-unknown"]["as_expected"] is False
    assert records["demo-crash"]["result"] == "unknown"
    assert "ZeroDivisionError" in records["demo-crash"]["reason"]
    assert report["claims"]["summary"] == {"proved": 1, "refuted": 1, "unknown": 2, "total": 4, "as_expected": 2}
    assert report["status"]["problems"] == ["1 mismatch(es) in " + report["post"]["file"], "2 claim(s) not as expected"]


def test_text_lists_each_claim_and_flags_the_unexpected(report):
    text = report_run.to_text(report, tables=False)
    assert re.search(r"demo-symbolic\s+proved\s+symbolic\s+\d+\.\d\d s  numeric ok\n", text)
    assert re.search(r"demo-refuted\s+refuted \(expected\)\s+concrete", text)
    assert "demo-unknown" in text and "NOT AS EXPECTED (expected proved)" in text
    assert "claims: 2 of 4 as expected (1 proved, 1 refuted, 2 unknown)" in text
    assert "post: 2 claims verified, 1 mismatch," in text


def test_claims_page_has_statement_assumptions_method_and_result(report):
    page = pages.claims_page(report)
    for claim in CLAIMS:
        assert f"## {claim.id}\n\n$$\n{claim.statement}\n$$" in page
    assert r"- n a symbolic positive integer" in page
    assert r"s\_i real, any \*value\*" in page  # Markdown specials escaped outside math
    assert "- **Result**: refuted (expected: refuted)" in page
    assert "- **Method**: concrete" in page
    assert "`d_model=2`" in page
    assert '"gamma": [' in page  # the counterexample, in a code block
    assert "passed, 20 trials, max error 2.5e-16" in page
    assert r"SymPy could not decide \| the sum" in page


def test_check_page_table_survives_pipes_and_backticks():
    report = {"post": {"file": "p.md", "builtin": False, "summary": {"mismatch": 1},
                       "findings": [{"line": 3, "latex": r"[A \,|\, B]` x", "status": "mismatch", "rule": "shape",
                                     "message": "a | b * c", "expected": r"[B | A]"}]}}
    page = pages.check_page(report)
    row = next(line for line in page.splitlines() if line.startswith("| 3 |"))
    # six cells: the pipes inside the fragment, message and expected form are escaped
    assert "``[A \\,|\\, B]` x``" in row and r"a \| b \* c" in row and "`[B | A]`" in row


def test_unavailable_parts_are_said_on_the_pages():
    report = {"post": {"file": "p.md", "builtin": False, "unavailable": "checker unavailable: ImportError: x"},
              "claims": {"unavailable": "claims unavailable: no claims registry found in symtf.proofs"}}
    assert "checker unavailable: ImportError: x" in pages.check_page(report)
    assert "no claims registry found in symtf.proofs" in pages.claims_page(report)


def test_tables_page_is_the_models_tables():
    from symtf.latex.printer import latex
    from symtf.model import build

    report = {"tables": report_run.model_tables()}
    page = pages.tables_page(report)
    full = build("full")
    for a in full.activations:
        assert f"${latex(a.symbol)}" in page
        if a.hook:
            assert f"`{a.hook}`" in page
    tables, count = page.split("The total comes from")
    assert "$$" not in tables  # inline math is $…$ in the tables; display math only for the count
    assert count.count("$$") == 2
    assert "$d_\\text{mlp} \\times d_\\text{model}$, &nbsp; $d_\\text{mlp}$" in page


def test_cli_page_documents_every_subcommand():
    from symtf.cli import SUBCOMMANDS

    page = pages.cli_page({})
    assert len(SUBCOMMANDS) == 10
    for name in [c.name for c in SUBCOMMANDS]:
        assert f"## symtf {name}\n\n```text\nusage: symtf {name}" in page
    assert "[--format {text,json}] [--out DIR]" in page


def test_progress_shows_each_slow_step_on_a_terminal(fake_registry, tmp_path):
    import io

    from rich.console import Console

    post = tmp_path / "post.md"
    post.write_text("## The simplified model\n\n$$q_n = W_Q x_n$$\n")
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100)
    report = report_run.run_report(str(post), make_progress=lambda: report_run.RichProgress(console))
    shown = screen.getvalue()
    assert "checking post.md" in shown and "proving demo-symbolic" in shown
    assert report["claims"]["summary"]["total"] == len(CLAIMS)


def test_derivation_scripts_become_markdown_and_python(tmp_path):
    script = (
        "# ---\n# jupyter:\n#   jupytext:\n#     formats: py:percent\n# ---\n\n"
        "# %% [markdown]\n# # The MLP\n#\n# $z = \\text{ReLU}(W_1 x + b_1)$\n\n"
        "# %%\nprint(1)  # a comment stays\n\n# %% [markdown]\n# Then $m = W_2 z + b_2$.\n"
    )
    assert pages.percent_cells(script) == [
        ("markdown", "# The MLP\n\n$z = \\text{ReLU}(W_1 x + b_1)$"),
        ("code", "print(1)  # a comment stays"),
        ("markdown", "Then $m = W_2 z + b_2$."),
    ]
    (tmp_path / "derivations").mkdir()
    (tmp_path / "derivations" / "mlp.py").write_text(script)
    page = pages.derivations_page({}, root=tmp_path)
    assert "| `derivations/mlp.py` | [The MLP](#mlp) |" in page
    assert "## derivations/mlp.py {#mlp}\n\n### The MLP\n" in page
    assert "```python\nprint(1)  # a comment stays\n```" in page
    assert pages.derivations_page({}, root=tmp_path / "nowhere").endswith("No derivation scripts are in this checkout yet.\n")
