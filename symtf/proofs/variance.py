r"""``variance-sqrt-dhead``: $\mathbb{E}[q^\top k] = 0$, $\operatorname{Var}(q^\top k) = d_\text{head}$,
$\operatorname{Var}(q^\top k / \sqrt{d_\text{head}}) = 1$, for a symbolic $d_\text{head}$.

The score is read from the simplified model's own row $s = q_n^\top k / \sqrt{d_\text{head}}$
(entry $j$ is $\sum_{c} q_c k_c / \sqrt{d_\text{head}}$). A small expectation operator does the
moment algebra on ``IndexedBase`` sums, using only

* linearity: $\mathbb{E}\sum_c f_c = \sum_c \mathbb{E} f_c$, constants pulled out;
* independence of $q$ and $k$: $\mathbb{E}[F(q) G(k)] = \mathbb{E}F(q)\,\mathbb{E}G(k)$;
* i.i.d. entries within a vector: $\mathbb{E}[x_a^p x_b^r] = m_{p+r}\,\delta_{ab} + m_p m_r (1 - \delta_{ab})$
  with raw moments $m_1 = \mu$, $m_2 = \sigma^2 + \mu^2$, $m_3, m_4$ symbols;
* $\sum_{b=0}^{d-1} \delta_{ab} F = F|_{b=a}$ for $a$ in the same range, $\sum_{b=0}^{d-1} F = d F$ for $F$ free of $b$.

No distribution is assumed beyond the moments. When $q = k$ (dependent), the same operator gives
$\operatorname{Var}(q^\top q) = d\,(m_4 - m_2^2)$, which is $d$ only if $m_4 = 2$: refuted in general.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from sympy import (
    Add,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Mul,
    Pow,
    S,
    Sum,
    Symbol,
    expand,
    factor,
    sqrt,
)
from sympy.matrices.expressions.matexpr import MatrixElement

from ..dims import d_head
from ..model import build
from .claim import Method, NumericCheck, Result, proved, refuted, unknown

STATEMENT = (r"q, k \in \mathbb{R}^{d_\text{head}} \text{ independent, i.i.d. entries, mean } 0, \text{ variance } 1"
             r" \implies \mathbb{E}[q^\top k] = 0,\ \operatorname{Var}(q^\top k) = d_\text{head},\ "
             r"\operatorname{Var}(q^\top k / \sqrt{d_\text{head}}) = 1")
ASSUMPTIONS = ("q and k independent", "entries of each vector i.i.d. with finite fourth moment",
               "any distribution (only moments are used)", "d_head a symbolic positive integer")

q, k = IndexedBase("q"), IndexedBase("k")


@dataclass(frozen=True)
class Moments:
    r"""Raw moments $m_1 \dots m_4$ of one vector's entries."""

    mean: object
    var: object
    m3: object
    m4: object

    def raw(self, p: int):
        return {0: S.One, 1: self.mean, 2: self.var + self.mean**2, 3: self.m3, 4: self.m4}[p]


def moments(name: str, mean=None, var=None) -> Moments:
    mu = Symbol(f"mu_{name}", real=True) if mean is None else mean
    s2 = Symbol(f"sigma_{name}", positive=True) ** 2 if var is None else var
    return Moments(mu, s2, Symbol(f"m3_{name}", real=True), Symbol(f"m4_{name}", real=True))


def score_entry(scale: bool = True, dependent: bool = False):
    r"""Entry $j$ of the model's $s = q_n^\top k / \sqrt{d_\text{head}}$ written with $q_c, k_c$ (or $q_c q_c$)."""
    model = build("simplified")
    expr = model["scores"].expr
    j = Symbol("j", integer=True, nonnegative=True)
    entry = expr._entry(0, j)
    qn, kk = model["q"].symbol, model["k"].symbol

    def rename(e):
        if isinstance(e, MatrixElement) and e.parent == qn:
            return q[e.i]
        if isinstance(e, MatrixElement) and e.parent == kk:
            return (q if dependent else k)[e.i]
        return e

    entry = entry.replace(lambda e: isinstance(e, MatrixElement), rename)
    if not scale:
        entry = entry * sqrt(d_head)
    return entry


