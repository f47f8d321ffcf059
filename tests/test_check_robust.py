r"""Bounded work on any fragment (issue 10): pathological input is a clean ParseError or "unchecked".

Nesting, ranges, sums and numbers are bounded; index text is read by a small integer grammar, never
``eval``; floating-point overflow is "unchecked", never a verdict. The slow test runs ``symtf check``
on each pathological input in a process limited to 500 MB of address space and 5 s of CPU time.
"""
from __future__ import annotations

import ast
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from symtf.check.checker import check_text
from symtf.check.evaluate import MAX_ITEMS, MAX_STEPS, Evaluator, Unknown, index_value
from symtf.check.normalize import clean, statements
from symtf.check.parse import MAX_DEPTH, ParseError, parse, tree_depth

PACKAGE = Path(__file__).resolve().parents[1] / "symtf" / "check"

DEEP = 250
NESTED = {
    "braces": "{" * DEEP + "x" + "}" * DEEP,
    "parentheses": "(" * DEEP + "x" + ")" * DEEP,
    "fractions": r"\frac{1}{" * DEEP + "x" + "}" * DEEP,
    "roots": r"\sqrt" * DEEP + " x",
    "negations": "- " * DEEP + "x",
    "powers": "x^{" * DEEP + "2" + "}" * DEEP,
    "subscript braces": "x_{" + "{" * DEEP + "i" + "}" * DEEP + "}",
    "shapes": r" \times ".join(["d"] * DEEP),
    "products": " ".join(["x"] * 5000),
    "calls": r"\text{ReLU}(" * DEEP + "x" + ")" * DEEP,
    "exponentials": r"\exp " * DEEP + "x",
    "brackets": "[" * DEEP + "x" + "]" * DEEP,
}


@pytest.mark.parametrize("text", NESTED.values(), ids=NESTED.keys())
def test_deep_nesting_is_a_parse_error_naming_the_fragment(text):
    with pytest.raises(ParseError, match=f"more than {MAX_DEPTH}") as err:
        parse(text)
    assert text[:20] in str(err.value).replace("\\\\", "\\")  # names the fragment (shortened)
    assert len(str(err.value)) < 300


def test_nesting_within_the_bound_still_parses():
    assert tree_depth(parse("(" * 40 + "x" + ")" * 40)) == 2  # ("chain", [("sym", ...)])
    assert parse(r"\frac{1}{" * 30 + "x" + "}" * 30)[1][0][0] == "frac"
    assert tree_depth(parse(r"\sqrt" * 50 + " x")) == 52


MALFORMED = [r"\$", "\\", "a = b \\\\", r"\sum_{i=01", "{x", "x}", "a & b", r"\left( x", r"\frac{a}{b",
             r"\begin{bmatrix} 1 & 2", "x_", "x^{", "9" * 60, r"\text{softmax", "}{", r"\end{bmatrix}", "&=",
             r"\sum", "$$", "x = y = ", r"\begin{align*} a &= b", "[a, b; c | d]"]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_statements_raise_only_parse_errors(text):
    for statement in statements(text):  # normalising never fails
        try:
            parse(statement.text)
        except ParseError:
            pass


@pytest.mark.parametrize("latex", [r"\$", "a = b \\\\", "\\\\", "x \\", r"\begin{align*} \end{align*}", " . ", r"\,"])
def test_every_fragment_has_a_statement(latex):
    """An odd fragment is still one statement (then "unparsed"), never none (a lost fragment)."""
    assert len(statements(latex)) >= 1


def test_trailing_punctuation_is_stripped_in_one_pass():
    assert clean(r"a = b , ; \text{.} .") == "a = b"
    assert clean(r"x_{1}, \dots, x_{n}.") == r"x_{1}, \dots, x_{n}"
    long = "x" + ", " * 20000
    assert clean(long) == "x"


