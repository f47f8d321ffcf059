"""RoPE: shape, exact rotations, the parity Piecewise, printers, and the numpy runtime against exact SymPy."""
import doctest
import importlib

import numpy as np
from sympy import ImmutableMatrix, Integer, MatrixSymbol, Symbol, cos, lambdify, pi, sin, sqrt

from symtf.dims import d_head, n
from symtf.latex.printer import latex
from symtf.model.exact import explicit
from symtf.numeric.printer import SymtfNumPyPrinter
from symtf.numeric.runtime import NAMESPACE
from symtf.ops import RoPE


def test_doctests():
    assert doctest.testmod(importlib.import_module("symtf.ops.rope")).failed == 0  # the package re-exports rope()


def test_shape_and_constraints():
    X, t = MatrixSymbol("X", d_head, n), MatrixSymbol("theta", d_head / 2, 1)
    assert RoPE(X, t).shape == (d_head, n)
    assert [(c.left, c.right) for c in RoPE(X, t).constraints()] == [(d_head, d_head), (1, 1)]


def test_exact_rotation_of_each_pair():
    # Testing: column j is rotated by (offset + j) θ_i in the plane of rows (2i, 2i+1)
    X = ImmutableMatrix([[1, 1], [0, 0], [0, 2], [1, 0]])  # d_head = 4, two positions
    T = ImmutableMatrix([pi / 2, pi / 4])
    out = explicit(RoPE(X, T, 1))  # positions 1 and 2
    assert out[:, 0] == ImmutableMatrix([0, 1, -sqrt(2) / 2, sqrt(2) / 2])
    assert out[:, 1] == ImmutableMatrix([-1, 0, 0, 2])


def test_symbolic_row_is_a_parity_piecewise():
    X, t = MatrixSymbol("X", d_head, 1), MatrixSymbol("theta", d_head / 2, 1)
    r = Symbol("r", integer=True, nonnegative=True)
    node = RoPE(X, t, Symbol("p"))
    for row in range(6):
        assert node._entry(r, 0).xreplace({r: Integer(row)}) == node._entry(row, 0)
    p = Symbol("p")
    assert node._entry(2, 0) == cos(p * t[1, 0]) * X[2, 0] - sin(p * t[1, 0]) * X[3, 0]


def test_printers_and_runtime_against_exact_sympy():
    X, T = MatrixSymbol("X", 6, 5), MatrixSymbol("theta", 3, 1)
    assert latex(RoPE(X, T)) == r"\text{RoPE}(X)"
    fn = lambdify([X, T], RoPE(X, T, 3), modules=[NAMESPACE, "numpy"], printer=SymtfNumPyPrinter())
    rng = np.random.default_rng(5)
    x, theta = rng.normal(size=(6, 5)), rng.uniform(0, 1, size=(3, 1))
    exact = explicit(RoPE(X, T, 3), {X: ImmutableMatrix(x), T: ImmutableMatrix(theta)})
    assert np.allclose(fn(x, theta), np.array(exact.evalf(), dtype=float), atol=1e-12)
