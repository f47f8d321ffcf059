# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # The attention *matrix*
#
# $q = W_Q x$, $k = W_K x$, $v = W_V x$, $S = q^\top k / \sqrt{d_\text{head}}$,
# $A = \text{softmax}^*(S)$, $r = v A^\top$.

# %%
from sympy import ImmutableMatrix, oo

from symtf.latex.printer import latex
from symtf.model import build
from symtf.ops import Softmax
from symtf.proofs import CLAIMS
from symtf.proofs.explicit import explicit

model = build("full-no-ln")
for key in ("q", "k", "v", "scores", "pattern", "result"):
    print(f"{latex(model[key].symbol)} = {latex(model[key].expr)}")

# %% [markdown]
# Padding with $-\infty$: $\text{softmax}([1, 2, -\infty]) = [0.269, 0.731, 0]$.

# %%
padded = explicit(Softmax(ImmutableMatrix([1, 2, -oo]), 0))
print(r"\text{softmax}([1, 2, -\infty]) = " + latex(padded.T) + r" \approx "
      + latex(padded.T.evalf(3)))

# %% [markdown]
# The masked sum: $r_i = \sum_{j \le i} a_{ij} v_j$, a convex combination of $v_1 \dots v_i$;
# column $i$ of the output never sees tokens after $i$.

# %%
for cid in ("result-matrix-form", "convex-combination", "softmax-neg-inf-padding", "causal"):
    r = CLAIMS[cid].prove(numeric=False)
    print(f"{CLAIMS[cid].statement}  % {r.status.value} ({r.method.value})")
