"""path-expansion-1l / -2l: proved for symbolic sizes; a missing direct path, virtual heads in the wrong
order and a composition term with the heads swapped are refuted."""
from symtf.model import Variant, build
from symtf.proofs.claim import Method, Status
from symtf.proofs.expansion import Term
from symtf.proofs.paths import (
    Kron, weights, composition_statement, layer2, prove_1l, prove_2l, statement_1l, statement_2l, vec_lemma,
)


def test_vec_lemma():
    # Testing: vec(M X N^T) = (N ⊗ M) vec(X), column-major, symbolic sizes
    assert vec_lemma()


def test_one_layer_expansion_in_both_conventions():
    # Testing: vec(ℓ) = (Id ⊗ W_U W_E + Σ_h A^h ⊗ W_U W_O^h W_V^h W_E) vec(t)
    r = prove_1l()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC and "row convention" in r.reason


def test_missing_direct_path_is_refuted():
    r = prove_1l(statement_1l()[1:])
    assert r.status is Status.REFUTED and r.counterexample["numeric_gap"] > 1e-6


def test_head_term_without_W_E_is_refuted():
    direct, head = statement_1l()
    P, A = weights()
    r = prove_1l([direct, Kron(head.bounds, A.T, head.M)])  # A^T ⊗ ... : pattern transposed
    assert r.status is Status.REFUTED


def test_two_layer_expansion_and_compositions():
    r = prove_2l()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC
    assert set(r.details["composition"]) == {"direct", "K-composition", "Q-composition", "Q- and K-composition"}


def test_virtual_heads_in_the_wrong_order_are_refuted():
    *rest, virtual = statement_2l()
    P, A = weights()
    OV = P["W_O"] * P["W_V"]
    swapped = Kron(virtual.bounds, A * layer2(A), P["W_U"] * OV * layer2(OV) * P["W_E"])  # layer 1 applied last
    r = prove_2l(rest + [swapped])
    assert r.status is Status.REFUTED and r.counterexample["numeric_gap"] > 1e-6


def test_composition_term_with_heads_swapped_is_refuted():
    # K-composition is x0^T W_QK^{2,g} W_OV^{1,h} x0 (A^h)^T; W_OV^{1,h} W_QK^{2,g} (swapped) is not a term
    kinds = composition_statement()
    P, A = weights()
    QK, OV = layer2(P["W_Q"].T * P["W_K"]), P["W_O"] * P["W_V"]
    x0 = P["W_E"] * build(Variant(layernorm=False))["tokens"].symbol
    wrong = {**kinds, "K-composition": Term(kinds["K-composition"].bounds, (x0.T * OV * QK * x0 * A.T).doit())}
    r = prove_2l(composition=wrong)
    assert r.status is Status.REFUTED and r.counterexample["numeric_gap"] > 1e-6
