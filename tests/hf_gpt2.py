"""Random Hugging Face GPT-2 models for the cross-check tests (nothing downloaded; HF_HUB_OFFLINE=1).

Importing this module skips the importing test module when torch or transformers is missing,
except under ``SYMTF_REQUIRE_CROSSCHECK`` (CI), where a missing package is an error.
"""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

if os.environ.get("SYMTF_REQUIRE_CROSSCHECK"):
    import torch
    import transformers
else:
    torch = pytest.importorskip("torch", reason="torch not installed: pip install -e '.[crosscheck]'")
    transformers = pytest.importorskip("transformers", reason="transformers not installed: pip install -e '.[crosscheck]'")


def random_gpt2(layers=3, tied=True, activation="gelu_new", seed=0):
    """A float64 GPT-2 with every parameter random (GPT-2's init leaves biases 0 and LayerNorm scales 1).

    Prime sizes: n_vocab 13, n_ctx 17, d_model 10 = 2 heads × 5, d_mlp 11.
    """
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=13, n_positions=17, n_embd=10, n_head=2, n_inner=11, n_layer=layers,
                        activation_function=activation, layer_norm_epsilon=1e-5, tie_word_embeddings=tied,
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, attn_implementation="eager",
                        bos_token_id=0, eos_token_id=0)
    torch.manual_seed(seed)
    model = GPT2LMHeadModel(config).to(torch.float64).eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.normal_(0.0, 0.4)
            if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
                p.add_(1.0)
    return model
