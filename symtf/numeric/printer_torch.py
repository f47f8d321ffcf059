r"""A PyTorch printer for symtf's matrix expressions: SymPy's ``TorchPrinter`` taught symtf's ops.

Imported only for ``backend="torch"`` (importing SymPy's torch printer imports torch). The ops print
exactly as for numpy (:class:`~symtf.numeric.printer.SymtfOpsPrinter`: ``symtf_softmax(x, 0)`` ...);
the functions they call are :mod:`symtf.numeric.runtime_torch`'s.
"""
from __future__ import annotations

from sympy.printing.pycode import PythonCodePrinter
from sympy.printing.pytorch import TorchPrinter

from .printer import SymtfOpsPrinter


class SymtfTorchPrinter(SymtfOpsPrinter, TorchPrinter):
    r"""symtf expressions as PyTorch code (runtime: :mod:`symtf.numeric.runtime_torch`).

    Sizes are Python ints at run time, so a scalar factor such as $1/\sqrt{d_\text{head}}$ prints
    with ``math`` (``torch.sqrt`` takes tensors only).
    """

    printmethod = "_symtf_torch"
    backend = "torch"
    _scalars = PythonCodePrinter()

    def _print_Transpose(self, expr):
        return f"torch.transpose({self._print(expr.arg)}, -1, -2)"

    def _print_Pow(self, expr, rational=False):
        return self._scalars.doprint(expr)


def torch_code(expr, onehot=None) -> str:
    """The PyTorch code ``lambdify`` would use for ``expr`` (for reading and for tests)."""
    return SymtfTorchPrinter(onehot=onehot).doprint(expr)


__all__ = ["SymtfTorchPrinter", "torch_code"]
