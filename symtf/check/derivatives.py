r"""The derivative of a function of one variable, :math:`f'(x)`, against the document's definition of f.

``f(x) = \tanh(x)`` (a letter or a Greek name applied to one variable) defines f for what follows; a later statement
``f'(x) = …`` (``f^{\prime}(x)``, ``f^{'}(x)``) claims its derivative, and may write f itself on its right side
(``\sigma'(x) = \sigma(x)(1 - \sigma(x))``). The logistic σ and tanh are known without a definition. SymPy
differentiates: equal to the right side symbolically → verified (a proof); different at sample points → a mismatch
with the derivative; a right side that is a number (``f'(x) = 0.25``) is a value at a point, not judged. Piecewise
functions (max, ReLU) are not read.
"""
from __future__ import annotations

import re

import sympy as sp

from .parse import ParseError, parse
from .scalar_read import NotScalar, to_sympy

_NAME = r"(?:[A-Za-z]|\\[a-z]+)"
_DEFINED = re.compile(r"\s*(?P<f>" + _NAME + r")\s*\(\s*(?P<v>[a-z])\s*\)\s*=\s*(?P<rest>.+)", re.S)
_PRIME = r"\s*(?:'|\^\s*\{\s*(?:\\prime|'|`)\s*\}|\^\s*\\prime)\s*"
_CLAIMED = re.compile(r"\s*(?P<f>" + _NAME + r")" + _PRIME + r"\(\s*(?P<v>[a-z])\s*\)\s*=\s*(?P<rest>.+)", re.S)
_POINTS = (-1.3, 0.4, 2.1)
_X = sp.Symbol("x", real=True)


def _logistic(a):
    """σ(a) = 1 / (1 + e^{-a}), the logistic function a document's σ of one variable names."""
    return 1 / (1 + sp.exp(-a))


# the functions of one variable a document's formula may apply, as SymPy builds them (σ the logistic function)
CALLS = {"tanh": sp.tanh, "exp": sp.exp, "log": sp.log, "ln": sp.log, "sin": sp.sin, "cos": sp.cos,
          "sigma": _logistic, "sigmoid": _logistic}
KNOWN = {r"\tanh": CALLS["tanh"](_X), r"\sigma": CALLS["sigma"](_X)}  # known without the document's definition


class Derivatives:
    """The document's functions of one variable, in reading order (name → expression in ``_X``)."""

    def __init__(self):
        self.defs: dict = {}

    def _read(self, text: str, var: str):
        """``text`` as a SymPy expression of ``var`` (read as ``_X``), the document's functions applied where written;
        None where it is no such expression."""
        for name in self.defs:
            text = re.sub(r"(?<![A-Za-z\\])" + re.escape(name) + r"\s*\(", r"\\text{fn" + _key(name) + "}(", text)
        calls = dict(CALLS)
        calls.update({"fn" + _key(n): (lambda e: lambda a: e.subs(_X, a))(e) for n, e in self.defs.items()})
        try:
            chain = parse(text)
            if len(chain[1]) != 1 or chain[1][0] is None:
                return None
            expr = to_sympy(chain[1][0], functions=calls)
        except (ParseError, NotScalar, ValueError, TypeError, ZeroDivisionError, RecursionError, IndexError):
            return None
        symbols = {s.name: s for s in expr.free_symbols}
        if set(symbols) - {var} or any(expr.has(f) for f in (sp.Max, sp.Min, sp.Abs, sp.Piecewise)):
            return None  # another letter, or a piecewise function: not judged
        return expr.xreplace({symbols[var]: _X}) if var in symbols else expr

    def define(self, text: str) -> None:
        """``f(x) = \\tanh(x)``: record f (its first link) where the right side is an expression of x."""
        m = _DEFINED.fullmatch(text)
        if not m or _CLAIMED.match(text):
            return
        expr = self._read(re.split(r"(?<!\\)=", m.group("rest"))[0], m.group("v"))
        if expr is not None and _X in expr.free_symbols:
            self.defs[m.group("f")] = expr

    def judge(self, text: str) -> tuple[str, str, str | None] | None:
        """``f'(x) = 1 - \\tanh^2(x)``: (status, message, expected) for a derivative claim, or None where ``text`` is none
        judged."""
        m = _CLAIMED.fullmatch(text)
        if not m:
            return None
        name, var = m.group("f"), m.group("v")
        defined = self.defs.get(name, KNOWN.get(name))
        sides = [self._read(part, var) for part in re.split(r"(?<!\\)=", m.group("rest"))]  # f'(x) = A = B
        if defined is None or any(side is None or side.is_number for side in sides):
            return None  # a function the document has not defined, a side not read, or a value at a point
        want = sp.diff(defined, _X)
        wrong = [side for side in sides if sp.simplify(want - side) != 0]
        if not wrong:
            return "verified", f"holds by differentiating ${name}(x) = {sp.latex(defined)}$ (SymPy, a symbolic proof)", None
        if max(abs(complex(sp.N((want - wrong[0]).subs(_X, p)))) for p in _POINTS) <= 1e-9:
            return None  # equal at the sample points, not proved: not decided
        shown = sp.latex(want.xreplace({_X: sp.Symbol(var)}))
        return ("mismatch", f"differentiating ${name}({var}) = {sp.latex(defined.xreplace({_X: sp.Symbol(var)}))}$ "
                f"gives ${shown}$ (SymPy)", f"{name}'({var}) = {shown}")


def _key(name: str) -> str:
    return re.sub(r"[^A-Za-z]", "", name)
