"""Random Hugging Face GPT-2 models for the cross-check tests (nothing downloaded; HF_HUB_OFFLINE=1).

Importing this module skips the importing test module when torch or transformers is missing,
except under ``SYMTF_REQUIRE_CROSSCHECK`` (CI), where a missing package is an error.
"""
from __future__ import annotations

import os

import numpy as np

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


def hf_every_layer(model, tokens, monkeypatch) -> dict[str, np.ndarray]:
    """HF's activations of every block, keyed as symtf keys them ("q.2"), tokens as columns."""
    from transformers.models.gpt2 import modeling_gpt2

    seen: dict[str, torch.Tensor] = {}
    qkv: list[tuple] = []
    eager = modeling_gpt2.eager_attention_forward

    def recording(module, query, key, value, attention_mask, scaling=None, **kwargs):
        qkv.append((query, key, value, scaling))  # (1, H, n, d_head), in block order
        return eager(module, query, key, value, attention_mask, scaling=scaling, **kwargs)

    monkeypatch.setattr(modeling_gpt2, "eager_attention_forward", recording)
    t = model.transformer

    def keep(name):
        return lambda m, i, o: seen.__setitem__(name, o)

    hooks = [t.drop.register_forward_hook(keep("embed"))]
    for layer, block in enumerate(t.h, start=1):
        hooks += [
            block.ln_1.register_forward_hook(keep(f"ln1.{layer}")),
            block.attn.c_proj.register_forward_hook(lambda m, i, o, lay=layer: seen.__setitem__(f"z.{lay}", i[0])),
            block.ln_2.register_forward_hook(
                lambda m, i, o, lay=layer: seen.update({f"resid_mid.{lay}": i[0], f"ln2.{lay}": o})),
            block.mlp.act.register_forward_hook(keep(f"mlp_hidden.{layer}")),
            block.mlp.register_forward_hook(keep(f"mlp_out.{layer}")),
            block.register_forward_hook(lambda m, i, o, lay=layer: seen.__setitem__(f"resid_post.{lay}", o[0]
                                                                                    if isinstance(o, tuple) else o)),
        ]
    hooks.append(t.ln_f.register_forward_hook(keep("lnf")))
    try:
        with torch.no_grad():
            out = model(torch.tensor([tokens]), output_attentions=True)
    finally:
        for hook in hooks:
            hook.remove()

    def col(x):  # (1, n, d) -> (d, n)
        return x[0].T.to(torch.float64).numpy()

    def heads(x):  # (1, H, n, d_head) -> (H, d_head, n)
        return x[0].transpose(-1, -2).to(torch.float64).numpy()

    acts = {"embed": col(seen["embed"]), "lnf": col(seen["lnf"]), "logits": col(out.logits),
            "probs": col(torch.softmax(out.logits, dim=-1))}
    H = model.config.n_head
    for layer, block in enumerate(model.transformer.h, start=1):
        q, k, v, scaling = qkv[layer - 1]
        z = seen[f"z.{layer}"][0]  # (n, H d_head)
        per_head = z.reshape(z.shape[0], H, -1)  # (n, H, d_head)
        W_proj = block.attn.c_proj.weight.detach()  # (H d_head, d)
        acts.update({
            f"q.{layer}": heads(q), f"k.{layer}": heads(k), f"v.{layer}": heads(v),
            # HF does not expose the scores before its mask: its own formula on its own q and k
            f"scores.{layer}": (torch.matmul(q, k.transpose(-1, -2)) * scaling)[0].to(torch.float64).numpy(),
            f"pattern.{layer}": out.attentions[layer - 1][0].to(torch.float64).numpy(),
            f"result.{layer}": per_head.permute(1, 2, 0).to(torch.float64).numpy(),
            f"head_out.{layer}": torch.stack([(per_head[:, c, :] @ W_proj.reshape(H, -1, W_proj.shape[1])[c]).T
                                              for c in range(H)]).to(torch.float64).numpy(),
        })
        for key in ("ln1", "resid_mid", "ln2", "mlp_hidden", "mlp_out", "resid_post"):
            acts[f"{key}.{layer}"] = col(seen[f"{key}.{layer}"])
    return acts
