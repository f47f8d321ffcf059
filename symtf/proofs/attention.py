r"""Attention claims, each read from the model's own rows.

* ``result-matrix-form``: $r = v A^\top$ has columns $r_i = \sum_{j \le i} a_{ij} v_j$ (symbolic $n$, $i$).
* ``convex-combination``: each $r_i$ is a convex combination of $v_1 \dots v_i$.
* ``simplified-equals-last-column``: the simplified model's $x^{(1)}_n$ is the last column of the
  attention-only one-layer model's $x^{(1)}$ with one head.
* ``end-to-end-layer``: the post's one-line formula for $x^{(1)}$ is the composition of the rows.
* ``qk-ov-circuits``: $S^h = x^\top W_{QK}^h x / \sqrt{d_\text{head}}$, $o^h = W_{OV}^h x (A^h)^\top$.
* ``row-column-convention``: the row-vector form $\text{softmax}^*(QK^\top/\sqrt{d})\,V W_O$ is the
  transpose of the post's column form.
"""
from __future__ import annotations

from sympy import Integer, Sum, Symbol, exp, sqrt
from sympy.matrices.expressions.matexpr import MatrixSymbol
from sympy.matrices.expressions.transpose import Transpose

from ..dims import H, d_head, d_model, n, n_ctx, n_vocab
from ..model import Convention, Variant, build, h
from ..ops import CausalSoftmax, HeadSum
from .algebra import matrix_identity, resolve_piecewise, split_sum, sum_index_canon
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .concrete import explicit_pair, numeric_pair_check, prove_entrywise
from .explicit import Env, evaluate, explicit

c_ = Symbol("c", integer=True, nonnegative=True)  # a row of r (feature)
i_ = Symbol("i", integer=True, nonnegative=True)  # a column of r (query position, 0-based)

SIZES_A = {n: 3, d_model: 2, d_head: 2, n_vocab: 3, n_ctx: 3, H: 1}
SIZES_B = {n: 2, d_model: 3, d_head: 3, n_vocab: 2, n_ctx: 5, H: 1}


def _sub(expr, model, keys):
    """``expr`` with the rows ``keys`` replaced by their definitions (others kept as symbols)."""
    for key in keys:
        expr = expr.xreplace({model[key].symbol: model[key].expr})
    return expr


def result_sides(transpose: bool = True):
    """The model's $r = v A^\\top$ with $A = \\text{softmax}^*(S)$, and the post's $r_i = \\sum_{j \\le i} a_{ij} v_j$."""
    model = build("full")
    r = _sub(model["result"].expr, model, ["pattern"])
    if not transpose:  # a wrong variant for the tests: v A
        r = r.xreplace({Transpose(model["pattern"].expr): model["pattern"].expr})
    v, S_ = model["v"].symbol, model["scores"].symbol
    j, k = Symbol("j", integer=True), Symbol("k", integer=True)
    a_ij = exp(S_[i_, j]) / Sum(exp(S_[i_, k]), (k, 0, i_))  # a_i = softmax([s_i1 .. s_ii])
    post = Sum(a_ij * v[c_, j], (j, 0, i_))
    return r, post, (v, S_)


def prove_result_matrix_form(transpose: bool = True) -> Result:
    r, post, _ = result_sides(transpose)
    entry = r._entry(c_, i_)
    if not isinstance(entry, Sum):
        return unknown(f"entry of v A^T is not a sum: {entry}")
    kept, masked = (resolve_piecewise(s) for s in split_sum(entry, i_))  # valid: 0 <= i <= n - 1
    masked_zero = masked.function == 0
    if masked_zero and sum_index_canon(kept) == sum_index_canon(post):
        return proved(Method.SYMBOLIC, ["symbolic"],
                      "split sum_j at j = i: terms j > i have A_ij = 0, terms j <= i are a_ij v_j")
    return _refute_result(r, why=f"after splitting at i: kept {kept}, masked {masked}")


def _post_gap(r, seed=5) -> tuple[float, tuple]:
    """Largest gap between the model's r and the post's loop r_i = sum_{j<=i} a_ij v_j (numeric, n = 3)."""
    sizes = {n: 3, d_head: 2}
    env = Env(numeric=True, seed=seed)
    R = explicit(r.xreplace({k: Integer(v) for k, v in sizes.items()}), env)
    S_ = next(s for s in env if s.name == "S")
    V = next(s for s in env if s.name == "v")
    Sm, Vm = env[S_], env[V]
    worst, where = 0.0, None
    for i in range(3):
        w = [exp(Sm[i, j]) for j in range(i + 1)]
        total = sum(w)
        for c in range(2):
            want = sum(w[j] / total * Vm[c, j] for j in range(i + 1))
            gap = abs(float((R[c, i] - want).evalf(30)))
            if gap > worst:
                worst, where = gap, (c, i)
    return worst, where


