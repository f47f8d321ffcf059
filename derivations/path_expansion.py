# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # Path expansion of attention-only Transformers
#
# Hold the attention patterns $A^h$ fixed: the logits are then linear in the one-hot input $t$,
# and the linear map splits into paths. One layer, from the model's own rows ($W_\text{pos}$ and
# the MLP left out):

# %%
from symtf.latex.printer import latex
from symtf.proofs import CLAIMS
from symtf.proofs.expansion import terms
from symtf.proofs.paths import composition_statement, logits, score_terms, statement_2l

ell, t = logits(1)
print(rf"\ell = {latex(ell)}")
print(r"\ell = " + " + ".join((r"\sum_h " if term.bounds else "") + latex(term.expr) for term in terms(ell)))

# %% [markdown]
# Each term is $M\,t\,N^\top$, and $\operatorname{vec}(M t N^\top) = (N \otimes M) \operatorname{vec}(t)$:
# the direct path $\mathrm{Id} \otimes W_U W_E$ and one term $A^h \otimes W_U W_O^h W_V^h W_E$ per head.

# %%
claim = CLAIMS["path-expansion-1l"]
r = claim.prove(numeric=False)
print(f"{claim.statement}  % {r.status.value} ({r.method.value})")

# %% [markdown]
# Two layers: a second layer's heads $g$ read $x^{(1)}$, so besides the direct path and the
# single-head terms of each layer there are virtual heads, layer 2's OV circuit applied to
# layer 1's output (V-composition), with layer 2 on the left on both sides of $\otimes$.
# (Printed: layer 2's head $g$ as $h_g$, its matrices with a 2, e.g. $W_{O 2}^{h_g}$ for $W_O^{2,g}$.)

# %%
for kron in statement_2l():
    sums = "".join(rf"\sum_{{{latex(b)}}} " for b, _ in kron.bounds)
    print(rf"{sums}{latex(kron.N)} \otimes {latex(kron.M)}")

# %% [markdown]
# Layer 2's scores read $x^{(1)}$ on both sides: the K-composition terms carry
# $W_{QK}^{2,g} W_{OV}^{1,h}$, the Q-composition terms $(W_{OV}^{1,h})^\top W_{QK}^{2,g}$.

# %%
for term in score_terms():
    print(r"\sqrt{d_\text{head}} S^{2,g} \ni " + latex(term.expr))
for kind, term in composition_statement().items():
    print(rf"\text{{{kind}}}: {latex(term.expr)}")
claim = CLAIMS["path-expansion-2l"]
r = claim.prove(numeric=False)
print(f"% path-expansion-2l: {r.status.value} ({r.method.value})")
