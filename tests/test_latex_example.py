r"""`symtf example`: the worked example at the post's toy sizes, every number re-checked independently.

The references here are hand-written: numpy in float64 for every step, and Python ``Fraction``s for
the steps that are exact rationals. The printed LaTeX is read back too (its numbers, not only the
values symtf holds internally).
"""
from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest
from sympy import Rational, sqrt

from symtf.cli import main
from symtf.errors import InputError
from symtf.latex.example import (
    ATTENTION_STEPS, MLP_STEPS, decimal, evaluate, load_inputs, random_inputs, worked_example,
)
from tests.latex_roundtrip import parse

TOY = {"n": 3, "n_vocab": 10, "d_model": 5, "d_head": 2, "d_mlp": 10}


def numpy_reference(tokens, W) -> dict[str, np.ndarray]:
    """The full one-layer forward pass without LayerNorm, one head, column convention, by hand."""
    W = {k: np.array(v, dtype=float) for k, v in W.items()}
    V, N = W["W_E"].shape[1], len(tokens)
    t = np.zeros((V, N))
    t[tokens, np.arange(N)] = 1.0
    out = {"embed": W["W_E"] @ t + W["W_pos"][:, :N]}
    for key in "qkv":
        out[key] = W[f"W_{key.upper()}"] @ out["embed"]
    d_head = out["q"].shape[0]
    S = out["q"].T @ out["k"] / np.sqrt(d_head)
    out["scores"] = S
    masked = np.where(np.triu(np.ones((N, N), dtype=bool), k=1), -np.inf, S)
    e = np.exp(masked - masked.max(axis=1, keepdims=True))
    out["pattern"] = e / e.sum(axis=1, keepdims=True)
    out["result"] = out["v"] @ out["pattern"].T
    out["head_out"] = W["W_O"] @ out["result"]
    out["resid_mid"] = out["embed"] + out["head_out"]
    if "W_1" in W:
        out["mlp_hidden"] = np.maximum(W["W_1"] @ out["resid_mid"] + W["b_1"], 0.0)
        out["mlp_out"] = W["W_2"] @ out["mlp_hidden"] + W["b_2"]
        out["resid_post"] = out["resid_mid"] + out["mlp_out"]
        out["logits"] = W["W_U"] @ out["resid_post"]
        z = np.exp(out["logits"] - out["logits"].max(axis=0))
        out["probs"] = z / z.sum(axis=0)
    return out


def fraction_reference(tokens, W) -> dict[str, np.ndarray]:
    """The rational steps (embedding, q, k, v and q^T k) in exact Fractions."""
    F = {k: np.array([[Fraction(int(x.p), int(x.q)) for x in row] for row in v.tolist()], dtype=object)
         for k, v in W.items()}
    V, N = F["W_E"].shape[1], len(tokens)
    t = np.array([[Fraction(int(tokens[j] == i)) for j in range(N)] for i in range(V)], dtype=object)
    out = {"embed": F["W_E"].dot(t) + F["W_pos"][:, :N]}
    for key in "qkv":
        out[key] = F[f"W_{key.upper()}"].dot(out["embed"])
    out["qk"] = out["q"].T.dot(out["k"])
    return out


def as_float(matrix) -> np.ndarray:
    return np.array(matrix.evalf(30).tolist(), dtype=float)


def step_blocks(latex: str) -> dict[str, list[str]]:
    """The align* body split into blocks, one per step, keyed by the LaTeX of the step's symbol."""
    body = latex.split("\\begin{align*}\n", 1)[1].rsplit("\n\\end{align*}", 1)[0]
    blocks: dict[str, list[str]] = {}
    current = None
    for line in body.split(" \\\\\n"):
        if not line.startswith("&"):
            current = line.split(" &= ")[0]
            blocks[current] = []
        blocks[current].append(line)
    return blocks


def bmatrices(line: str) -> list[list[list[str]]]:
    found = re.findall(r"\\begin\{bmatrix\} (.*?) \\end\{bmatrix\}", line)
    return [[row.split(" & ") for row in m.split(" \\\\ ")] for m in found]


@pytest.fixture(scope="module")
def toy():
    inputs = random_inputs(0)
    example = evaluate(inputs, mlp=True, precision=3)
    return inputs, example, numpy_reference(list(inputs.tokens), inputs.weights)


