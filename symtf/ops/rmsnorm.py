r"""RMSNorm over $d_\text{model}$, applied to each token's vector on its own (LLaMA's norm)."""
from __future__ import annotations

from sympy import Integer, sqrt
from sympy.core.sympify import _sympify

from .base import Op, SizeConstraint, TokenwiseOp, sum_over


class RMSNorm(TokenwiseOp):
    r"""$\text{RMSNorm}(x) = \frac{x}{\sqrt{\frac{1}{d_\text{model}} \sum_k x_k^2 + \epsilon}} \odot g$ per token.

    No centring and no shift: only a gain $g$ ($d_\text{model} \times 1$; LLaMA's ``weight``,
    PyTorch's ``nn.RMSNorm.weight``). ``axis=0``: tokens are columns (the post); ``axis=1``:
    tokens are rows (PyTorch). LLaMA-2 uses $\epsilon = 10^{-5}$ (``rms_norm_eps``), added
    inside the square root as PyTorch does.

    >>> from sympy import MatrixSymbol
    >>> X, g = MatrixSymbol('X', 2, 1), MatrixSymbol('g', 2, 1)
    >>> RMSNorm(X, g)[0, 0]
    X[0, 0]*g[0, 0]/sqrt(X[0, 0]**2/2 + X[1, 0]**2/2)
    """

    def __new__(cls, X, gamma, eps=0, axis=0):
        X, gamma, eps, axis = map(_sympify, (X, gamma, eps, axis))
        if axis not in (Integer(0), Integer(1)):
            raise ValueError(f"RMSNorm axis must be 0 or 1, got {axis}")
        return Op.__new__(cls, X, gamma, eps, axis)

    X = property(lambda self: self.args[0])
    gamma = property(lambda self: self.args[1])
    eps = property(lambda self: self.args[2])
    axis = property(lambda self: int(self.args[3]))

    def constraints(self):
        d = self.features
        return (SizeConstraint(self.gamma.shape[0], d, "RMSNorm gain length vs features normalised"),
                SizeConstraint(self.gamma.shape[1], Integer(1), "RMSNorm gain must be a column vector"))

    def _entry(self, i, j, **kwargs):
        d, feature = self.features, self.feature(i, j)

        def entry(k):
            return self.token_entry(k, i, j, **kwargs)

        mean_square = sum_over(lambda k: entry(k) ** 2, d) / d
        return entry(feature) / sqrt(mean_square + self.eps) * self.gamma._entry(feature, 0)

    def _eval_transpose(self):
        return RMSNorm(self.X.T, self.gamma, self.eps, 1 - self.axis)


def rmsnorm(X, gamma, eps=0, axis=0):
    r"""$\text{RMSNorm}(X)$ with gain $g$, one token per column by default."""
    return RMSNorm(X, gamma, eps, axis)
