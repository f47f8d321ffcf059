r"""Path expansions of attention-only Transformers, with the attention patterns held fixed.

``path-expansion-1l``: one layer's logits, $\ell = W_U x^{(1)}$ with $x^{(0)} = W_E t$ and
$x^{(1)} = x^{(0)} + \sum_h W_O^h W_V^h x^{(0)} (A^h)^\top$ (the model's own rows, $W_\text{pos}$ and the
MLP left out), are

$$\operatorname{vec}(\ell) = \Big(\mathrm{Id} \otimes W_U W_E + \sum_h A^h \otimes W_U W_O^h W_V^h W_E\Big) \operatorname{vec}(t)$$

(column-major $\operatorname{vec}$). In the row convention ($X = x^\top$, $W^\text{row} = W^\top$, row-major
$\operatorname{vec}$) the same operator acts; the proof runs on the row model's rows too.

``path-expansion-2l``: with a second layer (heads $g$) the logits add the layer-2 single-head terms
and the virtual heads $\sum_{g,h} A^{2,g} A^{1,h} \otimes W_U W_{OV}^{2,g} W_{OV}^{1,h} W_E$ (V-composition:
layer 2 reads layer 1's output through its OV circuit; layer 2 first, on both sides of $\otimes$).
Layer 2's scores, $\sqrt{d_\text{head}}\, S^{2,g} = (x^{(1)})^\top W_{QK}^{2,g} x^{(1)}$, expand into the
direct term, K-composition terms ($W_{QK}^{2,g} W_{OV}^{1,h}$: keys read head $h$'s output),
Q-composition terms ($(W_{OV}^{1,h})^\top W_{QK}^{2,g}$: queries do) and terms with both.

The two-layer model is built here from the one-layer model's rows, stacked with layer-2 symbols
(symtf's $L$-layer model has an MLP in every block; these claims are attention-only).

Method: :mod:`symtf.proofs.expansion` (distributivity, head sums pulled out of products) and
SymPy's canonical products, for symbolic $H$, $n$ and every size; the Kronecker form rests on the
lemma $\operatorname{vec}(M X N^\top) = (N \otimes M) \operatorname{vec}(X)$, proved entry by entry with
the pair indices that define $\otimes$ and $\operatorname{vec}$.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sympy import Identity, Integer, MatrixSymbol, Symbol, Sum, sqrt
from sympy.matrices.expressions.matmul import MatMul

from ..dims import H, d_head, d_model, n, n_vocab
from ..model import Convention, Variant, build, h
from ..ops import HeadMatrixSymbol, HeadSum
from .algebra import sum_index_canon
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .expansion import Term, match, terms
from .explicit import Env, explicit

g = Symbol("g", integer=True, positive=True)  # a head of layer 2
H2 = Symbol("H_2", integer=True, positive=True)  # heads in layer 2

STATEMENT_1L = (r"\operatorname{vec}(\ell) = \Big(\mathrm{Id} \otimes W_U W_E + \sum_h A^h \otimes W_U W_O^h W_V^h W_E"
                r"\Big) \operatorname{vec}(t)")
STATEMENT_2L = (r"\operatorname{vec}(\ell) = \Big(\mathrm{Id} \otimes W_U W_E + \sum_h A^{1,h} \otimes W_U W_{OV}^{1,h} W_E"
                r" + \sum_g A^{2,g} \otimes W_U W_{OV}^{2,g} W_E + \sum_{g,h} A^{2,g} A^{1,h} \otimes W_U W_{OV}^{2,g}"
                r" W_{OV}^{1,h} W_E\Big) \operatorname{vec}(t);\ \sqrt{d_\text{head}} S^{2,g} = (x^{(1)})^\top"
                r" W_{QK}^{2,g} x^{(1)} \text{ = direct + K-, Q-, QK-composition terms}")
ASSUMPTIONS = ("attention-only (no MLP, no LayerNorm), no W_pos (x0 = W_E t)",
               "attention patterns A held fixed (treated as given matrices)", "symbolic H, n and sizes")


@dataclass(frozen=True)
class Kron:
    r"""$\sum_{\text{bounds}} N \otimes M$: one term of a path expansion."""

    bounds: tuple
    N: object  # acts on positions (n × n)
    M: object  # acts on the vocabulary side (n_vocab × n_vocab)


# ----------------------------------------------------------------------------- the models


def _layer(model, x_in, layer: int):
    r"""$x_\text{in} + \sum_h W_O^h W_V^h x_\text{in} (A^h)^\top$ from the model's rows; layer 2 renamed to heads $g$."""
    out = model["resid_mid"].expr
    for key in ("head_out", "result", "v"):
        out = out.xreplace({model[key].symbol: model[key].expr})
    if layer == 2:  # rename the template before x_in (which holds layer 1's heads) goes in
        out = layer2(out).xreplace({h: g})
        out = out.replace(lambda e: isinstance(e, HeadSum), lambda e: HeadSum(e.term, e.head, H2))
    return out.xreplace({model["embed"].symbol: x_in})


