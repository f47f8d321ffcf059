r"""How outputs depend on tokens: ``causal`` and ``permutation-equivariance``.

* ``causal``: with $\text{softmax}^*$, column $i$ of the full one-layer model's output
  (LayerNorm, attention, MLP, logits, probabilities) contains no entry of the tokens $t_j$ or of
  $W_\text{pos}$'s column $j$ for any $j > i$. Shown on the explicit entries at two size sets
  (a dependency walk that visits each shared sub-expression once).
* ``permutation-equivariance``: without positional embeddings and without the mask, feeding
  the tokens permuted, $t P$, gives the outputs permuted, $\ell(t) P$, exactly; with the causal mask it
  does not (a numeric counterexample).
"""
from __future__ import annotations

import random
from dataclasses import replace

from sympy import ImmutableMatrix, Integer
from sympy.matrices.expressions.matexpr import MatrixElement
from sympy.matrices.expressions.special import ZeroMatrix

from ..dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from ..model import build
from ..model import h as HEAD
from ..ops import LeadingColumns, Softmax
from .algebra import compare_matrices, max_abs_diff
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import Env, evaluate, explicit

SIZE_SETS = [{n: 3, d_model: 2, d_head: 2, H: 2, d_mlp: 2, n_vocab: 3, n_ctx: 3},
             {n: 4, d_model: 3, d_head: 1, H: 1, d_mlp: 2, n_vocab: 2, n_ctx: 5}]


def _named(sizes):
    return {str(k): int(v) for k, v in sizes.items()}


def element_atoms(expr, memo=None) -> frozenset:
    """The matrix entries ``expr`` is built from, each shared sub-expression visited once."""
    memo = {} if memo is None else memo
    if expr in memo:
        return memo[expr]
    if isinstance(expr, MatrixElement):
        out = frozenset([expr])
    elif not expr.args:
        out = frozenset()
    else:
        out = frozenset().union(*(element_atoms(a, memo) for a in expr.args))
    memo[expr] = out
    return out


def position_dependence(model, sizes) -> dict:
    """For each activation key (and head), the token positions each column's entries depend on.

    Rows are evaluated opaquely (each row written in the previous rows' entries); the positions of
    an entry are those of the ``t`` and ``W_pos`` columns it mentions directly, plus the positions of
    the earlier-row entries it mentions. Returns ``{key: [set of positions of column i, ...]}``.
    """
    values = evaluate(model, sizes, Env(), opaque=True)
    sized = {k: Integer(v) for k, v in sizes.items()}
    t = model["tokens"].symbol.name
    deps: dict = {}
    memo: dict = {}
    by_column: dict = {}

    def positions(expr):
        out = set()
        for atom in element_atoms(expr, memo):
            if atom.parent.name in (t, "W_pos"):
                out.add(int(atom.j))
            else:
                out |= deps.get(atom, set())
        return out

    for act in model.activations:
        if act.expr is None:
            continue
        value = values[act.key]
        mats = value.items() if act.per_head else [(None, value)]
        cols = None
        for head, M in mats:
            sym = act.symbol.xreplace(sized)
            if head is not None:
                sym = sym.xreplace({HEAD: Integer(head)})
            per_col = []
            for c in range(M.cols):
                col = set()
                for r in range(M.rows):
                    deps[sym[r, c]] = positions(M[r, c])
                    col |= deps[sym[r, c]]
                per_col.append(col)
            cols = per_col if cols is None else [x | y for x, y in zip(cols, per_col)]
        by_column[act.key] = cols
    return by_column


def _leaks(model, sizes, outputs):
    found = position_dependence(model, sizes)
    return [(key, i, sorted(p for p in cols[i] if p > i))
            for key in outputs for i, cols_i in enumerate(found[key]) for cols in [found[key]]
            if any(p > i for p in cols[i])]


