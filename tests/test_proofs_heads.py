"""concat-wo: W_O R = Σ_h W_O^h r^h for symbolic H, and wrong block orders are rejected."""
import numpy as np

from symtf.dims import H
from symtf.model import h
from symtf.ops import HeadConcat
from symtf.proofs.claim import Method, Status
from symtf.proofs.heads import induction, prove_concat, sides


def test_concat_wo_proved_for_symbolic_heads():
    # Testing: [W_O^1 | ... | W_O^H] [r^1; ...; r^H] = Σ_h W_O^h r^h, H symbolic
    result = prove_concat()
    assert result.status is Status.PROVED and result.method is Method.SYMBOLIC
    assert "induction" in result.reason


def test_reversed_block_order_is_refuted():
    left, right = sides()
    W, R = left.args
    reversed_R = HeadConcat(R.block.xreplace({h: H + 1 - h}), h, H, 0)  # [r^H; ...; r^1]
    result = prove_concat(W * reversed_R, right)
    assert result.status is Status.REFUTED
    assert result.counterexample["numeric_gap"] > 1e-6


def test_shifted_heads_are_not_proved():
    left, right = sides()
    W, R = left.args
    shifted = HeadConcat(R.block.xreplace({h: h + 1}), h, H, 0)  # r^2 ... r^{H+1}: off by one head
    ok, why = induction(W * shifted, right)
    assert not ok and ("step" in why or "base" in why)
    assert prove_concat(W * shifted, right).status is not Status.PROVED


def test_block_matrix_identity_numerically_with_numpy():
    # independent reference: numpy blocks at H = 3, d_head = 5, d_model = 7, n = 2
    rng = np.random.default_rng(0)
    Ws = [rng.normal(size=(7, 5)) for _ in range(3)]
    rs = [rng.normal(size=(5, 2)) for _ in range(3)]
    assert np.allclose(np.hstack(Ws) @ np.vstack(rs), sum(W @ r for W, r in zip(Ws, rs)))
