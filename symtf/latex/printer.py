r"""LaTeX in the post's notation: $W_Q^h x^{(0)}_\text{LN}$, $(q^h)^\top k^h / \sqrt{d_\text{head}}$,
$\text{softmax}^*(S^h)$, $\sum_h o^h$.

Printing lives here, not in the expression classes: one ``_print_<Class>`` per node. A node this
printer does not know raises ``PrintingError`` instead of falling back to a guess.
"""
from __future__ import annotations

from sympy import Pow, Rational, S, Symbol
from sympy.matrices.expressions.matexpr import MatrixExpr, MatrixSymbol
from sympy.printing.latex import LatexPrinter

from ..dims import LATEX as SIZE_LATEX
from ..errors import PrintingError
from ..model.notation import latex_name, split_name
from ..ops import (
    GELU, Broadcast, CausalMask, CausalSoftmax, Column, GELUTanh, HeadConcat, HeadMatrixSymbol, HeadSum, LayerNorm,
    LeadingColumns, ReLU, RMSNorm, RoPE, Softmax, WeightedSum,
)
from ..ops.base import Op


def _top_level(s: str) -> str:
    """The characters of ``s`` outside any braces or parentheses."""
    depth, top = 0, []
    for ch in s:
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
        elif depth == 0:
            top.append(ch)
    return "".join(top)


def _needs_parens(s: str) -> bool:
    """A printed base needs parentheses before ^\\top if it already carries a superscript or is compound."""
    flat = _top_level(s)
    return "^" in flat or " " in s.strip() or "+" in flat or "\\frac" in s


