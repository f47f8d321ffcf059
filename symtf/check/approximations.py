r"""A published approximation of an activation, written with ≈: ``\mathrm{GELU}(x) \approx x\,\sigma(1.702x)``.

Which functions have published approximations, and how close the published ones come, is data (``approximated`` in
``data/meanings.yaml``). A claim ``f(x) ≈ g(x)`` with f one of them and g a formula of the same one letter is
evaluated on a grid of :data:`POINTS` points of [-8, 8]; within the published accuracy it is verified, as numeric
evidence (a grid, not a proof), naming the largest gap. A wider gap is left to the other judges: how close an
approximation a text means is not known.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from ..ops import GELU
from .data import load
from .derivatives import CALLS
from .scalars import NotScalar, to_sympy
from .trig import Verdict

POINTS = 4001
_X = np.linspace(-8.0, 8.0, POINTS)


# the functions a side may call: a formula's functions of one variable (the sigmoid among them), GELU as the model
# defines it (symtf.ops.GELU), erf, and Φ the normal CDF
_FUNCTIONS = {**CALLS, "GELU": GELU.scalar, "erf": sp.erf, "Phi": lambda x: (1 + sp.erf(x / sp.sqrt(2))) / 2}


def judge(a, b, rel: str) -> Verdict | None:
    """Verified where ``a ≈ b`` sets a function of ``approximated`` at one letter against a formula of that letter
    within its published accuracy on the grid; None otherwise."""
    if rel != "≈":
        return None
    known = load("meanings.yaml")["approximated"]
    for f, g in ((a, b), (b, a)):
        if f[0] != "call" or f[1] not in known or len(f[3]) != 1 or f[3][0][0] != "sym":
            continue
        try:
            left, right = (to_sympy(n, functions=_FUNCTIONS) for n in (f, g))
        except (NotScalar, ValueError, TypeError, ZeroDivisionError, RecursionError):
            return None
        letters = left.free_symbols | right.free_symbols
        if len(letters) != 1:
            return None
        try:
            gap = np.abs(sp.lambdify(list(letters), left - right, modules=[{"erf": np.vectorize(math.erf)},
                                                                               "numpy"])(_X))
        except (TypeError, ValueError, NameError, ZeroDivisionError, OverflowError, FloatingPointError):
            return None
        largest = float(np.max(gap)) if np.all(np.isfinite(gap)) else math.inf
        bound = known[f[1]]["within"]
        if largest <= bound:
            return Verdict("verified", f"holds as the published approximation of {f[1]} ({known[f[1]]['source']}): "
                           f"the sides differ by at most {largest:.2g} at {POINTS} points of [-8, 8] (within "
                           f"{bound}; numeric evidence, not a proof)")
        return None
    return None
