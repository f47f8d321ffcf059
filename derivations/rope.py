# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Rotary position embeddings
#
# RoPE rotates each pair of rows $(2i, 2i+1)$ of a query or key at position $p$ by the angle
# $p\,\theta_i$: $\text{RoPE}(q)_{:, p} = R_p\, q_p$ with $R_p = \operatorname{diag}_i R_2(p\,\theta_i)$.
# One pair of the rotated query at position $m$:

# %%
from symtf.latex.printer import latex
from symtf.ops import RoPE
from symtf.proofs import CLAIMS
from symtf.proofs.rope import i_, m_, q, relative_summand, score_summand, theta

a, b = RoPE(q, theta, m_).pair(i_, 0)
print(rf"(R_m q)_{{2i}} = {latex(a)}, \quad (R_m q)_{{2i+1}} = {latex(b)}")

# %% [markdown]
# Pair $i$'s share of the score $(R_m q_m)^\top (R_n k_n)$, and the same share written with the
# single rotation $R_{n-m}$: equal once the angle-difference formulas are expanded.

# %%
print(rf"{latex(score_summand())} = {latex(relative_summand())}")
claim = CLAIMS["rope-relative"]
r = claim.prove(numeric=False)
print(f"{claim.statement}  % {r.status.value} ({r.method.value})")

# %% [markdown]
# So the matrix between $x_m$ and $x_n$ is $W_Q^\top R_{n-m} W_K$: it depends on the positions.
# Absorbing $W_Q^\top W_K$ into one fixed matrix, as one does without RoPE, is wrong; the
# counterexample is exact. (DeepSeek's MLA therefore carries RoPE on a separate key.)

# %%
claim = CLAIMS["rope-absorption"]
r = claim.prove(numeric=False)
print(f"{claim.statement}  % {r.status.value} (expected: {claim.expected.value}): {r.reason}")
print(f"% counterexample: {r.counterexample}")
