r"""``rmsnorm-layernorm``: $\text{LayerNorm}(x; \gamma, \beta) = \text{RMSNorm}(x - \mu(x); \gamma) + \beta$, same $\epsilon$.

Proved entry by entry for symbolic $d_\text{model}$, $n$, $\epsilon$ on the ops' own ``_entry``:
$x - \mu(x)$ is the centring matrix $C = I - \tfrac{1}{d_\text{model}} \mathbf 1 \mathbf 1^\top$ times $x$,
and after two hand-applied rules, linearity of finite sums and the sifting
$\sum_a \delta_{a i} f(a) = f(i)$ (SymPy's ``deltasummation``; $i$ lies in $0 \dots d_\text{model}-1$),
RMSNorm's mean square of $Cx$ is LayerNorm's biased variance, term for term.

When they differ: with $\beta = 0$, $\text{RMSNorm}(x) = \text{LayerNorm}(x)$ for a token whose mean
is 0 (proved by the same rules); for a token with $\mu(x) \neq 0$ they differ (a counterexample).
"""
from __future__ import annotations

from sympy import (
    Identity,
    ImmutableMatrix,
    KroneckerDelta,
    MatrixSymbol,
    OneMatrix,
    Rational,
    Sum,
    Symbol,
    ZeroMatrix,
)
from sympy.concrete.delta import deltasummation

from ..dims import d_model, n
from ..ops import LayerNorm, RMSNorm
from .algebra import is_zero, sum_index_canon, sum_linear
from .claim import Method, NumericCheck, Result, proved, unknown
from .concrete import explicit_pair, numeric_pair_check, prove_entrywise
from .explicit import explicit

STATEMENT = (r"\text{LayerNorm}(x; \gamma, \beta) = \text{RMSNorm}(x - \mu(x); \gamma) + \beta;\ "
             r"\text{RMSNorm}(x) = \text{LayerNorm}(x; \gamma, 0) \text{ iff } \mu(x) = 0")
ASSUMPTIONS = ("same gain gamma and epsilon on both sides", "biased variance (divide by d_model), as PyTorch",
               "symbolic d_model, n, epsilon")

x = MatrixSymbol("x", d_model, n)
gamma = MatrixSymbol("gamma", d_model, 1)
beta = MatrixSymbol("beta", d_model, 1)
eps = Symbol("epsilon", nonnegative=True)
i_, j_ = Symbol("i", integer=True, nonnegative=True), Symbol("j", integer=True, nonnegative=True)
SIZES = [{d_model: 3, n: 2}, {d_model: 5, n: 1}]
EPS = Rational(1, 7)  # epsilon at the concrete sizes
COUNTEREXAMPLE = {"x": [1, 3], "gamma": [1, 1]}


def centring(d=d_model):
    r"""$C = I - \tfrac{1}{d} \mathbf 1 \mathbf 1^\top$: $C x$ subtracts each token's mean."""
    return Identity(d) - OneMatrix(d, d) / d


def sift_deltas(e):
    r"""$\sum_a \delta_{a i} f(a) = f(i)$ in every one-index sum holding a Kronecker delta."""
    def rule(s):
        if isinstance(s, Sum) and len(s.limits) == 1 and s.has(KroneckerDelta):
            return deltasummation(s.function, s.limits[0])
        return s

    return e.replace(lambda y: isinstance(y, Sum), rule)


def sides(centre=None):
    """RMSNorm of the centred input, and LayerNorm with beta = 0 (both with the same gamma, epsilon)."""
    C = centring() if centre is None else centre
    return RMSNorm(C * x, gamma, eps), LayerNorm(x, gamma, ZeroMatrix(d_model, 1), eps)


def _same_entry(left, right) -> bool:
    L = sift_deltas(sum_linear(left._entry(i_, j_)))
    return sum_index_canon(L) == sum_index_canon(right._entry(i_, j_))


def prove_rmsnorm_layernorm(centre=None) -> Result:
    r"""$\text{RMSNorm}(C x; \gamma) = \text{LayerNorm}(x; \gamma, 0)$ entry by entry, $C$ the centring matrix (``centre`` to test others)."""
    rms, ln = sides(centre)
    if not _same_entry(rms, ln):
        result = prove_entrywise(explicit_pair(rms.xreplace({eps: EPS}), ln.xreplace({eps: EPS})), SIZES,
                                 "RMSNorm(x - mu) vs LayerNorm(x), epsilon = 1/7")
        return result if not result.proved else unknown("the symbolic rules did not match; equal entry by entry "
                                                        "at the listed sizes only", result.sizes)
    shift = LayerNorm(x, gamma, beta, eps)._entry(i_, j_) - ln._entry(i_, j_) - beta[i_, 0]
    if not is_zero(shift):
        return unknown(f"beta did not come out as a plain shift: {shift}")
    return proved(Method.SYMBOLIC, ["symbolic"],
                  "entry (i, j): sum linearity and delta sifting turn RMSNorm(Cx) into LayerNorm's (x_i - mu) / "
                  "sqrt(var + eps) gamma_i; beta is a plain shift", when_they_differ=differences())


def differences() -> dict:
    """Mean-0 tokens: RMSNorm = LayerNorm (symbolic); a token with mean != 0: they differ (counterexample)."""
    rms, ln = RMSNorm(x, gamma, eps)._entry(i_, j_), LayerNorm(x, gamma, ZeroMatrix(d_model, 1), eps)._entry(i_, j_)
    token_sums = {s: 0 for s in ln.atoms(Sum) if s.function == x[s.limits[0][0], j_]}  # sum_k x_kj = d mu = 0
    mean_zero = len(token_sums) == 1 and is_zero(ln.xreplace(token_sums) - rms)
    X, g = ImmutableMatrix(COUNTEREXAMPLE["x"]), ImmutableMatrix(COUNTEREXAMPLE["gamma"])
    a, b = explicit(RMSNorm(X, g)), explicit(LayerNorm(X, g, ImmutableMatrix([0, 0])))
    return {"mean 0 (beta = 0)": "RMSNorm = LayerNorm, proved (symbolic)" if mean_zero else "not proved",
            "mean != 0": {**COUNTEREXAMPLE, "RMSNorm": [str(e) for e in a], "LayerNorm": [str(e) for e in b]},
            "beta != 0": "LayerNorm adds beta; RMSNorm has no shift"}


def numeric() -> NumericCheck:
    rms, ln = sides()
    return numeric_pair_check(explicit_pair(rms.xreplace({eps: EPS}), ln.xreplace({eps: EPS})), SIZES)
