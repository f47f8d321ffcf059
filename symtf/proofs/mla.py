r"""``mla-absorption``: DeepSeek's multi-head latent attention without RoPE, absorbed, and its cache size.

MLA caches one latent vector per token, $c^{KV} = W^{DKV} x$ ($d_c \times n$), and up-projects it per
head: $k^h = W^{UK,h} c^{KV}$, $v^h = W^{UV,h} c^{KV}$; queries come from their own latent
$c^Q = W^{DQ} x$: $q^h = W^{UQ,h} c^Q$. Our $d_c$ is DeepSeek-V2's $d_c$, our $W^{UK,h}$ its
$W^{UK}$ restricted to head $h$ (a $d_\text{head} \times d_c$ block).

* Scores: $(q^h)^\top k^h = (c^Q)^\top \big((W^{UQ,h})^\top W^{UK,h}\big)\, c^{KV}$: the up-projection of
  the keys is absorbed into the query side, so keys are never materialised.
* Output: $W_O^h v^h (A^h)^\top = \big(W_O^h W^{UV,h}\big)\, c^{KV} (A^h)^\top$: $W^{UV,h}$ absorbed into $W_O^h$.

Both by associativity (SymPy's canonical products, symbolic sizes and $H$: the sums over heads
agree head by head). With RoPE the first absorption fails (claim ``rope-absorption``), which is
why MLA adds a decoupled RoPE key $k^R$ of $d_R$ entries per token, shared by the heads.

Cache per token and layer: $d_c + d_R$ numbers (MHA: $2 H d_\text{head}$; GQA: $2 G d_\text{head}$),
counted from the rows of the cached matrices.
"""
from __future__ import annotations

from dataclasses import dataclass

from sympy import MatrixSymbol, Rational, Symbol, sqrt

from ..dims import H, d_head, d_model, n, n_layers
from ..model import h
from ..ops import CausalSoftmax, HeadMatrixSymbol, HeadSum
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .concrete import explicit_pair, numeric_pair_check, prove_entrywise
from .expansion import match, terms

d_c = Symbol("d_c", integer=True, positive=True)  # KV latent
d_cq = Symbol("d_cq", integer=True, positive=True)  # query latent (DeepSeek's d_c')
d_R = Symbol("d_R", integer=True, nonnegative=True)  # decoupled RoPE key per token (0 without RoPE)

x = MatrixSymbol("x", d_model, n)
W_DKV, W_DQ = MatrixSymbol("W_DKV", d_c, d_model), MatrixSymbol("W_DQ", d_cq, d_model)
W_UK, W_UV = HeadMatrixSymbol("W_UK", d_head, d_c, h), HeadMatrixSymbol("W_UV", d_head, d_c, h)
W_UQ = HeadMatrixSymbol("W_UQ", d_head, d_cq, h)
W_O = HeadMatrixSymbol("W_O", d_model, d_head, h)

STATEMENT = (r"(q^h)^\top k^h = (c^Q)^\top \big((W^{UQ,h})^\top W^{UK,h}\big) c^{KV},\ W_O^h v^h = (W_O^h W^{UV,h})"
             r" c^{KV};\ \text{cache per token} = n_\text{layers}(d_c + d_R)")
ASSUMPTIONS = ("no RoPE in the absorbed part (decoupled RoPE key of d_R entries cached beside c_KV)",
               "symbolic sizes and H")


#: The absorbed weights, one per head, and what they stand for.
W_QK_abs = HeadMatrixSymbol("W_UQK", d_cq, d_c, h)  # (W^{UQ,h})^T W^{UK,h}
W_OV_abs = HeadMatrixSymbol("W_OUV", d_model, d_c, h)  # W_O^h W^{UV,h}
ABSORBED = {W_QK_abs: W_UQ.T * W_UK, W_OV_abs: W_O * W_UV}


def mla_output(absorbed: bool = False):
    r"""$\sum_h W_O^h v^h \text{softmax}^*\big((q^h)^\top k^h / \sqrt{d}\big)^\top$, naive or written with the absorbed weights."""
    c_kv, c_q = W_DKV * x, W_DQ * x  # d_c × n (cached), d_cq × n
    if absorbed:  # keys and values are never formed: only c_KV is read
        S = c_q.T * W_QK_abs * c_kv / sqrt(d_head)  # n × n
        return HeadSum(W_OV_abs * c_kv * CausalSoftmax(S).T, h, H)
    q, k, v = W_UQ * c_q, W_UK * c_kv, W_UV * c_kv  # d_head × n each
    return HeadSum(W_O * v * CausalSoftmax(q.T * k / sqrt(d_head)).T, h, H)


