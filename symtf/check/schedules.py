r"""The learning-rate schedule of Vaswani et al. restated in a document's letters, judged against its published form.

:math:`\text{lrate} = d_\text{model}^{-0.5} \cdot \min(\text{step}^{-0.5}, \text{step} \cdot \text{warmup}^{-1.5})`
(``data/formulas.yaml`` ``warmup_schedule``: the source and the exponents). A statement is this formula's restatement
where its right side takes the smaller of two terms and holds exactly three letters: a warm-up length (its name says
warm-up), the model width (its name says model, or a lone d) and a step. Both sides are compared at points on both
branches (before and after the warm-up): agreement is numeric evidence, a difference a mismatch.
"""
from __future__ import annotations

import sympy as sp

from .compare import walk
from .data import load
from .encodings import Verdict
from .parse import ParseError, parse
from .scalar_read import NotScalar, to_sympy

_SPEC = load("formulas.yaml")["warmup_schedule"]
# (step, warm-up, width): the warm-up branch, the turn, the decay branch, and small primes
_POINTS = ((1, 4000, 512), (100, 4000, 512), (4000, 4000, 512), (10000, 4000, 512), (3, 7, 5), (50, 7, 5))


def _roles(expr) -> tuple | None:
    """(step, warm-up, width) symbols of a right side, or None unless it has exactly these three."""
    names = {str(x): x for x in expr.free_symbols}
    warmup = [k for k in names if any(w in k.lower() for w in _SPEC["warmup_names"])]
    width = [k for k in set(names) - set(warmup) if any(w in k for w in _SPEC["width_names"]) or k in ("d", "D")]
    step = sorted(set(names) - set(warmup) - set(width))
    if len(warmup) != 1 or len(width) != 1 or len(step) != 1:
        return None
    return names[step[0]], names[warmup[0]], names[width[0]]


def judge(text: str) -> Verdict | None:
    r"""``lrate = d_\text{model}^{-0.5} \min(\text{step}^{-0.5}, \text{step} \cdot \text{warmup}^{-1.5})`` (one
    statement's text) against the published schedule; None where ``text`` is not a restatement of it."""
    if text.count("=") != 1 or "min" not in text:
        return None
    try:
        node = parse(text.split("=", 1)[1])[1][0]
        if node is None or not any(n[0] == "call" and n[1] == "min" for n in walk([node])):
            return None
        expr = to_sympy(node, functions={"min": sp.Min, "max": sp.Max}, times=True)
    except (ParseError, NotScalar, IndexError, RecursionError, TypeError, ValueError):
        return None
    roles = _roles(expr)
    if roles is None:
        return None
    step, warmup, width = roles
    for s, w, d in _POINTS:
        try:
            got = float(expr.subs({step: s, warmup: w, width: d}))
        except (TypeError, ValueError):
            return None
        want = d ** _SPEC["width"] * min(s ** _SPEC["step"], s * w ** _SPEC["warmup"])
        if not abs(got - want) <= 1e-9 * abs(want):
            shown = (rf"{width}^{{{_SPEC['width']}}} \cdot \min({step}^{{{_SPEC['step']}}}, {step} \cdot "
                     rf"{warmup}^{{{_SPEC['warmup']}}})")
            return Verdict("mismatch", f"differs from the learning-rate schedule of {_SPEC['source']}: at step {s}, "
                           f"warm-up {w} and width {d} it gives {got:.4g}, the schedule {want:.4g}", shown,
                           "another schedule than the published one")
    return Verdict("verified", f"the learning-rate schedule of {_SPEC['source']}: agrees at {len(_POINTS)} points on "
                   "both branches, before and after the warm-up (numeric evidence, not a proof)")
