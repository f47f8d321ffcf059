"""Numeric evaluation: the model's rows lambdified to numpy, weight files, the ``symtf eval`` command."""
from .compile import ActivationFunction, CompiledRow, Forward, compile_activation, compile_forward, compile_row
from .printer import SymtfNumPyPrinter, numpy_code
from .weights import DEFAULT_SIZES, Weights, check_weights, load_weights, random_weights, save_weights

__all__ = [
    "ActivationFunction", "CompiledRow", "DEFAULT_SIZES", "Forward", "SymtfNumPyPrinter", "Weights",
    "check_weights", "compile_activation", "compile_forward", "compile_row", "load_weights", "numpy_code",
    "random_weights", "save_weights",
]
