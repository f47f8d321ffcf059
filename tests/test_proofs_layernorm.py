"""LayerNorm moments (symbolic d_model) and the post's β, γ sentence (refuted, constant case proved)."""
import numpy as np
from sympy import Rational

from symtf.ops import LayerNorm
from symtf.proofs.claim import Status
from symtf.proofs.layernorm import model_layernorm, prove_beta_gamma, prove_moments


def test_moments_symbolic():
    r = prove_moments()
    assert r.status is Status.PROVED and r.details == {"mean": 0, "variance": 1}


def test_with_epsilon_variance_is_not_one():
    ln = model_layernorm()
    wrong = LayerNorm(ln.X, ln.gamma, ln.beta, Rational(1, 100), ln.axis)
    assert prove_moments(wrong).status is not Status.PROVED


def test_beta_gamma_refuted_with_counterexample_and_constant_case_proved():
    r = prove_beta_gamma()
    assert r.status is Status.REFUTED
    assert r.counterexample["mean"] == "1" and r.counterexample["std"] == "2"
    assert "proved" in next(iter(r.details["special_case"].values()))
    # independent numpy reference for the counterexample
    x, g, b = np.array([0.0, 2.0]), np.array([1.0, 3.0]), np.zeros(2)
    y = (x - x.mean()) / x.std() * g + b
    assert y.tolist() == [-1.0, 3.0] and y.mean() == 1.0 and y.std() == 2.0
