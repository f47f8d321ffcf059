r"""Softmax along an axis, and the post's causal softmax $\text{softmax}^*$."""
from __future__ import annotations

from sympy import Integer, Piecewise, S, exp, oo
from sympy.core.sympify import _sympify

from .base import Op, SquareOp, sum_over

COLUMNS = Integer(0)  # normalise down each column: the post's p = softmax(ℓ), one column per token
ROWS = Integer(1)  # normalise along each row: an attention pattern, row i = query i


class Softmax(Op):
    r"""$\text{softmax}(x)_i = e^{x_i} / \sum_k e^{x_k}$ along ``axis`` of a matrix.

    ``axis=0`` normalises each column (the post's probabilities $p = \text{softmax}(\ell)$, an
    $n_\text{vocab} \times n$ matrix whose columns sum to 1); ``axis=1`` normalises each row (the
    attention pattern in both conventions; PyTorch's ``softmax(dim=-1)``).

    >>> from sympy import MatrixSymbol
    >>> X = MatrixSymbol('X', 2, 1)
    >>> Softmax(X, axis=0)[0, 0]
    exp(X[0, 0])/(exp(X[0, 0]) + exp(X[1, 0]))
    """

    def __new__(cls, X, axis=0):
        X, axis = _sympify(X), _sympify(axis)
        if axis not in (COLUMNS, ROWS):
            raise ValueError(f"softmax axis must be 0 (columns) or 1 (rows), got {axis}")
        return Op.__new__(cls, X, axis)

    @property
    def arg(self):
        return self.args[0]

    @property
    def axis(self) -> int:
        return int(self.args[1])

    @property
    def shape(self):
        return self.arg.shape

    def _entry(self, i, j, **kwargs):
        X = self.arg
        if self.axis == 0:
            total = sum_over(lambda k: exp(X._entry(k, j, **kwargs)), X.shape[0])
        else:
            total = sum_over(lambda k: exp(X._entry(i, k, **kwargs)), X.shape[1])
        return exp(X._entry(i, j, **kwargs)) / total

    def _eval_transpose(self):
        return Softmax(self.arg.T, axis=1 - self.axis)


class CausalMask(SquareOp):
    r"""The post's padded score matrix: $S_{ij}$ for $j \le i$ and $-\infty$ above the diagonal."""

    what = "a causal mask"

    def _entry(self, i, j, **kwargs):
        value = self.arg._entry(i, j, **kwargs)
        if (j > i) in (S.true, S.false):
            return -oo if j > i else value
        return Piecewise((value, j <= i), (-oo, True))


class CausalSoftmax(SquareOp):
    r"""$\text{softmax}^*(S)$: row-wise softmax of $S$ with the upper triangle set to $-\infty$.

    Entry $(i, j)$ is $e^{S_{ij}} / \sum_{k \le i} e^{S_{ik}}$ for $j \le i$ and exactly $0$ for
    $j > i$, so query $i$ attends only to keys $1 \dots i$. The same matrix in the row-vector
    convention ($\text{softmax}(QK^\top/\sqrt{d_k} + M)$ with $M$ the causal mask).
    """

    what = "softmax*"

    def _entry(self, i, j, **kwargs):
        X = self.arg
        known = (j > i) in (S.true, S.false)
        if known and j > i:
            return S.Zero
        total = sum_over(lambda k: exp(X._entry(i, k, **kwargs)), i + 1)
        value = exp(X._entry(i, j, **kwargs)) / total
        return value if known else Piecewise((value, j <= i), (S.Zero, True))
