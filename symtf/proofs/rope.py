r"""RoPE claims, on the ``RoPE`` op's own $2 \times 2$ blocks, for symbolic angles, positions and $d_\text{head}$.

* ``rope-relative``: $(R_m q_m)^\top (R_n k_n) = q_m^\top R_{n-m}\, k_n$, so the score between
  positions $m$ and $n$ depends on them only through $n - m$. Per pair $i$ of rows, the rotated
  product is $(q_{2i} k_{2i} + q_{2i+1} k_{2i+1}) \cos((n-m)\theta_i) + (q_{2i+1} k_{2i} -
  q_{2i} k_{2i+1}) \sin((n-m)\theta_i)$ (proved by expanding the angle-difference formulas);
  grouping the sum over $d_\text{head} = 2 d_\text{half}$ rows into $d_\text{half}$ pairs is a
  hand-applied rule.
* ``rope-absorption`` (expected **refuted**): "RoPE commutes with absorbing $W_Q^\top W_K$ into one
  matrix", i.e. $(R_m W_Q x_m)^\top (R_n W_K x_n) = x_m^\top W_Q^\top W_K x_n$. An exact counterexample;
  moreover the same $x$ at two position pairs gives two scores, so *no* position-independent
  matrix can stand in the middle: the middle matrix is $W_Q^\top R_{n-m} W_K$. This is why
  DeepSeek's MLA keeps a separate, decoupled RoPE key.
"""
from __future__ import annotations

from sympy import (
    ImmutableMatrix,
    Integer,
    MatrixSymbol,
    Sum,
    Symbol,
    cos,
    expand,
    pi,
    sin,
)

from ..ops import RoPE
from .algebra import is_zero, numeric_gap
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import Env, explicit

d_half = Symbol("d_half", integer=True, positive=True)  # pairs of rows: d_head = 2 d_half
q = MatrixSymbol("q", 2 * d_half, 1)  # W_Q x_m: the query of the token at position m
k = MatrixSymbol("k", 2 * d_half, 1)  # W_K x_n: the key of the token at position n
theta = MatrixSymbol("theta", d_half, 1)
m_, p_ = Symbol("m", integer=True, nonnegative=True), Symbol("n", integer=True, nonnegative=True)
i_ = Symbol("i", integer=True, nonnegative=True)

RELATIVE = r"(R_m q_m)^\top (R_n k_n) = q_m^\top R_{n-m}\, k_n,\ R_p = \operatorname{diag}_i R_2(p\,\theta_i)"
ABSORPTION = r"(R_m W_Q x_m)^\top (R_n W_K x_n) = x_m^\top W_{QK}\, x_n,\ W_{QK} = W_Q^\top W_K"
ASSUMPTIONS = ("symbolic angles theta_i, positions m, n and d_head = 2 d_half", "pairs of adjacent rows")


def _angles_split(e):
    """cos/sin of a sum or difference expanded: $\\cos(a - b) = \\cos a \\cos b + \\sin a \\sin b$ (and sin)."""
    e = e.replace(lambda x: isinstance(x, (cos, sin)), lambda x: x.func(expand(x.args[0])))
    return expand(e, trig=True)


def score_summand(rotate_query=None):
    r"""Pair $i$'s share of $(R_m q_m)^\top (R_n k_n)$, from the op's blocks (``rotate_query`` for wrong variants)."""
    rq = (rotate_query or (lambda x, pos: RoPE(x, theta, pos)))(q, m_)
    a, b = rq.pair(i_, 0)
    c, e = RoPE(k, theta, p_).pair(i_, 0)
    return a * c + b * e


def relative_summand():
    r"""Pair $i$'s share of $q_m^\top R_{n-m} k_n$: a function of $n - m$ alone."""
    delta = p_ - m_
    a, b, c, e = q[2 * i_, 0], q[2 * i_ + 1, 0], k[2 * i_, 0], k[2 * i_ + 1, 0]
    phi = delta * theta[i_, 0]
    return (a * c + b * e) * cos(phi) + (b * c - a * e) * sin(phi)  # q^T R_2(phi) k


def _score(summand):
    return Sum(summand, (i_, 0, d_half - 1))  # rows 0..2 d_half - 1 grouped in pairs (2i, 2i + 1)


def _pairs_are_the_entries() -> bool:
    """The op's entries at rows $2i$, $2i+1$ (its parity ``Piecewise``) are its pair $i$: the grouping is sound."""
    rq = RoPE(q, theta, m_)
    return tuple(rq._entry(r, 0) for r in (2 * i_, 2 * i_ + 1)) == rq.pair(i_, 0)


