"""Every activation of every layer of a saved 3-layer HF GPT-2, against symtf's numpy and torch backends.

The checkpoint is a random ``GPT2LMHeadModel`` (random biases and LayerNorm parameters too),
``save_pretrained`` to a temporary directory and read back with ``load_checkpoint``: the path a
user's checkpoint takes. HF's activations are read with forward hooks on each block (its q, k, v
from its own attention function), in the post's layout. Tolerances: float64 1e-10, float32 1e-4,
relative to the largest entry (at least 1). TransformerLens is not a second reference here: it
is not installable offline in this environment.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest
from tests.hf_gpt2 import hf_every_layer, random_gpt2, torch

from symtf.cli import main
from symtf.numeric import compile_forward
from symtf.numeric.backends import to_numpy
from symtf.numeric.checkpoint import load_checkpoint

pytestmark = pytest.mark.crosscheck

LAYERS = 3
TOKENS = [3, 1, 4, 1, 5, 9, 2]
TOLERANCE = {"float64": 1e-10, "float32": 1e-4}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A random 3-layer GPT-2 (n_vocab 13, n_ctx 17, d_model 10 = 2 heads × 5, d_mlp 11) saved to disk."""
    model = random_gpt2(layers=LAYERS, seed=7)
    path = tmp_path_factory.mktemp("gpt2-3")
    model.save_pretrained(path)
    return path, model


def _compare(ours: dict, theirs: dict, tol: float, label: str) -> None:
    assert set(ours) == set(theirs), sorted(set(ours) ^ set(theirs))
    for key, expected in theirs.items():
        got = to_numpy(ours[key]).astype(np.float64)
        assert got.shape == expected.shape, f"{label} {key}: {got.shape} != {expected.shape}"
        scale = max(1.0, float(np.abs(expected).max()))
        err = float(np.abs(got - expected).max())
        assert err <= tol * scale, f"{label} {key}: max |symtf - HF| = {err:.3g} > {tol:g} × {scale:.3g}"


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_every_activation_of_every_layer_matches_hf(saved, backend, dtype, monkeypatch):
    path, model = saved
    ckpt = load_checkpoint(path)
    hf = model if dtype == "float64" else copy.deepcopy(model).to(torch.float32)  # the fixture stays float64
    theirs = hf_every_layer(hf, TOKENS, monkeypatch)
    ours = compile_forward(ckpt.variant, dtype, backend=backend)(ckpt.params, TOKENS)
    assert len(ours) == 4 + 13 * LAYERS  # embed, 13 rows per block, lnf, logits, probs
    for value in ours.values():
        assert str(value.dtype).endswith(dtype), value.dtype
    _compare(ours, theirs, TOLERANCE[dtype], f"{backend}/{dtype}")


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_eval_checkpoint_out_every_hook(saved, backend, tmp_path, monkeypatch):
    path, model = saved
    out = tmp_path / "acts.npz"
    assert main(["eval", "--checkpoint", str(path), "--backend", backend, "--tokens", "3,1,4,1,5,9,2",
                 "--out", str(out)]) == 0
    theirs = hf_every_layer(model, TOKENS, monkeypatch)
    with np.load(out) as acts:
        for layer in range(LAYERS):
            for name, key in (("hook_resid_post", "resid_post"), ("attn.hook_pattern", "pattern"),
                              ("hook_resid_mid", "resid_mid")):
                expected = theirs[f"{key}.{layer + 1}"]
                assert np.abs(acts[f"blocks.{layer}.{name}"] - expected).max() <= 1e-10 * max(
                    1.0, np.abs(expected).max()), (layer, name)
        np.testing.assert_allclose(acts["blocks.2.hook_resid_pre"], theirs["resid_post.2"], rtol=0, atol=1e-10)
        np.testing.assert_allclose(acts["logits"], theirs["logits"], rtol=0, atol=1e-9)
