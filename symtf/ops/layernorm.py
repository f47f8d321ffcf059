r"""LayerNorm over $d_\text{model}$, applied to each token's vector on its own."""
from __future__ import annotations

from sympy import Integer, sqrt
from sympy.core.sympify import _sympify

from .base import Op, SizeConstraint, TokenwiseOp, sum_over


class LayerNorm(TokenwiseOp):
    r"""$\text{LayerNorm}(x) = \frac{x - \mu(x)}{\sqrt{\sigma^2(x) + \epsilon}} \odot \gamma + \beta$ per token.

    $\mu$ and $\sigma^2$ are the mean and the biased variance (divide by $d_\text{model}$, as
    PyTorch does) of one token's $d_\text{model}$ entries; $\gamma, \beta$ are
    $d_\text{model} \times 1$. ``axis=0``: tokens are columns (the post, $x$ is
    $d_\text{model} \times n$); ``axis=1``: tokens are rows (PyTorch, TransformerLens). The post
    has no $\epsilon$ (``eps=0``); GPT-2 uses $10^{-5}$.
    """

    def __new__(cls, X, gamma, beta, eps=0, axis=0):
        X, gamma, beta, eps, axis = map(_sympify, (X, gamma, beta, eps, axis))
        if axis not in (Integer(0), Integer(1)):
            raise ValueError(f"LayerNorm axis must be 0 or 1, got {axis}")
        return Op.__new__(cls, X, gamma, beta, eps, axis)

    X = property(lambda self: self.args[0])
    gamma = property(lambda self: self.args[1])
    beta = property(lambda self: self.args[2])
    eps = property(lambda self: self.args[3])
    axis = property(lambda self: int(self.args[4]))

    def constraints(self):
        d = self.features
        return tuple(
            c
            for name, v in (("gamma", self.gamma), ("beta", self.beta))
            for c in (
                SizeConstraint(v.shape[0], d, f"LayerNorm {name} length vs features normalised"),
                SizeConstraint(v.shape[1], Integer(1), f"LayerNorm {name} must be a column vector"),
            )
        )

    def _entry(self, i, j, **kwargs):
        d, feature = self.features, self.feature(i, j)

        def entry(k):
            return self.token_entry(k, i, j, **kwargs)

        mean = sum_over(entry, d) / d
        var = sum_over(lambda k: (entry(k) - mean) ** 2, d) / d
        x = entry(feature)
        return (x - mean) / sqrt(var + self.eps) * self.gamma._entry(feature, 0) + self.beta._entry(feature, 0)

    def _eval_transpose(self):
        return LayerNorm(self.X.T, self.gamma, self.beta, self.eps, 1 - self.axis)
