r"""Adam's moment estimates and bias corrections restated in a document's letters, judged against Kingma and Ba.

:math:`m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t`, :math:`v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t^2`,
:math:`\hat m_t = m_t / (1 - \beta_1^t)`, :math:`\hat v_t = v_t / (1 - \beta_2^t)` (``data/formulas.yaml`` ``adam``:
the source, which decay weighs which moment). Judged only where the document names Adam before the statement (the
caller's part): elsewhere ``\beta_1`` may be anything. A statement is a moment estimate where its left side is a
letter at step ``t`` and its right side holds the same letter at ``t - 1`` and one of the decays; it is a bias
correction where its left side is that letter with a hat. The gradient is whatever the document writes for it (``g_t``,
``\nabla_\theta \mathcal{L}``): only its power is judged. The update of the weights is not judged (its variants, ε
inside or outside the root, decoupled weight decay, are all in use).
"""
from __future__ import annotations

import re

import sympy as sp

from .data import load
from .encodings import Verdict
from .scalar_read import NotScalar, to_sympy

_SPEC = load("formulas.yaml")["adam"]
_NAMED = re.compile(r"(?<![A-Za-z])(?:" + "|".join(map(re.escape, _SPEC["names"])) + r")(?![A-Za-z])")
_HAT = re.compile(r"\\(?:hat|widehat)\{?\s*([A-Za-z])\s*\}?$")


def names_adam(text: str) -> bool:
    """Does ``text`` (a section's headings, the paragraphs before a statement) name Adam?"""
    return _NAMED.search(text) is not None


def _read(node, step: str):
    """The side as SymPy, a decay written with the step as its superscript (``\\beta_1^t``) read as the power."""
    expr = to_sympy(node)
    powers = {}
    for s in expr.free_symbols:
        base, _, sup = s.name.partition("^")
        if base in _SPEC["moments"] and sup.strip("{}") == step:
            powers[s] = sp.Symbol(base, positive=True) ** sp.Symbol(step, positive=True)
    expr = expr.xreplace(powers)
    return expr.xreplace({s: sp.Symbol(s.name, positive=True) for s in expr.free_symbols if s.name in _SPEC["moments"]})


def judge(a_node, b_node, rel: str) -> Verdict | None:
    r"""``m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t`` or ``\hat v_t = v_t / (1 - \beta_2^t)`` (``=`` or ``←``)
    against Adam; None where the statement is neither (or is not read as scalars)."""
    if rel not in ("=", "←") or a_node is None or b_node is None or a_node[0] != "sym" or a_node[3] is not None or \
            not a_node[2] or not re.fullmatch(r"[a-z]", a_node[2]):
        return None
    step = a_node[2]
    try:
        rhs = _read(b_node, step)
    except (NotScalar, ValueError, TypeError, ZeroDivisionError, RecursionError):
        return None
    decays = [s for s in rhs.free_symbols if s.name in _SPEC["moments"]]
    if len(decays) != 1:
        return None
    hat = _HAT.match(a_node[1])
    if hat:
        return _correction(hat.group(1), step, decays[0], rhs)
    return _moment(a_node[1], step, decays[0], rhs)


def _moment(letter: str, step: str, beta, rhs) -> Verdict | None:
    previous = next((s for s in rhs.free_symbols if s.name == f"{letter}_{step}-1"), None)
    if previous is None:
        return None
    order = _SPEC["moments"][beta.name]
    kept = sp.expand(rhs).coeff(previous)
    averaged = sp.simplify((rhs - kept * previous) / (1 - kept))
    if kept != beta or beta in averaged.free_symbols or previous in averaged.free_symbols:
        added = sp.latex(sp.expand(rhs - kept * previous))
        return Verdict("mismatch", f"Adam's estimate keeps ${beta.name}$ of the previous one and adds $1 - "
                       f"{beta.name}$ times the new gradient term ({_SPEC['source']}): here ${sp.latex(kept)}$ is kept "
                       f"and ${added}$ added", None, "another weighting than Adam's moving average")
    powers = [sp.sympify(e) for e in averaged.as_powers_dict().values()]  # g_t^2: {g_t: 2}; (∇L)^2: {∇: 2, L: 2}
    squared = all(e.is_Integer and e % 2 == 0 for e in powers)
    if (order == 2) == squared:
        which = "second moment (the squared gradient)" if order == 2 else "first moment (the gradient)"
        return Verdict("verified", f"Adam's {which} estimate of {_SPEC['source']}, with decay ${beta.name}$ (the "
                       "gradient as this document writes it)")
    want = "the squared gradient" if order == 2 else "the gradient itself, not its square"
    return Verdict("mismatch", f"with decay ${beta.name}$ Adam averages {want} ({_SPEC['source']}): ${beta.name}$ is "
                   f"the decay of moment {order}", None, "another moment than the decay's")


def _correction(letter: str, step: str, beta, rhs) -> Verdict | None:
    estimate = next((s for s in rhs.free_symbols if s.name == f"{letter}_{step}"), None)
    if estimate is None:
        return None
    want = estimate / (1 - beta ** sp.Symbol(step, positive=True))
    if sp.simplify(rhs - want) == 0:
        return Verdict("verified", f"Adam's bias correction of {_SPEC['source']}: divides by $1 - {beta.name}^{step}$ "
                       "(SymPy: the same expression)")
    return Verdict("mismatch", f"Adam's bias correction divides by $1 - {beta.name}^{step}$, the decay to the power of "
                   f"the step ({_SPEC['source']}); the side written is ${sp.latex(rhs)}$",
                   rf"\hat{{{letter}}}_{step} = {letter}_{step} / (1 - {beta.name}^{step})", "the bias correction's power")
