r"""The PyTorch functions that compiled expressions call with ``backend="torch"``: one per symtf operation.

Each is the torch form of the function of the same name in :mod:`symtf.numeric.runtime` (whose
docstrings give the formulas); the cross-check tests hold the two backends to the same numbers.
As there, the last two axes are the matrix and leading axes (heads) are carried along; Python
floats keep a float32 or bfloat16 tensor in its dtype. Imported only when torch is wanted.
"""
from __future__ import annotations

import math

import torch

from .runtime import symtf_column, symtf_leading_columns  # noqa: F401  (plain slicing serves tensors too)

_AXIS = {0: -2, 1: -1}  # 0 = down each column, 1 = along each row


def symtf_matmul(a, b):
    r"""$AB$ on the last two axes; all heads' $W^h x$ at once as one $(Hm) \times k$ by $k \times n$ product."""
    if a.dim() == 3 and b.dim() == 2 and a.is_contiguous():
        heads, rows, inner = a.shape
        return (a.reshape(heads * rows, inner) @ b).reshape(heads, rows, b.shape[-1])
    return a @ b


def symtf_softmax(x, axis):
    r"""$e^{x_i - \max x} / \sum_k e^{x_k - \max x}$ along ``axis`` (0: each column, 1: each row)."""
    return torch.softmax(x, dim=_AXIS[axis])  # torch subtracts the maximum itself


def _above_diagonal(s):
    n_rows, n_cols = s.shape[-2:]
    return torch.ones(n_rows, n_cols, dtype=torch.bool, device=s.device).triu(1)  # True where j > i


def symtf_causal_mask(s):
    r"""$S_{ij}$ for $j \le i$, $-\infty$ above the diagonal."""
    return s.masked_fill(_above_diagonal(s), -math.inf)


def symtf_causal_softmax(s):
    r"""$\text{softmax}^*(S)$: row-wise softmax over keys $j \le i$; exactly 0 above the diagonal."""
    return torch.softmax(symtf_causal_mask(s), dim=-1)


def symtf_layernorm(x, gamma, beta, eps, axis):
    r"""$(x - \mu) / \sqrt{\sigma^2 + \epsilon} \odot \gamma + \beta$ per token (biased variance)."""
    ax = _AXIS[axis]
    if axis == 1:
        gamma, beta = gamma.reshape(-1), beta.reshape(-1)
    mean = x.mean(dim=ax, keepdim=True)
    centred = x - mean
    var = (centred * centred).mean(dim=ax, keepdim=True)
    return torch.addcmul(beta, centred * torch.rsqrt(var + eps), gamma)


def symtf_rmsnorm(x, gamma, eps, axis):
    r"""$x / \sqrt{\tfrac{1}{d} \sum_k x_k^2 + \epsilon} \odot g$ per token."""
    scale = torch.rsqrt((x * x).mean(dim=_AXIS[axis], keepdim=True) + eps)
    return x * scale * (gamma.reshape(-1) if axis == 1 else gamma)


def symtf_rope(x, theta, offset):
    r"""Rows $(2i, 2i+1)$ of column $j$ rotated by $(\text{offset} + j)\,\theta_i$ ($x$ is $d \times n$)."""
    d, count = x.shape[-2], x.shape[-1]
    theta = torch.as_tensor(theta, dtype=x.dtype, device=x.device).reshape(d // 2, 1)
    angles = theta * (float(offset) + torch.arange(count, dtype=x.dtype, device=x.device))
    cos, sin = torch.cos(angles), torch.sin(angles)
    even, odd = x[..., 0::2, :], x[..., 1::2, :]
    out = torch.empty_like(x)
    out[..., 0::2, :] = cos * even - sin * odd
    out[..., 1::2, :] = sin * even + cos * odd
    return out


def symtf_relu(x):
    r"""$\max(x, 0)$ per entry."""
    return torch.relu(x)


def symtf_gelu(x):
    r"""$\tfrac{x}{2}(1 + \operatorname{erf}(x/\sqrt2))$ per entry (exact GELU)."""
    return torch.nn.functional.gelu(x)


def symtf_gelu_tanh(x):
    r"""$\tfrac{x}{2}(1 + \tanh(\sqrt{2/\pi}(x + 0.044715 x^3)))$ per entry (GPT-2's GELU)."""
    return torch.nn.functional.gelu(x, approximate="tanh")


def symtf_broadcast(b, count, axis):
    r"""$b\,\mathbf 1^\top$: the column $b$ repeated as ``count`` columns (axis 1) or rows (axis 0); a view."""
    if axis == 1:
        return b.expand(*b.shape[:-1], int(count))
    col = b.transpose(-1, -2)
    return col.expand(*col.shape[:-2], int(count), col.shape[-1])


def symtf_weighted_sum(v, a):
    r"""$\sum_i a_i v_i$: columns of $v$ weighted by the vector $a$ (a row or a column)."""
    return v @ a.reshape(*a.shape[:-2], -1, 1)


def symtf_head_sum(x):
    r"""$\sum_h x^h$ over the leading head axis."""
    return x.sum(dim=0)


def symtf_head_concat(x, axis):
    r"""Head blocks side by side (axis 1: $d \times H d'$) or stacked (axis 0: $H d \times d'$)."""
    heads, rows, cols = x.shape
    if axis == 0:
        return x.reshape(heads * rows, cols)
    return x.transpose(0, 1).reshape(rows, heads * cols)


def symtf_gather(w, tokens, axis):
    r"""$W t$ for a one-hot $t$: the columns (axis -1) or rows (axis -2) of $W$ at ``tokens``."""
    return torch.index_select(w, axis % w.dim(), tokens)


NAMESPACE = {name: value for name, value in globals().items() if name.startswith("symtf_")}
NAMESPACE.update(math=math, torch=torch)