def _refute_result(r, why):
    gap, where = _post_gap(r)
    if gap > 1e-12:
        return refuted({"n": 3, "d_head": 2, "entry": where, "gap": gap}, why, Method.CONCRETE, [{"n": 3, "d_head": 2}])
    return unknown(why)


def numeric_result() -> NumericCheck:
    r, _, _ = result_sides()
    worst = max(_post_gap(r, seed)[0] for seed in (1, 2, 3))
    return NumericCheck(worst < 1e-12, worst, 3, "v A^T vs the post's masked sum, random S and v, n = 3")


def numeric_convex() -> NumericCheck:
    worst, ok = 0.0, True
    for seed in (1, 2):
        A = explicit(CausalSoftmax(MatrixSymbol("S", 4, 4)), Env(numeric=True, seed=seed))
        for i in range(4):
            worst = max(worst, abs(float(sum(A[i, :])) - 1))
            ok &= all(A[i, j] > 0 for j in range(i + 1)) and all(A[i, j] == 0 for j in range(i + 1, 4))
    return NumericCheck(bool(ok) and worst < 1e-12, worst, 2, "rows of softmax*(S): positive up to i, 0 after, sum 1")


def prove_convex(op=CausalSoftmax) -> Result:
    r"""For $j \le i$: $a_{ij} = e^{S_{ij}} / \sum_{k \le i} e^{S_{ik}} > 0$ and $\sum_{j \le i} a_{ij} = 1$; for $j > i$: 0."""
    S_ = MatrixSymbol("S", n, n)
    j = Symbol("j", integer=True, nonnegative=True)
    entry = op(S_)._entry(i_, j)
    weights = resolve_piecewise(Sum(entry, (j, 0, i_)))
    beyond = resolve_piecewise(Sum(entry, (j, i_ + 1, n - 1)))
    if beyond.function != 0:
        return unknown(f"weights beyond the diagonal are not 0: {beyond.function}")
    w = weights.function
    num, den = w.as_numer_denom()
    if not (isinstance(num, exp) and isinstance(den, Sum) and j not in den.free_symbols):
        return unknown(f"weight is not e^s / (shared sum): {w}")
    if sum_index_canon(Sum(num, (j, 0, i_))) != sum_index_canon(den):
        return unknown(f"weights on j <= i do not sum to 1: {Sum(num, (j, 0, i_))} vs {den}")
    return proved(Method.SYMBOLIC, ["symbolic"], "weights e^{S_ij}/sum_{k<=i} e^{S_ik}: positive, sum to 1 "
                  "over j <= i, zero for j > i; so r_i = sum_j a_ij v_j is a convex combination of v_1..v_i")


# ----------------------------------------------------------------- simplified = last column


def _shared_env(simple, full, sizes, numeric=False, seed=0):
    """One leaf per parameter: the simplified model's W_Q is the full model's W_Q^1 (and so on)."""
    env = Env(numeric=numeric, seed=seed, digits=30 if not numeric else 15)
    sized = {k: Integer(v) for k, v in sizes.items()}
    for p in simple.parameters:
        if p.key in ("W_Q", "W_K", "W_V", "W_O"):
            mine = env.leaf(p.symbol.xreplace(sized))
            other = full.parameter(p.key).symbol.xreplace(sized).xreplace({h: Integer(1)})
            env[other] = mine
    return env


def simplified_pair(simple_variant=None):
    simple = build(simple_variant or "simplified")
    full = build(Variant(layernorm=False))

    def pair(sizes, env):
        env = _shared_env(simple, full, sizes, env.numeric, seed=env.seed)
        a = evaluate(simple, sizes, env, upto="resid_mid")["resid_mid"]
        b = evaluate(full, sizes, env, upto="resid_mid")["resid_mid"]
        return a, b[:, b.cols - 1]

    return pair


def prove_simplified() -> Result:
    return prove_entrywise(simplified_pair(), [SIZES_A, SIZES_B], "simplified x1_n vs last column of x1")


def numeric_simplified() -> NumericCheck:
    return numeric_pair_check(simplified_pair(), [SIZES_A, SIZES_B], seeds=(11,))


# ----------------------------------------------------------------- end to end, circuits, row form


def end_to_end_sides(scale=True):
    r"""$x^{(0)} + \sum_h W_O^h W_V^h x\, \text{softmax}^*(x^\top (W_Q^h)^\top W_K^h x/\sqrt{d})^\top$ vs the rows."""
    model = build("full-no-ln")
    P = {p.key: p.symbol for p in model.parameters}
    x = model["embed"].symbol
    S_ = x.T * P["W_Q"].T * P["W_K"] * x
    if scale:
        S_ = S_ / sqrt(d_head)
    post = x + HeadSum(P["W_O"] * P["W_V"] * x * CausalSoftmax(S_).T, h, H)
    rows = model.expand("resid_mid").xreplace({model["embed"].expr: x})
    return rows, post


