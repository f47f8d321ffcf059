r"""Element-wise evaluation of a model at concrete sizes, exactly (rationals stay rationals).

``evaluate(model, sizes, weights, tokens)`` computes every activation row by row: sizes are
substituted, earlier rows and the parameters become explicit matrices, sums over heads are
unrolled into $H$ explicit terms, and each node's ``_entry`` gives the entries (``explicit``).
Softmax entries stay exact ($e^{1/3} / (e^{1/3} + e^{2})$); call ``.evalf()`` for decimals.
Meant for toy sizes: the number of operations grows fast (SYMPY-NOTES.md).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import random

from sympy import Float, ImmutableMatrix, Integer, Matrix, S, Symbol, sympify, zeros
from sympy.core.parameters import evaluate as _evaluation
from sympy.matrices.expressions.matadd import MatAdd
from sympy.matrices.expressions.matexpr import MatrixExpr, MatrixSymbol
from sympy.matrices.expressions.special import OneMatrix, ZeroMatrix
from sympy.matrices.expressions.matmul import MatMul
from sympy.matrices.expressions.transpose import Transpose

from ..dims import H, n, n_vocab
from ..errors import InputError, ShapeError
from ..ops import Elementwise, HeadConcat, HeadSum, Op
from .build import h
from .records import Model


def one_hot(tokens: Sequence[int], vocab: int, rows: bool = False) -> ImmutableMatrix:
    r"""$t = [t_1, \dots, t_n]$: column $i$ is the one-hot vector of token ``tokens[i]`` (rows if ``rows``)."""
    t = zeros(vocab, len(tokens))
    for i, token in enumerate(tokens):
        if not 0 <= int(token) < vocab:
            raise InputError(f"token {token} is outside the vocabulary 0..{vocab - 1}")
        t[int(token), i] = 1
    return ImmutableMatrix(t.T if rows else t)


def bind_values(model: Model, sizes: Mapping[Symbol, int], values: Mapping[str, object]) -> dict:
    """Concrete symbol ↦ explicit matrix, for every parameter and activation given in ``values``.

    A per-head entry is a list of ``H`` matrices; vectors are ``m × 1`` columns.
    """
    heads = int(sizes.get(H, 1))
    env: dict = {}
    records = [(p.key, p.symbol, p.per_head) for p in model.parameters]
    records += [(a.key, a.symbol, a.per_head) for a in model.activations]
    for key, symbol, per_head in records:
        if key not in values:
            continue
        pairs = [(symbol.xreplace({h: c}), v) for c, v in enumerate(values[key], 1)] if per_head else [(symbol, values[key])]
        if per_head and len(pairs) != heads:
            raise ShapeError(f"{key}: expected {heads} heads, got {len(pairs)}")
        for sym, value in pairs:
            concrete, value = sym.xreplace(sizes), ImmutableMatrix(value)
            if tuple(value.shape) != tuple(concrete.shape):
                raise ShapeError(f"{key}: expected shape {concrete.shape}, got {value.shape}")
            env[concrete] = value
    return env


def evaluate_row(model: Model, key: str, sizes: Mapping[Symbol, int], values: Mapping[str, object]):
    """One activation, element-wise, from explicit values of the rows and parameters it uses.

    ``sizes`` must include ``n``. Returns a matrix, or a list over heads for a per-head row.
    """
    sizes = {k: Integer(v) for k, v in sizes.items()}
    a = model[key]
    env = bind_values(model, sizes, values)
    heads = int(sizes.get(H, 1))
    expr = a.expr.xreplace(sizes)
    if a.per_head:
        return [explicit(expr.xreplace({h: c}), env) for c in range(1, heads + 1)]
    return explicit(expr, env)


def evaluate(
    model: Model,
    sizes: Mapping[Symbol, int],
    weights: Mapping[str, object],
    tokens: Sequence[int],
) -> dict[str, ImmutableMatrix | list[ImmutableMatrix]]:
    """Every activation of ``model`` as explicit SymPy matrices (a list over heads for per-head rows).

    ``sizes`` maps every size symbol but ``n`` to an int (``n`` is ``len(tokens)``); ``weights[key]``
    is a SymPy matrix in the model's own convention (a list of ``H`` matrices for a per-head
    parameter, an ``m × 1`` column for a vector). Exact inputs give exact outputs, which swell fast
    past the attention layer: use small sizes, or ``evaluate_row`` with given inputs.
    """
    sizes = {**{k: Integer(v) for k, v in sizes.items()}, n: Integer(len(tokens))}
    values: dict = dict(weights)
    for a in model.activations:
        if a.expr is None:
            rows = len(a.shape) == 2 and a.symbol.shape[0] == n  # row convention: one token per row
            values[a.key] = one_hot(tokens, int(sizes[n_vocab]), rows=bool(rows))
        else:
            values[a.key] = evaluate_row(model, a.key, sizes, values)
    return {a.key: values[a.key] for a in model.activations}


class Env(dict):
    """Leaf values: a ``MatrixSymbol`` (sized, head fixed) ↦ its explicit matrix.

    ``numeric=True`` draws a random matrix (seeded) for a leaf met for the first time; otherwise
    a leaf is its own symbolic entries; ``strict=True`` refuses a leaf without a value.
    """

    def __init__(self, values=(), numeric: bool = False, seed: int = 0, digits: int = 30, strict: bool = False):
        super().__init__(values)
        self.numeric = numeric
        self.strict = strict
        self.seed = seed
        self.rng = random.Random(seed)
        self.digits = digits

    def leaf(self, sym: MatrixSymbol) -> ImmutableMatrix:
        if sym not in self and self.strict:
            raise InputError(f"no value for {sym.name} (shape {sym.shape})")
        if sym not in self:
            rows, cols = (int(d) for d in sym.shape)
            if self.numeric:
                self[sym] = ImmutableMatrix(rows, cols, lambda i, j: Float(self.rng.uniform(-1, 1), self.digits))
            else:
                self[sym] = ImmutableMatrix(sym.as_explicit())
        return self[sym]


def explicit(expr, env: Env | None = None) -> ImmutableMatrix:
    """``expr`` (concrete sizes) as an explicit matrix, leaves taken from ``env``.

    Bottom-up, each node once: products by matrix multiplication (SymPy's own ``MatMul._entry``
    builds a ``Sum`` per entry, ~30× slower), sums over heads unrolled, symtf's ops rebuilt on
    explicit arguments and read through their ``_entry``. A plain mapping as ``env`` is strict.
    """
    env = Env() if env is None else env if isinstance(env, Env) else Env(env, strict=True)
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