def test_toy_sizes_and_every_step_present(toy):
    inputs, example, _ = toy
    sizes = {str(k): v for k, v in inputs.sizes.items()}
    assert {k: sizes[k] for k in TOY} == TOY
    assert [s.key for s in example.steps] == list(ATTENTION_STEPS + MLP_STEPS)
    blocks = step_blocks(example.latex())
    assert list(blocks) == ["t", "x^{(0)}", "q^{h_1}", "k^{h_1}", "v^{h_1}", "S^{h_1}", "A^{h_1}", "r^{h_1}",
                            "o^{h_1}", "x^{(1)}", "z", "m", "x^{(2)}", r"\ell", "p"]


def test_every_value_matches_an_independent_numpy_forward_pass(toy):
    _, example, ref = toy
    for step in example.steps:
        np.testing.assert_allclose(as_float(step.value), ref[step.key], rtol=1e-12, atol=1e-12, err_msg=step.key)


def test_rational_steps_are_exact_fractions(toy):
    inputs, example, _ = toy
    exact = fraction_reference(list(inputs.tokens), inputs.weights)
    for key in ("embed", "q", "k", "v"):
        value = example.value(key)
        assert all(x.is_Rational for x in value), key
        assert [[Fraction(int(x.p), int(x.q)) for x in row] for row in value.tolist()] == exact[key].tolist()
    # S = q^T k / sqrt(2): exact algebraic, S * sqrt(2) is the Fraction q^T k
    scores = example.value("scores")
    for i in range(3):
        for j in range(3):
            product = scores[i, j] * sqrt(2)
            assert product.is_Rational and Fraction(int(product.p), int(product.q)) == exact["qk"][i, j]


def test_printed_numbers_are_the_values(toy):
    """Every result matrix in the LaTeX: exact cells parse back equal, decimals are numpy rounded to 3 places."""
    inputs, example, ref = toy
    blocks = step_blocks(example.latex())
    symbols = list(blocks)[1:]
    for symbol, step in zip(symbols, example.steps):
        lines = blocks[symbol]
        exact_lines = [l for l in lines[2:] if l.startswith("&= ")]
        decimal_lines = [l for l in lines[2:] if l.startswith("&\\approx ")]
        assert exact_lines or decimal_lines, symbol
        for line in exact_lines:
            (matrix,) = bmatrices(line)
            parsed = np.array([[float(parse(c).evalf(30)) for c in row] for row in matrix])
            np.testing.assert_allclose(parsed, ref[step.key], rtol=1e-12, atol=1e-12, err_msg=symbol)
        for line in decimal_lines:
            (matrix,) = bmatrices(line)
            shown = np.array([[float(c) for c in row] for row in matrix])
            assert all(re.fullmatch(r"-?\d+\.\d{3}", c) for row in matrix for c in row), (symbol, matrix)
            assert np.all(np.abs(shown - ref[step.key]) <= 0.0005 + 1e-12), symbol
        if step.key in ("embed", "q", "k", "v"):
            assert exact_lines and not decimal_lines, symbol  # rational: exact only
        if step.key in ("scores", "pattern"):
            assert exact_lines and decimal_lines, symbol  # exact form and its decimal
    # the arithmetic line shows the operands: q = W_Q x^{(0)} with both matrices written out
    (W_Q, x0) = bmatrices(blocks["q^{h_1}"][1])
    assert [[parse(c) for c in row] for row in W_Q] == inputs.weights["W_Q"].tolist()
    assert [[parse(c) for c in row] for row in x0] == example.value("embed").tolist()


def test_tokens_are_one_hot_columns(toy):
    inputs, example, _ = toy
    (t,) = bmatrices(step_blocks(example.latex())["t"][0])
    one_hot = np.array(t, dtype=int)
    assert one_hot.shape == (10, 3) and list(one_hot.argmax(axis=0)) == list(inputs.tokens)
    assert (one_hot.sum(axis=0) == 1).all()


def test_rounding_is_once_and_half_to_even():
    assert decimal(Rational(1, 8), 2) == "0.12" and decimal(Rational(3, 8), 2) == "0.38"
    assert decimal(Rational(-1, 3000), 3) == "0.000"
    assert decimal(sqrt(2), 5) == "1.41421"