def test_align_rows_keep_their_lines():
    latex = "\\begin{align*}\na &= b \\\\\n\nc &= d\n\\end{align*}"
    assert [(s.text, s.line_offset) for s in statements(latex)] == [("a = b", 1), ("c = d", 3)]
    unclosed = r"\begin{align*} x " * 50 + r"\begin{aligned} a &= b \end{aligned}"
    assert [s.text for s in statements(unclosed)] == ["a = b"]


def test_a_display_broken_by_row_breaks_is_one_statement_a_line():
    r"""``a = b \\`` is ``a = b``; ``\\`` outside any environment starts a line (``= c`` continues)."""
    latex = "a = b \\\\\n= c \\\\ d = e"
    assert [(s.text, s.line_offset, s.continues) for s in statements(latex)] == \
        [("a = b", 0, False), ("= c", 1, True), ("d = e", 1, False)]
    assert [s.text for s in statements(r"\begin{bmatrix} 1 \\ 2 \end{bmatrix} = x")] == \
        [r"\begin{bmatrix} 1 \\ 2 \end{bmatrix} = x"]  # a matrix's rows stay inside it
    findings = _only("$$\nW_E = W_E \\\\\n$$\n")
    assert [f.status for f in findings] == ["verified"]


class _Sizes:
    """A context with the sizes n = 5 and H = 3 and nothing else."""

    def size_value(self, name):
        return {"n": 5, "H": 3}.get(name)


@pytest.mark.parametrize("text, env, value", [
    ("2", {}, 2), ("01", {}, 1), ("i", {"i": 4}, 4), ("n+1", {}, 6), ("2i-1", {"i": 3}, 5), ("-1", {}, -1),
    ("{n - H}", {}, 2), ("h+H", {"h": 2}, 5)])
def test_index_values(text, env, value):
    assert index_value(text, env, _Sizes()) == value


@pytest.mark.parametrize("text", ["i1", "9**9", "2^9", "__import__('os')", "i+", "1" * 19, "m", "n/2", "i*j"])
def test_index_text_outside_the_grammar_is_unknown(text):
    with pytest.raises(Unknown):
        index_value(text, {"i": 1, "j": 2}, _Sizes())


def test_a_fractional_or_infinite_size_is_no_index():
    class Odd:
        def size_value(self, name):
            return {"d": 3.5, "n": float("inf")}.get(name)

    for text in ("d", "n"):
        with pytest.raises(Unknown):
            index_value(text, {}, Odd())


def test_no_eval_or_exec_in_the_checker():
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("eval", "exec", "compile", "__import__"), f"{path.name}:{node.lineno}"


def _only(doc):
    findings = check_text(doc)
    assert len(findings) >= 1
    return findings


@pytest.mark.parametrize("doc", [r"$x_1, \dots, x_{100000000}$", r"$\sum_{i=1}^{1000000000} x_i$",
                                 r"$[s_{1}, \dots, s_{99999999}]$",
                                 r"$\begin{bmatrix} x_{1} & \dots & x_{100000000} \end{bmatrix}$"])
def test_long_ranges_are_left_unchecked(doc):
    findings = _only(doc)
    assert all(f.status == "unchecked" for f in findings)
    assert any(str(MAX_ITEMS) in f.message for f in findings)


@pytest.mark.parametrize("doc", [r"$10^{400} = 10^{401}$", r"$e^{1000} = e^{1001}$",
                                 r"$10^{200} \cdot 10^{200} = 10^{300}$", r"$2^{2^{2^{2^{2^{10}}}}} = 3$"])
def test_overflow_is_never_a_verdict(doc):
    """inf = inf is no evidence: a value past floating point leaves the claim unchecked."""
    findings = _only(doc)
    assert [f.status for f in findings] == ["unchecked"]
    assert "floating point" in findings[0].message


AT_THE_BOUND = {  # nested just within MAX_DEPTH, around a model quantity: parsed, then judged
    "roots": r"\sqrt" * 98 + " x^{(0)}_n",
    "negations": "- " * 98 + "x^{(0)}_n",
    "products": " ".join(["x^{(0)}_n"] * 98),
    "fractions": r"\frac{1}{" * 49 + "x^{(0)}_n" + "}" * 49,
    "calls": r"\text{softmax}(" * 45 + "x^{(0)}_n" + ")" * 45,
    "sums": r"\sum_{i=1}^{3}" * 45 + " x^{(0)}_i",
}


