r"""The numpy functions that compiled expressions call: one per symtf operation.

The printer (``symtf.numeric.printer``) writes each operation as a call to one of these, so the
numerics live in one readable place. Every function works on stacks of matrices: the last two
axes are the matrix (rows, columns), leading axes (the head axis) are carried along, so one
compiled expression serves one head or all heads at once. Scalars are Python floats so a float32
array stays float32 (numpy 2 treats Python scalars as weak).
"""
from __future__ import annotations

import math

import numpy as np

# the matrix axis an operation's ``axis`` argument names: 0 = down each column, 1 = along each row
_AXIS = {0: -2, 1: -1}


def symtf_matmul(a, b):
    r"""$AB$ on the last two axes (``a @ b``), arranged for BLAS.

    The result is ``a @ b`` exactly as a product; only how it is handed to BLAS changes:

    - all heads' projections at once, $W^h x$ with $W$ stacked ($H \times m \times k$) and $x$
      shared: one $(Hm) \times k$ by $k \times n$ product instead of $H$ thin ones;
    - few output rows and a long inner dimension ($v^h (A^h)^\top$, $d_\text{head} \times n$ from
      $n \times n$): computed as $(B^\top A^\top)^\top$, the orientation BLAS runs fastest;
    - a large transposed weight ($W_E^\top x$, the tied unembedding): computed as $(x^\top W_E)^\top$.
    """
    if a.ndim == 3 and b.ndim == 2 and a.flags.c_contiguous:
        heads, rows, inner = a.shape
        return (a.reshape(heads * rows, inner) @ b).reshape(heads, rows, b.shape[-1])
    if a.ndim >= 2 and b.ndim >= 2 and a.shape[-2] * 4 <= b.shape[-1] and a.shape[-1] >= 256:
        return np.swapaxes(np.swapaxes(b, -1, -2) @ np.swapaxes(a, -1, -2), -1, -2)
    if a.ndim == 2 and b.ndim == 2 and a.T.flags.c_contiguous and not a.flags.c_contiguous and a.size >= 1 << 20:
        return (b.T @ a.T).T  # W_E^T x as (x^T W_E)^T: the big weight streamed in its stored order
    return a @ b


def symtf_softmax(x, axis):
    r"""$e^{x_i - \max x} / \sum_k e^{x_k - \max x}$ along ``axis`` (0: each column, 1: each row).

    Subtracting the maximum makes the largest exponent $e^0 = 1$: no overflow, no NaN, for any
    finite input (logits of $\pm 10^4$ included).
    """
    ax = _AXIS[axis]
    e = x - np.max(x, axis=ax, keepdims=True)
    np.exp(e, out=e)
    e /= _sum(e, ax)
    return e


_BLOCK = 1024


def _sum(x, ax):
    """Sum along ``ax`` (keepdims), in blocks of rows when summing down long columns.

    numpy adds rows one after another when it reduces over a non-contiguous axis; down a column
    of 50,257 logits in float32 that loses about four digits. Partial sums of 1024 rows keep the
    error near float32's own.
    """
    if ax != -2 or x.shape[-2] <= _BLOCK:
        return np.sum(x, axis=ax, keepdims=True)
    total = np.sum(x[..., :_BLOCK, :], axis=-2, keepdims=True)
    for start in range(_BLOCK, x.shape[-2], _BLOCK):
        total += np.sum(x[..., start:start + _BLOCK, :], axis=-2, keepdims=True)
    return total


def _causal_mask(n_rows, n_cols):
    return np.triu(np.ones((n_rows, n_cols), dtype=bool), k=1)  # True above the diagonal: j > i


def symtf_causal_mask(s):
    r"""$S_{ij}$ for $j \le i$, $-\infty$ above the diagonal."""
    return np.where(_causal_mask(*s.shape[-2:]), -np.inf, s).astype(s.dtype, copy=False)


def symtf_causal_softmax(s):
    r"""$\text{softmax}^*(S)$: row-wise softmax over keys $j \le i$; exactly 0 above the diagonal.

    The row maximum is taken over the unmasked entries only (the diagonal is always one of them),
    so a row with finite scores never meets $-\infty - (-\infty)$ and never gives NaN.
    """
    e = symtf_causal_mask(s)
    e -= np.max(e, axis=-1, keepdims=True)
    np.exp(e, out=e)  # exp(-inf) = 0 exactly
    e /= np.sum(e, axis=-1, keepdims=True)
    return e


def symtf_layernorm(x, gamma, beta, eps, axis):
    r"""$(x - \mu) / \sqrt{\sigma^2 + \epsilon} \odot \gamma + \beta$ per token (biased variance).

    ``axis=0``: tokens are columns and features rows (the post); ``axis=1``: tokens are rows.
    ``gamma`` and ``beta`` are column vectors ($d \times 1$) in both conventions.
    """
    ax = _AXIS[axis]
    mean = np.mean(x, axis=ax, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=ax, keepdims=True)
    var += eps
    np.sqrt(var, out=var)
    centred /= var
    if axis == 1:
        gamma, beta = gamma.reshape(-1), beta.reshape(-1)
    centred *= gamma
    centred += beta
    return centred


