"""RMSNorm: shape, exact entries, both conventions, printers, and the numpy runtime against exact SymPy."""
import doctest
import importlib

import numpy as np
import pytest
from sympy import ImmutableMatrix, MatrixSymbol, Rational, lambdify, sqrt

from symtf.dims import d_model, n
from symtf.latex.printer import latex
from symtf.model.exact import explicit
from symtf.numeric.printer import SymtfNumPyPrinter
from symtf.numeric.runtime import NAMESPACE
from symtf.ops import RMSNorm


def test_doctests():
    assert doctest.testmod(importlib.import_module("symtf.ops.rmsnorm"))  # the package re-exports a function of that name.failed == 0


def test_shape_and_constraints_with_symbolic_sizes():
    X, g = MatrixSymbol("X", d_model, n), MatrixSymbol("g", d_model, 1)
    node = RMSNorm(X, g)
    assert node.shape == (d_model, n) and node.features == d_model
    assert [(c.left, c.right) for c in node.constraints()] == [(d_model, d_model), (1, 1)]
    with pytest.raises(ValueError, match="axis must be 0 or 1, got 2"):
        RMSNorm(X, g, axis=2)


def test_exact_entries_at_d_model_3():
    # Testing: RMSNorm([1, 2, 2]) = [1, 2, 2] / sqrt((1 + 4 + 4)/3) ⊙ g
    X, g = ImmutableMatrix([1, 2, 2]), ImmutableMatrix([1, Rational(1, 2), 3])
    out = explicit(RMSNorm(X, g))
    assert list(out) == [1 / sqrt(3), 1 / sqrt(3), 6 / sqrt(3)]


def test_row_convention_is_the_transpose():
    X, g = MatrixSymbol("X", 3, 5), MatrixSymbol("g", 3, 1)
    assert RMSNorm(X, g).T == RMSNorm(X.T, g, 0, 1)
    env = {X: ImmutableMatrix(3, 5, lambda i, j: Rational(i * 5 + j + 1, 7)), g: ImmutableMatrix([2, 3, 5])}
    assert explicit(RMSNorm(X, g), env).T == explicit(RMSNorm(X.T, g, 0, 1), env)


def test_latex_and_numpy_printers():
    X, g = MatrixSymbol("X", d_model, n), MatrixSymbol("g", d_model, 1)
    assert latex(RMSNorm(X, g)) == r"\text{RMSNorm}(X)"
    code = SymtfNumPyPrinter().doprint(RMSNorm(X, g, Rational(1, 100000)))
    assert code.startswith("symtf_rmsnorm(X, g, float(")


@pytest.mark.parametrize("axis", [0, 1])
def test_runtime_matches_exact_sympy(axis):
    rng = np.random.default_rng(3)
    d, tokens = 7, 5
    x = rng.normal(size=(d, tokens) if axis == 0 else (tokens, d))
    g = rng.normal(size=(d, 1))
    X, G = MatrixSymbol("X", *x.shape), MatrixSymbol("g", d, 1)
    node = RMSNorm(X, G, Rational(1, 10), axis)
    fn = lambdify([X, G], node, modules=[NAMESPACE, "numpy"], printer=SymtfNumPyPrinter())
    exact = explicit(node, {X: ImmutableMatrix(x), G: ImmutableMatrix(g)})
    assert np.allclose(fn(x, g), np.array(exact.evalf(), dtype=float), atol=1e-12)
