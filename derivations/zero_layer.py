# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # A zero-layer Transformer: embeddings, unembeddings, logits
#
# $x^{(0)} = W_E t + W_\text{pos}$, then $p = \text{softmax}(W_U x^{(0)})$, one column per position.

# %%
from symtf.latex.printer import latex
from symtf.model import build
from symtf.proofs import CLAIMS

model = build("zero")
for act in model.activations:
    if act.expr is not None:
        print(f"{latex(act.symbol)} = {latex(act.expr)}")

# %% [markdown]
# Substituting the rows gives the whole model as one formula:
# $p = \text{softmax}(W_U (W_E t + W_\text{pos}))$.

# %%
print(f"p = {latex(model.expand('probs'))}")

# %% [markdown]
# Column $i$ of $p$ only sees column $i$ of $t$ and of $W_\text{pos}$: the zero-layer model is a
# bigram table (claim `zero-layer-bigram`).

# %%
result = CLAIMS["zero-layer-bigram"].prove(numeric=False)
print(CLAIMS["zero-layer-bigram"].statement)
print(f"% {result.status.value} ({result.method.value}): {result.reason}")
