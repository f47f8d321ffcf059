r"""Worked examples: printed values bind to the names a document writes, and later printed values are
recomputed from them (symtf/check/checker.py: _worked, _bind_example). Sizes are primes where a size shows."""
from __future__ import annotations

from symtf.check.checker import DocumentChecker

ROW = r"""# A worked example

Take the input $$x_1 = [1, 0, 1, 0, 2]$$ and the query weights

$$W_Q = \begin{bmatrix}1 & 0 & 1\\ 1 & 0 & 0\\ 0 & 0 & 1\\ 0 & 1 & 1\\ 2 & 1 & 0\end{bmatrix}$$

The query of the first token is

$$q_1 = x_1 W_Q = [5, 2, 2]$$

Printed again later: $$q_1 = [5, 2, 2]$$
"""

COLUMN = r"""# A worked example

$$x_1 = [1, 2, 0]$$ and

$$W_V = \begin{bmatrix}1 & 0 & 1\\ 0 & 3 & 1\end{bmatrix}$$

so that $$v_1 = W_V x_1 = [1, 6]$$
"""


def _statuses(text: str, line: int, convention: str):
    return [(f.status, f.message) for f in DocumentChecker(text, convention=convention).run() if f.line == line]


def test_a_row_example_is_recomputed_from_its_printed_inputs():
    at9 = _statuses(ROW, 9, "row")
    assert ("verified" in [s for s, _ in at9]) and "computed from the example's printed values" in at9[0][1]
    assert [s for s, _ in _statuses(ROW, 11, "row")] == ["verified"]


def test_a_wrong_printed_result_is_a_mismatch():
    wrong = ROW.replace("Printed again later: $$q_1 = [5, 2, 2]$$", "Printed again later: $$q_1 = [5, 3, 2]$$")
    assert [s for s, _ in _statuses(wrong, 11, "row")] == ["mismatch"]
    chain = ROW.replace("x_1 W_Q = [5, 2, 2]", "x_1 W_Q = [5, 2, 3]")
    assert "mismatch" in [s for s, _ in _statuses(chain, 9, "row")]


def test_a_column_example_binds_inline_lists_as_columns():
    assert [s for s, _ in _statuses(COLUMN, 7, "column")] == ["unchecked", "verified"]
    wrong = COLUMN.replace("[1, 6]", "[1, 7]")
    assert "mismatch" in [s for s, _ in _statuses(wrong, 7, "column")]


def test_printed_values_that_do_not_fit_together_are_a_mismatch():
    text = COLUMN.replace("$$x_1 = [1, 2, 0]$$", "$$x_1 = [1, 2, 0, 5]$$")
    statuses = _statuses(text, 7, "column")
    assert statuses[0][0] == "mismatch" and "do not fit" in statuses[0][1]


def test_a_link_mixing_printed_values_with_the_models_quantities_is_not_judged():
    text = ROW + "\nAnd the keys $$K = x_1 W_K$$\n"
    (status, message), = _statuses(text, 13, "row")
    assert status == "unchecked" and "mixes" in message


def test_a_printed_constant_mixes_freely_with_letters():
    """A section's printed constant (``B = 32``) is not a worked example's vector: claims that use it with other
    letters go to the document's own scalars, not to 'mixes printed values'."""
    text = "# Cost\n\nTake $$B = 32$$ tokens.\n\n$$2 B D F / D F = 2 B$$\n"
    claims = [f for f in DocumentChecker(text, convention="row").run() if f.line == 5 and f.kind == "claim"]
    assert claims and not any("mixes" in f.message for f in claims)
