r"""``zero-layer-bigram``: the zero-layer model's prediction at position $i$ depends only on token $t_i$
(and on its position, through column $i$ of $W_\text{pos}$).

Entry $(r, i)$ of $p = \text{softmax}(W_U (W_E t + W_\text{pos}))$, for symbolic $n_\text{vocab}$,
$d_\text{model}$, $n$ and $i$, mentions $t$ and $W_\text{pos}$ only through entries of column $i$.
So the last column (the next-token prediction) is a function of the last token alone: a bigram table.
"""
from __future__ import annotations

import random

from sympy import ImmutableMatrix, Integer, Symbol
from sympy.matrices.expressions.matexpr import MatrixElement

from ..dims import d_model, n, n_ctx, n_vocab
from ..model import build
from .algebra import max_abs_diff
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import Env, evaluate

r_ = Symbol("r", integer=True, nonnegative=True)
i_ = Symbol("i", integer=True, nonnegative=True)
SIZES = {n: 3, d_model: 2, n_vocab: 3, n_ctx: 4}


def prove_bigram(model=None) -> Result:
    model = build("zero") if model is None else model
    entry = model.expand("probs")._entry(r_, i_)
    t = model["tokens"].symbol
    columns = {e.j for e in entry.atoms(MatrixElement) if e.parent in (t,) or e.parent.name == "W_pos"}
    if columns == {i_}:
        return proved(Method.SYMBOLIC, ["symbolic"], "entry (r, i) of p mentions t and W_pos only in column i")
    gap = numeric_dependence(model)
    if gap > 1e-12:
        return refuted({"sizes": {str(k): v for k, v in SIZES.items()}, "change": gap},
                       f"column i of p mentions columns {sorted(map(str, columns))}", Method.CONCRETE,
                       [{str(k): v for k, v in SIZES.items()}])
    return unknown(f"column i of p mentions columns {sorted(map(str, columns))}")


def numeric_dependence(model=None, seed=0) -> float:
    """Change of the last column of p when every earlier token changes."""
    model = build("zero") if model is None else model
    rng = random.Random(seed)
    count, vocab = SIZES[n], SIZES[n_vocab]
    tokens = [rng.randrange(vocab) for _ in range(count)]
    other = [(x + 1) % vocab for x in tokens[:-1]] + tokens[-1:]
    t = model["tokens"].symbol.xreplace({k: Integer(v) for k, v in SIZES.items()})
    outs = []
    for toks in (tokens, other):
        env = Env(numeric=True, seed=seed, digits=15)
        env[t] = ImmutableMatrix(vocab, count, lambda a, b, toks=toks: 1 if toks[b] == a else 0)
        outs.append(evaluate(model, SIZES, env)["probs"])
    return max_abs_diff(outs[0][:, count - 1], outs[1][:, count - 1])


def numeric() -> NumericCheck:
    worst = max(numeric_dependence(seed=s) for s in (1, 2))
    return NumericCheck(worst < 1e-12, worst, 2, "earlier tokens changed: last column of p unchanged")
