r"""A random GPT-2 checkpoint directory, written without torch: for docs and demos of ``--checkpoint``.

:func:`write_random_gpt2` writes what ``GPT2LMHeadModel.save_pretrained`` writes for a model with
tied embeddings (``config.json`` and ``model.safetensors`` under Hugging Face's tensor names, Conv1D
weights stored ``(in, out)``), plus a ``tokenizer.json``, so the directory reads in
:func:`symtf.numeric.checkpoint.load_checkpoint` and in ``transformers`` alike. The weights are
$\mathcal N(0, \sigma^2)$ from ``seed`` (LayerNorm scales $1 + \mathcal N(0, \sigma^2)$): the model
knows nothing, its guesses are noise. Every file is written with :func:`symtf.io.write_atomic`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..errors import InputError


def hf_shapes(n_vocab: int, d_model: int, d_mlp: int, n_ctx: int, n_layers: int) -> dict[str, tuple[int, ...]]:
    """Hugging Face GPT-2's tensor names and shapes (tied unembedding), ``transformer.`` prefix omitted."""
    shapes = {"wte.weight": (n_vocab, d_model), "wpe.weight": (n_ctx, d_model)}
    for i in range(n_layers):
        h = f"h.{i}."
        shapes.update({
            h + "ln_1.weight": (d_model,), h + "ln_1.bias": (d_model,),
            h + "attn.c_attn.weight": (d_model, 3 * d_model), h + "attn.c_attn.bias": (3 * d_model,),
            h + "attn.c_proj.weight": (d_model, d_model), h + "attn.c_proj.bias": (d_model,),
            h + "ln_2.weight": (d_model,), h + "ln_2.bias": (d_model,),
            h + "mlp.c_fc.weight": (d_model, d_mlp), h + "mlp.c_fc.bias": (d_mlp,),
            h + "mlp.c_proj.weight": (d_mlp, d_model), h + "mlp.c_proj.bias": (d_model,),
        })
    shapes.update({"ln_f.weight": (d_model,), "ln_f.bias": (d_model,)})
    return shapes


def write_random_gpt2(directory: str | os.PathLike, tokenizer, *, d_model: int, heads: int, d_mlp: int,
                      n_ctx: int, n_layers: int, seed: int = 0, sigma: float = 0.4) -> Path:
    r"""A GPT-2 with $n_\text{vocab}$ = ``tokenizer``'s size and random weights, saved in ``directory``."""
    from safetensors.numpy import save

    from ..io import write_atomic

    if d_model % heads:
        raise InputError(f"d_model = {d_model} is not a multiple of heads = {heads}")
    n_vocab = tokenizer.get_vocab_size(with_added_tokens=True)
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    tensors = {}
    for name, shape in hf_shapes(n_vocab, d_model, d_mlp, n_ctx, n_layers).items():
        a = rng.normal(0.0, sigma, shape).astype(np.float32)
        if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
            a += 1.0
        tensors["transformer." + name] = a
    config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": n_vocab,
              "n_positions": n_ctx, "n_embd": d_model, "n_head": heads, "n_inner": d_mlp, "n_layer": n_layers,
              "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True,
              "bos_token_id": 0, "eos_token_id": 0}
    write_atomic(d / "config.json", json.dumps(config, indent=2) + "\n")
    write_atomic(d / "model.safetensors", save(tensors, metadata={"format": "pt"}))
    write_atomic(d / "tokenizer.json", tokenizer.to_str(pretty=True))
    return d
