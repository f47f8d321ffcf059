"""kv-cache: decoding with cached keys/values = the full pass (symbolic n, m); no mask or a short cache refuted."""
import numpy as np
from sympy import Symbol

from symtf.ops import Softmax
from symtf.proofs.claim import Method, Status
from symtf.proofs.kvcache import _rows, m_, prove_kv_cache, reads_only_prefix


def test_decode_step_equals_the_full_column():
    # Testing: (v softmax*(S)^T)_{:, m} = V softmax(q_m^T K / sqrt d)^T, K = [k_1..k_m], V = [v_1..v_m]
    r = prove_kv_cache()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC and "columns <= m" in r.reason


def test_without_the_causal_mask_the_cache_is_wrong():
    r = prove_kv_cache(pattern=lambda S: Softmax(S, 1))  # attends to tokens after m too
    assert r.status is Status.REFUTED and r.counterexample["numeric_gap"] > 1e-6


def test_a_cache_missing_the_current_token_is_wrong():
    r = prove_kv_cache(cached=lambda m: m - 1)
    assert r.status is Status.REFUTED


def test_prefix_reader_sees_a_later_column():
    r, q, k, v = _rows()
    i = m_ - 1
    assert reads_only_prefix(q[0, i] * k[0, i], i)
    assert not reads_only_prefix(q[0, i] * k[0, i + 1], i)
    assert not reads_only_prefix(v[0, Symbol("j", integer=True)], i)  # a free index: not known to be <= i


def test_numpy_decode_loop_against_masked_attention():
    # independent reference: token-by-token decoding with a growing cache, numpy, primes 5 (d_head) and 7 (n)
    rng = np.random.default_rng(4)
    q, k, v = (rng.normal(size=(5, 7)) for _ in range(3))
    S = q.T @ k / np.sqrt(5)
    S[np.triu_indices(7, 1)] = -np.inf
    A = np.exp(S - S.max(1, keepdims=True))
    full = v @ (A / A.sum(1, keepdims=True)).T
    K, V = np.zeros((5, 0)), np.zeros((5, 0))
    for m in range(7):
        K, V = np.hstack([K, k[:, m:m + 1]]), np.hstack([V, v[:, m:m + 1]])
        s = q[:, m] @ K / np.sqrt(5)
        a = np.exp(s - s.max())
        assert np.allclose(V @ (a / a.sum()), full[:, m])


def test_two_layer_model_on_a_prefix_agrees_with_the_full_input():
    # evidence beyond one layer: GPT-2's variant with 2 layers, compiled by symtf.numeric; positions 1..3 of
    # every activation are the same whether the input has 6 tokens or only its first 3
    from symtf.model import Variant
    from symtf.numeric import compile_forward, random_weights

    variant = Variant.preset("gpt2").with_(layers=2)
    forward = compile_forward(variant)
    weights = random_weights(variant, {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17},
                             seed=1)
    tokens, prefix = [3, 1, 4, 1, 5, 9], 3
    full, short = forward(weights, tokens), forward(weights, tokens[:prefix])
    compared = 0
    for key, value in short.items():
        if value.ndim >= 2 and value.shape[-1] == prefix:
            long = full[key][..., :prefix, :prefix] if value.shape[-2] == prefix else full[key][..., :prefix]
            np.testing.assert_allclose(long, value, rtol=0, atol=1e-12, err_msg=key)
            compared += 1
    assert compared >= 20  # every per-position activation of both blocks, not a vacuous loop
