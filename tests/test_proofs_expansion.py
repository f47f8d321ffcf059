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
    assert h1 == h and h2 != h and t.expr == X.T * X.xreplace({h: h2})


def test_transpose_of_a_sum_of_products():
    assert [t.expr for t in terms((A * B + HeadSum(X * C, h, H)).T)] == [B.T * A.T, C.T * X.T]


def test_matching_is_up_to_renaming_of_bound_heads_only():
    g = Symbol("g", integer=True, positive=True)
    assert same_term(Term(((h, H),), A * X), Term(((g, H),), A * X.xreplace({h: g})))
    assert not same_term(Term(((h, H),), A * X), Term(((g, H),), X.xreplace({h: g}) * A))  # order matters
    assert not same_term(Term(((h, H),), A * X), Term(((g, Symbol("G")),), A * X.xreplace({h: g})))  # ranges
    ok, left_over = match(terms(A * (B + C)), terms(A * B))
    assert not ok and [t.expr for t in left_over] == [A * C]
