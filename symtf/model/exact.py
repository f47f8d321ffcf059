r"""Element-wise evaluation of a model at concrete sizes, exactly (rationals stay rationals).

``evaluate(model, sizes, weights, tokens)`` computes every activation row by row: sizes are
substituted, the sums over heads are unrolled into $H$ explicit terms, earlier rows and the
parameters are replaced by explicit matrices, and each node's ``_entry`` gives the entries.
Softmax entries stay exact ($e^{1/3} / (e^{1/3} + e^{2})$); call ``.evalf()`` for decimals.
Meant for toy sizes: the number of operations grows fast (SYMPY-NOTES.md).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from sympy import ImmutableMatrix, Integer, Rational, Symbol, zeros
from sympy.matrices import MatrixBase
from sympy.matrices.expressions.blockmatrix import BlockMatrix
from sympy.matrices.expressions.matadd import MatAdd
from sympy.matrices.expressions.matexpr import MatrixSymbol
from sympy.matrices.expressions.matmul import MatMul
from sympy.matrices.expressions.transpose import Transpose

from ..dims import H, n, n_vocab
from ..errors import InputError, ShapeError
from ..ops import HeadConcat, HeadSum, Op
from .build import h
from .records import Model


def unroll_heads(expr, count: int):
    r"""$\sum_h E^h \to E^{h_1} + \dots + E^{h_H}$ and head concatenations to block matrices, for a number $H$."""

    def sum_heads(e: HeadSum):
        return MatAdd(*(e.at(c) for c in range(1, count + 1)))

    def concat_heads(e: HeadConcat):
        blocks = [e.at(c) for c in range(1, count + 1)]
        return BlockMatrix([blocks] if e.axis == 1 else [[b] for b in blocks])

    expr = expr.replace(lambda e: isinstance(e, HeadSum), sum_heads)
    return expr.replace(lambda e: isinstance(e, HeadConcat), concat_heads)


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
    expr = unroll_heads(a.expr.xreplace(sizes), heads)
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


def explicit(expr, env: Mapping | None = None) -> ImmutableMatrix:
    """The explicit matrix of ``expr`` once every symbol in it has a value (in ``env`` or substituted).

    Bottom-up: products by matrix multiplication (SymPy's own ``MatMul._entry`` builds a ``Sum``
    per entry, ~30× slower), sums and transposes directly, symtf's ops entry by entry through
    their ``_entry`` on explicit arguments.
    """
    env = {} if env is None else env
    if isinstance(expr, MatrixBase):
        return ImmutableMatrix(expr)
    if expr in env:
        return env[expr]
    if isinstance(expr, MatrixSymbol):
        raise InputError(f"no value for {expr.name} (shape {expr.shape})")
    if isinstance(expr, MatMul):
        coeff, factors = expr.as_coeff_matrices()
        result = explicit(factors[0], env)
        for f in factors[1:]:
            result = result * explicit(f, env)
        return ImmutableMatrix(coeff * result)
    if isinstance(expr, MatAdd):
        terms = [explicit(t, env) for t in expr.args]
        return ImmutableMatrix(sum(terms[1:], terms[0]))
    if isinstance(expr, Transpose):
        return explicit(expr.arg, env).T
    if isinstance(expr, BlockMatrix):
        rows = [[explicit(b, env) for b in row] for row in expr.blocks.tolist()]
        return ImmutableMatrix(BlockMatrix(rows).as_explicit())
    if isinstance(expr, Op):
        args = [explicit(a, env) if getattr(a, "is_Matrix", False) else a for a in expr.args]
        return ImmutableMatrix(type(expr)(*args).as_explicit())
    raise InputError(f"cannot evaluate a {type(expr).__name__} element-wise")


def rational_matrix(rng, rows: int, cols: int, denominator: int = 4, spread: int = 4) -> ImmutableMatrix:
    """A random matrix of small rationals $k / \\text{denominator}$, $|k| \\le \\text{spread}$ (for exact tests)."""
    return ImmutableMatrix(rows, cols, [Rational(int(rng.integers(-spread, spread + 1)), denominator)
                                        for _ in range(rows * cols)])
