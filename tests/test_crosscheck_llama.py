"""LLaMA's parts against PyTorch and Hugging Face: RMSNorm, LayerNorm = RMSNorm(x - μ), parameter counts.

The references are PyTorch's own ``rms_norm``/``layer_norm`` and Hugging Face's ``LlamaForCausalLM``
built on the ``meta`` device (shapes only, nothing allocated or downloaded).
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from sympy import MatrixSymbol, Rational, lambdify

from tests.crosscheck import require

os.environ.setdefault("HF_HUB_OFFLINE", "1")
torch = require("torch")
transformers = require("transformers")

from symtf.llama import LLAMA2  # noqa: E402
from symtf.numeric.printer import SymtfNumPyPrinter  # noqa: E402
from symtf.numeric.runtime import NAMESPACE  # noqa: E402
from symtf.ops import RMSNorm  # noqa: E402
from symtf.proofs.rmsnorm import centring  # noqa: E402

pytestmark = pytest.mark.crosscheck

D, N, EPS = 7, 5, Rational(1, 100000)


def _compiled(expr, *args):
    return lambdify(list(args), expr, modules=[NAMESPACE, "numpy"], printer=SymtfNumPyPrinter())


def test_rmsnorm_against_torch():
    rng = np.random.default_rng(11)
    x, g = rng.normal(size=(D, N)), rng.normal(size=(D, 1))
    X, G = MatrixSymbol("X", D, N), MatrixSymbol("g", D, 1)
    ours = _compiled(RMSNorm(X, G, EPS), X, G)(x, g)
    theirs = torch.nn.functional.rms_norm(torch.tensor(x.T), (D,), torch.tensor(g[:, 0]), eps=float(EPS)).numpy().T
    assert np.allclose(ours, theirs, atol=1e-12)


def test_layernorm_is_rmsnorm_of_centred_input_in_torch():
    # Testing: LayerNorm(x; γ, 0) = RMSNorm(C x; γ), C = I - 11ᵀ/d, with torch's layer_norm as the reference
    rng = np.random.default_rng(12)
    x, g = rng.normal(loc=2.0, size=(D, N)), rng.normal(size=(D, 1))
    X, G = MatrixSymbol("X", D, N), MatrixSymbol("g", D, 1)
    ours = _compiled(RMSNorm(centring(D) * X, G, EPS), X, G)(x, g)
    theirs = torch.nn.functional.layer_norm(torch.tensor(x.T), (D,), torch.tensor(g[:, 0]), None, float(EPS))
    assert np.allclose(ours, theirs.numpy().T, atol=1e-12)
    plain = _compiled(RMSNorm(X, G, EPS), X, G)(x, g)  # no centring: differs for inputs of mean 2
    assert not np.allclose(plain, theirs.numpy().T, atol=1e-3)


@pytest.mark.slow  # importing transformers' Llama takes ~6 s
@pytest.mark.parametrize("key", list(LLAMA2))
def test_param_count_against_hf_llama_on_meta_device(key):
    cfg = LLAMA2[key]
    config = transformers.LlamaConfig(
        vocab_size=cfg.n_vocab, hidden_size=cfg.d_model, intermediate_size=cfg.d_mlp,
        num_hidden_layers=cfg.n_layers, num_attention_heads=cfg.n_heads, num_key_value_heads=cfg.n_kv_heads,
        tie_word_embeddings=False, attention_bias=False, mlp_bias=False)
    with torch.device("meta"):
        model = transformers.LlamaForCausalLM(config)
    count = sum(p.numel() for p in model.parameters())
    assert count == cfg.param_count() == cfg.published_total
