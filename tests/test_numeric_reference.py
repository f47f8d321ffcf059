"""Cross-check 2: the compiled forward pass against a numpy forward pass written here by hand.

The reference follows the post's column-vector formulas directly (one head at a time, an
explicit causal mask, LayerNorm per column), sharing no code with ``symtf.numeric``.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from symtf.model import Convention, Heads, Nonlinearity, Variant, build
from symtf.numeric import compile_activation, compile_forward, random_weights

SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 3, "n_ctx": 17}
TOKENS = [3, 1, 4, 1, 5]


def softmax_columns(x):
    e = np.exp(x - x.max(axis=0))
    return e / e.sum(axis=0)


def layernorm_columns(x, g, b, eps):
    mu = x.mean(axis=0)
    var = ((x - mu) ** 2).mean(axis=0)
    return (x - mu) / np.sqrt(var + eps) * g[:, None] + b[:, None]


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def gelu_exact(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def reference(variant: Variant, w, tokens):
    """The post's forward pass in plain numpy, float64, one head at a time."""
    t = np.asarray(tokens)
    n = len(t)
    out = {}
    x = w["W_E"][:, t] + w["W_pos"][:, :n]  # (d_model, n)
    out["embed"] = x
    W_U = w["W_E"].T if variant.tied_unembed else w["W_U"]
    if variant.kind.value == "zero":
        out["logits"] = W_U @ x
        out["probs"] = softmax_columns(out["logits"])
        return out
    if variant.kind.value == "simplified":
        W_Q, W_K, W_V, W_O = (w[k][0] if w[k].ndim == 3 else w[k] for k in ("W_Q", "W_K", "W_V", "W_O"))
        x_n = x[:, -1:]
        q, k, v = W_Q @ x_n, W_K @ x, W_V @ x
        s = (q.T @ k) / math.sqrt(q.shape[0])  # (1, n)
        a = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
        r = sum(a[0, i] * v[:, i:i + 1] for i in range(n))
        o = W_O @ r
        x1 = x_n + o
        out.update(q=q, k=k, v=v, scores=s, pattern=a, result=r, head_out=o, resid_mid=x1)
        out["logits"] = W_U @ x1
        out["probs"] = softmax_columns(out["logits"])
        return out
    eps = float(variant.ln_eps)
    ln = variant.layernorm
    x_ln = layernorm_columns(x, w["ln1_g"], w["ln1_b"], eps) if ln else x
    if ln:
        out["ln1"] = x_ln
    heads = w["W_Q"].shape[0]
    qs, ks, vs, Ss, As, rs, os_ = [], [], [], [], [], [], []
    for c in range(heads):
        def bias(key):
            return w[key][c][:, None] if variant.attn_bias else 0.0
        q = w["W_Q"][c] @ x_ln + bias("b_Q")
        k = w["W_K"][c] @ x_ln + bias("b_K")
        v = w["W_V"][c] @ x_ln + bias("b_V")
        S = q.T @ k / math.sqrt(q.shape[0])
        A = np.zeros_like(S)
        for i in range(n):  # row i attends to keys 0..i
            row = np.exp(S[i, : i + 1] - S[i, : i + 1].max())
            A[i, : i + 1] = row / row.sum()
        r = v @ A.T
        qs.append(q), ks.append(k), vs.append(v), Ss.append(S), As.append(A), rs.append(r)
        os_.append(w["W_O"][c] @ r)
    out.update(q=np.stack(qs), k=np.stack(ks), v=np.stack(vs), scores=np.stack(Ss), pattern=np.stack(As),
               result=np.stack(rs))
    if variant.heads is Heads.ADDITIVE:
        out["head_out"] = np.stack(os_)
        attn = sum(os_)
    else:
        out["attn_out"] = np.hstack(list(w["W_O"])) @ np.vstack(rs)
        attn = out["attn_out"]
    x1 = x + attn + (w["b_O"][:, None] if variant.attn_bias else 0.0)
    out["resid_mid"] = x1
    x1_ln = layernorm_columns(x1, w["ln2_g"], w["ln2_b"], eps) if ln else x1
    if ln:
        out["ln2"] = x1_ln
    pre = w["W_1"] @ x1_ln + w["b_1"][:, None]
    act = {Nonlinearity.RELU: lambda z: np.maximum(z, 0), Nonlinearity.GELU: gelu_exact,
           Nonlinearity.GELU_TANH: gelu_tanh}[variant.nonlinearity]
    z = act(pre)
    m = w["W_2"] @ z + w["b_2"][:, None]
    x2 = x1 + m
    out.update(mlp_hidden=z, mlp_out=m, resid_post=x2)
    if variant.final_layernorm:
        x2 = out["lnf"] = layernorm_columns(x2, w["lnf_g"], w["lnf_b"], eps)
    out["logits"] = W_U @ x2
    out["probs"] = softmax_columns(out["logits"])
    return out