@pytest.mark.parametrize("body", AT_THE_BOUND.values(), ids=AT_THE_BOUND.keys())
def test_at_the_bound_the_checker_answers_without_its_safety_net(body):
    for doc in (f"${body}$", f"${body} = {body}$"):
        findings = _only(doc)
        assert not any("could not be checked (" in f.message or "internal error" in f.message for f in findings)


def test_exponential_work_is_cut_by_the_step_budget():
    """45 nested sums of 3 terms are 3^45 evaluations: unchecked after MAX_STEPS, not evaluated."""
    findings = _only("$" + r"\sum_{i=1}^{3}" * 45 + " x^{(0)}_i$")
    assert [f.status for f in findings] == ["unchecked"] and str(MAX_STEPS) in findings[0].message


PATHOLOGICAL = {
    "long range": r"$x_1, \dots, x_{100000000}$",
    "escaped dollar": "$$\\$$",
    "display line ending in a row break": "$$\na = b \\\\\n$$",
    "zero-padded sum": r"Sum: $\sum_{i=01}^{n} x_i$.",
    "deep braces": "$" + "{" * 250 + "x" + "}" * 250 + "$",
    "huge sum": r"$\sum_{i=1}^{1000000000} i$",
    "power tower": r"$10^{10^{10^{10}}} = 1$",
    "long number": "$" + "9" * 100_000 + "$",
    "long product": "$" + "x " * 50_000 + "$",
    "matrix of ranges": "$\\begin{bmatrix} x_{1} & \\dots & x_{100000000} \\\\ \\vdots \\\\ "
                        "x_{1} & \\dots & x_{100000000} \\end{bmatrix}$",
    "unclosed left": r"$\left( x = y$",
    "stray ampersand": "$a & b = c$",
    "index tower": r"$x_{9**9**9**9}$",
    "exponent of e": "$" + "e^{" * 200 + "1" + "}" * 200 + "$",
    "many dots": "$" + r"x_1, \dots, " * 3000 + "x_{3}$",
    "nested sums": "$" + r"\sum_{i=1}^{3}" * 45 + " x^{(0)}_i = 0$",
    "encoding of a huge power": r"$PE(p,2i)=\sin(p/10000^{10^{9}i/d})$",  # 10000^(10^9/8) is never computed exactly
    "sizes of a huge power": r"$h = 8$, $d_k = d_{model}^{64}/10^{99}$",
}


def _limits():
    """500 MB of address space and 5 s of CPU for the child (CPU, not wall time: the machine may be shared)."""
    resource.setrlimit(resource.RLIMIT_AS, (500 * 2**20, 500 * 2**20))
    resource.setrlimit(resource.RLIMIT_CPU, (5, 5))


