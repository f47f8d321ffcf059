r"""``concat-wo``: $W_O R = \sum_h W_O^h r^h$ for a symbolic number of heads $H$.

The left side is the concatenated model's attention output, $[W_O^{h_1} | \dots | W_O^{h_H}]$
times the stacked $R$; the right side is the additive model's $\sum_h W_O^h r^h$. Entry
$(i, j)$ of the left side is one sum over $k = 0 \dots H d_\text{head} - 1$ whose block is
$\lfloor k / d_\text{head} \rfloor$; the proof is an induction on $H$:

* base $H = 1$: $\lfloor k/d_\text{head} \rfloor = 0$ for $0 \le k \le d_\text{head} - 1$;
* step: the sum to $(H + 1) d_\text{head} - 1$ is the sum to $H d_\text{head} - 1$ plus the
  sum over $k = H d_\text{head} \dots (H+1) d_\text{head} - 1$; with $k = H d_\text{head} + c$
  the block index is $H + \lfloor c / d_\text{head} \rfloor = H$, which is exactly head $H + 1$'s
  term of $\sum_h$.

$i, j, d_\text{model}, d_\text{head}, n$ stay symbols throughout.
"""
from __future__ import annotations

from sympy import Integer, Sum, Symbol, expand, floor
from sympy.matrices.expressions.matexpr import MatrixExpr

from ..dims import H, d_head, d_model, n
from ..model import Heads, Variant, build, h
from ..ops import HeadSum
from .algebra import rewrite_sums, sum_index_canon
from .claim import Method, NumericCheck, Result, proved, unknown
from .concrete import numeric_pair_check, prove_entrywise
from .explicit import explicit

STATEMENT = (r"W_O R = \sum_{h=1}^{H} W_O^h r^h, \quad W_O = [W_O^{h_1} \,|\, \dots \,|\, W_O^{h_H}],"
             r"\ R = [r^{h_1}; \dots; r^{h_H}]")
ASSUMPTIONS = ("H, d_model, d_head, n symbolic positive integers",)

SIZE_SETS = [{H: 2, d_head: 2, d_model: 3, n: 2}, {H: 3, d_head: 2, d_model: 5, n: 3}]


def sides() -> tuple[MatrixExpr, MatrixExpr]:
    """$W_O R$ from the concatenated model and $\\sum_h W_O^h r^h$ from the additive one."""
    concat = build(Variant(layernorm=False, heads=Heads.CONCAT))
    additive = build(Variant(layernorm=False))
    total = next(a for a in additive["resid_mid"].expr.args if isinstance(a, HeadSum))
    total = total.xreplace({additive["head_out"].symbol: additive["head_out"].expr})
    return concat["attn_out"].expr, total


def _floor_lemma(expr):
    r"""$\lfloor c / d \rfloor = 0$ inside $\sum_{c=0}^{d-1}$ ($d$ a positive integer)."""

    def rule(s, c, lo, hi):
        fn = s.function.replace(lambda x: isinstance(x, floor), lambda x: floor(expand(x.args[0])))
        for d in (d_head,):
            if lo == 0 and expand(hi - (d - 1)) == 0:
                fn = fn.xreplace({floor(c / d): Integer(0)})
        return Sum(expand(fn), (c, lo, hi))

    return rewrite_sums(expr, rule)


def induction(left: MatrixExpr, right: MatrixExpr) -> tuple[bool, str]:
    """Entry $(i, j)$ of ``left`` equals that of ``right`` for every $H \\ge 1$ (or the failing step)."""
    i, j = Symbol("i", integer=True, nonnegative=True), Symbol("j", integer=True, nonnegative=True)
    L, R = left._entry(i, j), right._entry(i, j)
    if not (isinstance(L, Sum) and len(L.limits) == 1):
        return False, f"left entry is not a single sum over the concatenated index: {L}"
    f, (k, lo, hi) = L.function, L.limits[0]
    if lo != 0 or expand(hi - (H * d_head - 1)) != 0:
        return False, f"left sum runs over {lo}..{hi}, not 0..H d_head - 1"
    if H in f.free_symbols:
        return False, "the left summand depends on H itself, so L(H+1) is not L(H) plus new terms"
    if not (isinstance(R, Sum) and R.limits[-1][0] == h and R.limits[-1][1:] == (1, H)):
        return False, f"right entry is not a sum over heads h = 1..H: {R}"
    inner = Sum(R.function, *R.limits[:-1])
    if H in inner.free_symbols:
        return False, "the right summand depends on H itself"
    # base case H = 1
    base_left = _floor_lemma(Sum(f, (k, 0, d_head - 1)))
    base_right = inner.xreplace({h: Integer(1)})
    if sum_index_canon(base_left) != sum_index_canon(base_right):
        return False, f"base case H = 1 fails: {base_left} vs {base_right}"
    # step H -> H + 1: the new terms k = H d_head ... (H+1) d_head - 1, re-indexed k = H d_head + c
    c = Symbol("c", integer=True)
    new_left = Sum(f, (k, H * d_head, (H + 1) * d_head - 1)).change_index(k, k - H * d_head, c)
    new_left = Sum(new_left.function, (c, expand(new_left.limits[0][1]), expand(new_left.limits[0][2])))
    new_left = _floor_lemma(new_left)
    new_right = inner.xreplace({h: H + 1})
    if sum_index_canon(new_left) != sum_index_canon(new_right):
        return False, f"induction step fails: new terms {new_left} vs {new_right}"
    return True, "induction on H: base H = 1 and step H -> H + 1 match entry by entry"


def prove_concat(left: MatrixExpr | None = None, right: MatrixExpr | None = None) -> Result:
    if left is None or right is None:
        left, right = sides()
    if left.shape != right.shape:
        return unknown(f"shapes differ: {left.shape} vs {right.shape}")
    ok, why = induction(left, right)
    if ok:
        return proved(Method.SYMBOLIC, ["symbolic"], why)
    concrete = prove_entrywise(_pair(left, right), SIZE_SETS, "W_O R vs sum of heads")
    if concrete.proved:
        return unknown(f"symbolic proof failed ({why}); holds entry by entry at the concrete sizes only",
                       concrete.sizes)
    return concrete if concrete.status.value == "refuted" else unknown(why)


def _pair(left, right):
    def pair(sizes, env):
        sizes = {k: Integer(v) for k, v in sizes.items()}
        return explicit(left.xreplace(sizes), env), explicit(right.xreplace(sizes), env)

    return pair


def numeric() -> NumericCheck:
    return numeric_pair_check(_pair(*sides()), SIZE_SETS)
