"""GQA, the KV cache and MLA against PyTorch code written here.

* GQA: ``torch.nn.functional.scaled_dot_product_attention(..., enable_gqa=True)`` (row convention,
  causal) against symtf's grouped sum $\\sum_c \\sum_j o((c-1)s + j, c)$ with the same weights; K/V
  tiled with ``repeat`` (the wrong axis) does not give it.
* KV cache: a decoding loop that appends to cached key/value tensors against symtf's full-pass
  rows $r = v\\,\\text{softmax}^*(S)^\\top$.
* MLA: naive multi-head latent attention in torch (keys and values up-projected per head) against
  symtf's absorbed expression.
"""
from __future__ import annotations

import numpy as np
import pytest
from sympy import ImmutableMatrix, Integer

from tests.crosscheck import require

torch = require("torch")

from symtf.dims import H, d_head, d_model, n  # noqa: E402
from symtf.model import Variant, build  # noqa: E402
from symtf.ops import HeadMatrixSymbol  # noqa: E402
from symtf.proofs import gqa, kvcache, mla  # noqa: E402
from symtf.proofs.explicit import Env, explicit  # noqa: E402

pytestmark = pytest.mark.crosscheck
F = torch.nn.functional


def _value(expr, sizes, leaves):
    """``expr`` at ``sizes`` with each leaf (symbol at a concrete head) bound to a numpy array."""
    sized = {k: Integer(v) for k, v in sizes.items()}
    given = {sym.xreplace(sized): ImmutableMatrix(val) for sym, val in leaves.items()}
    env = Env(given, numeric=True, digits=15)  # numeric: evaluated as it goes (exp of floats stays a float)
    out = np.array(explicit(expr.xreplace(sized), env), dtype=float)
    assert set(env) == set(given), f"leaves without a value: {set(env) - set(given)}"
    return out


def _head(sym, c):
    return HeadMatrixSymbol(sym.name, *sym.shape, Integer(c))


@pytest.mark.parametrize("groups, size", [(2, 3), (1, 5)])  # GQA, and MQA (one group)
def test_gqa_against_torch_sdpa(groups, size):
    sizes = {gqa.G: groups, gqa.s: size, n: 7, d_model: 11, d_head: 3}
    rng = np.random.default_rng(groups)
    heads, N, D, dh = groups * size, 7, 11, 3
    x = rng.normal(size=(D, N))
    Wq, Wo = rng.normal(size=(heads, dh, D)), rng.normal(size=(heads, D, dh))
    Wk, Wv = rng.normal(size=(groups, dh, D)), rng.normal(size=(groups, dh, D))
    model = build(Variant(layernorm=False))
    P = {p.key: p.symbol for p in model.parameters}
    leaves = {model["embed"].symbol: x}
    leaves.update({_head(P["W_Q"], c + 1): Wq[c] for c in range(heads)})
    leaves.update({_head(P["W_O"], c + 1): Wo[c] for c in range(heads)})
    leaves.update({_head(P["W_K"], c + 1): Wk[c] for c in range(groups)})
    leaves.update({_head(P["W_V"], c + 1): Wv[c] for c in range(groups)})
    ours = _value(gqa._concrete(gqa.head_output(), sizes, gqa.interleave, grouped=True), sizes, leaves)
    X = torch.tensor(x.T)  # (N, D)
    q = torch.einsum("hdk,nk->hnd", torch.tensor(Wq), X)[None]  # (1, heads, N, dh)
    k = torch.einsum("gdk,nk->gnd", torch.tensor(Wk), X)[None]  # (1, groups, N, dh)
    v = torch.einsum("gdk,nk->gnd", torch.tensor(Wv), X)[None]
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)[0]  # (heads, N, dh)
    theirs = torch.einsum("hed,hnd->en", torch.tensor(Wo), out).numpy()
    assert np.allclose(ours, theirs, atol=1e-10)
    if groups > 1:  # K/V tiled instead of interleaved: another model
        tiled = F.scaled_dot_product_attention(q, k.repeat(1, size, 1, 1), v.repeat(1, size, 1, 1), is_causal=True)[0]
        assert not np.allclose(torch.einsum("hed,hnd->en", torch.tensor(Wo), tiled).numpy(), ours, atol=1e-3)


def test_decoding_with_a_cache_in_torch_equals_symtf_full_pass():
    rng = np.random.default_rng(7)
    dh, N = 5, 7
    q, k, v = (rng.normal(size=(dh, N)) for _ in range(3))
    r, Q, K, V = kvcache._rows()
    ours = _value(r, {n: N, d_head: dh}, {Q: q, K: k, V: v})
    cache_k, cache_v = torch.empty(0, dh, dtype=torch.float64), torch.empty(0, dh, dtype=torch.float64)
    for m in range(N):  # decode token m with the cache of tokens 0..m
        cache_k = torch.cat([cache_k, torch.tensor(k[:, m])[None]])
        cache_v = torch.cat([cache_v, torch.tensor(v[:, m])[None]])
        a = torch.softmax(cache_k @ torch.tensor(q[:, m]) / dh ** 0.5, dim=0)
        assert np.allclose((a @ cache_v).numpy(), ours[:, m], atol=1e-12)


def test_naive_mla_in_torch_equals_symtf_absorbed_mla():
    rng = np.random.default_rng(9)
    sizes = {n: 5, d_model: 7, d_head: 3, mla.d_c: 2, mla.d_cq: 4, H: 2}
    D, N, dh, dc, dcq, heads = 7, 5, 3, 2, 4, 2
    x = rng.normal(size=(D, N))
    W_dkv, W_dq = rng.normal(size=(dc, D)), rng.normal(size=(dcq, D))
    W_uk, W_uv, W_uq = rng.normal(size=(heads, dh, dc)), rng.normal(size=(heads, dh, dc)), rng.normal(size=(heads, dh, dcq))
    W_o = rng.normal(size=(heads, D, dh))
    leaves = {mla.x: x, mla.W_DKV: W_dkv, mla.W_DQ: W_dq}
    for c in range(heads):
        leaves.update({_head(mla.W_UK, c + 1): W_uk[c], _head(mla.W_UV, c + 1): W_uv[c],
                       _head(mla.W_UQ, c + 1): W_uq[c], _head(mla.W_O, c + 1): W_o[c]})
    ours = _value(mla.mla_output(absorbed=True).xreplace(mla.ABSORBED), sizes, leaves)
    T = lambda a: torch.tensor(a)  # noqa: E731
    c_kv, c_q = T(W_dkv) @ T(x), T(W_dq) @ T(x)  # (dc, N), (dcq, N)
    k, v, q = T(W_uk) @ c_kv, T(W_uv) @ c_kv, T(W_uq) @ c_q  # (heads, dh, N): keys and values materialised
    out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
    theirs = (T(W_o) @ out.transpose(1, 2)).sum(0).numpy()
    assert np.allclose(ours, theirs, atol=1e-10)
