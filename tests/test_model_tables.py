"""Every row of the post's activation and parameter tables exists in the model, row by row.

The post's tables are read from ../shared/post/gentle-introduction.md. Where the post's cell
itself is wrong, ``POST_ERRORS`` pins the difference and says why; every other cell must agree
with the model's cell (spaces ignored).
"""
from __future__ import annotations

import pytest

from symtf.latex.tables import activation_table, parameter_table
from symtf.model import build

from .post_tables import squash, tables

# (post table header line, post cell) -> (the model's cell, why the post is wrong)
POST_ERRORS = {
    (239, r"$$p_{n+1} = \text{softmax}(\ell_n)$$"): (
        r"p_{n+1} = \text{softmax}(\ell_{n+1})",
        "the probabilities are the softmax of the row above, the next-token logits ℓ_{n+1}; ℓ_n is never defined",
    ),
    (255, r"$$d_\text{model} \times n$$"): (
        r"d_\text{model} \times n_\text{ctx}",
        "W_pos is learned once for every position of the context window; an input of n ≤ n_ctx tokens uses "
        "its first n columns, so the parameter cannot have the input's length n",
    ),
    (470, r"$$d_\text{model} \times n$$"): (
        r"d_\text{model} \times n_\text{ctx}",
        "same as the simplified table: W_pos has n_ctx columns, the input uses the first n",
    ),
}

CASES = {  # post table (by header line) -> the model table it shows
    239: lambda: activation_table(build("simplified")),
    255: lambda: parameter_table(build("simplified")),
    449: lambda: activation_table(build("full")),
    470: lambda: parameter_table(build("full")),
}


@pytest.fixture(scope="module")
def post_tables(post_path):
    return {line: (header, body) for line, header, body in tables(post_path)}


@pytest.mark.parametrize("line", sorted(CASES))
def test_post_table_rows_match_the_model(post_tables, line):
    header, body = post_tables[line]
    ours = CASES[line]()
    assert tuple(header) == ours.header
    assert len(body) == len(ours.rows), f"post table at line {line} has {len(body)} rows, the model {len(ours.rows)}"
    seen_errors = set()
    for post_row, row in zip(body, ours.rows):
        model_cells = [row.name, row.latex, row.shape] if len(header) == 3 else [row.latex, row.shape]
        if header[0] == "Layer":
            model_cells = [row.name, row.latex, row.shape]
        for post_cell, model_cell in zip(post_row, model_cells):
            if squash(post_cell) == squash(model_cell):
                continue
            key = (line, post_cell)
            assert key in POST_ERRORS, f"line {line}: post {post_cell!r} vs model {model_cell!r}"
            expected, _why = POST_ERRORS[key]
            assert squash(model_cell) == squash(expected)
            seen_errors.add(key)
    assert seen_errors == {k for k in POST_ERRORS if k[0] == line}, "a pinned post error no longer shows"


def test_every_activation_of_the_post_tables_has_a_hook_or_a_reason():
    # TransformerLens names where they exist; tokens, logits and probabilities have no hook point
    for variant in ("simplified", "full"):
        for a in build(variant):
            assert a.hook is not None or a.key in {"tokens", "logits", "probs"}, a.key