VARIANTS = {
    "zero": Variant.preset("zero"),
    "simplified": Variant.preset("simplified"),
    "full": Variant.preset("full"),
    "full-no-ln": Variant.preset("full-no-ln"),
    "gpt2": Variant.preset("gpt2"),
    "full-gelu-concat": Variant(nonlinearity=Nonlinearity.GELU, heads=Heads.CONCAT),
    "gpt2-concat": Variant.preset("gpt2").with_(heads=Heads.CONCAT),
}


def weights_for(variant, seed=7):
    sizes = dict(SIZES)
    if variant.heads is Heads.CONCAT:
        sizes["d_model"] = sizes["H"] * sizes["d_head"]  # W_O R needs d_model = H d_head
    if variant.kind.value == "simplified":
        sizes["H"] = 1
    return random_weights(variant, sizes, seed)


@pytest.mark.parametrize("heads", ["batched", "loop"])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_forward_matches_handwritten_numpy(name, heads):
    variant = VARIANTS[name]
    w = weights_for(variant)
    expected = reference(variant, w, TOKENS)
    for dtype, tol in ((np.float64, 1e-12), (np.float32, 2e-5)):
        got = compile_forward(variant, dtype, heads=heads)(w, TOKENS)
        assert set(got) == set(expected)
        for key, value in expected.items():
            assert got[key].dtype == dtype, key
            assert got[key].shape == value.shape, key
            np.testing.assert_allclose(got[key], value, rtol=tol, atol=tol, err_msg=f"{name} {dtype.__name__} {key}")


@pytest.mark.parametrize("name", ["gpt2", "full", "zero", "simplified"])
def test_row_convention_gives_the_transposed_activations(name):
    # X_row = x^T for per-token activations; S and A are the same matrices in both conventions
    variant = VARIANTS[name]
    w = weights_for(variant)
    col = compile_forward(variant)(w, TOKENS)
    row_model = build(variant.with_(convention=Convention.ROW))
    row = compile_forward(row_model)(w, TOKENS)
    for a in row_model.activations[1:]:
        expected = np.swapaxes(col[a.key], -1, -2) if a.token_columns else col[a.key]
        np.testing.assert_allclose(row[a.key], expected, rtol=1e-12, atol=1e-12, err_msg=a.key)


def test_single_activation_compiles_only_what_it_needs():
    model = build("gpt2")
    f = compile_activation(model, "pattern", np.float64)
    assert [r.key for r in f.forward.rows] == ["embed", "ln1", "q", "k", "scores", "pattern"]
    w = weights_for(Variant.preset("gpt2"))
    np.testing.assert_allclose(f(w, TOKENS), reference(Variant.preset("gpt2"), w, TOKENS)["pattern"], atol=1e-12)


def test_per_head_rows_are_compiled_once_for_the_generic_head():
    f = compile_forward("gpt2")
    scores = next(r for r in f.rows if r.key == "scores")
    assert scores.args == ("k", "q") and scores.sliced == {"q", "k"}
    # the row's own expression (earlier rows by name), not an element-wise expansion
    assert scores.source == "(float(1/numpy.sqrt(d_head))*(symtf_matmul(numpy.swapaxes(q, -1, -2), k)))"