def _decide(left, right, sizes_list, what) -> Result:
    if left.shape != right.shape:
        return unknown(f"shapes differ: {left.shape} vs {right.shape}")
    if matrix_identity(left, right):
        return proved(Method.SYMBOLIC, ["symbolic"], f"{what}: same canonical matrix expression "
                      "(products flattened, transposes distributed) for symbolic sizes")
    return prove_entrywise(explicit_pair(left, right), sizes_list, what)


LAYER_SIZES = [{n: 2, d_model: 3, d_head: 2, H: 2, n_vocab: 3, n_ctx: 3},
               {n: 3, d_model: 2, d_head: 3, H: 1, n_vocab: 3, n_ctx: 3}]


def prove_end_to_end(scale=True) -> Result:
    return _decide(*end_to_end_sides(scale), LAYER_SIZES, "post's x^(1) formula vs the table's rows")


def numeric_end_to_end() -> NumericCheck:
    return numeric_pair_check(explicit_pair(*end_to_end_sides()), LAYER_SIZES)


def circuit_sides(scale=True):
    r"""$S = x^\top W_{QK} x/\sqrt{d}$ and $o = W_{OV} x A^\top$ from the LayerNorm model (x = LN output)."""
    model = build("full")
    P = {p.key: p.symbol for p in model.parameters}
    x = model["ln1"].symbol
    W_QK, W_OV = P["W_Q"].T * P["W_K"], P["W_O"] * P["W_V"]
    S_model = _sub(model["scores"].expr, model, ["q", "k"])
    S_post = x.T * W_QK * x / (sqrt(d_head) if scale else 1)
    A = model["pattern"].symbol
    o_model = HeadSum(_sub(model["head_out"].expr, model, ["result", "v"]), h, H)
    o_post = HeadSum(W_OV * x * A.T, h, H)
    return (S_model, S_post), (o_model, o_post)


def _decide_both(first, second) -> Result:
    """Both identities ``(left, right, sizes, what)`` decided; the first that is not proved is the result."""
    results = []
    for left, right, sizes, what in (first, second):
        result = _decide(left, right, sizes, what)
        if not result.proved:
            return result
        results.append(result)
    return proved(Method.SYMBOLIC, ["symbolic"], "; ".join(r.reason for r in results))


def prove_circuits(scale=True) -> Result:
    (s1, s2), (o1, o2) = circuit_sides(scale)
    return _decide_both((s1, s2, LAYER_SIZES, "S = x^T W_QK x / sqrt(d_head)"),
                        (o1, o2, LAYER_SIZES, "sum_h o^h = sum_h W_OV x A^T"))


def numeric_circuits() -> NumericCheck:
    (s1, s2), (o1, o2) = circuit_sides()
    a = numeric_pair_check(explicit_pair(s1, s2), LAYER_SIZES)
    b = numeric_pair_check(explicit_pair(o1, o2), LAYER_SIZES)
    return NumericCheck(a.passed and b.passed, max(a.max_error, b.max_error), a.trials + b.trials, a.detail)


def row_sides(scale=True):
    r"""Row form $\text{softmax}^*(QK^\top/\sqrt{d}) V W_O$ (written as papers do) vs the column model.

    Returns (row model's head output, paper's row formula) and (paper's row formula with
    $X = x^\top$, $W_\bullet^\text{row} = W_\bullet^\top$, the column model's $o^\top$).
    """
    row = build(Variant(layernorm=False, convention=Convention.ROW))
    col = build(Variant(layernorm=False))
    P = {p.key: p.symbol for p in row.parameters}
    X = row["embed"].symbol  # n × d_model
    Q, K, V = X * P["W_Q"], X * P["W_K"], X * P["W_V"]
    S_ = Q * K.T / (sqrt(d_head) if scale else 1)
    paper = CausalSoftmax(S_) * V * P["W_O"]  # n × d_model
    row_out = row.expand("head_out").xreplace({row["embed"].expr: X})
    to_col = {X: col["embed"].symbol.T}
    for p in row.parameters:
        if p.key in ("W_Q", "W_K", "W_V", "W_O"):
            to_col[p.symbol] = col.parameter(p.key).symbol.T
    col_out = col.expand("head_out").xreplace({col["embed"].expr: col["embed"].symbol})
    return (row_out, paper), (paper.xreplace(to_col), col_out.T)


def prove_row_column(scale=True) -> Result:
    (a1, a2), (b1, b2) = row_sides(scale)
    sizes = [{n: 3, d_model: 3, d_head: 2, n_vocab: 3, n_ctx: 3, H: 1}]
    return _decide_both((a1, a2, sizes, "row model = softmax*(Q K^T/sqrt d) V W_O"),
                        (b1, b2, sizes, "row formula = (column o)^T"))


def numeric_row_column() -> NumericCheck:
    _, (b1, b2) = row_sides()
    return numeric_pair_check(explicit_pair(b1, b2), [{n: 3, d_model: 3, d_head: 2, H: 1}])
