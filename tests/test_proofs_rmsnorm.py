"""rmsnorm-layernorm: proved for symbolic sizes, and wrong variants rejected."""
from sympy import Identity, OneMatrix

from symtf.dims import d_model
from symtf.proofs.claim import Method, Status
from symtf.proofs.rmsnorm import differences, prove_rmsnorm_layernorm


def test_layernorm_is_rmsnorm_of_the_centred_input():
    # Testing: LayerNorm(x; γ, β) = RMSNorm(x - μ(x); γ) + β, symbolic d_model, n, ε
    r = prove_rmsnorm_layernorm()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC
    assert r.details["when_they_differ"]["mean 0 (beta = 0)"].startswith("RMSNorm = LayerNorm, proved")


def test_rmsnorm_without_centring_is_refuted():
    r = prove_rmsnorm_layernorm(Identity(d_model))  # RMSNorm(x) in place of RMSNorm(x - mu)
    assert r.status is Status.REFUTED and r.counterexample["numeric_gap"] > 1e-6


def test_centring_with_the_wrong_count_is_refuted():
    r = prove_rmsnorm_layernorm(Identity(d_model) - OneMatrix(d_model, d_model) / (d_model + 1))
    assert r.status is Status.REFUTED


def test_the_counterexample_really_differs():
    ce = differences()["mean != 0"]
    assert ce["LayerNorm"] == ["-1", "1"] and ce["RMSNorm"] == ["sqrt(5)/5", "3*sqrt(5)/5"]
