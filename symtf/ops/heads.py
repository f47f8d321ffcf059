r"""Attention heads: the additive $\sum_h o^h$ and the concatenated $[W_O^{h_1} \,|\, \dots \,|\, W_O^{h_H}]$.

Both take one expression written for the generic head $h$ (built from ``HeadMatrixSymbol``s) and
stand for its $H$ copies, $h = 1 \dots H$; $H$ may stay a symbol.
"""
from __future__ import annotations

from sympy import Integer, Sum, floor
from sympy.core.sympify import _sympify

from .base import Op


def at_head(e, head, c):
    r"""``e`` with the head symbol ``head`` set to ``c``, except inside an inner sum or concatenation that binds it again."""
    if isinstance(e, (HeadSum, HeadConcat)) and e.head == head:
        return e  # shadowed: the inner sum's own head
    if not e.args or not e.has(HeadSum, HeadConcat):
        return e.xreplace({head: c})
    return e.func(*[at_head(a, head, c) for a in e.args])


class HeadSum(Op):
    r"""$\sum_{h=1}^{H} E^h$: one term per head, each the generic-head expression $E$ at head $h$."""

    def __new__(cls, term, head, count):
        return Op.__new__(cls, _sympify(term), _sympify(head), _sympify(count))

    term = property(lambda self: self.args[0])
    head = property(lambda self: self.args[1])
    count = property(lambda self: self.args[2])

    @property
    def shape(self):
        return self.term.shape

    def at(self, c):
        """The term for head number ``c`` (1-based)."""
        return at_head(self.term, self.head, Integer(c))

    def _entry(self, i, j, **kwargs):
        if self.count.is_Integer:
            return sum((self.at(c)._entry(i, j, **kwargs) for c in range(1, int(self.count) + 1)), Integer(0))
        return Sum(self.term._entry(i, j, **kwargs), (self.head, 1, self.count))

    def _eval_transpose(self):
        return HeadSum(self.term.T, self.head, self.count)


class HeadConcat(Op):
    r"""The $H$ head copies of $E$ side by side (``axis=1``: $[W_O^{h_1} \,|\, \dots \,|\, W_O^{h_H}]$)
    or stacked (``axis=0``: $R = [r^{h_1}; \dots; r^{h_H}]$, $d_\text{head} H \times n$)."""

    def __new__(cls, block, head, count, axis):
        return Op.__new__(cls, _sympify(block), _sympify(head), _sympify(count), _sympify(axis))

    block = property(lambda self: self.args[0])
    head = property(lambda self: self.args[1])
    count = property(lambda self: self.args[2])
    axis = property(lambda self: int(self.args[3]))

    @property
    def shape(self):
        rows, cols = self.block.shape
        return (rows * self.count, cols) if self.axis == 0 else (rows, cols * self.count)

    def at(self, c):
        return at_head(self.block, self.head, Integer(c))

    def _entry(self, i, j, **kwargs):
        size = self.block.shape[self.axis]
        index = i if self.axis == 0 else j
        c = floor(index / size)
        if c.is_Integer:
            c = int(c)
            inner = index - c * size
            piece = self.at(c + 1)
            return piece._entry(inner, j, **kwargs) if self.axis == 0 else piece._entry(i, inner, **kwargs)
        piece = self.block.xreplace({self.head: c + 1})
        inner = index - c * size
        return piece._entry(inner, j, **kwargs) if self.axis == 0 else piece._entry(i, inner, **kwargs)

    def _eval_transpose(self):
        return HeadConcat(self.block.T, self.head, self.count, 1 - self.axis)
