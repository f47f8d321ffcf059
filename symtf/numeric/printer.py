r"""A numpy printer for symtf's matrix expressions, used by ``sympy.lambdify``.

The printing of symtf's own nodes lives in :class:`SymtfOpsPrinter`, shared by every backend;
:class:`SymtfNumPyPrinter` puts it on SymPy's ``NumPyPrinter`` and
:class:`symtf.numeric.printer_torch.SymtfTorchPrinter` on SymPy's ``TorchPrinter``.

Each symtf operation prints as a call to its function in ``symtf.numeric.runtime`` (stable
softmax, masked softmax*, LayerNorm ...). Matrix products print as ``symtf_matmul`` (``a @ b``
handed to BLAS in its fastest arrangement), left to right in the order the expression writes
them (``q.T*k`` stays $(q^\top) k$, never re-associated); transposes swap the last two axes
only; a scalar factor prints as ``float(c)*(...)``: SymPy's own printer writes ``(...).dot(c)``,
which turns float32 into float64 and is far slower.

Because transposes and products act on the last two axes, the same printed code runs on one
head's matrices or on all heads stacked along a leading axis. A per-head symbol
$W_Q^h$ prints as its name for the generic head $h$ and as ``W_Q[c-1]`` for a numbered head $c$
(the name then stands for the stacked array).

A product with the one-hot input $t$ (``W_E*t``) prints as a gather of the token columns,
$W_E t = [W_E]_{:, t}$, so the embedding never multiplies by an $n_\text{vocab} \times n$ matrix.
"""
from __future__ import annotations

from sympy import S
from sympy.matrices.expressions.transpose import Transpose
from sympy.printing.numpy import NumPyPrinter

from ..errors import PrintingError


