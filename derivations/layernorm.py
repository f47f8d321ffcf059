# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # LayerNorm
#
# $\text{LayerNorm}(x) = \frac{x - \mu(x)}{\sigma(x)} \odot \gamma + \beta$, per token.
# Before $\gamma, \beta$: mean 0, variance 1 (symbolic $d_\text{model}$). The post's
# "mean $\beta$ and standard deviation $\gamma$" holds only for constant $\gamma, \beta$.

# %%
from symtf.latex.printer import latex
from symtf.model import build
from symtf.proofs import CLAIMS

model = build("full")
print(f"{latex(model['ln1'].symbol)} = {latex(model['ln1'].expr)}")

# %%
moments = CLAIMS["layernorm-moments"].prove(numeric=False)
print(rf"\mu = {latex(moments.details['mean'])}, \quad \sigma^2 = {latex(moments.details['variance'])}")
claim = CLAIMS["layernorm-beta-gamma"]
r = claim.prove(numeric=False)
print(f"{claim.statement}  % {r.status.value}: {r.reason}")
print(f"% counterexample: {r.counterexample}")
