"""Cross-check 1: the lambdified rows against SymPy's own evaluation of the model's expressions.

At small prime sizes with rational weights, each activation's expression is evaluated by SymPy,
bottom-up in the table's order: the row's symbols are replaced by the explicit matrices already
computed, the heads are written out (``HeadSum`` as a sum, ``HeadConcat`` as a block matrix) and
every entry comes from the ops' own element-wise definitions (``as_explicit``). Each row is
exact given its inputs; its result is kept to 30 significant digits before the next row uses it
(carrying exact square roots and exponentials through a whole network grows without bound).
"""
from __future__ import annotations

import numpy as np
import pytest
from sympy import ImmutableMatrix, Integer, MatAdd, N, Rational
from sympy.matrices import MatrixBase
from sympy.matrices.expressions.blockmatrix import BlockMatrix

from symtf.dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from symtf.model import Heads, Nonlinearity, Variant, build, h
from symtf.numeric import compile_forward, random_weights
from symtf.ops import HeadConcat, HeadSum, Op

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}
TOKENS = [3, 1, 4]
DIGITS = 30


def rational_weights(variant, seed=0):
    """Random weights rounded to multiples of 1/16: exact in binary, so numpy sees the same numbers."""
    return {k: np.round(v * 16) / 16 for k, v in random_weights(variant, SIZES, seed).items()}


def _matrix(a: np.ndarray) -> ImmutableMatrix:
    a = a.reshape(-1, 1) if a.ndim == 1 else a
    return ImmutableMatrix(a.shape[0], a.shape[1], [Rational(float(x)) for x in a.ravel()])


def _write_out_heads(expr, heads: int):
    def sum_heads(node):
        return MatAdd(*[node.at(c) for c in range(1, heads + 1)])

    def concat_heads(node):
        blocks = [node.at(c) for c in range(1, heads + 1)]
        return BlockMatrix([blocks] if node.axis == 1 else [[b] for b in blocks])

    expr = expr.replace(lambda e: isinstance(e, HeadSum), sum_heads)
    return expr.replace(lambda e: isinstance(e, HeadConcat), concat_heads)


def _explicit(expr):
    """Bottom-up: each symtf op from its element-wise definition, SymPy's own nodes by ``doit``."""
    if isinstance(expr, MatrixBase) or not getattr(expr, "is_Matrix", False):
        return expr
    expr = expr.func(*[_explicit(a) for a in expr.args])
    if not isinstance(expr, Op):
        expr = expr.doit()
    return expr if isinstance(expr, MatrixBase) else expr.as_explicit()


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
            for c in range(1, heads + 1):
                values[p.symbol.xreplace({h: Integer(c)})] = _matrix(a[c - 1])
        else:
            values[p.symbol] = _matrix(a[0] if a.ndim == len(p.shape) + 1 else a)
    onehot = np.zeros((SIZES["n_vocab"], len(tokens)))
    onehot[tokens, range(len(tokens))] = 1
    values[model["tokens"].symbol] = _matrix(onehot)
    out = {}
    for act in model.activations[1:]:
        results = []
        for c in range(1, heads + 1) if act.per_head else [None]:
            expr = act.expr if c is None else act.expr.xreplace({h: Integer(c)})
            expr = _write_out_heads(expr, heads).xreplace(values).xreplace(sizes)
            value = _explicit(expr).applyfunc(lambda x: N(x, DIGITS))
            values[act.symbol if c is None else act.symbol.xreplace({h: Integer(c)})] = value
            results.append(np.array(value.tolist(), dtype=float))
        out[act.key] = np.stack(results) if act.per_head else results[0]
    return out


VARIANTS = {
    "zero": Variant.preset("zero"),
    "simplified": Variant.preset("simplified"),
    "full": Variant.preset("full"),
    "full-no-ln": Variant.preset("full-no-ln"),
    "gpt2": Variant.preset("gpt2"),
    "full-gelu-concat": Variant(nonlinearity=Nonlinearity.GELU, heads=Heads.CONCAT),
}


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
