"""The records a model is made of: activations, parameters, and the parameter-table layout."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from sympy import Expr
from sympy.matrices.expressions.matexpr import MatrixExpr, MatrixSymbol

from ..errors import UnknownSymbolError
from .variants import Variant


@dataclass(frozen=True)
class Activation:
    """One row of an activation table.

    ``expr`` is written in terms of earlier rows' symbols and the parameters, as the post's table
    writes it (``S^h = (q^h)^T k^h / √d_head``); ``Model.expand`` substitutes down to parameters
    and inputs. ``shape`` is the Shape column (a 1-tuple is a vector of that many entries);
    ``symtf.shapes`` checks it against the shape derived from ``expr``.
    """

    key: str
    name: str
    symbol: MatrixSymbol
    expr: MatrixExpr | None  # None for the input
    shape: tuple[Expr, ...]
    description: str
    hook: str | None = None
    per_head: bool = False
    columns: bool = False  # the table lists the columns: x = [x_1, ..., x_n] = ...
    token_columns: bool = True  # one column per token (transposed in the row convention)


@dataclass(frozen=True)
class Parameter:
    """A learned matrix or vector. ``key`` is its name in a weights file (``W_Q``, ``ln1_g`` ...)."""

    key: str
    symbol: MatrixSymbol
    shape: tuple[Expr, ...]
    description: str
    per_head: bool = False
    per_layer: bool = False  # one per block ℓ (a stacked model's block parameters)


@dataclass(frozen=True)
class Block:
    r"""The rows a stacked model repeats for $\ell = 1 \dots L$, written once for the generic layer $\ell$.

    ``input`` is $x^{(2\ell-2)}$ (bound to $x^{(0)}$ for $\ell = 1$, else to block $\ell-1$'s
    ``output`` $x^{(2\ell)}$); ``final`` is $x^{(2L)}$, the stream the unembedding reads.
    """

    keys: tuple[str, ...]
    input: MatrixSymbol
    output: MatrixSymbol
    final: MatrixSymbol
    layers: int


@dataclass(frozen=True)
class ParamRow:
    """A row of a parameter table: the layer column and the parameters shown together."""

    layer: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Model:
    """A table of the post as data: ordered activations, the parameters, and how to tabulate them."""

    id: str
    title: str
    variant: Variant
    activations: tuple[Activation, ...]
    parameters: tuple[Parameter, ...]
    param_rows: tuple[ParamRow, ...]
    params_id: str
    relations: dict = field(default_factory=dict)  # size relations in force (d_model = H d_head)
    block: Block | None = None  # a stacked model's repeated block; None for the post's one-layer tables

    def __iter__(self) -> Iterator[Activation]:
        return iter(self.activations)

    def __getitem__(self, key: str) -> Activation:
        for a in self.activations:
            if a.key == key:
                return a
        raise UnknownSymbolError(f"model {self.id!r} has no activation {key!r}; it has {', '.join(self.keys())}")

    def keys(self) -> list[str]:
        return [a.key for a in self.activations]

    def parameter(self, key: str) -> Parameter:
        for p in self.parameters:
            if p.key == key:
                return p
        known = ", ".join(p.key for p in self.parameters)
        raise UnknownSymbolError(f"model {self.id!r} has no parameter {key!r}; it has {known}")

    def definitions(self) -> dict[MatrixSymbol, MatrixExpr]:
        """Each activation's symbol ↦ its expression (inputs omitted)."""
        return {a.symbol: a.expr for a in self.activations if a.expr is not None}

    def expand(self, key: str) -> MatrixExpr:
        """The activation ``key`` written in parameters and inputs only (earlier rows substituted)."""
        target = self[key]
        if target.expr is None:
            return target.symbol
        expr = target.expr
        for a in reversed(self.activations[: self.activations.index(target)]):
            if a.expr is not None:
                expr = expr.xreplace({a.symbol: a.expr})
        return expr

    def inputs(self) -> tuple[Activation, ...]:
        return tuple(a for a in self.activations if a.expr is None)
