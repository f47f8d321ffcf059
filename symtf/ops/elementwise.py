"""Element-wise nonlinearities: ReLU and GELU (exact and GPT-2's tanh approximation).

They apply a scalar function to each entry; they are *not* SymPy's matrix functions
(``exp(A)`` of a matrix is the matrix exponential, which is never what a Transformer computes).
"""
from __future__ import annotations

from sympy import Expr, Integer, Max, Rational, erf, pi, sqrt, tanh

from .base import UnaryOp


class Elementwise(UnaryOp):
    """Base of the element-wise operations: shape of the argument, scalar applied per entry."""

    @staticmethod
    def scalar(x: Expr) -> Expr:  # overridden by each operation
        raise NotImplementedError

    def _entry(self, i, j, **kwargs):
        return self.scalar(self.arg._entry(i, j, **kwargs))

    def _eval_transpose(self):
        return type(self)(self.arg.T)


class ReLU(Elementwise):
    r"""$\text{ReLU}(x) = \max(x, 0)$, applied to every entry of $x$."""

    @staticmethod
    def scalar(x):
        return Max(x, Integer(0))


class GELU(Elementwise):
    r"""$\text{GELU}(x) = x \cdot \Phi(x) = \tfrac{x}{2}\left(1 + \operatorname{erf}(x/\sqrt 2)\right)$, per entry.

    $\Phi$ is the standard normal CDF. PyTorch's ``gelu(approximate='none')``.
    """

    @staticmethod
    def scalar(x):
        return x / 2 * (1 + erf(x / sqrt(2)))


class GELUTanh(Elementwise):
    r"""$\tfrac{x}{2}\left(1 + \tanh\left(\sqrt{2/\pi}\,(x + 0.044715\,x^3)\right)\right)$, per entry.

    The approximation of GELU used by GPT-2 (``gelu_new`` in Hugging Face, ``approximate='tanh'``
    in PyTorch). The constant is kept exact: $0.044715 = 8943/200000$.
    """

    @staticmethod
    def scalar(x):
        return x / 2 * (1 + tanh(sqrt(2 / pi) * (x + Rational(44715, 1000000) * x**3)))