def logits(layers: int = 1):
    """The attention-only logits $W_U x^{(L)}$, $x^{(0)} = W_E t$, and the one-hot input $t$."""
    model = build(Variant(layernorm=False))
    t = model["tokens"].symbol
    x = model.parameter("W_E").symbol * t
    for layer in range(1, layers + 1):
        x = _layer(model, x, layer)
    return model.parameter("W_U").symbol * x, t


def row_logits():
    r"""The row convention's $X^{(1)} W_U$, $X^{(0)} = T W_E$, written in column symbols ($W^\text{row} = W^\top$, $T = t^\top$)."""
    row, col = build(Variant(layernorm=False, convention=Convention.ROW)), build(Variant(layernorm=False))
    X1 = row["resid_mid"].expr
    for key in ("head_out", "result", "v"):
        X1 = X1.xreplace({row[key].symbol: row[key].expr})
    X1 = X1.xreplace({row["embed"].symbol: row["tokens"].symbol * row.parameter("W_E").symbol})
    back = {p.symbol: col.parameter(p.key).symbol.T for p in row.parameters}
    back[row["pattern"].symbol] = col["pattern"].symbol  # row i = query i in both conventions
    back[row["tokens"].symbol] = col["tokens"].symbol.T
    return (X1 * row.parameter("W_U").symbol).xreplace(back), col["tokens"].symbol


# ----------------------------------------------------------------------------- the statements


def weights():
    """The one-layer model's parameters by key, and its per-head pattern $A^h$."""
    model = build(Variant(layernorm=False))
    P = {p.key: p.symbol for p in model.parameters}
    return P, model["pattern"].symbol


def statement_1l() -> list[Kron]:
    r"""$\mathrm{Id} \otimes W_U W_E + \sum_h A^h \otimes W_U W_O^h W_V^h W_E$."""
    P, A = weights()
    return [Kron((), Identity(n), P["W_U"] * P["W_E"]),
            Kron(((h, H),), A, P["W_U"] * P["W_O"] * P["W_V"] * P["W_E"])]


def layer2(e):
    """A layer-1 per-head expression rewritten for layer 2's head $g$."""
    P, A = weights()
    rename = {P[k]: HeadMatrixSymbol(f"{k}_2", *P[k].shape, g) for k in ("W_Q", "W_K", "W_V", "W_O")}
    rename[A] = HeadMatrixSymbol("A_2", n, n, g)
    return e.xreplace(rename)


def statement_2l() -> list[Kron]:
    r"""Direct, layer-1 heads, layer-2 heads, and the virtual heads $A^{2,g} A^{1,h} \otimes W_U W_{OV}^{2,g} W_{OV}^{1,h} W_E$."""
    P, A = weights()
    OV = P["W_O"] * P["W_V"]
    return [*statement_1l(),
            Kron(((g, H2),), layer2(A), P["W_U"] * layer2(OV) * P["W_E"]),
            Kron(((g, H2), (h, H)), layer2(A) * A, P["W_U"] * layer2(OV) * OV * P["W_E"])]


# ----------------------------------------------------------------------------- the proof steps


def vec_lemma() -> bool:
    r"""$\operatorname{vec}(M X N^\top)_{(a, b)} = \sum_{(c, d)} (N \otimes M)_{(a, b), (c, d)} \operatorname{vec}(X)_{(c, d)}$.

    Pair indices: row $(a, b)$ of $N \otimes M$ is $a p + b$ ($M$ has $p$ rows), entry $N_{ac} M_{bd}$;
    $\operatorname{vec}(Y)_{(a, b)} = Y_{ba}$ (column-major). Symbolic sizes.
    """
    p_, q_, r_, s_ = (Symbol(x, integer=True, positive=True) for x in "pqrs")
    M, X, N = MatrixSymbol("M", p_, q_), MatrixSymbol("X", q_, r_), MatrixSymbol("N", s_, r_)
    a, b, c, d = (Symbol(x, integer=True, nonnegative=True) for x in "abcd")
    left = (M * X * N.T)._entry(b, a)
    right = Sum(N[a, c] * M[b, d] * X[d, c], (d, 0, q_ - 1), (c, 0, r_ - 1))
    return sum_index_canon(left) == sum_index_canon(right)


