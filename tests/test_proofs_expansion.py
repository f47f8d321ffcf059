"""The expansion rules for head sums inside products, each on its own, and the term matcher."""
from sympy import MatrixSymbol, Symbol

from symtf.ops import HeadMatrixSymbol, HeadSum
from symtf.proofs.expansion import Term, match, same_term, terms

h = Symbol("h", integer=True, positive=True)
H = Symbol("H", integer=True, positive=True)
A, B, C = (MatrixSymbol(s, 3, 3) for s in "ABC")
X = HeadMatrixSymbol("X", 3, 3, h)


def test_distribute():
    # Testing: A (B + C) = A B + A C
    assert [t.expr for t in terms(A * (B + C))] == [A * B, A * C]


def test_pull_head_sums_out_of_products():
    # Testing: A (Σ_h X^h) B = Σ_h A X^h B
    (t,) = terms(A * HeadSum(X, h, H) * B)
    assert t == Term(((h, H),), A * X * B)


def test_a_head_bound_twice_is_renamed():
    # Testing: (Σ_h X^h)^T (Σ_h X^h) = Σ_h Σ_h' (X^h)^T X^h'
    (t,) = terms(HeadSum(X, h, H).T * HeadSum(X, h, H))
    (h1, _), (h2, _) = t.bounds
    assert h1 != h2 and t.expr == X.xreplace({h: h1}).T * X.xreplace({h: h2})


def test_an_inner_sum_over_the_same_head_shadows_it():
    # Testing: Σ_h X^h (Σ_h X^h) = Σ_h Σ_h' X^h X^h' (the inner h is its own)
    (t,) = terms(HeadSum(X * HeadSum(X, h, H), h, H))
    (h1, _), (h2, _) = t.bounds
    assert h1 == h and h2 != h and t.expr == X * X.xreplace({h: h2})


def test_transpose_of_a_sum_of_products():
    assert [t.expr for t in terms((A * B + HeadSum(X * C, h, H)).T)] == [B.T * A.T, C.T * X.T]


def test_matching_is_up_to_renaming_of_bound_heads_only():
    g = Symbol("g", integer=True, positive=True)
    assert same_term(Term(((h, H),), A * X), Term(((g, H),), A * X.xreplace({h: g})))
    assert not same_term(Term(((h, H),), A * X), Term(((g, H),), X.xreplace({h: g}) * A))  # order matters
    assert not same_term(Term(((h, H),), A * X), Term(((g, Symbol("G")),), A * X.xreplace({h: g})))  # ranges
    ok, left_over = match(terms(A * (B + C)), terms(A * B))
    assert not ok and [t.expr for t in left_over] == [A * C]


# ---- property: the expansion is numerically the expression (hypothesis), square 3 × 3 matrices, H = 2
import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from sympy import Integer  # noqa: E402

from symtf.proofs.explicit import Env, explicit  # noqa: E402

Y = HeadMatrixSymbol("Y", 3, 3, h)
LEAVES = [A, B, C, X, Y]


def _exprs():
    leaf = st.sampled_from(LEAVES)

    def grow(children):
        return st.one_of(
            st.tuples(children, children).map(lambda p: p[0] * p[1]),
            st.tuples(children, children).map(lambda p: p[0] + p[1]),
            children.map(lambda e: e.T),
            children.map(lambda e: HeadSum(e, h, 2) if e.has(h) else e),
        )

    return st.recursive(leaf, grow, max_leaves=6).filter(lambda e: not _free_head(e))


def _free_head(e):
    """A per-head leaf outside every head sum has no value: such trees are not drawn."""
    if isinstance(e, HeadSum):
        return False
    if isinstance(e, HeadMatrixSymbol):
        return True
    return any(_free_head(a) for a in e.args)


def _value(term: Term, env) -> np.ndarray:
    total = 0
    for heads in np.ndindex(*[int(c) for _, c in term.bounds]):
        at = {b: Integer(i + 1) for (b, _), i in zip(term.bounds, heads)}
        total = total + np.array(explicit(term.expr.xreplace(at), env), dtype=float)
    return total


@settings(max_examples=40, deadline=None)
@given(_exprs())
def test_expansion_equals_the_expression_numerically(e):
    env = Env(numeric=True, seed=3, digits=15)
    want = np.array(explicit(e, env), dtype=float)
    got = sum((_value(t, env) for t in terms(e)), 0)
    assert np.allclose(got, want), f"{e} -> {terms(e)}"
