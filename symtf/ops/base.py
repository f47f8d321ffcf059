"""The base of symtf's matrix-expression nodes and the per-head matrix symbol.

Every node is an immutable SymPy ``MatrixExpr``: it stores its arguments and derives its shape
from them; ``_entry(i, j)`` gives the element-wise expansion (0-based indices, as SymPy's), and
``constraints()`` lists the size equalities its arguments must satisfy, which ``symtf.shapes``
checks three-valued (SymPy itself accepts mismatched symbolic sizes silently).
"""
from __future__ import annotations

from typing import NamedTuple

from sympy import Basic, Expr, Integer, Sum, Symbol, sympify
from sympy.core.symbol import Str
from sympy.matrices.expressions.matexpr import MatrixExpr, MatrixSymbol


class SizeConstraint(NamedTuple):
    """``left == right`` must hold for the node to make sense; ``what`` says which sizes these are."""

    left: Expr
    right: Expr
    what: str


class Op(MatrixExpr):
    """Base class of symtf's operations (softmax, LayerNorm, ReLU, head sums ...)."""

    def constraints(self) -> tuple[SizeConstraint, ...]:
        """Size equalities this node needs of its arguments (none by default)."""
        return ()

    @property
    def is_commutative(self):  # matrices never commute in general
        return False


class UnaryOp(Op):
    """An operation on one matrix, with that matrix's shape."""

    def __new__(cls, X):
        X = sympify(X)
        if not getattr(X, "is_Matrix", False):
            raise TypeError(f"{cls.__name__} needs a matrix, got {X!r}")
        return Op.__new__(cls, X)

    @property
    def arg(self):
        return self.args[0]

    @property
    def shape(self):
        return self.arg.shape


class SquareOp(UnaryOp):
    """A unary operation on a square (score) matrix; ``what`` names it in shape errors."""

    what = "this operation"

    def constraints(self):
        rows, cols = self.arg.shape
        return (SizeConstraint(rows, cols, f"{self.what} needs a square score matrix"),)


class TokenwiseOp(Op):
    r"""An operation on each token's vector of ``X`` alone: tokens are columns (``axis`` 0, the post) or rows (1).

    Subclasses define ``X`` and ``axis``; the shape is ``X``'s, ``features`` the size normalised over.
    """

    @property
    def shape(self):
        return self.X.shape

    @property
    def features(self):
        """The size of one token's vector ($d_\\text{model}$)."""
        return self.X.shape[self.axis]

    def token_entry(self, k, i, j, **kwargs):
        """Feature ``k`` of the token that entry ``(i, j)`` belongs to."""
        return self.X._entry(k, j, **kwargs) if self.axis == 0 else self.X._entry(i, k, **kwargs)

    def feature(self, i, j):
        """Which feature of its token entry ``(i, j)`` is."""
        return i if self.axis == 0 else j


def sum_over(term_of, count, index_name: str = "k") -> Expr:
    r"""$\sum_{k=0}^{count-1} f(k)$: an explicit ``Add`` when ``count`` is a number, else a ``Sum``."""
    count = sympify(count)
    if count.is_Integer:
        return sympify(sum((term_of(Integer(k)) for k in range(int(count))), Integer(0)))
    k = Symbol(index_name, integer=True, nonnegative=True)
    return Sum(term_of(k), (k, 0, count - 1))


class HeadMatrixSymbol(MatrixSymbol):
    r"""A matrix that exists once per attention head: $W_Q^h$, $q^h$, $r^{h_i}$.

    ``head`` is a symbol (the generic head $h$) or a number $1 \dots H$. Substituting a number for
    the head symbol (``expr.xreplace({h: 2})``) gives that head's own matrix, so one expression
    written for the generic head stands for every head.

    >>> from sympy import Symbol
    >>> h = Symbol('h')
    >>> W = HeadMatrixSymbol('W_Q', 5, 7, h)
    >>> W.xreplace({h: 2}).head, W.shape
    (2, (5, 7))
    """

    def __new__(cls, name, n, m, head):
        n, m, head = sympify(n), sympify(m), sympify(head)
        cls._check_dim(n)
        cls._check_dim(m)
        if isinstance(name, str):
            name = Str(name)
        return Basic.__new__(cls, name, n, m, head)

    @property
    def head(self) -> Expr:
        return self.args[3]
