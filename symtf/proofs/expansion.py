r"""Expanding matrix expressions with sums over heads into terms, and matching two such expansions.

A :class:`Term` is $\sum_{h_1=1}^{H_1} \cdots \sum_{h_k=1}^{H_k} P$ with $P$ one product of matrices
(a scalar factor allowed). :func:`terms` applies three rules, each valid for any (symbolic) number
of heads because every sum is finite:

* ``distribute``: $A (B + C) D = ABD + ACD$;
* ``pull_head_sums``: $A \left(\sum_h B^h\right) C = \sum_h A B^h C$ when $A, C$ do not involve $h$
  (a head symbol bound twice in one product is renamed first: $\left(\sum_h X^h\right)^\top \left(\sum_h Y^h\right) = \sum_h \sum_{h'} (X^h)^\top Y^{h'}$);
* ``transpose_terms``: $\left(\sum_h P^h\right)^\top = \sum_h (P^h)^\top$.

Two expansions are equal when their terms can be paired so that paired terms have the same
head ranges and, after renaming the bound heads, the same canonical product
(:func:`symtf.proofs.algebra.matrix_identity`). This is sufficient, not necessary: an expansion
that does not match is not called different until a numeric instance shows a gap.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product

from sympy import Mul, Symbol
from sympy.matrices.expressions.matadd import MatAdd
from sympy.matrices.expressions.matmul import MatMul
from sympy.matrices.expressions.transpose import Transpose

from ..ops import HeadSum
from .algebra import matrix_identity


@dataclass(frozen=True)
class Term:
    """$\\sum$ over ``bounds`` (pairs head symbol, count) of the product ``expr``."""

    bounds: tuple
    expr: object

    def canonical(self) -> "Term":
        return Term(self.bounds, self.expr.doit())


def _fresh(symbol, taken):
    name = symbol.name
    while True:
        name += "'"
        candidate = Symbol(name, **symbol.assumptions0)
        if candidate not in taken:
            return candidate


def _symbols(e) -> set:
    """Every plain symbol in ``e``, the heads inside per-head matrix symbols included (their ``free_symbols`` hide them)."""
    return e.atoms(Symbol)


def _rebind(term: Term, avoid: set) -> Term:
    """``term`` with each bound head that is in ``avoid`` renamed to a fresh symbol."""
    taken = set(avoid) | _symbols(term.expr) | {b for b, _ in term.bounds}
    rename = {}
    for b, _ in term.bounds:
        if b in avoid:
            rename[b] = _fresh(b, taken)
            taken.add(rename[b])
    if not rename:
        return term
    return Term(tuple((rename.get(b, b), c) for b, c in term.bounds), term.expr.xreplace(rename))


def _join(left: Term, right: Term) -> Term:
    """The product of two terms, bound heads renamed apart from the other factor's symbols."""
    left = _rebind(left, _symbols(right.expr))  # a head free in the right factor is not the left one's bound head
    right = _rebind(right, {b for b, _ in left.bounds} | _symbols(left.expr))
    return Term(left.bounds + right.bounds, MatMul(left.expr, right.expr))


def terms(e) -> list[Term]:
    """The expansion of ``e`` into :class:`Term`\\ s by the rules above (products canonical)."""
    return [t.canonical() for t in _terms(e)]


def _terms(e) -> list[Term]:
    if isinstance(e, MatAdd):
        return [t for a in e.args for t in _terms(a)]
    if isinstance(e, HeadSum):  # an inner sum over the same head shadows it: rename the inner one first
        return [Term(((e.head, e.count),) + t.bounds, t.expr) for t in (_rebind(t, {e.head}) for t in _terms(e.term))]
    if isinstance(e, Transpose):
        return [Term(t.bounds, Transpose(t.expr)) for t in _terms(e.arg)]
    if isinstance(e, MatMul):
        scalars = [a for a in e.args if not getattr(a, "is_Matrix", False)]
        scalar = Mul(*scalars) if scalars else None
        factors = [_terms(a) for a in e.args if getattr(a, "is_Matrix", False)]
        out = []
        for combo in product(*factors):
            joined = combo[0]
            for nxt in combo[1:]:
                joined = _join(joined, nxt)
            out.append(Term(joined.bounds, joined.expr if scalar is None else scalar * joined.expr))
        return out
    return [Term((), e)]


def same_term(a: Term, b: Term) -> bool:
    """Equal up to a renaming of the bound heads that keeps each head's range."""
    if sorted(str(c) for _, c in a.bounds) != sorted(str(c) for _, c in b.bounds):
        return False
    heads_a = [h for h, _ in a.bounds]
    for order in permutations(b.bounds):
        if any(c1 != c2 for (_, c1), (_, c2) in zip(a.bounds, order)):
            continue
        rename = {h: o for h, (o, _) in zip(heads_a, order)}
        if matrix_identity(a.expr.xreplace(rename), b.expr):
            return True
    return False


def match(left: list[Term], right: list[Term]) -> tuple[bool, list[Term]]:
    """``(True, [])`` if the terms pair up one to one (:func:`same_term`), else ``(False, unmatched terms)``."""
    rest = list(right)
    unmatched = []
    for t in left:
        hit = next((i for i, u in enumerate(rest) if same_term(t, u)), None)
        if hit is None:
            unmatched.append(t)
        else:
            rest.pop(hit)
    return not unmatched and not rest, unmatched + rest
