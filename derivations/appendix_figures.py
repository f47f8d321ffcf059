# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Appendix: key figures in several LLMs
#
# $N = n_\text{vocab} d_\text{model} + n_\text{ctx} d_\text{model}
# + n_\text{layers}(4 d_\text{model} H d_\text{head} + 3 H d_\text{head} + 2 d_\text{model} d_\text{mlp}
# + d_\text{mlp} + 6 d_\text{model}) + 2 d_\text{model}$.

# %%
from symtf.dims import CONFIGS, param_count_formula
from symtf.latex.printer import latex
from symtf.proofs import CLAIMS

print(f"N = {latex(param_count_formula())}")
for cfg in CONFIGS.values():
    print(rf"\text{{{cfg.name}}}: N = {cfg.param_count():,} \approx \text{{{cfg.published_total}}}")

# %%
r = CLAIMS["param-counts"].prove(numeric=False)
print(f"% param-counts: {r.status.value} ({r.method.value})")
