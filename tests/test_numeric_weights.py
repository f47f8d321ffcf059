"""Weight files: the format, validation messages, random weights."""
from __future__ import annotations

import numpy as np
import pytest

from symtf.errors import InputError
from symtf.numeric import check_weights, compile_forward, load_weights, random_weights, save_weights

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}


def test_random_weights_have_the_file_shapes():
    w = random_weights("gpt2", SIZES, seed=1)
    shapes = {k: v.shape for k, v in w.items()}
    assert shapes == {
        "W_E": (7, 13), "W_pos": (7, 17), "W_Q": (2, 5, 7), "W_K": (2, 5, 7), "W_V": (2, 5, 7),
        "b_Q": (2, 5), "b_K": (2, 5), "b_V": (2, 5), "W_O": (2, 7, 5), "b_O": (7,),
        "ln1_g": (7,), "ln1_b": (7,), "ln2_g": (7,), "ln2_b": (7,), "lnf_g": (7,), "lnf_b": (7,),
        "W_1": (11, 7), "b_1": (11,), "W_2": (7, 11), "b_2": (7,),
    }  # no W_U: GPT-2 ties it to W_E^T
    assert random_weights("full", SIZES, seed=1)["W_U"].shape == (13, 7)
    assert np.array_equal(random_weights("full", SIZES, 3)["W_Q"], random_weights("full", SIZES, 3)["W_Q"])
    assert not np.array_equal(random_weights("full", SIZES, 3)["W_Q"], random_weights("full", SIZES, 4)["W_Q"])


def test_npz_round_trip_and_sizes(tmp_path):
    w = random_weights("full", SIZES, seed=2)
    w["unused_extra"] = np.zeros(3)  # keys a variant does not use are ignored
    save_weights(tmp_path / "w.npz", w)
    loaded = load_weights(tmp_path / "w.npz", "full", np.float32)
    assert loaded.sizes == {"d_model": 7, "n_vocab": 13, "n_ctx": 17, "H": 2, "d_head": 5, "d_mlp": 11}
    assert loaded["W_O"].dtype == np.float32 and "unused_extra" not in loaded
    f = compile_forward("full", np.float32)
    assert np.array_equal(f(loaded, [1, 2])["probs"], f(w, [1, 2])["probs"])


def test_missing_key_is_named():
    w = random_weights("full", SIZES)
    del w["W_K"]
    with pytest.raises(InputError, match=r"missing key 'W_K' \(expected shape \(2, 5, 7\)\)"):
        check_weights("full", w)


def test_wrong_shape_names_key_expected_and_actual():
    w = random_weights("full", SIZES)
    w["W_O"] = w["W_O"].transpose(0, 2, 1)  # (H, d_head, d_model): the layout of W_Q, not W_O
    with pytest.raises(InputError, match=r"'W_O' has shape \(2, 5, 7\), expected \(H, d_model, d_head\) = "
                                         r"\(2, 7, 5\) \(d_model=7 from 'W_E'\)"):
        check_weights("full", w)
    w = random_weights("full", SIZES)
    w["ln1_g"] = w["ln1_g"][None]
    with pytest.raises(InputError, match=r"'ln1_g' has shape \(1, 7\), expected \(7,\)"):
        check_weights("full", w)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_weights_are_rejected(bad, tmp_path):
    w = random_weights("gpt2", SIZES)
    w["W_1"][3, 4] = bad
    save_weights(tmp_path / "w.npz", w)
    with pytest.raises(InputError, match=r"w\.npz: weights: 'W_1' has a non-finite entry \((nan|-?inf) at index "
                                         r"\(3, 4\)\); NaN and infinite weights are rejected"):
        load_weights(tmp_path / "w.npz", "gpt2")
    with pytest.raises(InputError, match="'W_1' has a non-finite entry"):
        compile_forward("gpt2")(w, [1, 2, 3])


def test_simplified_model_reads_one_head_from_the_stacked_layout():
    one = random_weights("simplified", SIZES, seed=5)
    assert one["W_Q"].shape == (5, 7)
    stacked = {k: (v[None] if k in ("W_Q", "W_K", "W_V", "W_O") else v) for k, v in one.items()}
    f = compile_forward("simplified")
    assert np.array_equal(f(stacked, [1, 2, 3])["probs"], f(one, [1, 2, 3])["probs"])
    full = random_weights("full", SIZES, seed=5)  # two heads: not the simplified model's
    with pytest.raises(InputError, match=r"'W_Q' has shape \(2, 5, 7\); the simplified-one-layer model has one head"):
        check_weights("simplified", full)


def test_unreadable_file_is_an_input_error(tmp_path):
    path = tmp_path / "w.npz"
    path.write_text("not a zip")
    with pytest.raises(InputError, match="not a readable npz weights file"):
        load_weights(path, "full")


def test_bad_tokens_are_input_errors():
    f = compile_forward("full")
    w = random_weights("full", SIZES)
    with pytest.raises(InputError, match=r"id 13 is outside the vocabulary 0\.\.12"):
        f(w, [1, 13])
    with pytest.raises(InputError, match="18 tokens but W_pos has positions for n_ctx = 17"):
        f(w, [1] * 18)
    with pytest.raises(InputError, match="non-empty"):
        f(w, [])
