r"""Stacked models, ``Variant(layers=L)``: one generic block $\ell$ as data, its tables, its numbers.

The numbers are judged against an independent reference: the one-layer model (its own rows,
compiled separately) applied block after block, feeding each block's output $x^{(2\ell)}$ to the
next as its embedding would be; HF GPT-2 is the other reference (tests/test_numeric_checkpoint.py).
"""
from __future__ import annotations

import numpy as np
import pytest

from symtf.latex.tables import table, to_markdown
from symtf.model import Convention, Heads, Kind, Variant, build
from symtf.numeric import compile_forward, random_weights
from symtf.numeric.checkpoint import PER_LAYER
from symtf.numeric.runtime import symtf_gelu, symtf_layernorm, symtf_softmax

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}
TOKENS = [3, 1, 4, 1, 5]


def test_one_generic_block_for_any_number_of_layers():
    m3, m7 = build(Variant.preset("gpt2").with_(layers=3)), build(Variant.preset("gpt2").with_(layers=7))
    assert m3.keys() == m7.keys()  # the block is data written once, not one copy per layer
    assert m3.block.layers == 3 and m7.block.layers == 7
    assert m3.block.keys[0] == "ln1" and m3.block.keys[-1] == "resid_post"
    assert {p.key for p in m3.parameters if p.per_layer} == set(PER_LAYER)
    assert {p.key for p in m3.parameters if not p.per_layer} == {"W_E", "W_pos", "lnf_g", "lnf_b"}  # tied


def test_one_layer_is_still_the_posts_model():
    assert build(Variant(layers=1)).block is None
    assert build(Variant(layers=1)).id == "full-one-layer"


def test_only_the_full_model_stacks():
    with pytest.raises(ValueError, match="only the full model has several layers; the zero model has one"):
        build(Variant(kind=Kind.ZERO, layers=2))


def test_block_table_in_both_conventions():
    column = to_markdown(table("block"))
    assert r"$$q^{h,\ell} = W_Q^{h,\ell} x^{(2\ell-2)}_\text{LN}$$" in column
    assert r"$$x^{(2\ell-1)} = x^{(2\ell-2)} + \sum_h o^{h,\ell}$$" in column
    assert r"$$x^{(2\ell)} = x^{(2\ell-1)} + m^{\ell}$$" in column
    row = to_markdown(table("block", Convention.ROW))
    assert r"$$Q^{h,\ell} = X^{(2\ell-2)}_\text{LN} W_Q^{h,\ell}$$" in row
    assert r"$$S^{h,\ell} = Q^{h,\ell} (K^{h,\ell})^\top / \sqrt{d_\text{head}}$$" in row
    params = to_markdown(table("params-block"))
    assert r"$$\gamma_1^{\ell}, \beta_1^{\ell}, \gamma_2^{\ell}, \beta_2^{\ell}$$" in params
    assert "W_E" not in params and "W_U" not in params


def _one_layer_chain(variant, w, tokens, layers):
    """The reference: the one-layer model's own compiled rows, run once per layer on that layer's slices."""
    one = compile_forward(variant.with_(layers=1, final_layernorm=False, tied_unembed=False))
    per_layer = [k for k in PER_LAYER if k in w]
    x = None
    out = {}
    for layer in range(layers):
        wl = {k: (v[layer] if k in per_layer else v) for k, v in w.items()}
        wl["W_U"] = np.zeros((SIZES["n_vocab"], SIZES["d_model"]))
        if x is not None:  # feed x^{(2ℓ-2)} as the embedding: W_E t + W_pos = x when W_E = 0 and W_pos = x
            wl["W_E"] = np.zeros_like(w["W_E"])
            wl["W_pos"] = np.concatenate([x, np.zeros((x.shape[0], SIZES["n_ctx"] - x.shape[1]))], axis=1)
        acts = one(wl, tokens)
        out.update({f"{k}.{layer + 1}": v for k, v in acts.items() if k not in ("embed", "logits", "probs")})
        x = acts["resid_post"]
    return out, x


@pytest.mark.parametrize("variant", [Variant.preset("gpt2"), Variant(heads=Heads.CONCAT)], ids=["gpt2", "concat"])
def test_stacked_forward_equals_the_one_layer_model_chained(variant):
    layers = 3
    v = variant.with_(layers=layers)
    w = random_weights(v, SIZES, seed=11)
    assert w["W_Q"].shape == (3, 2, 5, 7) and w["b_2"].shape == (3, 7)
    acts = compile_forward(v)(w, TOKENS)
    expected, x_last = _one_layer_chain(variant, w, TOKENS, layers)
    for key, value in expected.items():
        np.testing.assert_allclose(acts[key], value, rtol=0, atol=1e-12, err_msg=key)
    if variant.final_layernorm:
        x_last = symtf_layernorm(x_last, w["lnf_g"][:, None], w["lnf_b"][:, None], 1e-5, 0)
    W_U = w["W_E"].T if variant.tied_unembed else w["W_U"]
    np.testing.assert_allclose(acts["logits"], W_U @ x_last, rtol=0, atol=1e-12)
    np.testing.assert_allclose(acts["probs"], symtf_softmax(W_U @ x_last, 0), rtol=0, atol=1e-12)


def test_row_convention_is_the_transpose():
    v = Variant.preset("gpt2").with_(layers=2)
    w = random_weights(v, SIZES, seed=2)
    col = compile_forward(v)(w, TOKENS)
    row = compile_forward(v.with_(convention=Convention.ROW))(w, TOKENS)
    assert list(col) == list(row)
    for key in col:
        expected = col[key] if key.startswith(("scores", "pattern")) else np.swapaxes(col[key], -1, -2)
        np.testing.assert_allclose(row[key], expected, rtol=0, atol=1e-12, err_msg=key)


def test_weights_with_the_wrong_number_of_layers_are_rejected():
    from symtf.errors import InputError

    w = random_weights(Variant.preset("gpt2").with_(layers=2), SIZES)
    with pytest.raises(InputError, match=r"weights: 2 layers \('W_Q' has shape \(2, 2, 5, 7\)\) but the model has 3"):
        compile_forward(Variant.preset("gpt2").with_(layers=3))(w, TOKENS)


def test_keys_run_only_what_they_need_and_keep_only_themselves():
    v = Variant.preset("gpt2").with_(layers=3)
    w = random_weights(v, SIZES, seed=4)
    every = compile_forward(v)(w, TOKENS)
    logits = compile_forward(v, keys=["logits"])
    assert "probs" not in {r.key for r in logits.rows}  # the probabilities are not computed for the logits
    assert list(logits(w, TOKENS)) == ["logits"]
    np.testing.assert_array_equal(logits(w, TOKENS)["logits"], every["logits"])
    q = compile_forward(v, keys=["q"])(w, TOKENS)
    assert list(q) == ["q.1", "q.2", "q.3"]
    np.testing.assert_array_equal(q["q.3"], every["q.3"])
    assert list(compile_forward(v, keys=["resid_mid.2"])(w, TOKENS)) == ["resid_mid.2"]
    assert list(compile_forward(v, keys=["embed"])(w, TOKENS)) == ["embed"]


def test_exact_gelu_takes_a_zero_dimensional_argument_and_keeps_the_dtype():
    # np.frompyfunc gives a Python float back for a 0-d array: the checker's GELU of a scalar once raised on it
    assert float(symtf_gelu(np.array(1.0))) == pytest.approx(0.8413447460685429, rel=1e-15)
    out = symtf_gelu(np.array([1.0, -1.0], dtype=np.float32))
    assert out.dtype == np.float32 and out[1] == pytest.approx(-0.15865525, rel=1e-6)
