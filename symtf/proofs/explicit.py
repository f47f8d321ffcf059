r"""Concrete sizes: a matrix expression of the model turned into an explicit matrix.

``explicit(expr, env)`` walks a matrix expression once, bottom-up, and returns an
``ImmutableMatrix``: products and sums are multiplied out, each symtf op is rebuilt on explicit
arguments and read through its own ``_entry``, so every entry comes from the model's definitions.
Leaves (parameters, inputs) come from ``env``: symbolic entries (``W_Q[0, 1]``) by default, or
numbers for a numeric instance. Evaluating a model row by row keeps the trees small (no row is
expanded twice).
"""
from __future__ import annotations

import random

from sympy import Float, ImmutableMatrix, Integer, Matrix, S, sympify
from sympy.core.parameters import evaluate as _evaluation
from sympy.matrices.expressions.matadd import MatAdd
from sympy.matrices.expressions.matexpr import MatrixExpr, MatrixSymbol
from sympy.matrices.expressions.matmul import MatMul
from sympy.matrices.expressions.special import OneMatrix, ZeroMatrix
from sympy.matrices.expressions.transpose import Transpose

from ..model import h as HEAD
from ..ops import Elementwise, HeadConcat, HeadSum, Op


class Env(dict):
    """Leaf values: a ``MatrixSymbol`` (sized, head fixed) ↦ its explicit matrix.

    ``numeric=True`` draws a random matrix (seeded) for a leaf met for the first time; otherwise
    a leaf is its own symbolic entries.
    """

    def __init__(self, numeric: bool = False, seed: int = 0, digits: int = 30):
        super().__init__()
        self.numeric = numeric
        self.seed = seed
        self.rng = random.Random(seed)
        self.digits = digits

    def leaf(self, sym: MatrixSymbol) -> ImmutableMatrix:
        if sym not in self:
            rows, cols = (int(d) for d in sym.shape)
            if self.numeric:
                self[sym] = ImmutableMatrix(rows, cols, lambda i, j: Float(self.rng.uniform(-1, 1), self.digits))
            else:
                self[sym] = ImmutableMatrix(sym.as_explicit())
        return self[sym]


def explicit(expr, env: Env | None = None) -> ImmutableMatrix:
    """``expr`` (concrete sizes) as an explicit matrix, leaves taken from ``env``."""
    env = Env() if env is None else env
    memo: dict = {}

    def walk(e):
        if e in memo:
            return memo[e]
        out = _walk(e)
        if env.numeric:  # keep a numeric instance numeric (1/sqrt(2) and exp() become floats)
            out = ImmutableMatrix(out.evalf(env.digits))
        memo[e] = out
        return out

    def _walk(e):
        if isinstance(e, ImmutableMatrix):
            return e
        if isinstance(e, MatrixSymbol):
            return env.leaf(e)
        if isinstance(e, (ZeroMatrix, OneMatrix)):
            return ImmutableMatrix(e.as_explicit())
        if isinstance(e, MatMul):
            scalar, mats = S.One, []
            for a in e.args:
                if getattr(a, "is_Matrix", False):
                    mats.append(walk(a))
                else:
                    scalar *= a
            out = mats[0]
            for m in mats[1:]:
                out = out * m
            return ImmutableMatrix(out * scalar) if scalar != 1 else ImmutableMatrix(out)
        if isinstance(e, MatAdd):
            out = walk(e.args[0])
            for a in e.args[1:]:
                out = out + walk(a)
            return ImmutableMatrix(out)
        if isinstance(e, Transpose):
            return walk(e.arg).T
        if isinstance(e, HeadSum):
            count = _int(e.count, "number of heads")
            out = walk(e.at(1))
            for c in range(2, count + 1):
                out = out + walk(e.at(c))
            return ImmutableMatrix(out)
        if isinstance(e, HeadConcat):
            count = _int(e.count, "number of heads")
            blocks = [walk(e.at(c)) for c in range(1, count + 1)]
            joined = Matrix.vstack(*blocks) if e.axis == 0 else Matrix.hstack(*blocks)
            return ImmutableMatrix(joined)
        if isinstance(e, Op):
            rebuilt = e.func(*[walk(a) if getattr(a, "is_Matrix", False) else a for a in e.args])
            rows, cols = (_int(d, "size") for d in rebuilt.shape)
            if isinstance(e, Elementwise) and not all(x.is_number for x in rebuilt.arg):
                # Max(u, 0) of a symbolic u: kept unevaluated (same value), SymPy's sign analysis of
                # a large u takes minutes and decides nothing here
                with _evaluation(False):
                    return ImmutableMatrix(rows, cols, lambda i, j: rebuilt._entry(Integer(i), Integer(j)))
            return ImmutableMatrix(rows, cols, lambda i, j: rebuilt._entry(Integer(i), Integer(j)))
        if isinstance(e, MatrixExpr):
            return ImmutableMatrix(e.xreplace({a: walk(a) for a in e.args if getattr(a, "is_Matrix", False)})
                                   .as_explicit())
        raise TypeError(f"cannot make {type(e).__name__} explicit: {e}")

    return walk(sympify(expr))


def _int(value, what) -> int:
    value = sympify(value)
    if not value.is_Integer:
        raise ValueError(f"{what} must be a number to write a matrix out, got {value}")
    return int(value)


def evaluate(model, sizes: dict, env: Env | None = None, upto: str | None = None, opaque: bool = False) -> dict:
    """Every activation of ``model`` as explicit matrices at ``sizes``, row by row.

    Returns ``{key: matrix}`` for shared rows and ``{key: {head: matrix}}`` for per-head rows.
    Each row's expression is the model's own, with earlier rows' values substituted as leaves.
    ``opaque=True`` keeps earlier rows as their own symbols' entries (``x1[0, 2]``), so each row
    is written in the previous rows' entries only: small trees, one row at a time.
    """
    env = Env() if env is None else env
    sizes = {k: Integer(v) for k, v in sizes.items()}
    heads = int(sizes.get(_H(), 1))
    values: dict = {}
    for a in model.activations:
        if a.expr is None:
            sym = a.symbol.xreplace(sizes)
            values[a.key] = env.leaf(sym)
        elif a.per_head:
            values[a.key] = {}
            for c in range(1, heads + 1):
                sym = a.symbol.xreplace(sizes).xreplace({HEAD: Integer(c)})
                values[a.key][c] = explicit(a.expr.xreplace(sizes).xreplace({HEAD: Integer(c)}), env)
                env[sym] = _opaque(sym, values[a.key][c]) if opaque else values[a.key][c]
        else:
            sym = a.symbol.xreplace(sizes)
            values[a.key] = explicit(a.expr.xreplace(sizes), env)
            env[sym] = _opaque(sym, values[a.key]) if opaque else values[a.key]
        if a.key == upto:
            break
    return values


def _opaque(sym, value: ImmutableMatrix) -> ImmutableMatrix:
    """The row's own entries ``sym[i, j]`` as leaves, except entries that are numbers (the causal zeros)."""
    return ImmutableMatrix(value.rows, value.cols, lambda i, j: value[i, j] if value[i, j].is_number else sym[i, j])


def _H():
    from ..dims import H

    return H
