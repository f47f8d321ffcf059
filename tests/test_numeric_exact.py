"""Cross-check 1: the lambdified rows against SymPy's own evaluation of the model's expressions.

At small prime sizes with rational weights, each activation's expression is evaluated by SymPy,
bottom-up in the table's order (``symtf.model.exact.evaluate_row``): the row's symbols are
replaced by the explicit matrices already computed, the heads are written out and every entry
comes from the ops' own element-wise definitions (``_entry``). Each row is
exact given its inputs; its result is kept to 30 significant digits before the next row uses it
(carrying exact square roots and exponentials through a whole network grows without bound).
"""
from __future__ import annotations

import numpy as np
import pytest
from sympy import ImmutableMatrix, N, Rational

from symtf.dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from symtf.model import build
from symtf.model.exact import evaluate_row, one_hot
from symtf.numeric import compile_forward, random_weights

from .test_numeric_reference import VARIANTS

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}
TOKENS = [3, 1, 4]
DIGITS = 30


def rational_weights(variant, seed=0):
    """Random weights rounded to multiples of 1/16: exact in binary, so numpy sees the same numbers."""
    return {k: np.round(v * 16) / 16 for k, v in random_weights(variant, SIZES, seed).items()}


def _matrix(a: np.ndarray) -> ImmutableMatrix:
    a = a.reshape(-1, 1) if a.ndim == 1 else a
    return ImmutableMatrix(a.shape[0], a.shape[1], [Rational(float(x)) for x in a.ravel()])


def _as_array(value) -> np.ndarray:
    return np.array(value.tolist(), dtype=float)


def sympy_forward(variant, weights, tokens) -> dict[str, np.ndarray]:
    """Every activation evaluated by SymPy from the model's row expressions (see the module docstring)."""
    model = build(variant)
    heads = SIZES["H"] if variant.kind.value == "full" else 1
    sizes = {n: len(tokens), n_vocab: SIZES["n_vocab"], d_model: SIZES["d_model"], d_head: SIZES["d_head"],
             d_mlp: SIZES["d_mlp"], H: heads, n_ctx: SIZES["n_ctx"]}
    values = {}
    for p in model.parameters:
        a = weights[p.key]
        if p.per_head:
            values[p.key] = [_matrix(a[c]) for c in range(heads)]
        else:
            values[p.key] = _matrix(a[0] if a.ndim == len(p.shape) + 1 else a)
    values["tokens"] = one_hot(tokens, SIZES["n_vocab"])
    out = {}
    for act in model.activations[1:]:
        value = evaluate_row(model, act.key, sizes, values)  # exact, element-wise, from this row's inputs
        rounded = [m.applyfunc(lambda x: N(x, DIGITS)) for m in value] if act.per_head else value.applyfunc(
            lambda x: N(x, DIGITS))
        values[act.key] = rounded
        out[act.key] = np.stack([_as_array(m) for m in rounded]) if act.per_head else _as_array(rounded)
    return out


@pytest.mark.parametrize("name", list(VARIANTS))
def test_lambdified_rows_equal_sympy_evaluation(name):
    variant = VARIANTS[name]
    weights = rational_weights(variant)
    expected = sympy_forward(variant, weights, TOKENS)
    got = compile_forward(variant, np.float64)(weights, TOKENS)
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert got[key].shape == value.shape, key
        np.testing.assert_allclose(got[key], value, rtol=1e-12, atol=1e-12, err_msg=f"{name}: {key}")
