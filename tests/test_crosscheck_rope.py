"""RoPE against PyTorch code written here: Meta's complex-number form, and Hugging Face's ``rotate_half`` form.

* symtf's compiled ``RoPE`` op equals rotating each adjacent pair as a complex number
  $(x_{2i} + \\mathrm{i}\\, x_{2i+1}) e^{\\mathrm{i} p \\theta_i}$ (how Meta's LLaMA code does it);
* the scores of torch-rotated queries and keys depend on positions only through $n - m$, and do
  not equal the scores of $W_Q^\\top W_K$ absorbed into one matrix;
* Hugging Face's ``apply_rotary_pos_emb`` (pairs $i$, $i + d/2$) gives the same scores after the
  fixed permutation of rows that the op's docstring names.
"""
from __future__ import annotations

import numpy as np
import pytest
from sympy import MatrixSymbol, lambdify

from tests.crosscheck import require

torch = require("torch")

from symtf.numeric.printer import SymtfNumPyPrinter  # noqa: E402
from symtf.numeric.runtime import NAMESPACE  # noqa: E402
from symtf.ops import RoPE  # noqa: E402

pytestmark = pytest.mark.crosscheck

D_HEAD, N, D_MODEL = 6, 5, 7
THETA = 10000.0 ** (-np.arange(0, D_HEAD, 2) / D_HEAD)  # LLaMA's angles, d_head / 2 of them


def torch_rope(x, positions):
    """Rows of ``x`` (n × d) rotated as complex numbers: pair (2i, 2i+1) times e^{i p θ_i}."""
    angles = torch.outer(torch.as_tensor(positions, dtype=torch.float64), torch.tensor(THETA))
    pairs = torch.view_as_complex(x.reshape(x.shape[0], -1, 2).contiguous())
    return torch.view_as_real(pairs * torch.polar(torch.ones_like(angles), angles)).reshape(x.shape)


def test_compiled_op_matches_complex_rotation():
    X, T = MatrixSymbol("X", D_HEAD, N), MatrixSymbol("theta", D_HEAD // 2, 1)
    fn = lambdify([X, T], RoPE(X, T, 3), modules=[NAMESPACE, "numpy"], printer=SymtfNumPyPrinter())
    x = np.random.default_rng(1).normal(size=(D_HEAD, N))
    ours = fn(x, THETA.reshape(-1, 1))  # column convention: one position per column, positions 3..7
    theirs = torch_rope(torch.tensor(x.T), np.arange(3, 3 + N)).numpy().T
    assert np.allclose(ours, theirs, atol=1e-12)


def test_scores_depend_only_on_the_offset_and_absorption_fails():
    rng = np.random.default_rng(2)
    W_Q, W_K = torch.tensor(rng.normal(size=(D_HEAD, D_MODEL))), torch.tensor(rng.normal(size=(D_HEAD, D_MODEL)))
    x_m, x_n = torch.tensor(rng.normal(size=D_MODEL)), torch.tensor(rng.normal(size=D_MODEL))

    def score(m, n):
        q, k = torch_rope((W_Q @ x_m)[None], [m]), torch_rope((W_K @ x_n)[None], [n])
        return float(q[0] @ k[0])

    assert abs(score(2, 5) - score(9, 12)) < 1e-9  # n - m = 3 both times
    assert abs(score(2, 5) - score(2, 6)) > 1e-6  # a different n - m
    absorbed = float(x_m @ W_Q.T @ W_K @ x_n)
    assert abs(score(2, 5) - absorbed) > 1e-6 and abs(score(0, 0) - absorbed) < 1e-9  # equal only at n - m = 0


@pytest.mark.slow  # importing transformers' Llama takes ~7 s
def test_hf_rotate_half_is_the_same_rotation_after_a_row_permutation():
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(N, D_HEAD)), rng.normal(size=(N, D_HEAD))
    positions = np.arange(N)
    angles = np.outer(positions, THETA)
    cos = torch.tensor(np.concatenate([np.cos(angles)] * 2, axis=-1))[None]  # HF: [θ_0..θ_{d/2-1}] twice
    sin = torch.tensor(np.concatenate([np.sin(angles)] * 2, axis=-1))[None]
    perm = np.concatenate([np.arange(0, D_HEAD, 2), np.arange(1, D_HEAD, 2)])  # row 2i -> i, 2i+1 -> i + d/2
    q_hf, k_hf = apply_rotary_pos_emb(torch.tensor(q[:, perm])[None, None], torch.tensor(k[:, perm])[None, None],
                                      cos, sin)
    ours_q, ours_k = torch_rope(torch.tensor(q), positions), torch_rope(torch.tensor(k), positions)
    assert np.allclose((q_hf[0, 0] @ k_hf[0, 0].T).numpy(), (ours_q @ ours_k.T).numpy(), atol=1e-12)
