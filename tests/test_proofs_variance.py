"""variance-sqrt-dhead: moment algebra for symbolic d_head; dependence and a missing √d_head are refuted."""
import numpy as np
from sympy import KroneckerDelta, Symbol

from symtf.dims import d_head
from symtf.proofs.claim import Status
from symtf.proofs.variance import (
    expectation,
    k,
    moments,
    monte_carlo,
    prove_variance,
    q,
    score_entry,
)


def test_proved_for_symbolic_d_head():
    # Testing: E[q^T k] = 0, Var(q^T k) = d_head, Var(q^T k / sqrt(d_head)) = 1
    r = prove_variance()
    assert r.status is Status.PROVED
    assert r.details["Var(q^T k)"] == d_head and r.details["Var(s)"] == 1 and r.details["E[s]"] == 0


def test_general_means_and_variances():
    r = prove_variance()
    mq, mk = Symbol("mu_q", real=True), Symbol("mu_k", real=True)
    sq, sk = Symbol("sigma_q", positive=True), Symbol("sigma_k", positive=True)
    assert r.details["general E[q^T k]"] == d_head * mq * mk
    want = d_head * (sq**2 * sk**2 + sq**2 * mk**2 + sk**2 * mq**2)
    assert (r.details["general Var(q^T k)"] - want).expand() == 0


def test_missing_sqrt_d_head_is_refuted():
    r = prove_variance(scale=False)
    assert r.status is Status.REFUTED


def test_dependent_q_equals_k_is_refuted():
    r = prove_variance(dependent=True)
    assert r.status is Status.REFUTED
    assert r.details["Var(s)"] == Symbol("m4_q", real=True) - 1  # = 1 only when the fourth moment is 2


def test_expectation_operator_on_one_pair():
    a, b = Symbol("a", integer=True), Symbol("b", integer=True)
    law = moments("q")
    e = expectation(q[a] * q[b], {q: law, k: moments("k")})
    assert (e - (law.var * KroneckerDelta(a, b) + law.mean**2)).expand() == 0


def test_score_comes_from_the_model():
    assert score_entry().has(d_head)  # the model's 1/sqrt(d_head)


def test_monte_carlo_interval_contains_one_and_numpy_agrees():
    check = monte_carlo(d=8, samples=5000, seed=1)
    assert check.passed
    rng = np.random.default_rng(2)  # independent: dependent q = k with normal entries has Var(q·q/√d) = 2
    qs = rng.standard_normal((20000, 8))
    assert abs(((qs * qs).sum(1) / np.sqrt(8)).var() - 2) < 0.15