def symtf_rmsnorm(x, gamma, eps, axis):
    r"""$x / \sqrt{\tfrac{1}{d} \sum_k x_k^2 + \epsilon} \odot g$ per token (no centring, no shift).

    ``axis=0``: tokens are columns (the post); ``axis=1``: tokens are rows; ``gamma`` is $d \times 1$.
    """
    ax = _AXIS[axis]
    scale = np.mean(x * x, axis=ax, keepdims=True)
    scale += eps
    np.sqrt(scale, out=scale)
    out = x / scale
    out *= gamma.reshape(-1) if axis == 1 else gamma
    return out


def symtf_rope(x, theta, offset):
    r"""Rows $(2i, 2i+1)$ of column $j$ rotated by the angle $(\text{offset} + j)\,\theta_i$ ($x$ is $d \times n$)."""
    d, count = x.shape[-2], x.shape[-1]
    angles = np.asarray(theta, dtype=x.dtype).reshape(d // 2, 1) * (float(offset) + np.arange(count, dtype=x.dtype))
    cos, sin = np.cos(angles), np.sin(angles)  # (d/2, n)
    even, odd = x[..., 0::2, :], x[..., 1::2, :]
    out = np.empty_like(x)
    out[..., 0::2, :] = cos * even - sin * odd
    out[..., 1::2, :] = sin * even + cos * odd
    return out


def symtf_relu(x):
    r"""$\max(x, 0)$ per entry."""
    return np.maximum(x, 0)


_erf = np.frompyfunc(math.erf, 1, 1)


def symtf_gelu(x):
    r"""$\tfrac{x}{2}(1 + \operatorname{erf}(x/\sqrt2))$ per entry (exact GELU; erf from ``math``, not fast)."""
    x = np.asarray(x)
    erf = np.asarray(_erf(x / math.sqrt(2.0)), dtype=x.dtype)  # a 0-d argument gives a Python float back
    return (0.5 * x * (1.0 + erf)).astype(x.dtype, copy=False)


_GELU_C = math.sqrt(2.0 / math.pi)


def symtf_gelu_tanh(x):
    r"""$\tfrac{x}{2}(1 + \tanh(\sqrt{2/\pi}(x + 0.044715 x^3)))$ per entry (GPT-2's GELU)."""
    inner = x * x
    inner *= 0.044715
    inner += 1.0
    inner *= x
    inner *= _GELU_C
    np.tanh(inner, out=inner)
    inner += 1.0
    inner *= x
    inner *= 0.5
    return inner


def symtf_broadcast(b, count, axis):
    r"""$b\,\mathbf 1^\top$: the column $b$ ($m \times 1$) repeated as ``count`` columns (axis 1) or rows (axis 0).

    A read-only view, no copy: adding it costs what adding ``b`` by broadcasting costs.
    """
    if axis == 1:
        return np.broadcast_to(b, b.shape[:-1] + (int(count),))
    col = np.swapaxes(b, -1, -2)
    return np.broadcast_to(col, col.shape[:-2] + (int(count), col.shape[-1]))


def symtf_leading_columns(w, count, axis):
    r"""The first ``count`` columns (axis 1) or rows (axis 0) of $W$: $W_\text{pos}$ for positions $1 \dots n$."""
    return w[..., : int(count)] if axis == 1 else w[..., : int(count), :]


def symtf_column(x, j):
    r"""$x_j$, column $j$ (1-based) of $x$, as a $d \times 1$ matrix."""
    j = int(j)
    return x[..., j - 1 : j]


def symtf_weighted_sum(v, a):
    r"""$\sum_i a_i v_i$: columns of $v$ weighted by the vector $a$ (a row or a column)."""
    a = a.reshape(a.shape[:-2] + (-1, 1))
    return v @ a


def symtf_head_sum(x):
    r"""$\sum_h x^h$ over the leading head axis."""
    return np.sum(x, axis=0)


def symtf_head_concat(x, axis):
    r"""Head blocks side by side (axis 1: $d \times H d'$) or stacked (axis 0: $H d \times d'$)."""
    heads, rows, cols = x.shape
    if axis == 0:
        return x.reshape(heads * rows, cols)
    return np.ascontiguousarray(np.swapaxes(x, 0, 1)).reshape(rows, heads * cols)


def symtf_gather(w, tokens, axis):
    r"""$W t$ for a one-hot $t$, without the product: the columns (axis -1) or rows (axis -2) of $W$ at ``tokens``.

    ``np.take`` copies a non-contiguous array whole before taking from it; a transposed view (a
    checkpoint's $W_E = $ ``wte``$^\top$) is taken from in its stored order instead.
    """
    if w.ndim == 2 and not w.flags.c_contiguous and w.T.flags.c_contiguous:
        return np.take(w.T, tokens, axis=-1 - (axis % 2)).T
    return np.take(w, tokens, axis=axis)


NAMESPACE = {name: value for name, value in globals().items() if name.startswith("symtf_")}
