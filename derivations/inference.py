# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Inference: the KV cache, grouped-query attention, multi-head latent attention
#
# **KV cache.** With the causal mask, column $m$ of $r = v\,\text{softmax}^*(S)^\top$ reads only
# $q_m$ and the first $m$ keys and values, so decoding token $m$ from a cache of
# $k_1 \dots k_m$, $v_1 \dots v_m$ gives the full pass's column. Entry $(c, m)$ of the full pass:

# %%
from symtf.latex.printer import latex
from symtf.proofs import CLAIMS
from symtf.proofs.algebra import resolve_piecewise, split_sum
from symtf.proofs.gqa import head_output, interleave
from symtf.proofs.kvcache import _rows, c_, decode_step, m_
from symtf.proofs.mla import cache_per_token, mla_output

r, q, k, v = _rows()
kept, masked = (resolve_piecewise(x) for x in split_sum(r._entry(c_, m_ - 1), m_ - 1))
print(rf"r_{{c,m}} = {latex(kept)} + {latex(masked)}")
print(rf"\text{{decode}}_{{c}} = {latex(decode_step(q, k, v)._entry(c_, 0))}")
for cid in ("kv-cache",):
    res = CLAIMS[cid].prove(numeric=False)
    print(f"{CLAIMS[cid].statement}  % {res.status.value} ({res.method.value})")

# %% [markdown]
# **Grouped-query attention.** $G$ key/value heads, each shared by $s$ query heads; query head
# $h$ of the equivalent MHA reads K/V head $\lfloor (h-1)/s \rfloor + 1$ (``repeat_interleave``).
# One head's output with its K/V at head $u$:

# %%
from sympy import Symbol  # noqa: E402

print(rf"o(h, u) = {latex(head_output())}, \quad u(h) = {latex(interleave(Symbol('h')))}")
res = CLAIMS["gqa-mha"].prove(numeric=False)
print(f"{CLAIMS['gqa-mha'].statement}  % {res.status.value} ({res.method.value}): {res.reason}")

# %% [markdown]
# **Multi-head latent attention** (no RoPE): keys and values are up-projected from a cached latent
# $c^{KV}$; the up-projections can be absorbed into the query side and into $W_O$.

# %%
print(rf"\text{{naive}} = {latex(mla_output())}")
print(rf"\text{{absorbed}} = {latex(mla_output(absorbed=True))}")
res = CLAIMS["mla-absorption"].prove(numeric=False)
print(rf"\text{{cache per token}} = {latex(cache_per_token())}  % {res.status.value} ({res.method.value})")
print(f"% DeepSeek-V2: {res.details['cache_deepseek_v2']:,} numbers per token (MHA with its 128 heads: "
      f"{res.details['cache_mha_same_heads']:,})")
