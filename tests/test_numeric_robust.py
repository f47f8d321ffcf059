"""Numerical robustness: extreme logits and scores, one token, float32 staying float32."""
from __future__ import annotations

import numpy as np
import pytest

from symtf.model import build
from symtf.numeric import compile_forward, compile_row, random_weights

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logits_of_plus_minus_1e4_give_finite_probabilities(dtype):
    row = compile_row(build("full"), build("full")["probs"])
    logits = np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, 1.0], [1e4 - 1, 1e4, -1e4]], dtype=dtype)
    p = row.fn(logits)
    assert p.dtype == dtype and np.isfinite(p).all()
    np.testing.assert_allclose(p.sum(axis=0), 1.0, rtol=1e-6)
    assert p[1, 0] == 0.0 and p[0, 1] == 0.0  # e^{-2e4} underflows to 0, not NaN
    np.testing.assert_allclose(p[[0, 2], 0], [1 / (1 + np.exp(-1)), np.exp(-1) / (1 + np.exp(-1))], rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_whole_model_with_huge_logits(dtype):
    w = random_weights("full", SIZES, seed=3)
    w["W_U"] *= 1e4 / np.abs(w["W_U"]).max()  # logits of order ±1e4
    acts = compile_forward("full", dtype)(w, [1, 2, 3])
    assert np.abs(acts["logits"]).max() > 1e3
    assert np.isfinite(acts["probs"]).all()
    np.testing.assert_allclose(acts["probs"].sum(axis=0), 1.0, rtol=1e-6)


def test_float32_softmax_down_a_gpt2_sized_vocabulary_keeps_float32_accuracy():
    # 50,257 logits per column: summed row after row in float32 this loses ~4 digits
    row = compile_row(build("full"), build("full")["probs"])
    logits = np.random.default_rng(0).standard_normal((50257, 3)) * 3
    exact = np.exp(logits - logits.max(axis=0))
    exact /= exact.sum(axis=0)
    p = row.fn(logits.astype(np.float32))
    assert p.dtype == np.float32
    assert np.abs(p - exact).max() / exact.max() < 2e-6


def test_causal_softmax_with_extreme_scores_never_gives_nan():
    row = compile_row(build("full"), build("full")["pattern"])
    S = np.array([[[-1e4, 1e4, 1e4], [1e4, -1e4, 5.0], [-1e4, -1e4, -1e4]]])  # (H=1, n, n)
    A = row.fn(S)
    assert np.isfinite(A).all()
    assert np.array_equal(np.triu(A[0], 1), np.zeros((3, 3)))  # exactly 0 above the diagonal
    np.testing.assert_allclose(A.sum(axis=-1), 1.0)
    assert A[0, 0, 0] == 1.0  # the first query sees only itself, whatever the masked scores are


@pytest.mark.parametrize("variant", ["zero", "simplified", "full", "full-no-ln", "gpt2"])
def test_one_token(variant):
    acts = compile_forward(variant, np.float32)(random_weights(variant, SIZES, seed=1), [4])
    for key, a in acts.items():
        assert np.isfinite(a).all(), key
        assert 1 in a.shape[-2:] or key in ("q", "k", "v"), key
    if "pattern" in acts:  # one query, one key: all its attention on itself
        assert acts["pattern"].ravel().tolist() == [1.0] * (1 if variant == "simplified" else SIZES["H"])
    assert acts["probs"].shape == (13, 1)


def test_float32_stays_float32_through_every_row():
    acts = compile_forward("gpt2", np.float32)(random_weights("gpt2", SIZES), [1, 2, 3])
    assert {a.dtype for a in acts.values()} == {np.dtype(np.float32)}


def test_outputs_are_the_callers_own_arrays():
    w = random_weights("zero", SIZES)
    before = w["W_pos"].copy()
    acts = compile_forward("zero")(w, [0, 1])
    acts["embed"][:] = 0  # writing into an output must not touch the weights
    assert np.array_equal(w["W_pos"], before)
