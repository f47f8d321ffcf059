r"""Read symtf's LaTeX back with latex2sympy2-extended and compare with the expression it was printed from.

The parser cannot read the post's notation as written, so both sides are brought to a form it can:

- every symbol's LaTeX (``x^{(0)}_\text{LN}``, ``W_Q^h``, ``d_\text{head}``) becomes a placeholder
  ``Z_{k}`` / ``D_{k}``: raw, ``x^{(0)}`` parses as a power and ``W_\text{pos}`` as a product of letters;
- ``^\top`` becomes ``^T``, which the parser drops, and juxtaposition is a commutative product: so the
  comparison is of a *commutative shadow* (matrix order and transposes are not checked here — the
  printer and KaTeX tests cover those);
- ``\text{f}(X)`` is read by the parser as the product ``f·X`` (as a call ``f(X)`` when ``X`` is one symbol,
  which is brought to the product); the shadow encodes an op the same way.

Constructs the parser cannot read even so are listed by the tests with the reason.
"""
from __future__ import annotations

import re

from latex2sympy2_extended import latex2sympy
from latex2sympy2_extended.latex2sympy2 import ConversionConfig
from sympy import Add, Mul, Symbol, Transpose
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matadd import MatAdd
from sympy.matrices.expressions.matexpr import MatrixSymbol
from sympy.matrices.expressions.matmul import MatMul

from symtf.dims import LATEX as SIZE_LATEX
from symtf.latex import latex
from symtf.ops import (
    Broadcast, CausalSoftmax, Column, HeadSum, LayerNorm, LeadingColumns, ReLU, Softmax, WeightedSum,
)

CONFIG = ConversionConfig(lowercase_symbols=False)
OPS = {Softmax: "softmax", CausalSoftmax: "softmaxstar", ReLU: "ReLU"}


class Unreadable(Exception):
    """A construct the round trip cannot compare; the message says which and why."""


class Placeholders:
    """symbol LaTeX ↔ placeholder names, collected from the expressions being compared."""

    def __init__(self):
        self.by_latex: dict[str, str] = {}
        for size, text in SIZE_LATEX.items():
            self.by_latex[text] = f"D_{{{len(self.by_latex)}}}"

    def name(self, text: str) -> str:
        if text not in self.by_latex:
            self.by_latex[text] = f"Z_{{{len(self.by_latex)}}}"
        return self.by_latex[text]

    def symbol(self, text: str) -> Symbol:
        name = self.name(text)  # the parser names Z_{7} "Z_7" but keeps the braces of Z_{12}
        head, index = name.split("_", 1)
        index = index[1:-1]
        return Symbol(f"{head}_{index}" if len(index) == 1 else f"{head}_{{{index}}}")

    def shadow(self, expr):
        """The commutative shadow of a symtf expression (see the module docstring)."""
        if isinstance(expr, (MatrixSymbol, Column)):
            return self.symbol(latex(expr))
        if expr in SIZE_LATEX:
            return self.symbol(SIZE_LATEX[expr])
        if isinstance(expr, (MatMul, Mul)):
            return Mul(*[self.shadow(a) for a in expr.args])
        if isinstance(expr, (MatAdd, Add)):
            return Add(*[self.shadow(a) for a in expr.args])
        if isinstance(expr, Transpose):
            return self.shadow(expr.arg)
        if isinstance(expr, LeadingColumns):
            return self.shadow(expr.W)
        if isinstance(expr, Broadcast):
            return self.shadow(expr.b)
        if type(expr) in OPS:
            return Symbol(OPS[type(expr)]) * self.shadow(expr.arg)
        if isinstance(expr, LayerNorm):
            return Symbol("LayerNorm") * self.shadow(expr.X)
        if isinstance(expr, HeadSum):
            raise Unreadable(r"\sum_h without bounds: the parser needs \sum_{h=1}^{H}")
        if isinstance(expr, WeightedSum):
            raise Unreadable(r"\sum_{i=1}^n a_i v_i: a_i, v_i index columns of a and v, not scalars")
        if expr.is_Number or expr.is_Pow:
            return expr.func(*[self.shadow(a) for a in expr.args]) if expr.args else expr
        raise Unreadable(f"no shadow for {type(expr).__name__}")

    def normalise(self, text: str) -> str:
        """The LaTeX with symbols replaced by placeholders, in one pass (replacements are not re-scanned)."""
        keys = sorted(self.by_latex, key=len, reverse=True)
        symbol_alt = "|".join(f"(?<![A-Za-z\\\\]){re.escape(k)}(?![A-Za-z])" for k in keys)
        pattern = re.compile(rf"\^\\top|\\text\{{softmax\}}\^\*|\\text\{{[^}}]*\}}|{symbol_alt}|\\[A-Za-z]+")

        def swap(match):
            token = match.group(0)
            if token == r"^\top":
                return "^T"
            if token == r"\text{softmax}^*":
                return r"\text{softmaxstar}"
            return self.by_latex.get(token, token)

        return pattern.sub(swap, text)


def parse(text: str):
    return latex2sympy(text, conversion_config=CONFIG)


def round_trip(printed: str, expr, places: Placeholders):
    """(parsed, expected) for ``printed`` (the LaTeX of ``expr``); raises Unreadable with the reason."""
    expected = places.shadow(expr)
    normalised = places.normalise(printed)
    try:
        parsed = parse(normalised)
    except Exception as exc:  # the parser raises bare Exceptions
        raise Unreadable(f"parser error on {normalised!r}: {str(exc).splitlines()[0]}") from None
    # \text{f}(X) with a lone symbol X is read as a call, with a compound X as the product f·X:
    # bring the call to the product form too
    for call in parsed.atoms(AppliedUndef):
        name = call.func.__name__
        if name.startswith(r"\text{") and len(call.args) == 1:
            parsed = parsed.xreplace({call: Symbol(name[6:-1]) * call.args[0]})
    calls = parsed.atoms(AppliedUndef)
    if calls:
        raise Unreadable(f"juxtaposition read as a function call: {', '.join(map(str, calls))}")
    return parsed, expected
