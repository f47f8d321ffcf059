"""Attention claims proved from the model's rows; wrong variants (A instead of Aᵀ, no √d) are rejected."""
import numpy as np

from symtf.model import Variant, build
from symtf.ops import Softmax
from symtf.proofs.attention import (
    SIZES_A,
    _shared_env,
    prove_circuits,
    prove_convex,
    prove_end_to_end,
    prove_result_matrix_form,
    prove_row_column,
    prove_simplified,
    simplified_pair,
)
from symtf.proofs.claim import Method, Status
from symtf.proofs.concrete import prove_entrywise
from symtf.proofs.explicit import evaluate


def test_result_matrix_form_symbolic_and_wrong_transpose():
    # Testing: (v A^T)_{:, i} = Σ_{j<=i} a_ij v_j
    assert prove_result_matrix_form().status is Status.PROVED
    assert prove_result_matrix_form(transpose=False).status is Status.REFUTED


def test_convex_combination_and_unmasked_softmax_is_not():
    assert prove_convex().status is Status.PROVED
    assert prove_convex(lambda S: Softmax(S, 1)).status is not Status.PROVED


def test_simplified_is_last_column_at_two_sizes():
    r = prove_simplified()
    assert r.status is Status.PROVED and r.method is Method.CONCRETE and len(r.sizes) == 2


def test_first_column_instead_of_last_is_refuted():
    # a wrong variant of the claim: the simplified x1_n against the FIRST column of x1
    simple, full = build("simplified"), build(Variant(layernorm=False))

    def wrong(sizes, env):
        env = _shared_env(simple, full, sizes, env.numeric)
        a = evaluate(simple, sizes, env, upto="resid_mid")["resid_mid"]
        b = evaluate(full, sizes, env, upto="resid_mid")["resid_mid"]
        return a, b[:, 0]

    assert prove_entrywise(wrong, [SIZES_A]).status is Status.REFUTED
    right = simplified_pair()
    assert prove_entrywise(right, [SIZES_A]).status is Status.PROVED


def test_end_to_end_and_missing_sqrt():
    assert prove_end_to_end().status is Status.PROVED
    assert prove_end_to_end(scale=False).status is Status.REFUTED


def test_circuits_and_missing_sqrt():
    assert prove_circuits().status is Status.PROVED
    assert prove_circuits(scale=False).status is Status.REFUTED


def test_row_column_and_missing_sqrt():
    assert prove_row_column().status is Status.PROVED
    assert prove_row_column(scale=False).status is Status.REFUTED


def test_row_form_is_transpose_numpy():
    # independent reference: row form softmax*(Q K^T/√d) V W_O^T equals (W_O v A^T)^T
    rng = np.random.default_rng(0)
    n, dm, dh = 3, 5, 2
    x = rng.normal(size=(dm, n))
    WQ, WK, WV, WO = (rng.normal(size=s) for s in ((dh, dm), (dh, dm), (dh, dm), (dm, dh)))
    S = (WQ @ x).T @ (WK @ x) / np.sqrt(dh)
    S = np.where(np.tril(np.ones((n, n))) > 0, S, -np.inf)
    A = np.exp(S - S.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    col = WO @ (WV @ x) @ A.T
    X = x.T
    row = A @ (X @ WV.T) @ WO.T
    assert np.allclose(row, col.T)