@pytest.mark.slow
@pytest.mark.parametrize("doc", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_symtf_check_answers_within_5_s_and_500_mb(doc, tmp_path):
    path = tmp_path / "doc.md"
    path.write_text(doc + "\n", encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([sys.executable, "-m", "symtf", "check", str(path)], capture_output=True, text=True,
                         timeout=60, preexec_fn=_limits, env={"OPENBLAS_NUM_THREADS": "1", "PATH": ""})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert run.returncode in (0, 1, 2), run.stderr[-2000:]  # a kill by RLIMIT_CPU/AS is a negative code
    assert cpu < 5
    assert "Traceback" not in run.stderr and "internal error" not in run.stdout + run.stderr, run.stderr[-2000:]
    assert f"{path}: " in run.stdout  # the summary line: the document was answered


@pytest.mark.parametrize("doc", [r"$\sqrt{-1} = 1$", r"$\sqrt{-1} = \sqrt{-1}$", r"$(-8)^{1/3} = -2$"])
def test_no_real_value_is_unchecked_not_a_verdict(doc, capfd):
    """The real cube root of -8 is -2: NaN from numpy's power must not make it a mismatch (nor warn)."""
    assert [f.status for f in _only(doc)] == ["unchecked"]
    assert "Warning" not in capfd.readouterr().err


@pytest.mark.parametrize("subject", ["words", "$$$$", r"$$\frac{$$"])
def test_a_shape_cell_without_a_subject_is_not_lost(subject):
    doc = f"| Name | Expression | Shape |\n|---|---|---|\n| r0 | {subject} | $$d \\times n$$ |\n"
    assert any(f.latex == r"d \times n" for f in check_text(doc))


def test_a_continuation_row_in_a_shape_cell_is_unparsed():
    doc = "| Name | Expression | Shape |\n|---|---|---|\n| r0 | $$W_Q$$ | $$ = \\text{softmax}(L)$$ |\n"
    assert any(f.latex.lstrip().startswith("=") and f.status == "unparsed" for f in check_text(doc))


@pytest.mark.parametrize("text, value", [("2e9", 2e9), (r"52\text{e}12", 52e12), ("1e-5", 1e-5), ("6.7E+3", 6.7e3),
                                         (r"1\,000\,000", 1e6), ("1{,}000", 1e3)])
def test_printed_numbers_in_scientific_notation_and_grouped_digits(text, value):
    """``2e9`` is two billion (not 2·e·9), ``1\\,000`` a thousand (not 1·0)."""
    node = parse(statements(text)[0].text)[1][0]
    assert node[0] == "num" and node[1] == value


@pytest.mark.parametrize("text", ["1e400", "1e-400", "2e999999999", "1" * 60])
def test_numbers_beyond_floating_point_are_parse_errors(text):
    with pytest.raises(ParseError, match="number"):
        parse(text)


def test_times_multiplies_printed_numbers_only():
    """In the evaluator, × between printed numbers is a product; between symbols it is a shape, not a value."""
    evaluator = Evaluator(None)  # printed numbers need no context
    assert evaluator.ev(parse(r"6.7 \times 10^{9}")[1][0], {}) == pytest.approx(6.7e9)
    with pytest.raises(Unknown, match="shape"):
        evaluator.ev(parse(r"d \times n")[1][0], {})


def _spaced(latex: str, char: str) -> str:
    """``latex`` with a space before every ``char`` that does not already follow a space or a backslash."""
    return "".join(" " + c if c == char and i and latex[i - 1] not in " \\" else c for i, c in enumerate(latex))


@pytest.mark.parametrize("char", ["=", "+", "^"])
def test_spaces_between_tokens_change_no_verdict(post_path, char):
    """A space is no meaning in LaTeX math: the post's verdicts stay the same with spaces inserted."""
    post = post_path.read_text(encoding="utf-8")
    spaced = re.sub(r"\$\$(.+?)\$\$", lambda m: "$$" + _spaced(m.group(1), char) + "$$", post, flags=re.S)
    verdicts = [[(f.line, f.status) for f in check_text(text)] for text in (post, spaced)]
    assert verdicts[0] == verdicts[1]


def test_a_failing_document_wide_pass_loses_only_its_own_judgements(monkeypatch):
    # a table's figures, and each pass after the fragments (contradictions, anchoring, arithmetic …), are judged
    # apart: an exception in one is an "internal" finding, not the document's failure (a scan once lost a whole
    # document to one table's AttributeError)
    from symtf.check import checker

    def _anchor(self):
        raise KeyError("boom")

    text = "# A\n\nLet $d_\\text{model} = 768$ and $H = 12$, so $d_\\text{head} = 768 / 12 = 64$.\n"
    before = [(f.line, f.latex, f.status) for f in check_text(text)]
    monkeypatch.setattr(checker.DocumentChecker, "_anchor", _anchor)
    after = check_text(text)
    internal = [f for f in after if f.rule == "internal"]
    assert len(internal) == 1 and "anchor pass (KeyError" in internal[0].message
    assert [(f.line, f.latex, f.status) for f in after if f.rule != "internal"] == before
