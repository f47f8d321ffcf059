r"""The learning-rate schedule of Vaswani et al. restated in a document's letters, judged against its published form.

:math:`\text{lrate} = d_\text{model}^{-0.5} \cdot \min(\text{step}^{-0.5}, \text{step} \cdot \text{warmup}^{-1.5})`
(``data/formulas.yaml`` ``warmup_schedule``: the source and the exponents). A statement is this formula's restatement
where its right side takes the smaller of two terms and holds exactly three letters: a warm-up length (its name says
warm-up), the model width (its name says model, or a lone d) and a step. Both sides are compared at points on both
branches (before and after the warm-up): agreement is numeric evidence, a difference a mismatch.
"""
from __future__ import annotations

from fractions import Fraction

from .compare import walk
from .data import load
from .encodings import Verdict
from .parse import ParseError, parse

_SPEC = load("formulas.yaml")["warmup_schedule"]
# (step, warm-up, width): the warm-up branch, the turn, the decay branch, and small primes
_POINTS = ((1, 4000, 512), (100, 4000, 512), (4000, 4000, 512), (10000, 4000, 512), (3, 7, 5), (50, 7, 5))


class _Unread(Exception):
    """A node the schedule's arithmetic does not read."""


def _key(node) -> str:
    return f"{node[1]}_{node[2]}" if node[2] else node[1]


def _value(node, env: dict) -> float:
    """The value of ``node`` (numbers, letters with numeric exponents, products, quotients, roots, min and max)."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "sym":
        base = env[_key(node)]
        try:
            return base if node[3] is None else base ** float(Fraction(node[3].strip("{} ")))
        except (ValueError, ZeroDivisionError) as exc:
            raise _Unread(node[3]) from exc
    if kind == "mul" and node[3] in ("*", "·", "×", "/"):
        a, b = _value(node[1], env), _value(node[2], env)
        return a / b if node[3] == "/" else a * b
    if kind == "frac":
        return _value(node[1], env) / _value(node[2], env)
    if kind == "sqrt":
        return _value(node[1], env) ** 0.5
    if kind == "pow":
        return _value(node[1], env) ** _value(node[2], env)
    if kind == "neg":
        return -_value(node[1], env)
    if kind == "call" and node[1] in ("min", "max") and node[3]:
        return (min if node[1] == "min" else max)(_value(a, env) for a in node[3])
    raise _Unread(kind)


def _roles(node) -> tuple[str, str, str] | None:
    """(step, warm-up, width) letters of a right side, or None unless it has exactly these three."""
    keys = {_key(n) for n in walk([node]) if n[0] == "sym"}
    warmup = [k for k in keys if any(w in k.lower() for w in _SPEC["warmup_names"])]
    width = [k for k in keys - set(warmup) if any(w in k for w in _SPEC["width_names"]) or k in ("d", "D")]
    step = sorted(keys - set(warmup) - set(width))
    if len(warmup) != 1 or len(width) != 1 or len(step) != 1:
        return None
    return step[0], warmup[0], width[0]


def judge(text: str) -> Verdict | None:
    r"""``lrate = d_\text{model}^{-0.5} \min(\text{step}^{-0.5}, \text{step} \cdot \text{warmup}^{-1.5})`` (one
    statement's text) against the published schedule; None where ``text`` is not a restatement of it."""
    if text.count("=") != 1 or "min" not in text:
        return None
    try:
        node = parse(text.split("=", 1)[1])[1][0]
    except (ParseError, IndexError, RecursionError):
        return None
    if node is None or not any(n[0] == "call" and n[1] == "min" for n in walk([node])):
        return None
    roles = _roles(node)
    if roles is None:
        return None
    step, warmup, width = roles
    for s, w, d in _POINTS:
        try:
            got = _value(node, {step: s, warmup: w, width: d})
        except (_Unread, KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError):
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
