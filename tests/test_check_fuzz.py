r"""Fuzzing ``symtf check``: mutated real fragments never crash it and never go missing (issue 10).

The seeds are the math fragments of the test fixtures and of the post (when it is beside the
checkout); hypothesis mutates them (characters and LaTeX tokens deleted, duplicated, inserted; deep
nesting wrapped around). Runs are derandomized, so CI sees the same examples every time; a failure
prints the document that caused it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from symtf.check.checker import check_text
from symtf.check.evaluate import CheckError
from symtf.check.extract import extract
from symtf.check.normalize import statements
from symtf.check.parse import ParseError, parse

ROOT = Path(__file__).resolve().parents[1]
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![$\\])\$([^$\n]+?)\$", re.S)


def _seeds() -> list[str]:
    """Every ``$…$`` / ``$$…$$`` fragment of the fixtures and of the post, once each, in a stable order."""
    files = sorted((ROOT / "tests" / "fixtures" / "check").rglob("*.md"))
    post = ROOT / ".." / "shared" / "post" / "gentle-introduction.md"
    if post.is_file():
        files.append(post)
    found = {}
    for path in files:
        for m in _MATH.finditer(path.read_text(encoding="utf-8")):
            found.setdefault((m.group(1) or m.group(2)).strip(), None)
    return [s for s in found if s]


SEEDS = _seeds()
TOKENS = [r"\frac", r"\frac{", r"\sum_{i=1}^{n}", r"\sum_{i=01}", r"\sum_{i=1}^{1000000000}", r"\dots", r"\ldots",
          r"\left(", r"\right)", r"\left", r"\right.", r"\begin{bmatrix}", r"\end{bmatrix}", r"\begin{align*}",
          r"\end{align*}", "\\\\", "&", "&=", r"\text{", r"\text{softmax}", r"\sqrt", r"\sqrt{", "^{", "_{", "^",
          "_", "{", "}", "(", ")", "[", "]", r"\infty", r"-\infty", "10^{400}", "e^{1000}", "x_{100000000}",
          "9" * 60, r"\$", "$", "$$", r"\top", "^T", r"\in \mathbb{R}^{n \times d}", r"\times", r"\cdot", r"\odot",
          "=", r"\approx", r"\le", ",", ";", "|", r"\,", r"\quad", r"\mathbf{", r"\hat{", r"\tilde", "'", "!",
          r"\\ \end{bmatrix}", r"\vdots", r"\ddots", r"\mu", r"\sigma", "_{ij}", "_{i,j}", "^{(0)}", "^{(-1)}",
          r"\exp", r"\max", r"\text{LayerNorm}", "\n", " ", r"\#", "%", r"\\\\"]
WRAPS = [("{", "}"), ("(", ")"), (r"\sqrt{", "}"), ("x^{", "}"), (r"\frac{1}{", "}"), ("-", ""), (r"\left(", r"\right)"),
         (r"\text{softmax}(", ")"), ("[", "]"), (r"\begin{bmatrix}", r"\end{bmatrix}"), ("e^{", "}")]


@st.composite
def fragments(draw) -> str:
    """One seed fragment after a few random edits, sometimes wrapped in deep nesting."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "char", "token"]))
        i = draw(st.integers(0, len(text)))
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 8)):]
        elif op == "duplicate":
            j = draw(st.integers(i, min(len(text), i + 40)))
            text = text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
        elif op == "char":
            text = text[:i] + draw(st.sampled_from(list("{}()[]^_&\\$,.=+-|*/'!~%#<> 0123456789xyzWQKV\n"))) + text[i:]
        else:
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
    if draw(st.integers(0, 9)) == 0:  # one in ten: deep nesting, around or inside the fragment
        left, right = draw(st.sampled_from(WRAPS))
        depth = draw(st.integers(60, 300))
        text = left * depth + text + right * depth
    return text


def _document(frags: list[str], layout: str = "paragraphs") -> str:
    """The fragments as display math in paragraphs, inline in one sentence, or in a table's Shape cells."""
    if layout == "inline":
        return "# Fuzz\n\nWe have " + " where ".join(f"${frag}$" for frag in frags) + ".\n"
    if layout == "table":
        rows = "".join(f"| r{i} | $$W_Q$$ | $${frag}$$ |\n" for i, frag in enumerate(frags))
        return "# Fuzz\n\n| Name | Expression | Shape |\n|---|---|---|\n" + rows
    return "# Fuzz\n\n" + "".join(f"Some prose.\n\n$${frag}$$\n\n" for frag in frags)


FUZZ = settings(derandomize=True, database=None, deadline=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def parse_fuzz(examples: int):
    """A test: normalising never fails; parsing any statement gives a tree or ParseError, nothing else."""
    @settings(FUZZ, max_examples=examples)
    @given(fragments())
    def test(text):
        note(f"fragment: {text!r}")
        for statement in statements(text):
            try:
                parse(statement.text)
            except (ParseError, CheckError):
                pass
        try:
            parse(text)
        except (ParseError, CheckError):
            pass
    return test


def check_fuzz(examples: int):
    """A test: every fragment of a document gets a finding of its own; no exception escapes; no catch-all."""
    @settings(FUZZ, max_examples=examples)
    @given(st.lists(fragments(), min_size=1, max_size=4), st.sampled_from(["paragraphs", "inline", "table"]))
    def test(frags, layout):
        doc = _document(frags, layout)
        note(f"document: {doc!r}")
        findings = check_text(doc)
        frags = extract(doc)[0]
        tagged = {getattr(f, "fragment", -1) for f in findings}
        for k, frag in enumerate(frags):
            if findings and min(tagged) >= 0:  # findings name their fragment: each one has its own
                assert k in tagged, f"no finding for fragment {k} (line {frag.line}): {frag.latex!r}"
            last = frag.line + frag.latex.count("\n") + 1
            assert any(frag.line <= f.line <= last for f in findings), \
                f"no finding for line {frag.line}: {frag.latex!r}"
        for f in findings:
            # the per-fragment safety net (an exception inside the checker) is a bug, whatever its wording
            assert "internal error" not in f.message and "could not be checked (" not in f.message, f
    return test


# a few seconds each in the quick suite; thousands of fragments in the slow one
test_parse_raises_only_parse_errors = parse_fuzz(400)
test_check_never_crashes_nor_loses_a_fragment = check_fuzz(100)
test_parse_thousands = pytest.mark.slow(parse_fuzz(4000))
test_check_thousands = pytest.mark.slow(check_fuzz(700))