def _weights_as_text(inputs, mlp=True):
    data = {"tokens": list(inputs.tokens)}
    for key, value in inputs.weights.items():
        data[key] = [[str(x) for x in row] for row in value.tolist()]  # "1/2", "-1", "0"
    return data


def test_yaml_json_and_npz_weights(tmp_path, toy):
    inputs, example, ref = toy
    data = _weights_as_text(inputs)
    (tmp_path / "w.json").write_text(json.dumps(data))
    import yaml

    (tmp_path / "w.yaml").write_text(yaml.safe_dump(data))
    for name in ("w.json", "w.yaml"):
        loaded = evaluate(load_inputs(tmp_path / name), mlp=True)
        assert [s.value for s in loaded.steps] == [s.value for s in example.steps], name
    arrays = {k: np.array(v.tolist(), dtype=float) for k, v in inputs.weights.items()}
    np.savez(tmp_path / "w.npz", tokens=np.array(inputs.tokens), **arrays)
    floats = evaluate(load_inputs(tmp_path / "w.npz"), mlp=True)
    for step in floats.steps:
        np.testing.assert_allclose(as_float(step.value), ref[step.key], rtol=1e-12, atol=1e-12)
    assert "1/3" in json.dumps({"x": "1/3"})  # fractions as strings are the documented form
    third = dict(data, W_O=[["1/3", "0"]] + [["0", "0"]] * 4)
    (tmp_path / "third.yaml").write_text(yaml.safe_dump(third))
    assert load_inputs(tmp_path / "third.yaml").weights["W_O"][0, 0] == Rational(1, 3)


@pytest.mark.parametrize("change, message", [
    ({"W_K": [["1", "0"]]}, r"W_K must be 2×5 \(d_head × d_model\); got 1×2"),
    ({"W_Q": [["a/b"] * 5] * 2}, r"W_Q\[0\]\[0\]: 'a/b' is not a number or a fraction"),
    ({"tokens": [0, 10, 1]}, r"token id\(s\) \[10\] outside 0..9"),
    ({"W_X": [[1]]}, r"unknown key\(s\) W_X"),
])
def test_bad_weights_files_say_what_is_wrong(tmp_path, toy, change, message):
    data = dict(_weights_as_text(toy[0]), **change)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=message):
        evaluate(load_inputs(path), mlp=True)


def test_mlp_needs_its_weights(tmp_path, toy):
    data = {k: v for k, v in _weights_as_text(toy[0]).items() if k not in ("W_1", "b_1", "W_2", "b_2", "W_U")}
    path = tmp_path / "attn.json"
    path.write_text(json.dumps(data))
    assert len(evaluate(load_inputs(path)).steps) == len(ATTENTION_STEPS)
    with pytest.raises(InputError, match="--mlp needs the weight"):
        evaluate(load_inputs(path), mlp=True)


def test_cli_example(capsys, tmp_path):
    assert main(["example", "--seed", "1", "--mlp", "--precision", "4", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Worked example (seed 1)") and "$$\n\\begin{align*}" in out
    assert re.search(r"\\approx \\begin\{bmatrix\} -?\d+\.\d{4} ", out)
    assert main(["example", "--weights", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_seed_changes_the_example_and_is_reproducible():
    a, b, c = (worked_example(seed).latex() for seed in (0, 0, 5))
    assert a == b and a != c


def test_exact_arithmetic_lines_parse_back_to_the_value(toy):
    """`&= [W_Q][x^{(0)}]` read by latex2sympy2 and multiplied out is the step's exact value.

    Only the lines of products and sums of exact matrices are read: ``\\text{softmax}^*(…)`` and
    ``\\text{ReLU}(…)`` around a matrix are not functions the parser knows, and decimals are rounded.
    """
    _, example, _ = toy
    blocks = step_blocks(example.latex())
    read = 0
    for symbol, step in zip(list(blocks)[1:], example.steps):
        arithmetic = blocks[symbol][1]
        if not arithmetic.startswith("&= ") or "\\text{" in arithmetic:
            continue
        parsed = parse(arithmetic[3:])
        value = parsed.doit() if hasattr(parsed, "doit") else parsed
        assert (value - step.value).applyfunc(lambda x: x.simplify()).is_zero_matrix, symbol
        read += 1
    assert read == 5  # x^{(0)}, q, k, v and S
