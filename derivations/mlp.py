# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # The multilayer perceptron
#
# $z = \text{ReLU}(W_1 x^{(1)}_\text{LN} + b_1)$, $m = W_2 z + b_2$: the same map applied to every
# token's column on its own.

# %%
from symtf.latex.printer import latex
from symtf.model import build
from symtf.proofs import CLAIMS

model = build("full")
for key in ("mlp_hidden", "mlp_out", "resid_post"):
    print(f"{latex(model[key].symbol)} = {latex(model[key].expr)}")

# %%
r = CLAIMS["mlp-position-wise"].prove(numeric=False)
print(f"{CLAIMS['mlp-position-wise'].statement}  % {r.status.value} ({r.method.value})")
