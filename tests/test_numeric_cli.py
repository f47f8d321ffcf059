"""``symtf eval``: the forward pass from the command line."""
from __future__ import annotations

import json

import numpy as np

from symtf.cli import main
from symtf.model import Convention, Variant, build
from symtf.numeric.hooks import by_hook
from symtf.numeric.weights import load_weights
from symtf.numeric import compile_forward, random_weights, save_weights

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}
KEYS = ["embed", "ln1", "q", "k", "v", "scores", "pattern", "result", "head_out", "resid_mid", "ln2",
        "mlp_hidden", "mlp_out", "resid_post", "lnf", "logits", "probs"]


def test_eval_weights_file_writes_every_activation(tmp_path, capsys):
    w = random_weights("gpt2", SIZES, seed=4)
    save_weights(tmp_path / "w.npz", w)
    code = main(["eval", "--variant", "gpt2", "--weights", str(tmp_path / "w.npz"), "--tokens", "3,1,4",
                 "--out", str(tmp_path / "acts.npz")])
    assert code == 0
    text = capsys.readouterr().out
    assert "pattern     A            (2, 3, 3)      (head axis first)" in text
    model = build("gpt2")
    with np.load(tmp_path / "acts.npz") as acts:
        names = [model[key].hook or key for key in KEYS]  # TransformerLens hook names, then logits and probs
        assert list(acts.files) == names
        assert names[:2] == ["blocks.0.hook_resid_pre", "blocks.0.ln1.hook_normalized"]
        assert names[-3:] == ["ln_final.hook_normalized", "logits", "probs"]
        expected = compile_forward("gpt2")(w, [3, 1, 4])
        for key, name in zip(KEYS, names):
            np.testing.assert_array_equal(acts[name], expected[key])


def test_eval_out_row_convention_and_every_layer(tmp_path):
    variant = Variant.preset("gpt2").with_(layers=3)
    w = random_weights(variant, SIZES, seed=5)
    save_weights(tmp_path / "w.npz", w)
    column = compile_forward(variant)(w, [3, 1, 4, 1])
    with np.load(tmp_path / "w.npz") as stored:
        assert stored["W_Q"].shape == (3, 2, 5, 7)
    weights = load_weights(tmp_path / "w.npz", variant)
    hooked = by_hook(build(variant), column)
    for layer in range(3):
        assert f"blocks.{layer}.attn.hook_pattern" in hooked
        assert f"blocks.{layer}.hook_resid_pre" in hooked
    np.testing.assert_array_equal(hooked["blocks.2.hook_resid_pre"], column["resid_post.2"])
    np.testing.assert_array_equal(hooked["blocks.0.hook_resid_pre"], column["embed"])
    row = compile_forward(variant.with_(convention=Convention.ROW))(weights, [3, 1, 4, 1])
    np.testing.assert_allclose(row["resid_mid.3"], column["resid_mid.3"].T, rtol=0, atol=1e-12)


def test_eval_random_json(capsys):
    code = main(["eval", "--variant", "full", "--random", "--seed", "2", "--d-model", "11", "--heads", "3",
                 "--tokens", "1, 2", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    acts = data["activations"]
    assert acts["q"]["shape"] == [3, 5, 2] and acts["q"]["per_head"] is True
    assert acts["embed"]["shape"] == [11, 2] and acts["probs"]["symbol"] == "p"
    assert np.allclose(np.sum(acts["probs"]["values"], axis=0), 1.0)
    assert "head_out" in acts and "lnf" not in acts  # the post's full model has no final LayerNorm


def test_eval_errors_exit_2(tmp_path, capsys):
    w = random_weights("full", SIZES)
    w["b_1"][0] = np.nan
    save_weights(tmp_path / "nan.npz", w)
    assert main(["eval", "--weights", str(tmp_path / "nan.npz"), "--tokens", "1"]) == 2
    assert "'b_1' has a non-finite entry" in capsys.readouterr().err
    assert main(["eval", "--random", "--tokens", "1", "--convention", "row", "--out", str(tmp_path / "row.npz")]) == 0
    with np.load(tmp_path / "row.npz") as acts:
        assert acts["blocks.0.hook_resid_post"].shape == (1, 7) and acts["logits"].shape == (1, 13)
    assert main(["eval", "--random", "--tokens", "1,x"]) == 2
    assert "--tokens: expected comma-separated integers" in capsys.readouterr().err
    assert main(["eval", "--weights", str(tmp_path / "nan.npz"), "--d-model", "3", "--tokens", "1"]) == 2
    assert "size flags only apply with --random" in capsys.readouterr().err


def test_eval_builds_the_model_once(tmp_path, monkeypatch, capsys):
    import symtf.model
    import symtf.numeric.compile
    import symtf.numeric.weights

    save_weights(tmp_path / "w.npz", random_weights("full", SIZES))
    calls = []
    real = symtf.model.build

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    for module in (symtf.model, symtf.numeric.weights, symtf.numeric.compile):
        monkeypatch.setattr(module, "build", counted)
    assert main(["eval", "--weights", str(tmp_path / "w.npz"), "--tokens", "3,1"]) == 0
    assert main(["eval", "--random", "--variant", "gpt2", "--tokens", "3,1"]) == 0
    assert len(calls) == 2  # one per run: the weights' check and the forward pass share the model