def unmasked(model):
    """A wrong variant: the plain row-wise softmax in place of softmax*."""
    acts = tuple(replace(a, expr=Softmax(a.expr.arg, 1)) if a.key == "pattern" else a for a in model.activations)
    return replace(model, activations=acts)


def prove_causal(model=None, outputs=("resid_post", "probs")) -> Result:
    model = build("full") if model is None else model
    for sizes in SIZE_SETS:
        leaks = _leaks(model, sizes, outputs)
        if leaks:
            output = leaks[0][0]
            gap = _numeric_dependence(model, sizes, output)
            if gap and gap[0] > 1e-12:
                return refuted({"sizes": _named(sizes), "output": output, "column": gap[1],
                                "changed_positions_from": gap[2], "change": gap[0]},
                               f"column {leaks[0][1]} of {output} depends on later positions {leaks[0][2]}",
                               Method.CONCRETE, [_named(sizes)])
            return unknown(f"{output} column {leaks[0][1]} mentions positions {leaks[0][2]}; no numeric effect seen",
                           [_named(sizes)])
    return proved(Method.CONCRETE, [_named(s) for s in SIZE_SETS],
                  "no column j > i of t or W_pos reaches column i of " + ", ".join(outputs)
                  + " (dependencies propagated row by row through the model)")


def _one_hot(tokens, vocab):
    return ImmutableMatrix(vocab, len(tokens), lambda a, b: 1 if tokens[b] == a else 0)


def _numeric_dependence(model, sizes, output, seed=7):
    """Largest change of some column i when only tokens after i change (and where)."""
    rng = random.Random(seed)
    count, vocab = int(sizes[n]), int(sizes[n_vocab])
    tokens = [rng.randrange(vocab) for _ in range(count)]
    t = model["tokens"].symbol.xreplace({k: Integer(v) for k, v in sizes.items()})
    best = None
    for i in range(count - 1):
        other = tokens[: i + 1] + [(x + 1) % vocab for x in tokens[i + 1:]]
        outs = []
        for toks in (tokens, other):
            env = Env(numeric=True, seed=seed, digits=15)
            env[t] = _one_hot(toks, vocab)
            outs.append(evaluate(model, sizes, env)[output])
        gap = max_abs_diff(outs[0][:, i], outs[1][:, i])
        if best is None or gap > best[0]:
            best = (gap, i, i + 1)
    return best


def numeric_causal() -> NumericCheck:
    model = build("full")
    worst = max(_numeric_dependence(model, s, "probs")[0] for s in SIZE_SETS)
    return NumericCheck(worst < 1e-12, worst, len(SIZE_SETS), "change tokens after i: column i of p unchanged")


# ----------------------------------------------------------------- permutation equivariance


def without_positions(model, mask: bool = False):
    """The model with $W_\\text{pos}$ dropped and, unless ``mask``, softmax* replaced by softmax."""
    acts = []
    for a in model.activations:
        if a.key == "embed":
            a = replace(a, expr=a.expr.replace(lambda e: isinstance(e, LeadingColumns),
                                               lambda e: ZeroMatrix(*e.shape)))
        if a.key == "pattern" and not mask:
            a = replace(a, expr=Softmax(a.expr.arg, 1))
        acts.append(a)
    return replace(model, activations=tuple(acts))


PERM_SIZES = [{n: 3, d_model: 2, d_head: 2, H: 2, d_mlp: 2, n_vocab: 2, n_ctx: 3},
              {n: 3, d_model: 3, d_head: 1, H: 1, d_mlp: 1, n_vocab: 2, n_ctx: 3}]
PERM = (1, 2, 0)  # column b of t P is column PERM[b] of t


