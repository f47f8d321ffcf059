r"""Concrete sizes for the provers: the model evaluated row by row with ``symtf.model.exact.explicit``.

Leaves (parameters, inputs) come from an ``Env``: symbolic entries (``W_Q[0, 1]``) by default,
or numbers for a numeric instance. Evaluating row by row keeps the trees small; ``opaque=True``
writes each row in the previous rows' own entries.
"""
from __future__ import annotations

from sympy import ImmutableMatrix, Integer

from ..model import h as HEAD
from ..model.exact import Env, explicit  # noqa: F401  (the walker lives with the model; provers import it here)


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