class PostLatexPrinter(LatexPrinter):
    """SymPy's LaTeX printer taught the post's notation and symtf's operations."""

    printmethod = "_symtf_latex"
    _default_settings = {**LatexPrinter._default_settings, "head_sum_bounds": False}

    # ---- symbols -------------------------------------------------------------------------------
    def _print_Symbol(self, expr: Symbol, style="plain"):
        if expr in SIZE_LATEX:
            return SIZE_LATEX[expr]
        if expr.name == "h":
            return "h"
        return super()._print_Symbol(expr, style)

    def _print_MatrixSymbol(self, expr: MatrixSymbol, head: bool = False):
        name = latex_name(expr.name, head)
        return name if name is not None else self._print_Symbol(Symbol(expr.name))

    def _print_HeadMatrixSymbol(self, expr: HeadMatrixSymbol):
        base = self._print_MatrixSymbol(expr, head=True)
        head = expr.head
        layer = r",\ell" if split_name(expr.name)[2] else ""  # W_Q^{h,\ell} in a stacked model's block
        if head.is_Symbol and head.name == "h":  # the generic head
            return f"{base}^{{h{layer}}}" if layer else f"{base}^h"
        index = self._print(head)
        index = f"h_{index}" if len(index) == 1 else f"h_{{{index}}}"
        return f"{base}^{{{index}{layer}}}"

    # ---- algebra -------------------------------------------------------------------------------
    def _print_Transpose(self, expr):
        base = self._print(expr.arg)
        return f"({base})^\\top" if _needs_parens(base) else f"{base}^\\top"

    def _factor(self, arg) -> str:
        s = self._print(arg)
        from sympy.matrices.expressions.matadd import MatAdd

        return f"({s})" if isinstance(arg, MatAdd) else s

    def _print_MatMul(self, expr):
        coeff, factors = expr.as_coeff_matrices()
        body = " ".join(self._factor(f) for f in factors)
        if coeff == 1:
            return body
        if coeff == -1:
            return f"-{body}"
        if isinstance(coeff, Pow) and coeff.exp.is_negative:
            denominator = self._print(Pow(coeff.base, -coeff.exp))
            return f"{body} / {denominator}"
        if isinstance(coeff, Rational) and coeff.p == 1:
            return f"{body} / {self._print(coeff.q)}"
        return f"{self._print(coeff)} {body}"

    def _print_MatAdd(self, expr):
        terms = sorted(expr.args, key=_term_rank)
        out = self._print(terms[0])
        for t in terms[1:]:
            s = self._print(t)
            out += f" - {s[1:]}" if s.startswith("-") else f" + {s}"
        return out

    # ---- symtf operations ----------------------------------------------------------------------
    def _call(self, name: str, arg) -> str:
        return f"{name}({self._print(arg)})"

    def _print_Softmax(self, expr: Softmax):
        return self._call(r"\text{softmax}", expr.arg)

    def _print_CausalSoftmax(self, expr: CausalSoftmax):
        return self._call(r"\text{softmax}^*", expr.arg)

    def _print_CausalMask(self, expr: CausalMask):
        return self._call(r"\text{mask}^*", expr.arg)

    def _print_LayerNorm(self, expr: LayerNorm):
        return self._call(r"\text{LayerNorm}", expr.X)

    def _print_RMSNorm(self, expr: RMSNorm):
        return self._call(r"\text{RMSNorm}", expr.X)

    def _print_RoPE(self, expr: RoPE):
        return self._call(r"\text{RoPE}", expr.X)

    def _print_ReLU(self, expr: ReLU):
        return self._call(r"\text{ReLU}", expr.arg)

    def _print_GELU(self, expr: GELU):
        return self._call(r"\text{GELU}", expr.arg)

    def _print_GELUTanh(self, expr: GELUTanh):
        return self._call(r"\text{GELU}_{\tanh}", expr.arg)

    def _print_Broadcast(self, expr: Broadcast):
        return self._print(expr.b)

    def _print_LeadingColumns(self, expr: LeadingColumns):
        return self._print(expr.W)

    def _print_Column(self, expr: Column):
        base, index = self._print(expr.X), self._print(expr.index)
        index = index if len(index) == 1 else f"{{{index}}}"
        if " " in base or "+" in base:  # a compound: (W_E t + W_\text{pos})_n
            base = f"({base})"
        elif "_" in _top_level(base):
            base = f"{{{base}}}"  # already subscripted: {W_\text{pos}}_n, never a double subscript
        return f"{base}_{index}"

    def _print_WeightedSum(self, expr: WeightedSum):
        count = self._print(expr.v.shape[1])
        count = count if len(count) == 1 else f"{{{count}}}"
        return f"\\sum_{{i=1}}^{count} {self._print(expr.a)}_i {self._print(expr.v)}_i"

    def _print_HeadSum(self, expr: HeadSum):
        head = self._print(expr.head)
        lower = f"{{{head}=1}}^{{{self._print(expr.count)}}}" if self._settings["head_sum_bounds"] else head
        return f"\\sum_{lower} {self._print(expr.term)}"

    def _print_HeadConcat(self, expr: HeadConcat):
        first, last = self._print(expr.at(1)), self._print(expr.block.xreplace({expr.head: expr.count}))
        if expr.axis == 1:
            return f"\\left[{first} \\,|\\, \\dots \\,|\\, {last}\\right]"
        return f"\\begin{{bmatrix}} {first} \\\\ \\vdots \\\\ {last} \\end{{bmatrix}}"

    def _print_Op(self, expr):  # reached only for an Op subclass without its own method
        raise PrintingError(f"no LaTeX form for {type(expr).__name__}; add _print_{type(expr).__name__}")

    def emptyPrinter(self, expr):
        if isinstance(expr, (Op, MatrixExpr)):
            raise PrintingError(f"no LaTeX form for {type(expr).__name__}")
        return super().emptyPrinter(expr)


def _term_rank(term) -> tuple:
    """The post's order of a sum: residual stream first, products next, sums over heads, biases last."""
    if isinstance(term, Column) or (isinstance(term, MatrixSymbol) and term.name.startswith("x")):
        return (0, str(term))
    if isinstance(term, MatrixSymbol):
        return (2, str(term))
    if isinstance(term, HeadSum):
        return (3, str(term))
    if isinstance(term, (Broadcast, LeadingColumns)):
        return (4, str(term))
    return (1, str(term))


def latex(expr, **settings) -> str:
    r"""The post's LaTeX for a symtf expression, e.g. ``latex(q.T*k/sqrt(d_head))`` → ``q^\top k / \sqrt{d_\text{head}}``."""
    return PostLatexPrinter(settings).doprint(expr)


def latex_shape(shape) -> str:
    r"""A Shape cell: ``(d_model, n)`` → ``d_\text{model} \times n``; ``(n,)`` → ``n``."""
    return r" \times ".join(latex(S(s) if isinstance(s, int) else s) for s in shape)