@dataclass(frozen=True)
class Cached:
    """One matrix kept per layer for later tokens: its name and its rows (numbers per token)."""

    name: str
    rows: object


MLA_CACHE = (Cached("c_KV", d_c), Cached("k_R", d_R))
MHA_CACHE = (Cached("k", H * d_head), Cached("v", H * d_head))


def cache_per_token(cache=MLA_CACHE):
    r"""$n_\text{layers} \sum_{\text{cached}} \text{rows}$: numbers stored per token."""
    return n_layers * sum(c.rows for c in cache)


#: DeepSeek-V2 (DeepSeek-AI 2024, arXiv:2405.04434, Sections 2.1 and 3.1): 60 layers, 128 heads of
#: 128, d_c = 512 = 4 d_h, d_c' = 1536, decoupled RoPE d_h^R = 64 = d_h / 2; Table 1 gives the
#: cache as (d_c + d_h^R) l ≈ 9/2 d_h l against MHA's 2 n_h d_h l.
DEEPSEEK_V2 = {"n_layers": 60, "H": 128, "d_head": 128, "d_c": 512, "d_cq": 1536, "d_R": 64,
               "source": "DeepSeek-AI 2024, DeepSeek-V2 (arXiv:2405.04434), Sections 2.1, 3.1 and Table 1"}


def prove_mla(absorbed=None) -> Result:
    r"""Naive MLA $= \sum_h W^{OUV,h} c^{KV} \text{softmax}^*((c^Q)^\top W^{UQK,h} c^{KV} / \sqrt{d})^\top$ (``absorbed``), and the cache formula."""
    naive = mla_output()
    fused = (mla_output(True) if absorbed is None else absorbed).xreplace(ABSORBED)  # the definitions substituted
    if naive.shape != fused.shape:
        return unknown(f"shapes differ: {naive.shape} vs {fused.shape}")
    ok, _ = match(terms(naive), terms(fused))
    if not ok:
        sizes = [{n: 3, d_model: 5, d_head: 2, d_c: 3, d_cq: 2, H: 2}]
        result = prove_entrywise(explicit_pair(naive, fused), sizes, "naive vs absorbed MLA")
        return result if not result.proved else unknown("equal at concrete sizes only", result.sizes)
    formula = cache_per_token()
    v2 = {n_layers: DEEPSEEK_V2["n_layers"], d_c: DEEPSEEK_V2["d_c"], d_R: DEEPSEEK_V2["d_R"]}
    mha = {n_layers: DEEPSEEK_V2["n_layers"], H: DEEPSEEK_V2["H"], d_head: DEEPSEEK_V2["d_head"]}
    paper = (formula.subs({d_c: 4 * d_head, d_R: d_head / 2}) - Rational(9, 2) * d_head * n_layers).expand()
    if paper != 0:
        return refuted({"formula": str(formula), "paper": "9/2 d_h l"}, "cache formula disagrees with Table 1",
                       Method.SYMBOLIC, ["symbolic"])
    return proved(Method.SYMBOLIC, ["symbolic", "deepseek-v2"],
                  "with the absorbed weights' definitions substituted, each head's naive and absorbed products have "
                  "the same canonical form (associativity), "
                  "symbolic sizes and H; cache n_layers (d_c + d_R) = 9/2 d_head n_layers at DeepSeek-V2's ratios",
                  cache_formula=str(formula), cache_deepseek_v2=int(formula.subs(v2)),
                  cache_mha_same_heads=int(cache_per_token(MHA_CACHE).subs(mha)))


SIZES = [{n: 3, d_model: 5, d_head: 2, d_c: 3, d_cq: 2, H: 2}, {n: 2, d_model: 3, d_head: 3, d_c: 2, d_cq: 3, H: 1}]


def numeric() -> NumericCheck:
    return numeric_pair_check(explicit_pair(mla_output(), mla_output(True).xreplace(ABSORBED)), SIZES, seeds=(11,))
