r"""``kv-cache``: decoding token by token with cached keys and values equals the full forward pass.

With the causal mask, column $m$ of the attention result $r = v A^\top$ is

$$r_m = \sum_{j \le m} \frac{e^{q_m^\top k_j / \sqrt{d}}}{\sum_{l \le m} e^{q_m^\top k_l / \sqrt{d}}}\, v_j ,$$

which reads only $q_m$ and the first $m$ columns of $k$ and $v$. Decoding step $m$ computes
exactly that from the cache $K = [k_1, \dots, k_m]$, $V = [v_1, \dots, v_m]$ (appending $k_m, v_m$) and the
new query $q_m$: $V \text{softmax}(q_m^\top K / \sqrt{d})^\top$.

Proved for symbolic $n$, $m \le n$ and sizes on the model's own rows (``q``, ``k``, ``v``, ``scores``,
``pattern``, ``result``): entry $(c, m)$ of the full pass, its sum split at $j = m$ (the masked terms
are 0, the ``Piecewise`` resolved on each range) is the decoding step's entry, sum for sum; and the
resolved entry reads $q, k, v$ only at columns $\le m$. Every other row of the model acts on each
token's column alone ($W x$, LayerNorm, the MLP: claim ``mlp-position-wise``), so the activations of
positions $1 \dots m$ do not depend on tokens after $m$, and, layer after layer, neither does a
stack of such layers.
"""
from __future__ import annotations

from sympy import ImmutableMatrix, Integer, MatrixSymbol, Sum, Symbol, sqrt
from sympy.matrices.expressions.matexpr import MatrixElement

from ..dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from ..model import build
from ..ops import CausalSoftmax, Column, LeadingColumns, Softmax
from .algebra import resolve_piecewise, split_sum, sum_index_canon
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .concrete import TOLERANCE
from .explicit import Env, evaluate, explicit

m_ = Symbol("m", integer=True, positive=True)  # the position being decoded (1-based)
c_ = Symbol("c", integer=True, nonnegative=True)  # a feature of the value vectors

STATEMENT = (r"r_{:, m} = V \,\text{softmax}\big(q_m^\top K / \sqrt{d_\text{head}}\big)^\top,\ K = [k_1 \dots k_m],"
             r"\ V = [v_1 \dots v_m];\ \partial x_{:, i} / \partial t_j = 0 \ (j > i)")
ASSUMPTIONS = ("causal mask (softmax*)", "symbolic n, m <= n and sizes", "one head's rows; the others are per token")


def _rows(pattern=CausalSoftmax):
    """The model's ``r = v A^T``, ``A = pattern(S)``, ``S = q^T k / sqrt(d)``, with ``q``, ``k``, ``v`` as leaves."""
    model = build("full")
    S = model["scores"].expr
    r = model["result"].expr.xreplace({model["pattern"].symbol: pattern(S)})
    return r, model["q"].symbol, model["k"].symbol, model["v"].symbol


def decode_step(q, k, v, cached=lambda m: m):
    r"""$V\, \text{softmax}(q_m^\top K / \sqrt{d})^\top$ from the cache of the first ``cached(m)`` keys and values."""
    K, V = LeadingColumns(k, cached(m_)), LeadingColumns(v, cached(m_))
    a = Softmax(Column(q, m_).T * K / sqrt(d_head), 1)  # 1 × m
    return V * a.T  # d_head × 1


def reads_only_prefix(entry, i) -> bool:
    """Every entry of q, k, v that ``entry`` reads sits in a column $\\le i$ (``i`` itself or a bound index up to ``i``)."""
    bounds = {}
    for s in entry.atoms(Sum):
        for var, lo, hi in s.limits:
            bounds[var] = hi
    for e in entry.atoms(MatrixElement):
        if e.parent.name not in ("q", "k", "v"):
            continue
        col = e.j
        if col == i:
            continue
        if col in bounds and (bounds[col] - i).is_nonpositive:
            continue
        return False
    return True


def prove_kv_cache(pattern=CausalSoftmax, cached=lambda m: m) -> Result:
    r"""$r_{:, m} = V \text{softmax}(q_m^\top K / \sqrt{d})^\top$ with the cache of the first ``cached(m)`` keys/values, ``pattern`` the mask."""
    r, q, k, v = _rows(pattern)
    i = m_ - 1  # 0-based column of position m
    full = r._entry(c_, i)
    step = decode_step(q, k, v, cached)._entry(c_, 0)
    kept, masked = (resolve_piecewise(x) for x in split_sum(full, i))
    if masked.function == 0 and sum_index_canon(kept) == sum_index_canon(step) and reads_only_prefix(kept, i):
        return proved(Method.SYMBOLIC, ["symbolic"],
                      "entry (c, m) of v softmax*(S)^T split at j = m: masked terms 0, the rest is the decoding step "
                      "from the cache of k_1..k_m, v_1..v_m (sum for sum); it reads q, k, v at columns <= m only")
    return _refute(pattern, cached) or unknown(f"after the split: kept {kept}, masked {masked.function}; step {step}")


SIZES = {n: 3, d_head: 2, m_: 2}


def _refute(pattern, cached):
    """Full pass column m vs the decoding step, random q, k, v at n = 3, m = 2."""
    r, q, k, v = _rows(pattern)
    sized = {key: Integer(val) for key, val in SIZES.items()}
    env = Env(numeric=True, seed=5, digits=15)
    R = explicit(r.xreplace(sized), env)
    step = explicit(decode_step(q, k, v, cached).xreplace(sized), env)
    gap = max(abs(float(R[a, SIZES[m_] - 1] - step[a, 0])) for a in range(SIZES[d_head]))
    if gap > TOLERANCE:
        named = {str(key): val for key, val in SIZES.items()}
        return refuted({**named, "numeric_gap": gap}, "the decoding step differs from the full pass's column m",
                       Method.CONCRETE, [named])
    return None


MODEL_SIZES = {n: 4, d_model: 3, d_head: 2, H: 2, d_mlp: 2, n_vocab: 5, n_ctx: 4}
TOKENS = [3, 0, 4, 1]


def numeric() -> NumericCheck:
    """The full one-layer model (LayerNorm, 2 heads, MLP) on 4 tokens vs on each prefix: equal columns."""
    import numpy as np

    model = build("full")
    worst = 0.0
    for seed in (1,):
        probs = {}
        for length in (2, 4):
            sizes = {**MODEL_SIZES, n: length}
            env = Env(numeric=True, seed=seed, digits=15)
            t = MatrixSymbol("t", n_vocab, n).xreplace({n_vocab: Integer(5), n: Integer(length)})
            env[t] = ImmutableMatrix(5, length, lambda a, b: int(TOKENS[b] == a))
            probs[length] = np.array(evaluate(model, sizes, env, upto="probs")["probs"], dtype=float)
        for length in (2,):
            worst = max(worst, float(np.max(np.abs(probs[length] - probs[4][:, :length]))))
    return NumericCheck(worst < 1e-12, worst, 1, "full model (LayerNorm, 2 heads, MLP) on 4 tokens vs on its first 2: "
                        "the first 2 columns of p agree")
