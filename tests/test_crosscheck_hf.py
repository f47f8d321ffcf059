"""Cross-check 3: symtf's compiled forward pass against Hugging Face ``transformers`` GPT-2.

HF's GPT-2 is built from a small ``GPT2Config`` with random weights (nothing is downloaded), its
weights are mapped into symtf's file format (Conv1D stores ``(in, out)``, ``y = x W + b``; ``c_attn``
fuses Q, K, V, each split into heads), and every activation is compared. Other variants are GPT-2
with parts switched off: ReLU, zero attention biases, identity LayerNorms, an untied unembedding,
no block at all (zero-layer), or one head with the MLP zeroed (the simplified model, last token).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

if os.environ.get("SYMTF_REQUIRE_CROSSCHECK"):  # CI installs the extra: a missing torch is a failure there
    import torch  # noqa: E402
    import transformers  # noqa: E402
else:
    torch = pytest.importorskip("torch", reason="torch not installed: pip install -e '.[crosscheck]'")
    transformers = pytest.importorskip("transformers", reason="transformers not installed: pip install -e '.[crosscheck]'")

from symtf.numeric import compile_forward  # noqa: E402
from tests.hf_gpt2 import hf_every_layer  # noqa: E402

pytestmark = pytest.mark.crosscheck

N_VOCAB, N_CTX, D_MLP = 13, 17, 11
TOKENS = [3, 1, 4, 1, 5, 9, 2]
TOLERANCE = {np.float64: 1e-10, np.float32: 1e-5}


def hf_model(variant: str, dtype):
    """HF GPT-2 configured (and, where GPT2Config has no switch, edited) to compute ``variant``."""
    from transformers import GPT2Config, GPT2LMHeadModel

    heads, d_head = (1, 5) if variant == "simplified" else (2, 5)
    config = GPT2Config(
        vocab_size=N_VOCAB, n_positions=N_CTX, n_embd=heads * d_head, n_head=heads, n_inner=D_MLP,
        n_layer=0 if variant == "zero" else 1,
        activation_function="gelu_new" if variant == "gpt2" else "relu",
        layer_norm_epsilon=1e-5 if variant == "gpt2" else 0.0,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
        tie_word_embeddings=variant == "gpt2",
        attn_implementation="eager", bos_token_id=0, eos_token_id=0,
    )
    torch.manual_seed(20261122)
    model = GPT2LMHeadModel(config).to(torch.float64 if dtype == np.float64 else torch.float32).eval()
    with torch.no_grad():
        for p in model.parameters():  # GPT-2's init leaves biases 0 and LayerNorm 1: make every entry count
            p.normal_(0.0, 0.4)
        for name, p in model.named_parameters():
            if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
                p.add_(1.0)
        if variant != "gpt2":
            model.transformer.ln_f = torch.nn.Identity()
            for block in model.transformer.h:
                block.attn.c_attn.bias.zero_()
                block.attn.c_proj.bias.zero_()
        if variant in ("full-no-ln", "simplified"):
            for block in model.transformer.h:
                block.ln_1, block.ln_2 = torch.nn.Identity(), torch.nn.Identity()
        if variant == "simplified":  # attention only
            for block in model.transformer.h:
                block.mlp.c_proj.weight.zero_()
                block.mlp.c_proj.bias.zero_()
    return model


def to_symtf(model) -> dict[str, np.ndarray]:
    """HF GPT-2 weights in symtf's file format (the post's column-vector shapes)."""
    t = model.transformer
    heads = model.config.n_head
    d = model.config.n_embd
    d_head = d // heads

    def a(x):
        return x.detach().to(torch.float64).numpy().copy()

    w = {"W_E": a(t.wte.weight).T, "W_pos": a(t.wpe.weight).T, "W_U": a(model.lm_head.weight)}
    if not isinstance(t.ln_f, torch.nn.Identity):
        w["lnf_g"], w["lnf_b"] = a(t.ln_f.weight), a(t.ln_f.bias)
    for block in t.h:
        W_attn, b_attn = a(block.attn.c_attn.weight), a(block.attn.c_attn.bias)  # (d, 3d), (3d,)
        for i, name in enumerate("QKV"):
            cols = W_attn[:, i * d:(i + 1) * d]  # y = x W: column c of head h is c = h d_head + j
            w[f"W_{name}"] = cols.T.reshape(heads, d_head, d)  # (H, d_head, d_model)
            w[f"b_{name}"] = b_attn[i * d:(i + 1) * d].reshape(heads, d_head)
        W_proj = a(block.attn.c_proj.weight)  # (H d_head, d): rows h d_head + j
        w["W_O"] = W_proj.reshape(heads, d_head, d).transpose(0, 2, 1)  # (H, d_model, d_head)
        w["b_O"] = a(block.attn.c_proj.bias)
        if not isinstance(block.ln_1, torch.nn.Identity):
            w["ln1_g"], w["ln1_b"] = a(block.ln_1.weight), a(block.ln_1.bias)
            w["ln2_g"], w["ln2_b"] = a(block.ln_2.weight), a(block.ln_2.bias)
        w["W_1"], w["b_1"] = a(block.mlp.c_fc.weight).T, a(block.mlp.c_fc.bias)
        w["W_2"], w["b_2"] = a(block.mlp.c_proj.weight).T, a(block.mlp.c_proj.bias)
    return w


def hf_activations(model, tokens, monkeypatch) -> dict[str, np.ndarray]:
    """Every activation HF computes (tests.hf_gpt2.hf_every_layer), keyed as the one-layer model keys them."""
    return {key.removesuffix(".1"): value for key, value in hf_every_layer(model, tokens, monkeypatch).items()}


def last_token(acts: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """HF's full-sequence activations cut to the simplified model's: the last query, one head."""
    return {
        "embed": acts["embed"], "q": acts["q"][0][:, -1:], "k": acts["k"][0], "v": acts["v"][0],
        "scores": acts["scores"][0][-1:, :], "pattern": acts["pattern"][0][-1:, :],
        "result": acts["result"][0][:, -1:], "head_out": acts["head_out"][0][:, -1:],
        "resid_mid": acts["resid_mid"][:, -1:], "logits": acts["logits"][:, -1:], "probs": acts["probs"][:, -1:],
    }


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("variant", ["gpt2", "full", "full-no-ln", "zero", "simplified"])
def test_every_activation_matches_hf_gpt2(variant, dtype, monkeypatch):
    model = hf_model(variant, dtype)
    ours = compile_forward(variant, dtype)(to_symtf(model), TOKENS)
    theirs = hf_activations(model, TOKENS, monkeypatch)
    if variant == "simplified":
        theirs = last_token(theirs)
    if variant != "gpt2":
        theirs.pop("lnf", None)  # HF's ln_f is the identity here; the variant has no such row
    if variant in ("full-no-ln", "simplified"):
        theirs.pop("ln1", None), theirs.pop("ln2", None)
    assert set(ours) == set(theirs)
    tol = TOLERANCE[dtype]
    for key, expected in theirs.items():
        got = ours[key]
        assert got.shape == expected.shape, key
        assert got.dtype == np.dtype(dtype), key
        scale = max(1.0, float(np.abs(expected).max()))
        err = float(np.abs(got - expected).max())
        assert err <= tol * scale, f"{variant} {key}: max |symtf - HF| = {err:.3g} > {tol:g} × {scale:.3g}"


def test_gpt2_unembedding_is_tied_and_ignores_W_U(monkeypatch):
    # W_U = W_E^T in GPT-2: a W_U in the file is not used
    model = hf_model("gpt2", np.float64)
    w = to_symtf(model)
    f = compile_forward("gpt2", np.float64)
    base = f(w, TOKENS)["logits"]
    w["W_U"] = np.zeros_like(w["W_U"])
    assert np.array_equal(f(w, TOKENS)["logits"], base)
    theirs = hf_activations(model, TOKENS, monkeypatch)["logits"]
    assert np.abs(base - theirs).max() <= 1e-10 * max(1.0, float(np.abs(theirs).max()))
