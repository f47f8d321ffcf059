"""The numpy printer: symtf's ops, product order, scalar factors, the one-hot gather."""
from __future__ import annotations

import numpy as np
import pytest
from sympy import MatrixSymbol, Rational, Symbol, sqrt
from sympy.matrices.expressions.matmul import MatMul

from symtf.errors import PrintingError
from symtf.ops import HeadMatrixSymbol, HeadSum, Op, Softmax
from symtf.numeric import numpy_code

A, B, C = MatrixSymbol("A", 3, 5), MatrixSymbol("B", 5, 7), MatrixSymbol("C", 7, 2)


def test_scalar_times_matrix_is_a_python_float_not_dot():
    d = Symbol("d_head", positive=True)
    code = numpy_code(A * B / sqrt(d))
    assert code == "(float(1/numpy.sqrt(d_head))*(symtf_matmul(A, B)))"
    assert ".dot(" not in numpy_code(Rational(1, 8) * A)


def test_matmul_order_is_kept():
    # (A B) C stays left to right as written; nothing re-associates the chain
    assert numpy_code(MatMul(A, B, C, evaluate=False)) == "(symtf_matmul(symtf_matmul(A, B), C))"


def test_transpose_swaps_only_the_matrix_axes():
    assert numpy_code(B.T) == "numpy.swapaxes(B, -1, -2)"


def test_head_symbols():
    h = Symbol("h")
    W = HeadMatrixSymbol("W_Q", 5, 7, h)
    assert numpy_code(W) == "W_Q"
    assert numpy_code(W.xreplace({h: 2})) == "W_Q[1]"  # head 2 of the stacked array
    assert numpy_code(HeadSum(W, h, 3)) == "symtf_head_sum(W_Q)"


def test_one_hot_product_is_a_gather():
    W, t = MatrixSymbol("W_E", 7, 13), MatrixSymbol("t", 13, 3)
    assert numpy_code(W * t, onehot={t: "columns"}) == "(symtf_gather(W_E, t, -1))"
    # t^T W^T: the rows of W^T at the tokens
    assert numpy_code(t.T * W.T, onehot={t: "columns"}) == "(symtf_gather(numpy.swapaxes(W_E, -1, -2), t, -2))"
    t_row = MatrixSymbol("t_row", 3, 13)
    assert numpy_code(t_row * W.T, onehot={t_row: "rows"}) == "(symtf_gather(numpy.swapaxes(W_E, -1, -2), t_row, -2))"


def test_one_hot_elsewhere_is_refused():
    t = MatrixSymbol("t", 13, 3)
    with pytest.raises(PrintingError, match="one-hot input t may only appear as the outer factor"):
        numpy_code(t * MatrixSymbol("X", 3, 4), onehot={t: "columns"})  # t's one-hot columns on the left
    with pytest.raises(PrintingError, match="one-hot input t"):
        numpy_code(Softmax(t, 0), onehot={t: "columns"})


def test_matmul_arrangements_give_the_product():
    from symtf.numeric.runtime import symtf_matmul

    rng = np.random.default_rng(0)
    W, x = rng.standard_normal((3, 5, 7)), rng.standard_normal((7, 11))  # stacked heads, shared input
    np.testing.assert_allclose(symtf_matmul(W, x), W @ x, rtol=1e-13)
    v, A = rng.standard_normal((3, 5, 300)), rng.standard_normal((3, 300, 300))  # few rows, long inner axis
    np.testing.assert_allclose(symtf_matmul(v, np.swapaxes(A, -1, -2)), v @ np.swapaxes(A, -1, -2), rtol=1e-12)
    a, b = rng.standard_normal((5, 7)), rng.standard_normal((7, 2))
    np.testing.assert_allclose(symtf_matmul(a, b), a @ b, rtol=1e-13)


def test_unknown_op_raises_instead_of_guessing():
    class Mystery(Op):
        @property
        def shape(self):
            return (2, 2)

    with pytest.raises(PrintingError, match="no numpy form for Mystery"):
        numpy_code(Mystery(MatrixSymbol("X", 2, 2)))


def test_softmax_axis_is_printed():
    X = MatrixSymbol("X", 3, 4)
    assert numpy_code(Softmax(X, 0)) == "symtf_softmax(X, 0)"
    assert numpy_code(Softmax(X, 1)) == "symtf_softmax(X, 1)"
