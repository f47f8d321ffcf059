r"""Rotary position embeddings (RoPE): each pair of a query's or key's entries rotated by its position."""
from __future__ import annotations

from sympy import Eq, Integer, Mod, Piecewise, cos, floor, sin
from sympy.core.sympify import _sympify

from .base import Op, SizeConstraint


class RoPE(Op):
    r"""$\text{RoPE}(x)_{:, j} = R(p_j)\, x_{:, j}$, $R(p) = \operatorname{diag}\big(R_2(p\,\theta_1), \dots, R_2(p\,\theta_{d/2})\big)$.

    $R_2(\phi) = \begin{bmatrix} \cos\phi & -\sin\phi \\ \sin\phi & \cos\phi \end{bmatrix}$ rotates
    the pair of rows $(2i, 2i+1)$ (0-based) of column $j$, whose position is $p_j = \text{offset} + j$
    (0-based $j$, as PyTorch counts positions). ``theta`` holds the $d/2$ angles ($d/2 \times 1$);
    LLaMA uses $\theta_i = 10000^{-2(i-1)/d}$. $x$ is $d_\text{head} \times n$ (queries or keys of one
    head, the post's column convention); $d_\text{head}$ must be even.

    Pairs are adjacent rows, as in the RoFormer paper and Meta's LLaMA code (complex numbers);
    Hugging Face's ``rotate_half`` pairs row $i$ with row $i + d/2$ instead: the same rotation
    after a fixed permutation of the rows of $W_Q$ and $W_K$, so the same scores.

    >>> from sympy import MatrixSymbol
    >>> X, t = MatrixSymbol('X', 2, 1), MatrixSymbol('theta', 1, 1)
    >>> RoPE(X, t, 3)[0, 0]
    -sin(3*theta[0, 0])*X[1, 0] + cos(3*theta[0, 0])*X[0, 0]
    """

    def __new__(cls, X, theta, offset=0):
        return Op.__new__(cls, _sympify(X), _sympify(theta), _sympify(offset))

    X = property(lambda self: self.args[0])
    theta = property(lambda self: self.args[1])
    offset = property(lambda self: self.args[2])

    @property
    def shape(self):
        return self.X.shape

    def constraints(self):
        return (SizeConstraint(self.X.shape[0], 2 * self.theta.shape[0], "RoPE needs d_head = 2 × number of angles"),
                SizeConstraint(self.theta.shape[1], Integer(1), "RoPE angles must be a column vector"))

    def angle(self, pair, j):
        r"""$p_j\, \theta_{pair}$: the rotation angle of ``pair`` (0-based) in column ``j``."""
        return (self.offset + j) * self.theta._entry(pair, 0)

    def pair(self, i, j, **kwargs):
        r"""Rows $2i$ and $2i+1$ of column $j$: $(\cos\phi\, x_{2i} - \sin\phi\, x_{2i+1},\ \sin\phi\, x_{2i} + \cos\phi\, x_{2i+1})$."""
        phi = self.angle(i, j)
        a, b = self.X._entry(2 * i, j, **kwargs), self.X._entry(2 * i + 1, j, **kwargs)
        return cos(phi) * a - sin(phi) * b, sin(phi) * a + cos(phi) * b

    def _entry(self, i, j, **kwargs):
        i = _sympify(i)
        if i.is_Integer:
            return self.pair(Integer(int(i) // 2), j, **kwargs)[int(i) % 2]
        even = self.pair(i / 2, j, **kwargs)[0]
        odd = self.pair(floor(i / 2), j, **kwargs)[1]
        return Piecewise((even, Eq(Mod(i, 2), 0)), (odd, True))


def rope(X, theta, offset=0):
    r"""$\text{RoPE}(X)$: column $j$ rotated by position $\text{offset} + j$."""
    return RoPE(X, theta, offset)
