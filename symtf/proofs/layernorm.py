r"""LayerNorm claims on the model's own ``LayerNorm`` entries, for a symbolic $d_\text{model}$.

* ``layernorm-moments``: with $\gamma = \mathbf 1$, $\beta = 0$, the entries of one token's
  normalised vector have mean $0$ and (biased, divide by $d_\text{model}$) variance $1$.
* ``layernorm-beta-gamma``: the post's sentence "entries have mean $\beta$ and standard
  deviation $\gamma$" is **refuted** in general (a counterexample with a non-constant $\gamma$),
  and **proved** when $\gamma = g\mathbf 1$ ($g > 0$) and $\beta = b\mathbf 1$ are constant vectors.
"""
from __future__ import annotations

from sympy import (
    ImmutableMatrix,
    OneMatrix,
    Sum,
    Symbol,
    ZeroMatrix,
    expand,
    factor_terms,
    sqrt,
)

from ..model import build
from ..ops import LayerNorm
from .algebra import is_zero, pull_constants, sum_index_canon, sum_linear
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import explicit

i_ = Symbol("i", integer=True, nonnegative=True)
tok = Symbol("j", integer=True, nonnegative=True)


def model_layernorm():
    """The model's ``ln1`` row: LayerNorm(x^{(0)}, γ, β) with its ε (0 in the post)."""
    return build("full")["ln1"].expr


def _moments(entry, d):
    r"""Mean and biased variance over $i = 0 \dots d-1$ of ``entry`` (a function of $i$)."""
    shallow = lambda e: expand(e, deep=False)
    mean = shallow(sum_index_canon(sum_linear(Sum(shallow(entry), (i_, 0, d - 1)))) / d)
    centred = factor_terms(entry - mean)
    var = sum_index_canon(pull_constants(sum_linear(Sum(centred**2, (i_, 0, d - 1))))) / d
    return mean, shallow(var)


def moments_of(gamma, beta, ln=None):
    ln = model_layernorm() if ln is None else ln
    d = ln.features
    entry = LayerNorm(ln.X, gamma, beta, ln.eps, ln.axis)._entry(i_, tok)
    return _moments(entry, d)


def prove_moments(ln=None) -> Result:
    ln = model_layernorm() if ln is None else ln
    d = ln.features
    mean, var = moments_of(OneMatrix(d, 1), ZeroMatrix(d, 1), ln)
    details = {"mean": mean, "variance": var}
    if mean == 0 and var == 1:
        return proved(Method.SYMBOLIC, ["symbolic"], "sum of (x_i - mu) is 0; sum of (x_i - mu)^2 / d is the "
                      "variance the entries were divided by", **details)
    return unknown(f"mean {mean}, variance {var} did not reduce to 0 and 1", ["symbolic"], **details)


COUNTEREXAMPLE = {"x": [0, 2], "gamma": [1, 3], "beta": [0, 0]}


def prove_beta_gamma(ln=None) -> Result:
    r"""Refuted for general $\gamma, \beta$ (a counterexample); the constant case is proved alongside."""
    ln = model_layernorm() if ln is None else ln
    d = ln.features
    g, b = Symbol("g", positive=True), Symbol("b", real=True)
    # entry with gamma = g 1, beta = b 1 is g y_i + b with y_i the gamma = 1, beta = 0 entry; then
    # mean(g y + b) = g mean(y) + b and Var(g y + b) = g^2 Var(y) (linearity over i)
    y = LayerNorm(ln.X, OneMatrix(d, 1), ZeroMatrix(d, 1), ln.eps, ln.axis)._entry(i_, tok)
    affine = LayerNorm(ln.X, g * OneMatrix(d, 1), b * OneMatrix(d, 1), ln.eps, ln.axis)._entry(i_, tok)
    mean_y, var_y = moments_of(OneMatrix(d, 1), ZeroMatrix(d, 1), ln)
    constant_ok = is_zero(affine - (g * y + b)) and mean_y == 0 and var_y == 1
    mean, var = g * mean_y + b, g**2 * var_y
    special = {"constant gamma = g 1, beta = b 1": "proved (symbolic): mean b, variance g^2, std g"
               if constant_ok else f"not proved: mean {mean}, variance {var}"}
    # the general sentence, on the model's LayerNorm at d_model = 2, one token
    x = ImmutableMatrix(COUNTEREXAMPLE["x"])
    gamma, beta = ImmutableMatrix(COUNTEREXAMPLE["gamma"]), ImmutableMatrix(COUNTEREXAMPLE["beta"])
    y = explicit(LayerNorm(x, gamma, beta, ln.eps, ln.axis))
    m = sum(y) / 2
    sd = sqrt(sum((e - m) ** 2 for e in y) / 2)
    if m != sum(beta) / 2 or any(m != e for e in beta) or any(sd != e for e in gamma):
        return refuted({**COUNTEREXAMPLE, "output": [str(e) for e in y], "mean": str(m), "std": str(sd)},
                       f"output entries have mean {m} and std {sd}, not beta = {list(beta)} and gamma = "
                       f"{list(gamma)}; the sentence holds only for constant gamma, beta",
                       Method.CONCRETE, [{"d_model": 2, "n": 1}, "symbolic"], special_case=special)
    if not constant_ok:
        return unknown("neither refuted nor proved", ["symbolic"], special_case=special)
    return proved(Method.SYMBOLIC, ["symbolic"], "holds", special_case=special)


def numeric_moments() -> NumericCheck:
    import numpy as np

    rng = np.random.default_rng(8)
    worst = 0.0
    for d in (3, 7, 64):
        x = ImmutableMatrix(list(rng.normal(size=d)))
        y = np.array([float(e) for e in explicit(LayerNorm(x, ImmutableMatrix([1] * d), ImmutableMatrix([0] * d)))])
        worst = max(worst, abs(y.mean()), abs(y.var() - 1))
    return NumericCheck(worst < 1e-9, worst, 3, "random x at d_model = 3, 7, 64 through the LayerNorm op")


def numeric_beta_gamma() -> NumericCheck:
    """Evidence for the constant case (the general case is refuted by its counterexample)."""
    import numpy as np

    rng = np.random.default_rng(9)
    worst = 0.0
    for d in (3, 11):
        g, b = float(rng.uniform(0.5, 2)), float(rng.normal())
        x = ImmutableMatrix(list(rng.normal(size=d)))
        y = np.array([float(e) for e in explicit(LayerNorm(x, ImmutableMatrix([g] * d), ImmutableMatrix([b] * d)))])
        worst = max(worst, abs(y.mean() - b), abs(y.std() - g))
    return NumericCheck(worst < 1e-9, worst, 2, "constant gamma, beta: mean b and std g")
