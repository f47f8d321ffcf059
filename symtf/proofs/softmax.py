r"""Softmax claims, proved on the model's own ``Softmax`` / ``CausalSoftmax`` entries.

* ``softmax-simplex``: $\text{softmax}(x)_j \in (0, 1)$ and $\sum_j \text{softmax}(x)_j = 1$ for a
  symbolic length $n$ (entries in $(0, 1)$ need $n \ge 2$; for $n = 1$ the only entry is $1$).
* ``softmax-shift``: $\text{softmax}(x + c\mathbf{1}) = \text{softmax}(x)$.
* ``softmax-neg-inf-padding``: padding with $P \to -\infty$ gives exact zeros and leaves the rest,
  and with a finite $P = -M$ each unpadded weight moves by at most $p\,e^{-M - \max_k x_k}$.
* ``softmax-example``: $\text{softmax}([1, 2]) \approx [0.269, 0.731]$ to the printed precision.
"""
from __future__ import annotations

import math

import numpy as np
from sympy import (
    ImmutableMatrix,
    Integer,
    MatrixSymbol,
    OneMatrix,
    Rational,
    Sum,
    Symbol,
    cancel,
    exp,
    expand,
    factor,
    limit,
    oo,
    together,
)

from ..dims import n
from ..ops import CausalMask, CausalSoftmax, Softmax
from .algebra import is_zero, numeric_gap, pull_constants, sum_index_canon
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import explicit

j = Symbol("j", integer=True, nonnegative=True)
x = MatrixSymbol("x", n, 1)  # real scores


def _ratio(entry):
    num, den = entry.as_numer_denom()
    return num, den


def prove_simplex(op=Softmax) -> Result:
    r"""$\sum_j a_j = 1$ and $0 < a_j$ (and $a_j < 1$ for $n \ge 2$) for the model's softmax entry."""
    entry = op(x, 0)._entry(j, 0)
    num, den = _ratio(entry)
    if j in den.free_symbols:
        return unknown(f"the denominator depends on the entry index: {den}")
    total = Sum(num, (j, 0, n - 1))  # sum of entries = (sum of numerators) / den
    if sum_index_canon(total) != sum_index_canon(den):
        return unknown(f"sum of numerators {total} is not the denominator {den}")
    if not (isinstance(num, type(exp(Symbol("u")))) and isinstance(den, Sum)
            and isinstance(den.function, type(num))):
        return unknown(f"entry is not a ratio of exponentials: {entry}")
    # positivity: e^{x_j} > 0 for real x_j; the denominator is a sum of n >= 1 such terms.
    ej, rest = Symbol("e_j", positive=True), Symbol("rest", positive=True)
    a = ej / (ej + rest)  # n >= 2: rest = sum of the other n-1 exponentials > 0
    if not (a.is_positive and factor(1 - a).is_positive):
        return unknown("could not show 0 < a_j < 1")
    return proved(Method.SYMBOLIC, ["symbolic"], "sum of numerators equals the shared denominator; "
                  "each entry e_j/(e_j + rest) with e_j, rest > 0 lies in (0, 1)")


def shift_by(X, c):
    r"""$x + c\mathbf{1}$: the same constant added to every score."""
    return X + c * OneMatrix(X.shape[0], 1)


def prove_shift(transform=shift_by) -> Result:
    r"""$\text{softmax}(T(x, c)) = \text{softmax}(x)$ for the model's softmax, $T$ the shift by default."""
    c = Symbol("c", real=True)
    shifted = Softmax(transform(x, c), 0)._entry(j, 0)
    plain = Softmax(x, 0)._entry(j, 0)
    d = pull_constants(expand(shifted)) - plain
    if is_zero(sum_index_canon(cancel(d))) or is_zero(sum_index_canon(d)):
        return proved(Method.SYMBOLIC, ["symbolic"], "e^{x_j + c} = e^c e^{x_j}; e^c leaves the sum and cancels")
    vals, c1 = ImmutableMatrix([0, 1]), Integer(1)
    a = explicit(Softmax(transform(vals, c1), 0))
    b = explicit(Softmax(vals, 0))
    gap = max(float(numeric_gap(a[i], b[i], seed=2)) for i in range(2))
    if gap > 1e-12:
        return refuted({"x": [0, 1], "c": 1, "gap": gap}, "the transformed softmax differs", Method.CONCRETE,
                       [{"n": 2}])
    return unknown(f"difference did not reduce to 0: {d}", ["symbolic"])


