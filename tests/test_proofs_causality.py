"""causal and permutation-equivariance on the full one-layer model; the wrong variants are refuted."""
from symtf.model import build
from symtf.proofs.causality import (
    SIZE_SETS,
    position_dependence,
    prove_causal,
    prove_permutation,
    unmasked,
)
from symtf.proofs.claim import Method, Status


def test_causal_proved_at_two_sizes():
    r = prove_causal()
    assert r.status is Status.PROVED and r.method is Method.CONCRETE and len(r.sizes) == 2


def test_dependence_is_lower_triangular():
    deps = position_dependence(build("full"), SIZE_SETS[0])
    assert [sorted(c) for c in deps["probs"]] == [[0], [0, 1], [0, 1, 2]]


def test_without_mask_is_refuted():
    r = prove_causal(unmasked(build("full")))
    assert r.status is Status.REFUTED and r.counterexample["change"] > 1e-6


def test_permutation_equivariance_and_mask_counterexample():
    r = prove_permutation()
    assert r.status is Status.PROVED
    assert r.details["with_mask"] == "refuted"
    assert prove_permutation(mask=True).status is Status.REFUTED
