# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # LLaMA's parts: RMSNorm and the parameter count
#
# RMSNorm divides each token's vector by its root mean square and multiplies by a gain $g$;
# it does not centre and has no shift. $\text{LayerNorm}(x) = \text{RMSNorm}(x - \mu(x)) + \beta$
# with the same gain, so the two agree exactly on tokens of mean 0 when $\beta = 0$.

# %%
from sympy import MatrixSymbol, Symbol, ZeroMatrix

from symtf.dims import d_model
from symtf.latex.printer import latex
from symtf.llama import LLAMA2, llama_param_formula
from symtf.ops import LayerNorm, RMSNorm
from symtf.proofs import CLAIMS
from symtf.proofs.rmsnorm import x

i, j = Symbol("i", integer=True), Symbol("j", integer=True)
g, eps = MatrixSymbol("g", d_model, 1), Symbol("epsilon")
print(rf"\text{{RMSNorm}}(x)_{{ij}} = {latex(RMSNorm(x, g, eps)._entry(i, j))}")
print(r"x - \mu(x) = \left(I - \tfrac{1}{d_\text{model}} \mathbf{1} \mathbf{1}^\top\right) x")
print(rf"\text{{LayerNorm}}(x)_{{ij}} = {latex(LayerNorm(x, g, ZeroMatrix(d_model, 1), eps)._entry(i, j))}")

# %%
claim = CLAIMS["rmsnorm-layernorm"]
r = claim.prove(numeric=False)
print(f"{claim.statement}  % {r.status.value} ({r.method.value}): {r.reason}")
print(f"% when they differ: {r.details['when_they_differ']}")

# %% [markdown]
# The parameter count of a LLaMA-style model (RMSNorm gains, SwiGLU's three matrices, grouped
# key/value heads, no biases, untied unembedding), at LLaMA-2's released sizes:

# %%
print(f"N = {latex(llama_param_formula())}")
r = CLAIMS["llama-param-counts"].prove(numeric=False)
for key, row in r.details["totals"].items():
    print(rf"\text{{{LLAMA2[key].name}}}: N = {row['count']:,} \text{{ (released: {row['published']:,})}}".replace(",", "{,}"))
print(f"% {r.status.value} ({r.method.value})")
