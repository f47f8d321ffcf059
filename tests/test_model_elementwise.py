"""Each activation's expression, expanded element by element at prime sizes with rational
weights, equals the hand-written numpy forward pass of tests/test_numeric_reference.py.

Row by row: the row's expression is evaluated exactly (SymPy, ``symtf.model.exact``) from the
reference's own values of the rows it uses, so every row is checked on its own and exact
values do not swell through the layer. The zero-layer and simplified models are also
evaluated end to end exactly.
"""
from __future__ import annotations

import numpy as np
import pytest
from sympy import ImmutableMatrix, Rational

from symtf.dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from symtf.model import Convention, Heads, Kind, Nonlinearity, Variant, build
from symtf.model.exact import evaluate, evaluate_row

from .test_numeric_reference import reference

TOKENS = [3, 1, 4]
PRIMES = {n_vocab: 13, d_model: 7, d_head: 5, d_mlp: 11, H: 2, n_ctx: 17}

VARIANTS = {
    "zero": Variant.preset("zero"),
    "simplified": Variant.preset("simplified"),
    "full": Variant.preset("full"),
    "full-no-ln": Variant.preset("full-no-ln"),
    "full-gelu": Variant(nonlinearity=Nonlinearity.GELU),
    "gpt2": Variant.preset("gpt2"),
    "concat": Variant(heads=Heads.CONCAT),
}


def sizes_for(variant: Variant) -> dict:
    sizes = dict(PRIMES)
    if variant.heads is Heads.CONCAT:
        sizes[d_model] = sizes[H] * sizes[d_head]  # W_O R needs d_model = H d_head
    return sizes


def rational_weights(model, sizes, seed=11):
    """Small rationals k/8 in the weights-file layout (numpy, float) and as SymPy matrices."""
    rng = np.random.default_rng(seed)
    heads = sizes[H]
    arrays, exact = {}, {}
    for p in model.parameters:
        rows, cols = (int(s.xreplace(sizes)) for s in p.symbol.shape)
        shape = ((heads,) if p.per_head else ()) + ((rows,) if len(p.shape) == 1 else (rows, cols))
        ints = rng.integers(-8, 9, size=shape)
        arrays[p.key] = ints / 8.0
        as_matrix = lambda a: ImmutableMatrix(rows, cols, [Rational(int(v), 8) for v in np.ravel(a)])  # noqa: E731
        exact[p.key] = [as_matrix(ints[c]) for c in range(heads)] if p.per_head else as_matrix(ints)
    return arrays, exact


def to_exact(array, per_head):
    def one(a):
        a = np.atleast_2d(a) if a.ndim == 1 else a
        return ImmutableMatrix(a.shape[0], a.shape[1], [Rational(float(v)) for v in a.ravel()])

    return [one(a) for a in array] if per_head else one(array)


def as_array(value):
    if isinstance(value, list):
        return np.stack([as_array(v) for v in value])
    return np.array(value.evalf(20).tolist(), dtype=float)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_row_expanded_elementwise_equals_numpy(name):
    variant = VARIANTS[name]
    model = build(variant)
    sizes = sizes_for(variant)
    arrays, exact = rational_weights(model, sizes)
    ref = reference(variant, arrays, TOKENS)
    values = dict(exact)
    sizes_n = {**sizes, n: len(TOKENS)}
    onehot = np.zeros((sizes[n_vocab], len(TOKENS)))
    onehot[TOKENS, range(len(TOKENS))] = 1
    values["tokens"] = to_exact(onehot, False)
    checked = []
    for a in model.activations[1:]:
        ours = as_array(evaluate_row(model, a.key, sizes_n, values))
        expected = ref[a.key]
        assert ours.shape == expected.shape, a.key
        np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-12, err_msg=f"{name}: {a.key}")
        values[a.key] = to_exact(expected, a.per_head)
        checked.append(a.key)
    assert checked == model.keys()[1:]


@pytest.mark.parametrize("name", ["zero", "simplified"])
def test_end_to_end_exact_evaluation(name):
    variant = VARIANTS[name]
    model = build(variant)
    arrays, exact = rational_weights(model, PRIMES, seed=5)
    out = evaluate(model, PRIMES, exact, TOKENS)
    ref = reference(variant, arrays, TOKENS)
    for key in model.keys()[1:]:
        np.testing.assert_allclose(as_array(out[key]), ref[key], rtol=1e-12, atol=1e-12, err_msg=key)
    assert all(v.is_positive for v in out["probs"])  # exact: e^x / Σ e^x, decided without rounding


def test_row_convention_rows_are_the_transposes():
    column = build("full")
    row = build(Variant(convention=Convention.ROW))
    arrays, exact = rational_weights(column, PRIMES, seed=3)
    ref = reference(column.variant, arrays, TOKENS)
    sizes_n = {**PRIMES, n: len(TOKENS)}
    # row-convention weights: every matrix parameter transposed; vectors unchanged
    values = {}
    for p in row.parameters:
        v = exact[p.key]
        values[p.key] = [m.T for m in v] if (p.per_head and len(p.shape) == 2) else (v.T if len(p.shape) == 2 else v)
    for key in ("q", "scores", "pattern", "result", "head_out", "resid_mid", "mlp_hidden", "probs"):
        a = row[key]
        inputs = {}
        for b in row.activations[: row.activations.index(a)]:
            if b.key == "tokens":
                continue
            r = ref[b.key]
            transposed = np.swapaxes(r, -1, -2) if b.token_columns else r
            inputs[b.key] = to_exact(transposed, b.per_head)
        onehot = np.zeros((len(TOKENS), PRIMES[n_vocab]))
        onehot[range(len(TOKENS)), TOKENS] = 1
        inputs["tokens"] = to_exact(onehot, False)
        ours = as_array(evaluate_row(row, key, sizes_n, {**values, **inputs}))
        expected = np.swapaxes(ref[key], -1, -2) if a.token_columns else ref[key]
        np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-12, err_msg=key)


def test_kinds_cover_the_post():
    assert {v.kind for v in VARIANTS.values()} == set(Kind)
