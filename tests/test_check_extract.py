"""symtf.check: finding math in Markdown, normalising it, parsing the field's notation."""
import pytest

from symtf.check.extract import extract
from symtf.check.normalize import clean, statements
from symtf.check.parse import ParseError, parse

DOC = r"""# Title

Inline $$a = b$$ and `$$not math$$` here,
then $x$ and \(y\) on line 4.

```
$$also not math$$
```

$$
\begin{align*}
m &= W_2 z + b_2 \\
x^{(2)} &= x^{(1)} + m.
\end{align*}
$$

| Name | Expression | Shape |
|---|---|---|
| Q | $$q = W_Q x$$ | $$d \times n$$ |
"""


def test_fragments_lines_and_code_exclusion():
    frags, tables = extract(DOC)
    found = [(f.line, f.latex.strip()[:14]) for f in frags]
    assert (3, "a = b") in found
    assert (4, "x") in found and (4, "y") in found
    assert not any("not math" in f.latex for f in frags)
    table_frags = [f for f in frags if f.cell]
    assert [(f.line, f.cell) for f in table_frags] == [(19, (0, 0, 1)), (19, (0, 0, 2))]
    assert tables[0].header == ["Name", "Expression", "Shape"]


def test_align_rows_get_their_own_lines():
    frags, _ = extract(DOC)
    block = next(f for f in frags if "align" in f.latex)
    rows = statements(block.latex)
    assert [block.line + r.line_offset for r in rows] == [12, 13]
    assert rows[1].text == "x^{(2)} = x^{(1)} + m"


def test_cells_of_a_row_are_statements_where_each_has_its_own_relation():
    def texts(latex):
        return [s.text for s in statements(latex)]

    assert texts(r"\begin{array}{c|cc} & j=0 & j=1 \\ i=0 & 0 & 1 \end{array}") == ["j=0", "j=1", "i=0 0 1"]
    assert texts(r"\begin{align} Q &= XW_Q & K &= XW_K \\ x &= a + b \\ &= c & \text{(sum)} \end{align}") == \
        ["Q = XW_Q", "K = XW_K", "x = a + b", "= c"]  # side by side; a continued row; an annotation dropped
    assert texts(r"\begin{align*} S &= S + V^\top K && \in \mathbb{R}^{d\times d} \end{align*}") == \
        [r"S = S + V^\top K", r"S \in \mathbb{R}^{d\times d}"]  # a cell opening with a relation goes on
    left_open = r"\begin{array}{cccc} x =& 0.73 &*& 1.10 =& 0.80 \end{array}"
    assert texts(left_open) == ["x = 0.73 * 1.10 = 0.80"]  # a relation or an operator left open goes on
    assert texts(r"\begin{aligned} A =&\begin{bmatrix} \sin\left(x\right) \end{bmatrix} \end{aligned}") == \
        [r"A = \begin{bmatrix} \sin(x) \end{bmatrix}"]  # \left is no relation
    bare = "e_{ij} &=& a(s_i, h_j) \\\\\n\\alpha_{ij} &=& \\frac{1}{2}"  # eqnarray's marks, no environment
    assert texts(bare) == ["e_{ij} = a(s_i, h_j)", r"\alpha_{ij} = \frac{1}{2}"]


def test_normalisation():
    assert clean(r"\left[W_O^{h_1} \,\vert\, \dots\right].") == r"[W_O^{h_1} | \dots]"
    assert clean(r"a^\intercal \big( b \big),") == r"a^\top ( b )"
    assert [s.text for s in statements(r"q = W_Q x, \quad k= W_K x.")] == ["q = W_Q x", "k= W_K x"]


@pytest.mark.parametrize("latex, expected", [
    (r"x^{(0)}_n", ("sym", "x", "n", "(0)")),  # one symbol with a layer and an index, not a power
    (r"W_O^{h_i}", ("sym", "W", "O", "h_i")),
    (r"q_n^\top", ("T", ("sym", "q", "n", None))),
    (r"K^T", ("T", ("sym", "K", None, None))),
    (r"\sqrt d", ("sqrt", ("sym", "d", None, None))),
    (r"\text{ReLU}(a+b)", ("call", "ReLU", False, [("add", [("sym", "a", None, None), ("sym", "b", None, None)],
                                                           [1, 1])])),
    (r"\text{softmax}^*(S)", ("call", "softmax", True, [("sym", "S", None, None)])),
    (r"[A \,|\, B]", ("list", "|", [("sym", "A", None, None), ("sym", "B", None, None)])),
])
def test_parse_field_notation(latex, expected):
    assert parse(clean(latex))[1][0] == expected


def test_parse_errors_are_reported():
    with pytest.raises(ParseError, match="expected"):
        parse(r"\frac{a}{b")
    with pytest.raises(ParseError):
        parse(r"\begin{bmatrix} 1 & 2")


from hypothesis import example, given, settings, strategies as st  # noqa: E402

from symtf.check.checker import check_text  # noqa: E402
from symtf.check.unparse import unparse  # noqa: E402

_ALPHABET = list("xqkvWSAt^_{}()[]+-=,|/ ") + [r"\top", r"\sqrt", r"\frac", r"\text{softmax}", r"\dots", "(0)", "h",
                                                 "n", "1", r"\\", "&", r"\begin{bmatrix}", r"\end{bmatrix}"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_ALPHABET), max_size=14).map("".join))
@example("x_x_}")  # a closing brace read as a subscript printed back as _{}} (found by this test in a fresh venv)
def test_parser_fails_only_with_parse_error_and_round_trips(text):
    try:
        tree = parse(clean(text))
    except ParseError:
        return
    assert parse(unparse(tree)) == tree  # printing a parsed fragment and reading it back is the identity


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_ALPHABET), min_size=1, max_size=12).map("".join))
def test_checker_never_crashes_on_random_latex(text):
    findings = check_text(f"# The full one-layer Transformer\n\n$${text}$$\n")
    assert findings
    for f in findings:
        assert f.status in ("verified", "mismatch", "recognized", "unparsed", "unchecked", "lint")
