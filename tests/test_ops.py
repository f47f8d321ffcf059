"""The operations: shapes from arguments, element-wise semantics, transposes, exact entries."""
from __future__ import annotations

import math

import numpy as np
import pytest
from sympy import E, ImmutableMatrix, Integer, Matrix, MatrixSymbol, Rational, Symbol, exp, oo, simplify, sqrt

from symtf.dims import d_head, d_model, n
from symtf.ops import (
    GELU, Broadcast, CausalMask, CausalSoftmax, Column, GELUTanh, HeadConcat, HeadMatrixSymbol, HeadSum, LayerNorm,
    LeadingColumns, ReLU, Softmax, WeightedSum,
)

h = Symbol("h", integer=True, positive=True)


def test_shapes_follow_the_arguments_with_symbolic_sizes():
    X = MatrixSymbol("X", d_model, n)
    g = MatrixSymbol("g", d_model, 1)
    assert Softmax(X, 0).shape == (d_model, n)
    assert LayerNorm(X, g, g).shape == (d_model, n)
    assert ReLU(X).shape == GELU(X).shape == (d_model, n)
    assert Broadcast(g, n).shape == (d_model, n)
    assert Broadcast(g, n, axis=0).shape == (n, d_model)
    assert Column(X, n).shape == (d_model, 1)
    W = HeadMatrixSymbol("W_O", d_model, d_head, h)
    assert HeadConcat(W, h, Symbol("H"), axis=1).shape == (d_model, d_head * Symbol("H"))


def test_relu_is_elementwise_not_a_matrix_function():
    # exp(A) of a SymPy matrix is the matrix exponential; ReLU/softmax must act entry by entry.
    A = ImmutableMatrix([[1, -2], [-3, 4]])
    assert ReLU(A).as_explicit() == Matrix([[1, 0], [0, 4]])
    col = Softmax(A, axis=0).as_explicit()
    assert col[0, 0] == E / (E + exp(-3))


def test_softmax_axes():
    X = MatrixSymbol("X", 3, 2)
    cols = Softmax(X, 0).as_explicit()
    rows = Softmax(X, 1).as_explicit()
    assert simplify(sum(cols[:, 1]) - 1) == 0
    assert simplify(sum(rows[2, :]) - 1) == 0
    assert cols[0, 1] == exp(X[0, 1]) / (exp(X[0, 1]) + exp(X[1, 1]) + exp(X[2, 1]))
    with pytest.raises(ValueError, match="axis must be 0"):
        Softmax(X, 2)


def test_softmax_example_of_the_post():
    # softmax([1, 2]) = [e/(e+e^2), e^2/(e+e^2)] ≈ [0.269, 0.731]
    p = Softmax(ImmutableMatrix([1, 2]), 0).as_explicit()
    assert p == Matrix([E / (E + E**2), E**2 / (E + E**2)])
    assert [round(float(v), 3) for v in p] == [0.269, 0.731]


def test_causal_softmax_zeros_above_the_diagonal_and_matches_masked_softmax():
    S = MatrixSymbol("S", 3, 3)
    A = CausalSoftmax(S).as_explicit()
    assert A[0, 1] == 0 and A[0, 2] == 0 and A[1, 2] == 0
    assert A[0, 0] == 1
    masked = Softmax(CausalMask(S).as_explicit(), axis=1).as_explicit()  # the post's −∞ padding
    assert simplify(A - masked) == Matrix.zeros(3, 3)
    assert CausalMask(S).as_explicit()[0, 2] == -oo


def test_causal_softmax_symbolic_entry_is_piecewise():
    S = MatrixSymbol("S", n, n)
    i, j = Symbol("i", integer=True), Symbol("j", integer=True)
    entry = CausalSoftmax(S)._entry(i, j)
    assert entry.subs({i: 0, j: 1}) == 0


def test_layernorm_moments_and_scale_shift():
    X = ImmutableMatrix([[1, 2], [3, -1], [5, 0]])
    g = ImmutableMatrix([2, 3, 5])
    b = ImmutableMatrix([7, 11, 13])
    one = ImmutableMatrix([1, 1, 1])
    zero = ImmutableMatrix([0, 0, 0])
    Y = LayerNorm(X, one, zero).as_explicit()
    for j in range(2):
        column = Y[:, j]
        assert simplify(sum(column)) == 0
        assert simplify(sum(v**2 for v in column) / 3 - 1) == 0  # biased variance 1
    Z = LayerNorm(X, g, b).as_explicit()
    assert simplify(Z[1, 0] - (Y[1, 0] * 3 + 11)) == 0
    # the row convention normalises rows: transpose of the column form
    assert simplify(LayerNorm(X.T, one, zero, axis=1).as_explicit() - Y.T) == Matrix.zeros(2, 3)


