"""rope-relative proved for symbolic sizes and positions; a query rotated the wrong way (angle m + n) and
the absorption of W_Q^T W_K refuted with counterexamples."""
from symtf.ops import RoPE
from symtf.proofs.claim import Method, Status
from symtf.proofs.rope import (
    i_, k, m_, p_, prove_absorption, prove_relative, q, relative_summand, theta,
)


def test_score_depends_only_on_n_minus_m():
    # Testing: (R_m q)^T (R_n k) = q^T R_{n-m} k, pair by pair
    r = prove_relative()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC
    assert "angle-difference" in r.reason


def test_query_rotated_by_minus_its_angle_is_refuted():
    # R_m^T in place of R_m: the score becomes q^T R_{m+n} k, which depends on m + n
    r = prove_relative(lambda x, pos: RoPE(x, -theta, pos))
    assert r.status is Status.REFUTED
    assert r.counterexample["positions"] == [(1, 3), (2, 4)] and r.counterexample["numeric_gap"] > 1e-6


def test_query_rotated_by_a_sum_of_positions_is_refuted():
    r = prove_relative(lambda x, pos: RoPE(x, theta, pos + p_))  # angle (m + n) θ on the query
    assert r.status is Status.REFUTED


def test_absorption_is_refuted_with_an_exact_counterexample():
    r = prove_absorption()
    assert r.status is Status.REFUTED and r.method is Method.CONCRETE
    assert r.counterexample["RoPE scores [[m=0,n=0], [m=0,n=1]]"] == ["1", "0"]
    assert r.counterexample["absorbed scores"] == ["1", "1"]


def test_relative_form_at_equal_positions_is_the_plain_product():
    # Testing: n = m leaves no rotation: q_2i k_2i + q_2i+1 k_2i+1
    assert relative_summand().xreplace({p_: m_}) == q[2 * i_, 0] * k[2 * i_, 0] + q[2 * i_ + 1, 0] * k[2 * i_ + 1, 0]