def kron_form(expansion: list[Term], t) -> list[Kron] | str:
    r"""Each term $M\, t\, N^\top$ as $N \otimes M$ (vec lemma); a reason string if a term has another shape."""
    out = []
    for term in expansion:
        args = list(term.expr.args) if isinstance(term.expr, MatMul) else [term.expr]
        if args.count(t) != 1 or any(not getattr(a, "is_Matrix", False) for a in args):
            return f"term {term.expr} is not M t N^T"
        at = args.index(t)
        M = MatMul(*args[:at]).doit() if at else Identity(t.shape[0])
        N = MatMul(*args[at + 1:]).T.doit() if at + 1 < len(args) else Identity(t.shape[1])
        out.append(Kron(term.bounds, N, M))
    return out


def _as_terms(krons: list[Kron]) -> list[Term]:
    from sympy.matrices.expressions.kronecker import KroneckerProduct

    return [Term(k.bounds, KroneckerProduct(k.N, k.M)) for k in krons]


def prove_expansion(layers: int, statement: list[Kron]) -> tuple[Result | None, str]:
    """``(None, how)`` when the model's logits match ``statement`` term by term, else a refutation or unknown."""
    if not vec_lemma():
        return unknown("the vec lemma vec(M X N^T) = (N ⊗ M) vec(X) did not reduce"), ""
    ell, t = logits(layers)
    found = kron_form(terms(ell), t)
    if isinstance(found, str):
        return unknown(found), ""
    ok, unmatched = match(_as_terms(found), _as_terms(statement))
    if not ok:
        return _refute(ell, t, statement, f"unmatched terms: {[str(u.expr) for u in unmatched]}"), ""
    return None, f"{len(found)} terms matched for symbolic H, n and sizes"


# ----------------------------------------------------------------------------- numeric side


SIZES = {n: 3, n_vocab: 5, d_model: 4, d_head: 2, H: 2, H2: 3}


def _head_values(bounds, sized):
    r"""Every assignment of head numbers $1 \dots \text{count}$ to the bound heads (one empty one without bounds)."""
    for heads in np.ndindex(*[int(c.xreplace(sized)) for _, c in bounds]):
        yield {b: Integer(i + 1) for (b, _), i in zip(bounds, heads)}


def operator_matrix(krons: list[Kron], sizes: dict, env) -> np.ndarray:
    r"""$\sum N \otimes M$ at concrete sizes, heads unrolled, as a numpy array."""
    sized = {k: Integer(v) for k, v in sizes.items()}
    total = 0
    for kron in krons:
        for at in _head_values(kron.bounds, sized):
            N = explicit(kron.N.xreplace(sized).xreplace(at), env)
            M = explicit(kron.M.xreplace(sized).xreplace(at), env)
            total = total + np.kron(np.array(N, dtype=float), np.array(M, dtype=float))
    return total


def kron_gap(ell, t, statement, sizes=SIZES, seed=0) -> float:
    r"""$\max |\operatorname{vec}(\ell) - T \operatorname{vec}(t)|$ on random real matrices (t random too: the identity is linear in t)."""
    env = Env(numeric=True, seed=seed, digits=15)
    sized = {k: Integer(v) for k, v in sizes.items()}
    L = np.array(explicit(ell.xreplace(sized), env), dtype=float)
    T = operator_matrix(statement, sizes, env)
    tv = np.array(env.leaf(t.xreplace(sized)), dtype=float)
    return float(np.max(np.abs(L.flatten(order="F") - T @ tv.flatten(order="F"))))


def _verdict(gap: float, why: str, **where) -> Result:
    """Refuted when the numeric gap at :data:`SIZES` is real, else unknown (the terms only failed to pair up)."""
    if gap > 1e-9:
        named = {str(k): v for k, v in SIZES.items()}
        return refuted({"sizes": named, "numeric_gap": gap, **where}, f"{why}; a gap on a random instance",
                       Method.CONCRETE, [named])
    return unknown(f"{why}; no numeric gap at {SIZES} either")


def _refute(ell, t, statement, why) -> Result:
    return _verdict(kron_gap(ell, t, statement), f"{why}: vec(logits) is not T vec(t)")


# ----------------------------------------------------------------------------- the claims


