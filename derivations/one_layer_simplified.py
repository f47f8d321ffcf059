# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # A simplified one-layer Transformer (last token only)
#
# $q_n = W_Q x_n$, $k = W_K x$, $v = W_V x$, $s = q_n^\top k / \sqrt{d_\text{head}}$,
# $a = \text{softmax}(s)$, $r_n = \sum_i a_i v_i$, $o_n = W_O r_n$, $x^{(1)}_n = x_n + o_n$.

# %%
from symtf.latex.printer import latex
from symtf.model import build
from symtf.proofs import CLAIMS

model = build("simplified")
for act in model.activations:
    if act.expr is not None:
        print(f"{latex(act.symbol)} = {latex(act.expr)}")

# %% [markdown]
# Why $\sqrt{d_\text{head}}$: with independent $q, k$ whose entries have mean 0 and variance 1,
# $\operatorname{Var}(q^\top k) = d_\text{head}$, so the scaled score has variance 1
# (claim `variance-sqrt-dhead`, moment algebra for a symbolic $d_\text{head}$).

# %%
result = CLAIMS["variance-sqrt-dhead"].prove(numeric=False)
names = {"E[q^T k]": r"\mathbb{E}[q^\top k]", "Var(q^T k)": r"\operatorname{Var}(q^\top k)",
         "E[s]": r"\mathbb{E}[s]", "Var(s)": r"\operatorname{Var}(s)",
         "general E[q^T k]": r"\mathbb{E}[q^\top k]\ (\text{general})",
         "general Var(q^T k)": r"\operatorname{Var}(q^\top k)\ (\text{general})"}
for name, value in result.details.items():
    print(f"{names[name]} = {latex(value)}")

# %% [markdown]
# The simplified model is the last column of the attention-only one-layer model with one head.

# %%
result = CLAIMS["simplified-equals-last-column"].prove(numeric=False)
print(f"% {result.status.value} ({result.method.value}) at {list(result.sizes)}")
