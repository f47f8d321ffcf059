r"""Every table cell and equation symtf prints reads back (latex2sympy2-extended) as the expression it came from.

See tests/latex_roundtrip.py for how the post's notation is brought to a form the parser reads and why
the comparison is commutative. Each fragment the parser cannot read is pinned here with its reason.
"""
from __future__ import annotations

import pytest
from sympy import expand  # shadows are polynomials in placeholders (and a sqrt): expand decides equality

from symtf.latex import latex
from symtf.latex.equations import EQUATION_IDS, equation
from symtf.latex.tables import ACTIVATION_TABLES, PARAM_TABLES, activation_cell, table
from symtf.model import build
from tests.latex_roundtrip import Placeholders, Unreadable, parse, round_trip

MODELS = {"zero-layer": "zero", "simplified-one-layer": "simplified", "full-one-layer": "full"}

# (table id, activation key) -> the construct the parser cannot read in that cell. Why:
# - \sum_{i=1}^n a_i v_i: it would read a_i, v_i as scalars; they are the columns of a and v.
# - v^h (A^h)^\top: a symbol followed by a parenthesis is read as a function call Z_7(Z_8).
# - \sum_h: a sum without bounds is a syntax error for it (it needs \sum_{h=1}^{H}).
UNREADABLE_CELLS = {
    ("simplified-one-layer", "result"): r"\sum_{i=1}^n a_i v_i",
    ("full-one-layer", "result"): "juxtaposition read as a function call",
    ("full-one-layer", "resid_mid"): r"\sum_h",
}
UNREADABLE_EQUATIONS = {
    "attention-result": "juxtaposition read as a function call",
    "end-to-end-layer": r"\sum_h",
}


def _cells():
    for table_id, preset in MODELS.items():
        model = build(preset)
        for a in model.activations:
            if a.expr is not None:
                yield table_id, a


def test_every_activation_cell_reads_back_or_is_pinned():
    places = Placeholders()
    unreadable, checked = {}, 0
    printed = {table_id: [r.latex for r in table(table_id).rows] for table_id in MODELS}
    for table_id, a in _cells():
        cell = activation_cell(a)
        assert cell in printed[table_id]  # the cell the table prints
        lhs, rhs = cell.split(" = ")[0], cell.split(" = ")[-1]  # the listing [x_1, \dots, x_n] is skipped
        symbol = places.shadow(a.symbol)  # registers the placeholder before the text is normalised
        assert expand(parse(places.normalise(lhs)) - symbol) == 0
        try:
            parsed, expected = round_trip(rhs, a.expr, places)
        except Unreadable as why:
            unreadable[(table_id, a.key)] = str(why)
            continue
        assert expand(parsed - expected) == 0, (table_id, a.key, rhs, parsed, expected)
        checked += 1
    assert unreadable.keys() == UNREADABLE_CELLS.keys(), unreadable
    for key, construct in UNREADABLE_CELLS.items():
        assert construct in unreadable[key], (key, unreadable[key])
    assert checked >= 20


def test_every_equation_reads_back_or_is_pinned():
    places = Placeholders()
    unreadable = {}
    for equation_id in EQUATION_IDS:
        eq = equation(equation_id)
        text = eq.latex()
        for line in eq.lines:
            printed_rhs = latex(line.rhs)
            assert printed_rhs in text
            try:
                parsed, expected = round_trip(printed_rhs, line.rhs, places)
            except Unreadable as why:
                unreadable[equation_id] = str(why)
                continue
            assert expand(parsed - expected) == 0, (equation_id, printed_rhs, parsed, expected)
    assert unreadable.keys() == UNREADABLE_EQUATIONS.keys(), unreadable
    for key, construct in UNREADABLE_EQUATIONS.items():
        assert construct in unreadable[key]


def test_a_wrong_cell_does_not_read_back_equal():
    # the post's own slip: p_{n+1} = softmax(\ell_n) instead of softmax(\ell_{n+1})
    places = Placeholders()
    model = build("simplified")
    probs = model["probs"]
    places.name(r"\ell_n")
    parsed = parse(places.normalise(r"\text{softmax}(\ell_n)"))
    assert expand(parsed - places.shadow(probs.expr)) != 0


@pytest.mark.parametrize("table_id", list(ACTIVATION_TABLES))
def test_activation_tables_are_the_models_rows(table_id):
    model = build(MODELS[table_id])
    assert [r.name for r in table(table_id).rows] == [a.name for a in model.activations]


@pytest.mark.parametrize("table_id", list(PARAM_TABLES))
def test_parameter_shapes_read_back_as_products_of_sizes(table_id):
    # d_\text{model} \times n_\text{vocab} reads as the product D_2 D_1 of the size placeholders
    places = Placeholders()
    model = build({"params-simplified": "simplified", "params-full": "full"}[table_id])
    for group, row in zip(model.param_rows, table(table_id).rows):
        shapes = row.shape.split("$$, &nbsp; $$")
        distinct = list(dict.fromkeys(model.parameter(key).shape for key in group.keys))
        assert len(shapes) == len(distinct)
        for text, shape in zip(shapes, distinct):
            expected = 1
            for size in shape:
                expected *= places.shadow(size)
            assert expand(parse(places.normalise(text)) - expected) == 0, (table_id, text)