def prove_padding() -> Result:
    r"""Padding $x$ ($m$ entries, symbolic) with $p$ copies of $P$: limit $P \to -\infty$ and the $-M$ bound."""
    m, p = Symbol("m", integer=True, positive=True), Symbol("p", integer=True, positive=True)
    P = Symbol("P", real=True)
    padded = MatrixSymbol("y", m + p, 1)  # y_k = x_k for k < m, y_k = P for k >= m
    entry = Softmax(padded, 0)._entry(j, 0)
    _, den = entry.as_numer_denom()
    # split the denominator at m: sum_{k<m} e^{x_k} + p e^P (the padded entries are all P)
    (_, lo, hi), = den.limits
    if not (lo == 0 and expand(hi - (m + p - 1)) == 0):
        return unknown(f"unexpected denominator {den}")
    Sx = Symbol("S_x", positive=True)  # sum_{k<m} e^{x_k} > 0
    ej = Symbol("e_j", positive=True)
    unpadded = ej / Sx
    kept = ej / (Sx + p * exp(P))
    dropped = exp(P) / (Sx + p * exp(P))
    steps = {}
    if limit(kept, P, -oo) - unpadded != 0 or limit(dropped, P, -oo) != 0:
        return unknown("limits P -> -oo did not give the unpadded softmax and 0")
    steps["limit"] = "kept entries -> e_j/S_x, padded entries -> 0 as P -> -oo"
    # exactly at P = -oo (SymPy: exp(-oo) = 0)
    if kept.xreplace({P: -oo}) != unpadded or dropped.xreplace({P: -oo}) != 0:
        return unknown("substituting P = -oo did not give exact zeros")
    # bound for P = -M: 0 <= a_j - a_j(M) = a_j p e^{-M}/(S_x + p e^{-M}) <= p e^{-M}/S_x
    eps = Symbol("epsilon", positive=True)  # e^{-M}
    rest = Symbol("r", nonnegative=True)  # S_x - e_j >= 0
    gap = factor(together((unpadded - kept.xreplace({exp(P): eps})).xreplace({Sx: ej + rest})))
    bound = p * eps / (ej + rest)
    slack = factor(together(bound - gap))
    if not (gap.is_nonnegative and slack.is_nonnegative):
        return unknown(f"could not show 0 <= gap <= p e^-M / S_x: gap = {gap}")
    steps["bound"] = ("0 <= a_j - a_j^(-M) <= p e^{-M}/sum_k e^{x_k} <= p e^{-(M + max_k x_k)}; "
                      "each padded weight is <= e^{-M}/sum_k e^{x_k}")
    # the causal mask is this padding, row by row: softmax(CausalMask(S)) = softmax*(S)
    size_sets = []
    for size in (3, 4):
        S_ = MatrixSymbol("S", size, size)
        L = explicit(Softmax(CausalMask(S_), 1))
        R = explicit(CausalSoftmax(S_))
        if not all(is_zero(L[a, b] - R[a, b]) for a in range(size) for b in range(size)):
            return unknown(f"softmax of the -oo-padded scores differs from softmax* at n = {size}")
        size_sets.append({"n": size})
    steps["causal"] = "softmax(S with -oo above the diagonal) = softmax*(S) entry by entry at n = 3, 4"
    return proved(Method.SYMBOLIC, ["symbolic", *size_sets], "; ".join(steps.values()), **steps)


def prove_example(values=(1, 2), printed=("0.269", "0.731"), pad=True) -> Result:
    r"""$\text{softmax}([1, 2])$ exactly, then each entry inside the printed rounding interval."""
    vec = ImmutableMatrix(list(values))
    exact = explicit(Softmax(vec, 0))
    for value, shown in zip(exact, printed):
        half = Rational(1, 2 * 10 ** len(shown.split(".")[1]))
        centre = Rational(shown)
        if not ((value - (centre - half)).is_positive and ((centre + half) - value).is_positive):
            return refuted({"entry": str(value), "value": float(value), "printed": shown},
                           "an entry is outside the printed rounding interval", Method.CONCRETE,
                           [{"length": len(values)}])
    if pad:
        padded = explicit(Softmax(ImmutableMatrix(list(values) + [-oo]), 0))
        if list(padded[:-1]) != list(exact) or padded[-1] != 0:
            return unknown(f"padding with -oo gave {list(padded)}")
    return proved(Method.CONCRETE, [{"length": len(values)}],
                  f"exact values {[str(v) for v in exact]} round to {list(printed)}; with -oo appended: [..., 0]")


def numeric_simplex() -> NumericCheck:
    rng = np.random.default_rng(3)
    worst, ok = 0.0, True
    for size in (1, 2, 5, 17):
        v = rng.normal(scale=5, size=size)
        a = np.array([float(e) for e in explicit(Softmax(ImmutableMatrix(list(v)), 0)).evalf(20)])
        worst = max(worst, abs(a.sum() - 1))
        ok &= bool((a > 0).all() and (a <= 1).all())
    return NumericCheck(ok and worst < 1e-12, worst, 4, "random scores, lengths 1, 2, 5, 17")


def numeric_shift() -> NumericCheck:
    rng = np.random.default_rng(4)
    worst = 0.0
    for size in (2, 5):
        v, c = rng.normal(size=size), float(rng.normal(scale=10))
        a = explicit(Softmax(ImmutableMatrix(list(v)), 0)).evalf(20)
        b = explicit(Softmax(ImmutableMatrix(list(v + c)), 0)).evalf(20)
        worst = max(worst, max(abs(float(a[i] - b[i])) for i in range(size)))
    return NumericCheck(worst < 1e-12, worst, 2, "random scores and shifts")


def numeric_padding() -> NumericCheck:
    rng = np.random.default_rng(5)
    v = rng.normal(size=3)
    worst, ok = 0.0, True
    base = np.exp(v - v.max()) / np.exp(v - v.max()).sum()
    for M in (5.0, 20.0, 50.0):
        z = np.append(v, [-M, -M])
        a = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        gap = np.abs(a[:3] - base).max()
        ok &= bool(gap <= 2 * math.exp(-M - v.max()) * (1 + 1e-9) + 1e-300)
        worst = max(worst, gap)
    return NumericCheck(ok, worst, 3, "gap vs the bound p e^{-(M + max x)} at M = 5, 20, 50 (numpy)")


def numeric_example() -> NumericCheck:
    a = np.exp([1.0, 2.0]) / np.exp([1.0, 2.0]).sum()
    err = float(np.abs(a - [0.269, 0.731]).max())
    return NumericCheck(err < 5e-4, err, 1, f"numpy: {a.round(6).tolist()}")
