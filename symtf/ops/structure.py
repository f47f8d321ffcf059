r"""Bookkeeping nodes the post writes without naming: a bias added to every token, the first
$n$ columns of $W_\text{pos}$, one token's column $x_n$, and the weighted sum $\sum_i a_i v_i$."""
from __future__ import annotations

from sympy import Integer, S
from sympy.core.sympify import _sympify

from .base import Op, SizeConstraint, sum_over


class Broadcast(Op):
    r"""A bias vector $b$ added to every token: $b\,\mathbf{1}^\top$ ($m \times n$) written $b$.

    ``axis=1``: the column-vector convention, $b$ repeated as ``count`` columns;
    ``axis=0``: the row-vector convention, $b^\top$ repeated as ``count`` rows.
    """

    def __new__(cls, b, count, axis=1):
        return Op.__new__(cls, _sympify(b), _sympify(count), _sympify(axis))

    b = property(lambda self: self.args[0])
    count = property(lambda self: self.args[1])
    axis = property(lambda self: int(self.args[2]))

    @property
    def shape(self):
        m = self.b.shape[0]
        return (m, self.count) if self.axis == 1 else (self.count, m)

    def constraints(self):
        return (SizeConstraint(self.b.shape[1], Integer(1), "a broadcast bias must be a column vector"),)

    def _entry(self, i, j, **kwargs):
        return self.b._entry(i if self.axis == 1 else j, 0, **kwargs)

    def _eval_transpose(self):
        return Broadcast(self.b, self.count, 1 - self.axis)


class LeadingColumns(Op):
    r"""The first ``count`` columns of $W$ (``axis=1``) or rows (``axis=0``): $W_\text{pos}$ for positions $1 \dots n$.

    $W_\text{pos}$ has one column per position of the context window ($n_\text{ctx}$ of them); a
    sequence of $n \le n_\text{ctx}$ tokens uses the first $n$. The post writes both as $W_\text{pos}$.
    In the row convention the positions are rows.
    """

    def __new__(cls, W, count, axis=1):
        return Op.__new__(cls, _sympify(W), _sympify(count), _sympify(axis))

    W = property(lambda self: self.args[0])
    count = property(lambda self: self.args[1])
    axis = property(lambda self: int(self.args[2]))

    @property
    def shape(self):
        rows, cols = self.W.shape
        return (rows, self.count) if self.axis == 1 else (self.count, cols)

    def _entry(self, i, j, **kwargs):
        return self.W._entry(i, j, **kwargs)

    def _eval_transpose(self):
        return LeadingColumns(self.W.T, self.count, 1 - self.axis)


class Column(Op):
    r"""$x_j$: column $j$ of $x$ (1-based, as the post counts tokens), a $d \times 1$ vector."""

    def __new__(cls, X, index):
        return Op.__new__(cls, _sympify(X), _sympify(index))

    X = property(lambda self: self.args[0])
    index = property(lambda self: self.args[1])

    @property
    def shape(self):
        return (self.X.shape[0], S.One)

    def _entry(self, i, j, **kwargs):
        return self.X._entry(i, self.index - 1, **kwargs)


class WeightedSum(Op):
    r"""$\sum_{i=1}^{n} a_i v_i$: the columns $v_i$ of $v$ ($d \times n$) weighted by the $n$ entries of $a$.

    $a$ may be a row ($1 \times n$, as $q_n^\top k$ gives it) or a column. Equal to $v a^\top$
    for a row $a$ (a claim proved in ``symtf.proofs``).
    """

    def __new__(cls, v, a):
        return Op.__new__(cls, _sympify(v), _sympify(a))

    v = property(lambda self: self.args[0])
    a = property(lambda self: self.args[1])

    def _weight(self, i, **kwargs):
        a = self.a
        return a._entry(0, i, **kwargs) if a.shape[0] == 1 else a._entry(i, 0, **kwargs)

    @property
    def shape(self):
        return (self.v.shape[0], S.One)

    def constraints(self):
        rows, cols = self.a.shape
        length = cols if rows == 1 else rows
        return (
            SizeConstraint(min(rows, cols, key=lambda e: e != 1), Integer(1), "weights must be a vector")
            if rows != 1 and cols != 1
            else SizeConstraint(Integer(1), Integer(1), "weights are a vector"),
            SizeConstraint(length, self.v.shape[1], "number of weights vs number of value vectors"),
        )

    def _entry(self, r, c, **kwargs):
        return sum_over(lambda i: self._weight(i, **kwargs) * self.v._entry(r, i, **kwargs), self.v.shape[1], "i")
