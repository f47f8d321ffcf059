r"""``mlp-position-wise``: $W_1 x = [W_1 x_1, \dots, W_1 x_n]$ and the MLP acts on each column alone.

Entry $(r, j)$ of the model's $m = W_2\,\text{ReLU}(W_1 x + b_1) + b_2$ (with $x = x^{(1)}_\text{LN}$)
equals entry $(r, 1)$ of the same expression applied to the single column $x_{j+1}$, for symbolic
$d_\text{model}$, $d_\text{mlp}$, $n$ and $j$.
"""
from __future__ import annotations

from sympy import Integer, Symbol

from ..dims import d_mlp, d_model, n
from ..model import build
from ..ops import Broadcast, Column
from .algebra import max_abs_diff, sum_index_canon
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import Env, explicit

r_ = Symbol("r", integer=True, nonnegative=True)
j_ = Symbol("j", integer=True, nonnegative=True)


def mlp_expr():
    """The model's MLP output written in ``x1_ln``: $W_2 \\text{ReLU}(W_1 x + b_1) + b_2$, and that symbol."""
    model = build("full")
    m = model["mlp_out"].expr.xreplace({model["mlp_hidden"].symbol: model["mlp_hidden"].expr})
    return m, model["ln2"].symbol


def on_column(expr, x, j):
    """``expr`` applied to the one column $x_{j+1}$ (biases broadcast to one column)."""
    rule = {b: Broadcast(b.b, 1, b.axis) for b in expr.atoms(Broadcast)}
    rule[x] = Column(x, j + 1)
    return expr.xreplace(rule)  # one pass, so every sum sees matching shapes


def prove_position_wise(expr=None, x=None) -> Result:
    if expr is None:
        expr, x = mlp_expr()
    linear = build("full")["mlp_hidden"].expr.arg  # W_1 x + b_1 (inside the nonlinearity)
    steps = []
    for name, e in (("W_1 x + b_1", linear), ("W_2 ReLU(W_1 x + b_1) + b_2", expr)):
        whole = e._entry(r_, j_)
        column = on_column(e, x, j_)._entry(r_, Integer(0))
        if sum_index_canon(whole) != sum_index_canon(column):
            return _refute(e, x, f"{name}: entry (r, j) differs from the single-column entry")
        steps.append(name)
    return proved(Method.SYMBOLIC, ["symbolic"], "entry (r, j) of " + " and ".join(steps)
                  + " equals entry (r, 1) of the same map applied to x_{j+1} alone")


SIZES = {n: 3, d_model: 2, d_mlp: 3}


def _refute(expr, x, why):
    sized = {k: Integer(v) for k, v in SIZES.items()}
    env = Env(numeric=True, seed=4, digits=15)
    whole = explicit(expr.xreplace(sized), env)
    X = x.xreplace(sized)
    gap = 0.0
    for j in range(SIZES[n]):
        col = explicit(on_column(expr.xreplace(sized), X, Integer(j)), env)
        gap = max(gap, max_abs_diff(whole[:, j], col))
    if gap > 1e-12:
        return refuted({"sizes": {str(k): v for k, v in SIZES.items()}, "gap": gap}, why, Method.CONCRETE,
                       [{str(k): v for k, v in SIZES.items()}])
    return unknown(why)


def numeric() -> NumericCheck:
    expr, x = mlp_expr()
    sized = {k: Integer(v) for k, v in SIZES.items()}
    worst = 0.0
    for seed in (1, 2):
        env = Env(numeric=True, seed=seed, digits=15)
        whole = explicit(expr.xreplace(sized), env)
        for j in range(SIZES[n]):
            col = explicit(on_column(expr.xreplace(sized), x.xreplace(sized), Integer(j)), env)
            worst = max(worst, max_abs_diff(whole[:, j], col))
    return NumericCheck(worst < 1e-12, worst, 2, "MLP on x vs MLP on each column alone")
