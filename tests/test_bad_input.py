"""Each bad input found by trying the CLI as a new user would: exit 2, one line naming the problem, no
"internal error", in under 5 s (``1e1000000`` as an exact rational used to take minutes)."""
from __future__ import annotations

import json
import time

import numpy as np
import pytest

from symtf.cli import main
from symtf.numeric import random_weights, save_weights
from symtf.numeric.weights import column_model, file_shape

TOY = {"tokens": [0, 1], "W_E": [[1, 2], [3, 4]], "W_pos": [[1, 0], [0, 1]], "W_Q": [[1, 0], [0, 1]],
       "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]], "W_O": [[1, 0], [0, 1]]}

TOY_ARRAYS = {k: np.array(v, dtype=int if k == "tokens" else float) for k, v in TOY.items()}


def _json(path, text):
    path.write_text(text)
    return path


def _example_json(tmp_path, entry: str):
    """The toy weights with W_Q[0][0] replaced by ``entry`` (JSON text)."""
    text = json.dumps(TOY).replace('"W_Q": [[1, 0]', f'"W_Q": [[{entry}, 0]')
    return ["example", "--weights", str(_json(tmp_path / "w.json", text))]


def _npz(tmp_path, name, **arrays):
    path = tmp_path / name
    np.savez(path, **arrays)
    return str(path)


def _zero_d_model(tmp_path):
    sizes = {"n_vocab": 13, "d_model": 0, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}
    weights = {p.key: np.zeros([int(s) if s.is_Integer else sizes[str(s)] for s in file_shape(p)])
               for p in column_model("full").parameters}
    save_weights(tmp_path / "zero.npz", weights)
    return ["eval", "--weights", str(tmp_path / "zero.npz"), "--tokens", "1"]


def _overflowing(tmp_path):
    w = random_weights("full", seed=1)
    w["W_E"] = w["W_E"] * 1e20  # LayerNorm's squares pass float32's 3.4e38
    save_weights(tmp_path / "big.npz", w)
    return ["eval", "--weights", str(tmp_path / "big.npz"), "--tokens", "1,2", "--dtype", "float32"]


def _profile(tmp_path, text: bytes):
    doc = tmp_path / "doc.md"
    doc.write_text("# Full model\n\n$$Q = X W_Q$$\n")
    profile = tmp_path / "profile.json"
    profile.write_bytes(text)
    return ["check", str(doc), "--profile", str(profile)]


CASES = {
    # symtf example --weights: numbers bounded before exact arithmetic
    "huge exponent": (lambda t: _example_json(t, '"1e1000000"'), "'1e1000000' is larger than 1e+06 in magnitude"),
    "division by zero": (lambda t: _example_json(t, '"1/0"'), "W_Q[0][0]: '1/0' divides by zero"),
    "JSON NaN": (lambda t: _example_json(t, "NaN"), "W_Q[0][0]: nan is not a finite number"),
    "JSON Infinity": (lambda t: _example_json(t, "Infinity"), "W_Q[0][0]: inf is not a finite number"),
    "1e308": (lambda t: _example_json(t, "1e308"), "'1e+308' is larger than 1e+06 in magnitude"),
    "NaN in an npz": (lambda t: ["example", "--weights", _npz(t, "nan.npz", **{
        **TOY_ARRAYS, "W_Q": np.array([[0.0, np.nan], [0, 1]])})], "W_Q[0][1] is nan, not a finite number"),
    "float tokens": (lambda t: ["example", "--weights", _npz(t, "ftok.npz", **{**TOY_ARRAYS, "tokens": np.array([0.7, 1.2])})],
                     "'tokens' must be an integer array, got dtype float64"),
    "corrupt npz (example)": (lambda t: ["example", "--weights", str(_json(t / "bad.npz", "PK\x03\x04 not a zip"))],
                              "bad.npz: unreadable weights file: File is not a zip file"),
    # symtf eval
    "--out a directory": (lambda t: ["eval", "--random", "--tokens", "1", "--out", str(t)],
                          "is a directory; give the npz file to write"),
    "empty token item": (lambda t: ["eval", "--random", "--tokens", "1,,2"], "--tokens: an empty item in '1,,2'"),
    "corrupt npz (eval)": (lambda t: ["eval", "--weights", str(_json(t / "bad.npz", "PK\x03\x04 junk")), "--tokens", "1"],
                           "bad.npz: not a readable npz weights file"),
    "d_model = 0": (_zero_d_model, "d_model = 0, every size must be at least 1"),
    "float32 overflow": (_overflowing, "the forward pass in float32 failed: overflow encountered"),
    "figures --out a file": (lambda t: ["figures", "--out", str(_json(t / "file", "x"))],
                             "exists and is not a directory"),
    # symtf check --profile
    "profile is a list": (lambda t: _profile(t, b"[1, 2]"), "profile.json: expected a table of keys"),
    "profile sizes not a table": (lambda t: _profile(t, b'{"sizes": "x"}'),
                                  "profile.json: key 'sizes': expected a table of names to names"),
    "profile unknown key": (lambda t: _profile(t, b'{"markers": ["x"]}'), "profile.json: key 'markers': unknown key"),
    "profile unknown target": (lambda t: _profile(t, b'{"params": {"W_q": "W_Z"}}'), "unknown target 'W_Z'"),
    "profile not UTF-8": (lambda t: _profile(t, b'{"name": "\xff"}'), "profile.json is not UTF-8 text"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_gets_one_clear_line_and_exit_2(case, tmp_path, capsys):
    make, message = CASES[case]
    argv = make(tmp_path)
    capsys.readouterr()
    start = time.perf_counter()
    code = main(argv)
    seconds = time.perf_counter() - start
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2, captured
    assert len(lines) == 1 and lines[0].startswith(f"symtf {argv[0]}: error: "), captured.err
    assert message in lines[0]
    assert "internal error" not in captured.err and "Warning" not in captured.err
    assert captured.out == ""
    assert seconds < 5, f"{case}: {seconds:.1f} s"
