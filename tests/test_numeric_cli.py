"""``symtf eval``: the forward pass from the command line."""
from __future__ import annotations

import json

import numpy as np

from symtf.cli import main
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
    with np.load(tmp_path / "acts.npz") as acts:
        assert list(acts.files) == KEYS
        expected = compile_forward("gpt2")(w, [3, 1, 4])
        for key in KEYS:
            np.testing.assert_array_equal(acts[key], expected[key])


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
    assert main(["eval", "--random", "--tokens", "1,x"]) == 2
    assert "--tokens: expected comma-separated integers" in capsys.readouterr().err
    assert main(["eval", "--weights", str(tmp_path / "nan.npz"), "--d-model", "3", "--tokens", "1"]) == 2
    assert "size flags only apply with --random" in capsys.readouterr().err
