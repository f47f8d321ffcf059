# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Multiple heads
#
# $x^{(1)} = x^{(0)} + \sum_h o^h$, and the concatenated form $W_O R$ with
# $W_O = [W_O^{h_1} | \dots | W_O^{h_H}]$ is the same thing.

# %%
from symtf.latex.printer import latex
from symtf.model import Heads, Variant, build
from symtf.proofs import CLAIMS

additive = build("full-no-ln")
concat = build(Variant(layernorm=False, heads=Heads.CONCAT))
print(f"{latex(additive['resid_mid'].symbol)} = {latex(additive['resid_mid'].expr)}")
print(f"{latex(concat['attn_out'].symbol)} = {latex(concat['attn_out'].expr)}")

# %% [markdown]
# The whole layer in one line (the rows substituted):

# %%
print(f"x^{{(1)}} = {latex(additive.expand('resid_mid'))}")

# %% [markdown]
# Proved for a symbolic number of heads (induction on $H$), with the circuits $W_{QK}$, $W_{OV}$.

# %%
for cid in ("concat-wo", "end-to-end-layer", "qk-ov-circuits", "row-column-convention"):
    r = CLAIMS[cid].prove(numeric=False)
    print(f"{CLAIMS[cid].statement}  % {r.status.value} ({r.method.value})")
