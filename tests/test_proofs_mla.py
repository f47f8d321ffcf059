"""mla-absorption: naive MLA = absorbed MLA (symbolic sizes and H), the cache formula; wrong absorptions refuted."""
from sympy import sqrt

from symtf.model import h
from symtf.dims import H, d_head, n_layers
from symtf.ops import CausalSoftmax, HeadSum
from symtf.proofs.claim import Method, Status
from symtf.proofs.mla import (
    DEEPSEEK_V2, MHA_CACHE, W_DKV, W_DQ, W_O, W_UK, W_UQ, W_UV, cache_per_token, d_c, d_R, mla_output, prove_mla, x,
)

c_kv, c_q = W_DKV * x, W_DQ * x


def test_absorbed_mla_equals_naive_mla():
    # Testing: (q^h)^T k^h = (c_Q)^T (W_UQ^h^T W_UK^h) c_KV and W_O^h v^h = (W_O^h W_UV^h) c_KV
    r = prove_mla()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC
    assert r.details["cache_deepseek_v2"] == 60 * (512 + 64) == 34_560
    assert r.details["cache_mha_same_heads"] == 2 * 128 * 128 * 60


def test_keys_absorbed_on_the_wrong_side_are_refuted():
    # c_KV^T (W_UK^T W_UQ) c_Q: the transposed score matrix (query i against key j swapped)
    wrong = HeadSum(W_O * W_UV * c_kv * CausalSoftmax(c_kv.T * W_UK.T * W_UQ * c_q / sqrt(d_head)).T, h, H)
    assert prove_mla(wrong).status is Status.REFUTED


def test_value_projection_dropped_is_refuted_by_shape_or_gap():
    wrong = HeadSum(W_O * W_UK * c_kv * CausalSoftmax(c_q.T * W_UQ.T * W_UK * c_kv / sqrt(d_head)).T, h, H)  # W_UK for W_UV
    assert prove_mla(wrong).status is Status.REFUTED


def test_absorbed_form_reads_only_the_latent():
    fused = mla_output(True)
    assert not fused.has(W_UK) and not fused.has(W_UV)  # keys and values never formed
    assert fused.has(W_DKV)


def test_cache_formula():
    assert cache_per_token() == n_layers * (d_c + d_R)
    assert cache_per_token(MHA_CACHE) == n_layers * 2 * H * d_head
    assert DEEPSEEK_V2["d_c"] == 4 * DEEPSEEK_V2["d_head"] and 2 * DEEPSEEK_V2["d_R"] == DEEPSEEK_V2["d_head"]