def _split_factors(term):
    coeff, factors = S.One, []
    for f in Mul.make_args(term):
        base, exp_ = (f.base, f.exp) if isinstance(f, Pow) else (f, Integer(1))
        if isinstance(base, Indexed):
            factors += [base] * int(exp_)
        else:
            coeff *= f
    return coeff, factors


def expectation(expr, laws: dict):
    """$\\mathbb{E}$ of a polynomial in indexed entries, sums kept symbolic (rules in the module doc)."""
    expr = expand(expr)
    if isinstance(expr, Add):
        return Add(*[expectation(t, laws) for t in expr.args])
    if isinstance(expr, Sum):
        return Sum(expectation(expr.function, laws), *expr.limits)
    coeff, factors = _split_factors(expr)
    sums = [f for f in Mul.make_args(coeff) if isinstance(f, Sum)]
    if sums:
        rest = coeff / sums[0]
        if len(sums) > 1 or factors or rest.atoms(Indexed):
            raise ValueError(f"products of sums must be written as one double sum: {expr}")
        return rest * expectation(sums[0], laws)  # a constant comes out of E
    value = coeff
    for base in {f.base for f in factors}:
        counts: dict = {}
        for f in factors:
            if f.base == base:
                counts[f.indices[0]] = counts.get(f.indices[0], 0) + 1
        law = laws[base]
        if len(counts) == 1:
            value *= law.raw(sum(counts.values()))
        elif len(counts) == 2:
            (a, p), (b, r) = counts.items()
            delta = KroneckerDelta(a, b)
            value *= law.raw(p + r) * delta + law.raw(p) * law.raw(r) * (1 - delta)
        else:
            raise ValueError(f"more than two distinct indices on {base}: {counts}")
    return value


def sum_out(expr, ranges: dict):
    """Evaluate sums of the module's shape: Kronecker deltas over the same range, then constants.

    ``ranges`` maps each summation index to its ``(lo, hi)``: a delta between two indices is summed
    out only when both are known to run over the same range.
    """
    expr = expand(expr)
    if isinstance(expr, Add):
        return Add(*[sum_out(t, ranges) for t in expr.args])
    if isinstance(expr, Mul):
        return Mul(*[sum_out(f, ranges) for f in expr.args])
    if not isinstance(expr, Sum):
        return expr
    fn = sum_out(Sum(expr.function, *expr.limits[:-1]), ranges) if len(expr.limits) > 1 else expr.function
    var, lo, hi = expr.limits[-1]
    fn = expand(fn).replace(lambda e: isinstance(e, Pow) and isinstance(e.base, KroneckerDelta),
                            lambda e: e.base)
    total = S.Zero
    for term in Add.make_args(expand(fn)):
        deltas = [f for f in Mul.make_args(term) if isinstance(f, KroneckerDelta) and var in f.free_symbols]
        if len(deltas) == 1:
            other = (set(deltas[0].args) - {var}).pop()
            # other is an index of an enclosing sum over the same range lo..hi
            total += (term / deltas[0]).xreplace({var: other})
            if not ranges.get(other) == (lo, hi):
                raise ValueError(f"delta({var}, {other}) with ranges not known to match")
        elif not deltas and var not in term.free_symbols:
            total += (hi - lo + 1) * term
        else:
            raise ValueError(f"cannot sum {term} over {var}")
    return total