class SymtfOpsPrinter:
    r"""The printing of symtf's nodes that every backend shares: each op is a call ``symtf_<op>(...)``.

    A backend's printer is this mixin on top of SymPy's printer for that library (NumPy, PyTorch)
    plus its own ``_print_Transpose``; the ``symtf_<op>`` functions it calls come from that
    backend's runtime module, which lambdify is given as its namespace.

    ``onehot`` maps each one-hot input symbol to its layout: ``"columns"`` (the post's $t$,
    $n_\text{vocab} \times n$, one column per token) or ``"rows"`` (the row convention's
    $n \times n_\text{vocab}$). At run time such a symbol is bound to the integer token ids.
    """

    def __init__(self, settings=None, onehot=None):
        super().__init__(settings or {})
        onehot = onehot or {}
        if not isinstance(onehot, dict):
            onehot = {t: "columns" for t in onehot}
        self.onehot = onehot

    # ------------------------------------------------------------------ symbols
    def _print_MatrixSymbol(self, expr):
        if expr in self.onehot:
            raise PrintingError(f"the one-hot input {expr.name} may only appear as the outer factor of a "
                                "product (W t or t W), where it prints as a gather of token ids")
        name = expr.name
        if not name.isidentifier():
            raise PrintingError(f"matrix symbol {name!r} is not a Python identifier; rename it before compiling")
        return name

    def _print_HeadMatrixSymbol(self, expr):
        name = self._print_MatrixSymbol(expr)
        if expr.head.is_Integer:
            return f"{name}[{int(expr.head) - 1}]"
        return name

    def _one_hot_layout(self, factor):
        """``"columns"``/``"rows"`` if ``factor`` is a one-hot input or its transpose, else None."""
        flip = {"columns": "rows", "rows": "columns"}
        if factor in self.onehot:
            return self.onehot[factor]
        if isinstance(factor, Transpose) and factor.arg in self.onehot:
            return flip[self.onehot[factor.arg]]
        return None

    def _token_ids(self, factor):
        return (factor.arg if isinstance(factor, Transpose) else factor).name

    # ------------------------------------------------------------------ products and sums
    def _print_MatMul(self, expr):
        coeff, matrices = expr.as_coeff_matrices()
        matrices = list(matrices)
        gather = None
        if len(matrices) > 1 and self._one_hot_layout(matrices[-1]) == "columns":  # W t: W's columns at the tokens
            gather = (self._token_ids(matrices.pop()), -1)
        elif len(matrices) > 1 and self._one_hot_layout(matrices[0]) == "rows":  # t W: W's rows at the tokens
            gather = (self._token_ids(matrices.pop(0)), -2)
        body = self._print(matrices[0])
        for m in matrices[1:]:  # left to right, as written: the order is never changed
            body = f"symtf_matmul({body}, {self._print(m)})"
        if gather is not None:
            body = f"symtf_gather({body}, {gather[0]}, {gather[1]})"
        if coeff == S.One:
            return f"({body})"
        if coeff == S.NegativeOne:
            return f"(-({body}))"
        return f"(float({self._print(coeff)})*({body}))"

    def _print_MatAdd(self, expr):
        return "(" + " + ".join(self._print(term) for term in expr.args) + ")"

    # ------------------------------------------------------------------ symtf operations
    def _print_Softmax(self, expr):
        return f"symtf_softmax({self._print(expr.arg)}, {expr.axis})"

    def _print_CausalSoftmax(self, expr):
        return f"symtf_causal_softmax({self._print(expr.arg)})"

    def _print_CausalMask(self, expr):
        return f"symtf_causal_mask({self._print(expr.arg)})"

    def _print_LayerNorm(self, expr):
        args = ", ".join(self._print(a) for a in (expr.X, expr.gamma, expr.beta))
        return f"symtf_layernorm({args}, float({self._print(expr.eps)}), {expr.axis})"

    def _print_RMSNorm(self, expr):
        args = ", ".join(self._print(a) for a in (expr.X, expr.gamma))
        return f"symtf_rmsnorm({args}, float({self._print(expr.eps)}), {expr.axis})"

    def _print_RoPE(self, expr):
        return f"symtf_rope({self._print(expr.X)}, {self._print(expr.theta)}, {self._print(expr.offset)})"

    def _print_ReLU(self, expr):
        return f"symtf_relu({self._print(expr.arg)})"

    def _print_GELU(self, expr):
        return f"symtf_gelu({self._print(expr.arg)})"

    def _print_GELUTanh(self, expr):
        return f"symtf_gelu_tanh({self._print(expr.arg)})"

    def _print_Broadcast(self, expr):
        return f"symtf_broadcast({self._print(expr.b)}, {self._print(expr.count)}, {expr.axis})"

    def _print_LeadingColumns(self, expr):
        return f"symtf_leading_columns({self._print(expr.W)}, {self._print(expr.count)}, {expr.axis})"

    def _print_Column(self, expr):
        return f"symtf_column({self._print(expr.X)}, {self._print(expr.index)})"

    def _print_WeightedSum(self, expr):
        return f"symtf_weighted_sum({self._print(expr.v)}, {self._print(expr.a)})"

    def _print_HeadSum(self, expr):
        # the term is written for the generic head; its symbols stand for all heads stacked
        return f"symtf_head_sum({self._print(expr.term)})"

    def _print_HeadConcat(self, expr):
        return f"symtf_head_concat({self._print(expr.block)}, {expr.axis})"

    def _print_Op(self, expr):
        raise PrintingError(f"no {self.backend} form for {type(expr).__name__}; add a _print_{type(expr).__name__} method")


class SymtfNumPyPrinter(SymtfOpsPrinter, NumPyPrinter):
    """symtf expressions as numpy code (runtime: :mod:`symtf.numeric.runtime`)."""

    printmethod = "_symtf_numpy"
    backend = "numpy"

    def _print_Transpose(self, expr):
        return f"numpy.swapaxes({self._print(expr.arg)}, -1, -2)"


def numpy_code(expr, onehot=None) -> str:
    """The numpy code ``lambdify`` would use for ``expr`` (for reading and for tests)."""
    return SymtfNumPyPrinter(onehot=onehot).doprint(expr)


__all__ = ["SymtfNumPyPrinter", "SymtfOpsPrinter", "numpy_code"]