def prove_1l(statement=None) -> Result:
    r"""$\operatorname{vec}(\ell) = (\mathrm{Id} \otimes W_U W_E + \sum_h A^h \otimes W_U W_O^h W_V^h W_E) \operatorname{vec}(t)$, both conventions (``statement``: the Kronecker terms to check)."""
    result, how = prove_expansion(1, statement_1l() if statement is None else statement)
    if result is not None:
        return result
    ell_row, t = row_logits()
    ell, _ = logits(1)
    ok, unmatched = match(terms(ell_row.T), terms(ell))
    if not ok:
        return unknown(f"row convention: (X W_U)^T did not match the column logits: {[str(u.expr) for u in unmatched]}")
    return proved(Method.SYMBOLIC, ["symbolic"], f"column convention: {how}; row convention: (logits_row)^T has "
                  "the same terms, so row-major vec gives the same operator; vec lemma proved entry by entry")


def score_terms():
    r"""Layer 2's $\sqrt{d_\text{head}}\, S^{2,g}$ expanded, each term labelled by where layer 1's output enters."""
    model = build(Variant(layernorm=False))
    x1 = _layer(model, model.parameter("W_E").symbol * model["tokens"].symbol, 1)
    S = model["scores"].expr
    for key in ("q", "k"):
        S = S.xreplace({model[key].symbol: model[key].expr})
    S = layer2(S).xreplace({model["embed"].symbol: x1}) * sqrt(d_head)  # layer 2's heads, then layer 1's x1 in
    return terms(S)


def composition_statement():
    r"""$x_0^\top W_{QK} x_0 + \sum_h x_0^\top W_{QK} W_{OV}^h x_0 A^{h\top} + \sum_h A^h x_0^\top W_{OV}^{h\top} W_{QK} x_0 + \sum_{h, h'} \dots$"""
    P, A = weights()
    model = build(Variant(layernorm=False))
    x0 = P["W_E"] * model["tokens"].symbol
    QK = layer2(P["W_Q"].T * P["W_K"])
    OV = P["W_O"] * P["W_V"]
    h2 = Symbol("h'", integer=True, positive=True)
    kinds = {
        "direct": Term((), x0.T * QK * x0),
        "K-composition": Term(((h, H),), x0.T * QK * OV * x0 * A.T),
        "Q-composition": Term(((h, H),), A * x0.T * OV.T * QK * x0),
        "Q- and K-composition": Term(((h, H), (h2, H)), A * x0.T * OV.T * QK * OV.xreplace({h: h2}) * x0
                                     * A.xreplace({h: h2}).T),
    }
    return {k: v.canonical() for k, v in kinds.items()}


def prove_2l(statement=None, composition=None) -> Result:
    r"""Two layers: the logits' four kinds of paths and the layer-2 scores' direct, K-, Q- and QK-composition terms."""
    result, how = prove_expansion(2, statement_2l() if statement is None else statement)
    if result is not None:
        return result
    kinds = composition_statement() if composition is None else composition
    ok, unmatched = match(score_terms(), list(kinds.values()))
    if not ok:
        return _refute_scores(kinds, f"layer-2 score terms unmatched: {[str(u.expr) for u in unmatched]}")
    return proved(Method.SYMBOLIC, ["symbolic"], f"logits: {how} (direct, layer-1, layer-2 and virtual heads); "
                  "layer-2 scores: direct, K-, Q- and QK-composition terms matched",
                  composition={kind: str(term.expr) for kind, term in kinds.items()})


def _refute_scores(kinds, why) -> Result:
    sized = {k: Integer(v) for k, v in SIZES.items()}
    env = Env(numeric=True, seed=4, digits=15)
    lhs = sum((_term_value(t, sized, env) for t in score_terms()), 0)
    rhs = sum((_term_value(t, sized, env) for t in kinds.values()), 0)
    return _verdict(float(np.max(np.abs(lhs - rhs))), why, head_g=1)


def _term_value(term: Term, sized, env) -> np.ndarray:
    """One term at concrete sizes, its head sums unrolled (layer-2 head fixed at g = 1)."""
    return sum((np.array(explicit(term.expr.xreplace(sized).xreplace({**at, g: Integer(1)}), env), dtype=float)
                for at in _head_values(term.bounds, sized)), 0)


def numeric_1l() -> NumericCheck:
    ell, t = logits(1)
    gaps = [kron_gap(ell, t, statement_1l(), seed=s) for s in (1, 2)]
    return NumericCheck(max(gaps) < 1e-9, max(gaps), 2, f"vec(logits) vs T vec(t), random matrices at {SIZES}")


def numeric_2l() -> NumericCheck:
    ell, t = logits(2)
    gaps = [kron_gap(ell, t, statement_2l(), seed=s) for s in (1, 2)]
    return NumericCheck(max(gaps) < 1e-9, max(gaps), 2, f"vec(logits) vs T vec(t), random matrices at {SIZES}")
