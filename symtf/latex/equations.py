r"""Named equations of the post, printed from the model: ``end-to-end-layer`` is

$x^{(1)} = x^{(0)} + \sum_h W_O^h W_V^h x^{(0)} (\text{softmax}^*((x^{(0)})^\top (W_Q^h)^\top W_K^h x^{(0)} / \sqrt{d_\text{head}}))^\top$,

obtained by substituting the rows $q^h \dots o^h$ of the full one-layer table (without LayerNorm,
as the post writes it before introducing LayerNorm) into $x^{(1)}$. Nothing here is retyped: each
equation is a recipe of which model, which row, and which earlier rows to substitute.

>>> equation_latex("embedding")
'x^{(0)} = W_E t + W_\\text{pos}'
"""
from __future__ import annotations

from dataclasses import dataclass

from sympy import Transpose
from sympy.matrices.expressions.matexpr import MatrixExpr
from sympy.matrices.expressions.matmul import MatMul

from ..errors import UnknownSymbolError
from ..model import Model, build
from .printer import latex


@dataclass(frozen=True)
class Line:
    """One line of an equation: ``lhs = rhs`` (both SymPy matrix expressions)."""

    lhs: MatrixExpr
    rhs: MatrixExpr


@dataclass(frozen=True)
class Equation:
    r"""A named equation: one line, or several set as ``align*``."""

    id: str
    description: str
    lines: tuple[Line, ...]

    def latex(self) -> str:
        if len(self.lines) == 1:
            line = self.lines[0]
            return f"{latex(line.lhs)} = {latex(line.rhs)}"
        body = " \\\\\n".join(f"{latex(line.lhs)} &= {latex(line.rhs)}" for line in self.lines)
        return f"\\begin{{align*}}\n{body}\n\\end{{align*}}"

    def markdown(self) -> str:
        """The equation as a Kramdown display block, ``$$`` on their own lines as the post writes them."""
        return f"$$\n{self.latex()}\n$$"


def _transpose_products(expr):
    r"""$(AB)^\top \to B^\top A^\top$: the post writes $(x^{(0)})^\top (W_Q^h)^\top$, not $(W_Q^h x^{(0)})^\top$."""
    return expr.replace(lambda e: isinstance(e, Transpose) and isinstance(e.arg, MatMul),
                        lambda e: e.doit(deep=False))


def substituted(model: Model, key: str, through: tuple[str, ...]) -> MatrixExpr:
    """Row ``key``'s expression with the rows ``through`` substituted (latest first), the others kept as symbols."""
    expr = model[key].expr
    for row in reversed([a for a in model.activations if a.key in through]):
        expr = expr.xreplace({row.symbol: row.expr})
    return expr


def _row(model: Model, key: str, through: tuple[str, ...] = (), transpose_products=False) -> Line:
    rhs = substituted(model, key, through)
    if transpose_products:
        rhs = _transpose_products(rhs)
    return Line(model[key].symbol, rhs)


def _embedding() -> Equation:
    return Equation("embedding", "the level-zero representation: token plus positional embeddings",
                    (_row(build("full"), "embed"),))


def _zero_layer() -> Equation:
    model = build("zero")
    return Equation("zero-layer-output", "the zero-layer Transformer: embed, unembed, softmax",
                    (Line(model["probs"].symbol, model.expand("probs")),))


def _scores() -> Equation:
    return Equation("attention-scores", "scaled dot products of queries and keys, per head",
                    (_row(build("full"), "scores"),))


def _pattern() -> Equation:
    return Equation("attention-pattern", "the attention pattern from queries and keys",
                    (_row(build("full"), "pattern", ("scores",)),))


def _result() -> Equation:
    return Equation("attention-result", "every token's weighted average of the values",
                    (_row(build("full"), "result"),))


def _end_to_end() -> Equation:
    model = build("full-no-ln")
    through = ("q", "k", "v", "scores", "pattern", "result", "head_out")
    return Equation("end-to-end-layer", "a full attention layer in terms of the residual stream x^(0)",
                    (_row(model, "resid_mid", through, transpose_products=True),))


def _mlp() -> Equation:
    model = build("full-no-ln")
    return Equation("mlp", "the MLP block and its residual update",
                    tuple(_row(model, key) for key in ("mlp_hidden", "mlp_out", "resid_post")))


def _simplified() -> Equation:
    model = build("simplified")
    return Equation("simplified-one-layer-steps", "the simplified one-layer model, last token only",
                    tuple(_row(model, key) for key in ("embed", "resid_mid", "probs")))


BUILDERS = {
    "embedding": _embedding,
    "zero-layer-output": _zero_layer,
    "attention-scores": _scores,
    "attention-pattern": _pattern,
    "attention-result": _result,
    "end-to-end-layer": _end_to_end,
    "mlp": _mlp,
    "simplified-one-layer-steps": _simplified,
}

EQUATION_IDS = tuple(BUILDERS)


def equation(equation_id: str) -> Equation:
    """The equation named ``equation_id`` (one of ``EQUATION_IDS``)."""
    try:
        return BUILDERS[equation_id]()
    except KeyError:
        raise UnknownSymbolError(f"unknown equation {equation_id!r}; known: {', '.join(EQUATION_IDS)}") from None


def equation_latex(equation_id: str) -> str:
    return equation(equation_id).latex()