def test_layernorm_eps_enters_under_the_root():
    X = ImmutableMatrix([[1], [-1]])
    one, zero = ImmutableMatrix([1, 1]), ImmutableMatrix([0, 0])
    eps = Rational(1, 100000)
    assert LayerNorm(X, one, zero, eps).as_explicit()[0, 0] == 1 / sqrt(1 + eps)


def test_gelu_exact_and_tanh_against_math():
    x = 0.7
    exact = float(GELU(ImmutableMatrix([[Rational(7, 10)]])).as_explicit()[0, 0])
    approx = float(GELUTanh(ImmutableMatrix([[Rational(7, 10)]])).as_explicit()[0, 0])
    assert exact == pytest.approx(x * 0.5 * (1 + math.erf(x / math.sqrt(2))), rel=1e-14)
    assert approx == pytest.approx(0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))), rel=1e-14)
    assert abs(exact - approx) < 1e-3


def test_transposes_push_through_the_ops():
    X = MatrixSymbol("X", d_model, n)
    g = MatrixSymbol("g", d_model, 1)
    assert Softmax(X, 0).T.doit() == Softmax(X.T, 1)
    assert ReLU(X).T.doit() == ReLU(X.T)
    assert LayerNorm(X, g, g).T.doit() == LayerNorm(X.T, g, g, 0, 1)
    assert Broadcast(g, n).T.doit() == Broadcast(g, n, 0)


def test_head_symbols_differ_per_head_and_sum_unrolls():
    W = HeadMatrixSymbol("W_O", 2, 3, h)
    r = HeadMatrixSymbol("r", 3, 2, h)
    assert W.xreplace({h: 1}) != W.xreplace({h: 2})
    total = HeadSum(W * r, h, 2).as_explicit()
    by_hand = (W.xreplace({h: 1}) * r.xreplace({h: 1}) + W.xreplace({h: 2}) * r.xreplace({h: 2})).as_explicit()
    assert (total - by_hand).expand() == Matrix.zeros(2, 2)
    # W_O R with W_O = [W_O^{h_1} | W_O^{h_2}] and R = [r^{h_1}; r^{h_2}] is the same sum
    concat = (HeadConcat(W, h, 2, axis=1) * HeadConcat(r, h, 2, axis=0)).as_explicit()
    assert (concat - by_hand).expand() == Matrix.zeros(2, 2)
    # a wrong block order is not
    swapped = (HeadConcat(W, h, 2, axis=1) * HeadConcat(r.xreplace({h: 3 - h}), h, 2, axis=0)).as_explicit()
    assert (swapped - by_hand).expand() != Matrix.zeros(2, 2)


def test_structure_nodes_entries():
    W = ImmutableMatrix([[1, 2, 3], [4, 5, 6]])
    assert LeadingColumns(W, 2).as_explicit() == Matrix([[1, 2], [4, 5]])
    assert Column(W, 3).as_explicit() == Matrix([3, 6])
    b = ImmutableMatrix([7, 8])
    assert Broadcast(b, 3).as_explicit() == Matrix([[7, 7, 7], [8, 8, 8]])
    v = ImmutableMatrix([[1, 2, 3], [4, 5, 6]])
    a = ImmutableMatrix([[Rational(1, 2), Rational(1, 4), Rational(1, 4)]])
    assert WeightedSum(v, a).as_explicit() == (v * a.T)


def test_elementwise_needs_a_matrix():
    with pytest.raises(TypeError, match="ReLU needs a matrix"):
        ReLU(Integer(3))


def test_numeric_agreement_of_softmax_with_numpy():
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 6, size=(5, 3))
    ours = np.array(Softmax(ImmutableMatrix(x.tolist()), 0).as_explicit().evalf(), dtype=float)
    e = np.exp(x - x.max(axis=0))
    np.testing.assert_allclose(ours, e / e.sum(axis=0), rtol=1e-13)


def test_head_sum_at_leaves_an_inner_sum_over_the_same_head_alone():
    # Testing: (Σ_h X^h Σ_h Y^h) at h = 1 is X^1 Σ_h Y^h, not X^1 (2 Y^1)
    X, Y = HeadMatrixSymbol("X", 3, 3, h), HeadMatrixSymbol("Y", 3, 3, h)
    inner = HeadSum(Y, h, 2)
    assert HeadSum(X * inner, h, 2).at(1) == X.xreplace({h: 1}) * inner