def permutation_pair(model, output="logits"):
    def pair(sizes, env):
        t = model["tokens"].symbol.xreplace({k: Integer(v) for k, v in sizes.items()})
        base = env.leaf(t)
        moved = ImmutableMatrix.hstack(*[base[:, PERM[b]] for b in range(base.cols)])
        first = evaluate(model, sizes, env)[output]
        second_env = Env(numeric=env.numeric, seed=0, digits=env.digits)
        second_env.update({k: v for k, v in env.items() if k.name.startswith(("W_", "b_", "ln"))})
        second_env[t] = moved
        second = evaluate(model, sizes, second_env)[output]
        return second, ImmutableMatrix.hstack(*[first[:, PERM[b]] for b in range(first.cols)])

    return pair


def _permute(M, token_columns=True):
    cols = ImmutableMatrix.hstack(*[M[:, PERM[b]] for b in range(M.cols)])
    if token_columns:
        return cols
    return ImmutableMatrix.vstack(*[cols[PERM[a], :] for a in range(M.rows)])  # P^T S P


def permutation_rows(model, sizes):
    """Row by row: if every earlier row of world 2 is world 1's row permuted, so is this row.

    World 1 feeds ``t``, world 2 feeds ``t P``; parameters are shared. Each row is evaluated
    from the previous rows' entries (opaque leaves), so the induction covers the whole model.
    Returns ``None`` when every row passes, else the first row (and head) that does not.
    """
    sized = {k: Integer(v) for k, v in sizes.items()}
    heads = int(sizes.get(H, 1))
    env1, env2 = Env(), Env()
    for act in model.activations:
        if act.expr is None:
            t = act.symbol.xreplace(sized)
            env2[t] = _permute(env1.leaf(t))
            continue
        for c in (range(1, heads + 1) if act.per_head else [None]):
            sym, expr = act.symbol.xreplace(sized), act.expr.xreplace(sized)
            if c is not None:
                sym, expr = sym.xreplace({HEAD: Integer(c)}), expr.xreplace({HEAD: Integer(c)})
            v1, v2 = explicit(expr, env1), explicit(expr, env2)
            ok, where = compare_matrices(v2, _permute(v1, act.token_columns))
            if not ok:
                return act.key, c, where
            leaves = ImmutableMatrix(sym.as_explicit())
            env1[sym], env2[sym] = leaves, _permute(leaves, act.token_columns)
    return None


def prove_permutation(mask: bool = False) -> Result:
    """Proved equivariant without positions and mask; the masked model is refuted (the expected part)."""
    from .concrete import TOLERANCE

    def refute(model, sizes):
        gap = max_abs_diff(*permutation_pair(model)(sizes, Env(numeric=True, seed=3, digits=15)))
        return gap if gap > TOLERANCE else None

    model = without_positions(build("full"), mask=mask)
    for sizes in PERM_SIZES:
        failed = permutation_rows(model, sizes)
        if failed:
            gap = refute(model, sizes)
            if gap:
                return refuted({"sizes": _named(sizes), "permutation": PERM, "row": failed[0], "gap": gap},
                               f"row {failed[0]} is not permutation-equivariant", Method.CONCRETE, [_named(sizes)])
            return unknown(f"row {failed[0]} (head {failed[1]}) entry {failed[2]} did not reduce", [_named(sizes)])
    result = proved(Method.CONCRETE, [_named(s) for s in PERM_SIZES],
                    "each row maps t P to (its output) P given that the previous rows do (induction over rows)")
    if mask:
        return result
    sizes = PERM_SIZES[0]
    gap = refute(without_positions(build("full"), mask=True), sizes)
    details = {"with_mask": "refuted" if gap else "unknown",
               "with_mask_counterexample": {"sizes": _named(sizes), "permutation": PERM, "gap": gap}}
    if not gap:
        return unknown("with the causal mask the model should not be equivariant, but no gap was found",
                       result.sizes, **details)
    return replace(result, details=details)


def numeric_permutation() -> NumericCheck:
    from .concrete import numeric_pair_check

    return numeric_pair_check(permutation_pair(without_positions(build("full"))), PERM_SIZES[:1])
