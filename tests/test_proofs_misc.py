"""mlp-position-wise, zero-layer-bigram, param-counts: proved, and their wrong variants rejected."""
from dataclasses import replace

from symtf.dims import param_count_formula
from symtf.model import build
from symtf.ops import ReLU, Softmax
from symtf.proofs.claim import Status
from symtf.proofs.embedding import prove_bigram
from symtf.proofs.mlp import mlp_expr, prove_position_wise
from symtf.proofs.params import prove_params


def test_mlp_position_wise_and_token_mixing_is_refuted():
    assert prove_position_wise().status is Status.PROVED
    expr, x = mlp_expr()
    hidden = expr.atoms(ReLU).pop()
    mixed = expr.xreplace({hidden: Softmax(hidden.arg, 1)})  # a "nonlinearity" across tokens
    assert prove_position_wise(mixed, x).status is Status.REFUTED


def test_bigram_and_softmax_over_positions_is_refuted():
    assert prove_bigram().status is Status.PROVED
    zero = build("zero")
    acts = tuple(replace(a, expr=Softmax(a.expr.arg, 1)) if a.key == "probs" else a for a in zero.activations)
    assert prove_bigram(replace(zero, activations=acts)).status is Status.REFUTED


def test_param_counts_and_a_wrong_formula():
    r = prove_params()
    assert r.status is Status.PROVED
    assert r.details["totals"]["gpt2-small"]["count"] == 124_439_808
    assert prove_params(param_count_formula(final_layernorm=False)).status is Status.REFUTED