def _square(entry):
    """$X$ and $X^2$ as sums over renamed copies of the index, and the range of each copy."""
    if not isinstance(entry, (Mul, Sum)):
        raise TypeError(f"unexpected score form {entry}")
    coeff, s = S.One, None
    for f in Mul.make_args(entry):
        if isinstance(f, Sum):
            s = f
        else:
            coeff *= f
    (a, lo, hi), = s.limits
    b = Symbol(f"{a}_2", integer=True)
    a2 = Symbol(f"{a}_1", integer=True)
    f1, f2 = s.function.xreplace({a: a2}), s.function.xreplace({a: b})
    ranges = {a2: (lo, hi), b: (lo, hi)}
    return coeff * Sum(f1, (a2, lo, hi)), coeff**2 * Sum(f1 * f2, (a2, lo, hi), (b, lo, hi)), ranges


def mean_and_variance(entry, laws):
    first, second, ranges = _square(entry)
    mean = factor(expand(sum_out(expectation(first, laws), ranges)))
    var = factor(expand(sum_out(expectation(second, laws), ranges) - mean**2))
    return mean, var


def standard():
    return {q: moments("q", 0, 1), k: moments("k", 0, 1)}


def prove_variance(scale: bool = True, dependent: bool = False) -> Result:
    """Mean 0 and variance 1 of the model's score under the standard assumptions (or the failure)."""
    laws = standard()
    raw = score_entry(scale=False, dependent=dependent)
    mean_raw, var_raw = mean_and_variance(raw, laws)
    mean, var = mean_and_variance(score_entry(scale=scale, dependent=dependent), laws)
    general_q, general_k = moments("q"), moments("k")
    g_mean, g_var = mean_and_variance(score_entry(scale=False), {q: general_q, k: general_k})
    details = {"E[q^T k]": mean_raw, "Var(q^T k)": var_raw, "E[s]": mean, "Var(s)": var,
               "general E[q^T k]": g_mean, "general Var(q^T k)": g_var}
    if expand(mean) == 0 and expand(var - 1) == 0 and expand(mean_raw) == 0 and expand(var_raw - d_head) == 0:
        return proved(Method.SYMBOLIC, ["symbolic"], "moment algebra with linearity and independence",
                      **details)
    # a concrete counterexample to Var(s) = 1: the smallest d_head where the formula is not 1
    for law_name, m4 in (("Rademacher (m4 = 1)", 1), ("normal (m4 = 3)", 3)):
        for d in (1, 2, 3):
            value = var.subs({d_head: d}).subs({s: m4 for s in var.free_symbols if s.name.startswith("m4")})
            if value != 1:
                return refuted({"d_head": d, "law": law_name, "Var(s)": str(value)},
                               f"Var(s) = {var}, not 1", Method.SYMBOLIC, ["symbolic"], **details)
    return unknown(f"could not reduce Var(s) = {var} to 1", ["symbolic"], **details)


def monte_carlo(d: int = 16, samples: int = 20000, seed: int = 0) -> NumericCheck:
    """Sample variance of $q^\\top k/\\sqrt d$ for normal and uniform entries with a 99% interval."""
    rng = np.random.default_rng(seed)
    worst, details = 0.0, []
    ok = True
    for name, draw in (("normal", lambda size: rng.standard_normal(size)),
                       ("uniform", lambda size: rng.uniform(-math.sqrt(3), math.sqrt(3), size))):
        qs, ks = draw((samples, d)), draw((samples, d))
        s = (qs * ks).sum(axis=1) / math.sqrt(d)
        var = s.var()
        centred = s - s.mean()
        se = math.sqrt(max((centred**4).mean() - var**2, 0.0) / samples)
        lo, hi = var - 2.576 * se, var + 2.576 * se
        mean_se = s.std() / math.sqrt(samples)
        ok &= lo <= 1 <= hi and abs(s.mean()) <= 2.576 * mean_se
        worst = max(worst, abs(var - 1))
        details.append(f"{name}: mean {s.mean():.4f}, Var {var:.4f}, 99% CI [{lo:.4f}, {hi:.4f}]")
    return NumericCheck(bool(ok), worst, 2 * samples, f"d_head={d}; " + "; ".join(details))
