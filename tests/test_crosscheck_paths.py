"""Path expansions against an attention-only Transformer written here in PyTorch (row convention).

The torch model runs a real forward pass (causal softmax patterns, two layers, several heads);
its patterns are then held fixed and fed, with its weights, to symtf's expansion operators
(``statement_1l``/``statement_2l``, evaluated term by term): $T \\operatorname{vec}(t)$ must give the
torch logits, and dropping the virtual heads must not.
"""
from __future__ import annotations

import numpy as np
import pytest
from sympy import ImmutableMatrix, Integer

from tests.crosscheck import require

torch = require("torch")

from symtf.dims import H, d_head, d_model, n, n_vocab  # noqa: E402
from symtf.proofs.explicit import Env  # noqa: E402
from symtf.proofs.paths import H2, g, layer2, operator_matrix, statement_1l, statement_2l, weights  # noqa: E402
from symtf.model import h  # noqa: E402

pytestmark = pytest.mark.crosscheck

SIZES = {n: 5, n_vocab: 11, d_model: 7, d_head: 3, H: 2, H2: 3}
TOKENS = [4, 0, 9, 4, 2]


def torch_forward(layers, rng):
    """Token embedding, `layers` attention-only blocks (heads summed into the residual), unembedding."""
    V, D, dh, N = 11, 7, 3, len(TOKENS)
    W_E, W_U = torch.tensor(rng.normal(size=(V, D))), torch.tensor(rng.normal(size=(D, V)))  # rows: X = T W_E
    X = W_E[TOKENS]  # (N, D)
    mask = torch.triu(torch.ones(N, N, dtype=torch.bool), diagonal=1)
    blocks = []
    for heads in (2, 3)[:layers]:
        Wq, Wk, Wv = (torch.tensor(rng.normal(size=(heads, D, dh))) for _ in range(3))
        Wo = torch.tensor(rng.normal(size=(heads, dh, D)))
        q, k, v = X @ Wq, X @ Wk, X @ Wv  # (heads, N, dh)
        scores = (q @ k.transpose(-1, -2)) / dh ** 0.5
        A = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)  # (heads, N, N)
        X = X + (A @ v @ Wo).sum(0)
        blocks.append({"W_V": Wv, "W_O": Wo, "A": A})
    return X @ W_U, W_E, W_U, blocks


def env_for(W_E, W_U, blocks):
    """symtf's column-convention leaves from the torch weights (W_col = W_row^T), patterns as they came out."""
    P, A = weights()
    sized = {k: Integer(v) for k, v in SIZES.items()}
    env = Env(strict=True)
    env[P["W_E"].xreplace(sized)] = ImmutableMatrix(W_E.numpy().T)
    env[P["W_U"].xreplace(sized)] = ImmutableMatrix(W_U.numpy().T)
    for layer, block in enumerate(blocks, 1):
        head = h if layer == 1 else g
        for key, sym in (("W_V", P["W_V"]), ("W_O", P["W_O"]), ("A", A)):
            sym = sym if layer == 1 else layer2(sym)
            for c in range(block[key].shape[0]):
                value = block[key][c].numpy()
                env[sym.xreplace(sized).xreplace({head: Integer(c + 1)})] = ImmutableMatrix(
                    value if key == "A" else value.T)
    return env


@pytest.mark.parametrize("layers", [1, 2])
def test_expansion_reproduces_the_torch_logits(layers):
    logits, W_E, W_U, blocks = torch_forward(layers, np.random.default_rng(layers))
    T = operator_matrix(statement_1l() if layers == 1 else statement_2l(), SIZES, env_for(W_E, W_U, blocks))
    onehot = np.zeros((11, len(TOKENS)))
    onehot[TOKENS, range(len(TOKENS))] = 1
    got = (T @ onehot.flatten(order="F")).reshape((11, len(TOKENS)), order="F")
    assert np.allclose(got, logits.numpy().T, atol=1e-9)
    if layers == 2:  # without the virtual heads (V-composition) the logits are not reproduced
        T3 = operator_matrix(statement_2l()[:-1], SIZES, env_for(W_E, W_U, blocks))
        assert not np.allclose(T3 @ onehot.flatten(order="F"), got.flatten(order="F"), atol=1e-3)
