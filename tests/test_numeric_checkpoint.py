"""Reading Hugging Face GPT-2 checkpoint directories: ``symtf.numeric.checkpoint.load_checkpoint``.

Every checkpoint is a random ``GPT2LMHeadModel`` (random biases and LayerNorm parameters too)
saved with ``save_pretrained`` to a temporary directory; nothing is downloaded. The loaded
parameters are judged by what they compute: symtf's one-layer GPT-2 on layer ℓ's parameters
must give the logits of an HF one-layer model holding HF's block ℓ.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from tests.hf_gpt2 import random_gpt2 as gpt2
from tests.hf_gpt2 import torch

from symtf.errors import InputError
from symtf.numeric import compile_forward
from symtf.numeric.checkpoint import PER_LAYER, load_checkpoint

pytestmark = pytest.mark.crosscheck

TOKENS = [3, 1, 4, 1, 5, 9, 2]  # n = 7


def hf_logits(model, tokens=TOKENS) -> np.ndarray:
    with torch.no_grad():
        return model(torch.tensor([tokens])).logits[0].T.numpy()  # (n_vocab, n): tokens as columns


def block_alone(model, index):
    """An HF one-layer model holding block ``index`` (1-based) of ``model``, with its embeddings and ln_f."""
    one = gpt2(layers=1, tied=model.config.tie_word_embeddings, activation=model.config.activation_function)
    state = {k: v for k, v in model.state_dict().items() if not k.startswith("transformer.h.")}
    block = model.transformer.h[index - 1].state_dict()
    state.update({f"transformer.h.0.{k}": v for k, v in block.items()})
    one.load_state_dict(state)
    return one


@pytest.mark.parametrize("safe", [True, False], ids=["safetensors", "pytorch_model.bin"])
def test_every_layer_maps_to_the_hf_block(tmp_path, safe):
    model = gpt2(layers=3)
    model.save_pretrained(tmp_path, safe_serialization=safe)
    ckpt = load_checkpoint(tmp_path)
    assert ckpt.sizes == {"n_vocab": 13, "d_model": 10, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17, "n_layers": 3}
    assert ckpt.layers == 3 and ckpt.variant.layers == 3 and ckpt.variant.tied_unembed
    assert ckpt.params["W_Q"].shape == (3, 2, 5, 10) and ckpt.params["W_O"].shape == (3, 2, 10, 5)
    assert "W_U" not in ckpt.params  # tied: W_U = W_E^T
    f = compile_forward(ckpt.variant.with_(layers=1))
    for layer in (1, 2, 3):
        ours = f(ckpt.layer(layer), TOKENS)["logits"]
        theirs = hf_logits(block_alone(model, layer))
        assert np.abs(ours - theirs).max() <= 1e-10 * max(1.0, np.abs(theirs).max()), layer


def test_untied_unembedding_and_exact_gelu(tmp_path):
    model = gpt2(layers=1, tied=False, activation="gelu")
    model.save_pretrained(tmp_path)
    ckpt = load_checkpoint(tmp_path)
    assert not ckpt.variant.tied_unembed and ckpt.params["W_U"].shape == (13, 10)
    assert ckpt.variant.nonlinearity.value == "gelu"
    theirs = hf_logits(model)
    for params in (ckpt.layer(1), ckpt.params):  # the one-layer model also reads the (1, ...) layer axis
        ours = compile_forward(ckpt.variant)(params, TOKENS)["logits"]
        assert np.abs(ours - theirs).max() <= 1e-10 * max(1.0, np.abs(theirs).max())


def test_per_layer_keys_carry_a_layer_axis(tmp_path):
    gpt2(layers=2).save_pretrained(tmp_path)
    ckpt = load_checkpoint(tmp_path)
    for key in PER_LAYER:
        assert ckpt.params[key].shape[0] == 2, key
    assert ckpt.params["W_E"].shape == (10, 13) and ckpt.params["lnf_g"].shape == (10,)
    with pytest.raises(InputError, match=r"layer 3 is outside 1\.\.2"):
        ckpt.layer(3)


def _edit_config(path, **changes):
    file = path / "config.json"
    config = json.loads(file.read_text())
    config.update(changes)
    file.write_text(json.dumps(config))


@pytest.mark.parametrize("changes, message", [
    ({"model_type": "llama"}, r"config\.json: model_type 'llama' is not supported; symtf reads GPT-2"),
    ({"activation_function": "swish"}, r"activation_function 'swish' is not supported"),
    ({"n_embd": 12}, r"tensor 'wte\.weight' has shape \(13, 10\), expected \(13, 12\) from config\.json"),
    ({"n_head": 3}, r"n_embd = 10 is not a multiple of n_head = 3"),
    ({"scale_attn_by_inverse_layer_idx": True}, r"scale_attn_by_inverse_layer_idx = True is not modelled"),
])
def test_bad_checkpoints_get_one_line(tmp_path, changes, message):
    gpt2(layers=1).save_pretrained(tmp_path)
    _edit_config(tmp_path, **changes)
    with pytest.raises(InputError, match=message) as err:
        load_checkpoint(tmp_path)
    assert "\n" not in str(err.value)


def test_missing_files(tmp_path):
    with pytest.raises(InputError, match="no config.json"):
        load_checkpoint(tmp_path)
    gpt2(layers=1).save_pretrained(tmp_path)
    (tmp_path / "model.safetensors").unlink()
    with pytest.raises(InputError, match="no model.safetensors, model.safetensors.index.json or pytorch_model.bin"):
        load_checkpoint(tmp_path)
    with pytest.raises(InputError, match="not a directory"):
        load_checkpoint(tmp_path / "config.json")


def test_stacked_forward_equals_hf_logits_and_residual_stream(tmp_path):
    model = gpt2(layers=3)
    model.save_pretrained(tmp_path)
    ckpt = load_checkpoint(tmp_path)
    acts = compile_forward(ckpt.variant)(ckpt.params, TOKENS)
    with torch.no_grad():
        out = model(torch.tensor([TOKENS]), output_hidden_states=True)
    # HF's hidden_states: the embedding, each block's output but the last, then ln_f of the last
    ours = [acts["embed"], acts["resid_post.1"], acts["resid_post.2"], acts["lnf"], acts["logits"]]
    theirs = [h[0].T.numpy() for h in out.hidden_states] + [out.logits[0].T.numpy()]
    for got, expected in zip(ours, theirs, strict=True):
        assert np.abs(got - expected).max() <= 1e-10 * max(1.0, np.abs(expected).max())


def test_eval_checkpoint_command(tmp_path, capsys):
    from symtf.cli import main

    model = gpt2(layers=2)
    model.save_pretrained(tmp_path)
    assert main(["eval", "--checkpoint", str(tmp_path), "--tokens", "3,1,4", "--format", "json"]) == 0
    acts = json.loads(capsys.readouterr().out)["activations"]
    assert [k for k in acts if k.startswith("resid_post")] == ["resid_post.1", "resid_post.2"]
    theirs = hf_logits(model, [3, 1, 4])
    assert np.abs(np.array(acts["logits"]["values"]) - theirs).max() <= 1e-10 * max(1.0, np.abs(theirs).max())
    assert main(["eval", "--checkpoint", str(tmp_path / "nope"), "--tokens", "1"]) == 2
    assert "nope: not a directory" in capsys.readouterr().err


def test_sharded_safetensors_read_like_one_file(tmp_path):
    model = gpt2(layers=2)
    model.save_pretrained(tmp_path / "one")
    model.save_pretrained(tmp_path / "shards", max_shard_size="2KB")
    assert (tmp_path / "shards" / "model.safetensors.index.json").is_file()
    assert len(list((tmp_path / "shards").glob("model-*.safetensors"))) > 1
    one, shards = load_checkpoint(tmp_path / "one"), load_checkpoint(tmp_path / "shards")
    assert set(one.params) == set(shards.params)
    for key, value in one.params.items():
        np.testing.assert_array_equal(shards.params[key], value, err_msg=key)