def prove_relative(rotate_query=None) -> Result:
    r"""$(R_m q)^\top (R_n k) = q^\top R_{n-m} k$ pair by pair (``rotate_query``: another rotation of the query, for tests)."""
    left, right = score_summand(rotate_query), relative_summand()
    if not _pairs_are_the_entries():
        return unknown("RoPE's entries at rows 2i, 2i + 1 are not its pair i")
    if is_zero(_angles_split(left) - _angles_split(right)):
        return proved(Method.SYMBOLIC, ["symbolic"],
                      "each 2x2 block: R_2(m t)^T R_2(n t) = R_2((n - m) t) by the angle-difference formulas; the "
                      "score is the sum of the blocks' shares over i = 0..d_half - 1 (rows grouped in pairs by hand)")
    return _shift_counterexample(rotate_query) or unknown("the block shares did not reduce to a function of n - m")


def _shift_counterexample(rotate_query=None, seed=3):
    """Scores at positions (m, n) and (m + 1, n + 1) on one random instance (d_half = 2): a gap refutes."""
    sized = {d_half: Integer(2)}
    summand = score_summand(rotate_query).xreplace(sized)
    score = _score(summand).xreplace(sized).doit()
    at = {m_: Integer(1), p_: Integer(3)}
    shifted = {m_: Integer(2), p_: Integer(4)}
    gap = numeric_gap(score.xreplace(at), score.xreplace(shifted), seed=seed)
    if gap > 1e-12:
        return refuted({"d_head": 4, "positions": [(1, 3), (2, 4)], "numeric_gap": float(gap)},
                       "same n - m, different scores: the score is not a function of n - m", Method.CONCRETE,
                       [{"d_head": 4}])
    return None


def numeric_relative() -> NumericCheck:
    """Random q, k, theta at d_head = 6: RoPE scores at (m, n) and (m + c, n + c) from the op, equal."""
    worst = 0.0
    for seed, (m0, n0, c) in ((1, (0, 3, 5)), (2, (4, 1, 2))):
        env = Env(numeric=True, seed=seed, digits=15)
        Q, K, T = (env.leaf(MatrixSymbol(s, r, 1)) for s, r in (("q", 6), ("k", 6), ("theta", 3)))

        def score(a, b):
            return (explicit(RoPE(Q, T, a)).T * explicit(RoPE(K, T, b)))[0, 0]

        worst = max(worst, abs(float(score(m0, n0) - score(m0 + c, n0 + c))))
    return NumericCheck(worst < 1e-12, worst, 2, "RoPE op at d_head = 6, random q, k, theta; positions shifted")


COUNTEREXAMPLE = {"d_head": 2, "d_model": 2, "W_Q": "I", "W_K": "I", "theta": "pi/2", "x_m": [1, 0], "x_n": [1, 0]}


def prove_absorption() -> Result:
    r"""Refuted: one $x$ at positions $(0, 0)$ and $(0, 1)$; the absorbed form gives 1 for both."""
    W = ImmutableMatrix([[1, 0], [0, 1]])
    X = ImmutableMatrix([[1, 1], [0, 0]])  # x_0 = x_1 = e_1: the same vector at positions 0 and 1
    T = ImmutableMatrix([pi / 2])
    rotated = explicit(RoPE(W * X, T)).T * explicit(RoPE(W * X, T))  # S[m, n] = (R_m W_Q x_m)^T (R_n W_K x_n)
    absorbed = X.T * (W.T * W) * X
    if rotated != absorbed:
        return refuted({**COUNTEREXAMPLE, "RoPE scores [[m=0,n=0], [m=0,n=1]]": [str(rotated[0, 0]), str(rotated[0, 1])],
                        "absorbed scores": [str(absorbed[0, 0]), str(absorbed[0, 1])]},
                       "the same x_m, x_n at positions (0, 0) and (0, 1) score 1 and 0 with RoPE, so no matrix "
                       "independent of the positions can stand between x_m and x_n; the middle matrix is "
                       "W_Q^T R_{n-m} W_K (rope-relative)", Method.CONCRETE, [{"d_head": 2, "d_model": 2}])
    return unknown("the counterexample did not separate the two forms")


def numeric_absorption() -> NumericCheck:
    """Evidence that the two forms differ on random instances (a gap is the expected outcome)."""
    gaps = []
    for seed in (1, 2):
        env = Env(numeric=True, seed=seed, digits=15)
        W_Q, W_K = (env.leaf(MatrixSymbol(s, 4, 5)) for s in ("W_Q", "W_K"))
        X = env.leaf(MatrixSymbol("x", 5, 3))
        T = env.leaf(MatrixSymbol("theta", 2, 1))
        rotated = explicit(RoPE(W_Q * X, T)).T * explicit(RoPE(W_K * X, T))
        absorbed = X.T * W_Q.T * W_K * X
        gaps.append(max(abs(float(a - b)) for a, b in zip(rotated, absorbed)))
    return NumericCheck(min(gaps) > 1e-6, None, 2, f"RoPE vs absorbed scores on random instances: smallest gap "
                        f"{min(gaps):.2g} (a gap is the expected outcome)")

