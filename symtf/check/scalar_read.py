r"""Reading a parsed node as a SymPy scalar expression (:func:`to_sympy`), for :mod:`symtf.check.scalars`.

A letter is a positive symbol named as written (``T_math``, ``W^K``); a superscript is a power where it is a
number or has an operator (``N^{\alpha+1}``), else part of the name; ``dL/dY`` is a derivative, not a quotient.
Read with non-commuting letters (:func:`holds_for_matrices`), an identity holds whatever the letters stand for.
Work is bounded: exponents, operations and the terms an expansion would make are capped.
"""
from __future__ import annotations

import re

import sympy as sp

from .data import load
from .parse import GREEK, walk

_MAX_OPS = 200  # SymPy operations per side: larger expressions are not judged
_MAX_EXP = 64  # exponents beyond this are not expanded (2^{10^9} stays unjudged)
_MAX_SUM_TERMS = 1000  # a sum of more terms than this is added in closed form, or not at all
_MAX_DEGREE = 8  # the highest power of a sum's index summed in closed form


class NotScalar(Exception):
    """The expression is not a plain scalar expression (a matrix operation, a sum, a call ...)."""


def symbol_name(node) -> str:
    """A document symbol as written: base, then ``_sub`` and ``^sup`` (``T_math``, ``W^K``)."""
    _, base, sub, sup = node
    return base + (f"_{sub}" if sub else "") + (f"^{sup}" if sup else "")


# 1.1\text{B}: the suffixes of data/units.yaml after a number, as powers of ten
SUFFIX = {rf"\text{{{k}}}": sp.Integer(10) ** int(v) for k, v in load("units.yaml")["suffixes"].items()}
SUFFIX["\\%"] = sp.Rational(1, 100)  # 0.78\%


def suffixed(node) -> tuple | None:
    r"""``1.1\text{B}``, ``0.78\%``: (the number's node, its suffix's multiplier), or None if ``node`` is not one."""
    if node[0] == "mul" and node[1][0] == "num" and node[2][0] == "sym" and node[2][1] in SUFFIX and \
            node[2][2:] == (None, None):
        return node[1], SUFFIX[node[2][1]]
    return None


def to_sympy(node, commutative: bool = True, letter_powers: bool = False, functions: dict | None = None,
             times: bool = False) -> sp.Expr:
    r"""The scalar SymPy expression of a parsed node; :class:`NotScalar` if it is not one. With ``commutative``
    False, each letter is a non-commuting symbol (a number or a matrix: :func:`holds_for_matrices`), and what
    has no meaning for a matrix (``e^x``, a root, a letter for an exponent) is not read. With ``letter_powers``,
    a lone letter as a superscript (``N^\alpha``) is an exponent, not a label. ``functions``: the calls read, by
    name (``{"sin": sympy.sin}``; one argument, or any number for one that takes any, ``sympy.Min``); any other
    call is no scalar. With ``times``, × between letters is their product
    (the other side of the claim is a number: ``8 \times d_e \times d_{ff} \approx 1.1\text{B}``)."""

    def inner(n):
        return to_sympy(n, commutative, letter_powers, functions, times)

    kind = node[0]
    if kind == "num":
        return sp.Rational(node[2])
    if kind == "sym":
        _, base, sub, sup = node
        if sup is not None and sup.isdigit() and not (sup == "0" and sub and re.fullmatch(r"[a-z]+", sub)):
            # d_\text{model}^2, e^{1000}: a power; h_i^0, a letter indexed by token i at layer 0: a name
            if int(sup) > _MAX_EXP:
                raise NotScalar("an exponent too large to judge")
            return inner(("sym", base, sub, None)) ** int(sup)
        exponent = power_superscript(sup) or (_letter_exponent(sup) if letter_powers else None)
        if exponent is not None:  # N^{\alpha+1}, y^{-1}: a power (W^Q, x^{(1)}: a name)
            if not commutative:
                raise NotScalar("a power other than a whole one of a matrix")
            return to_sympy(("sym", base, sub, None)) ** to_sympy(exponent, letter_powers=letter_powers)
        if base == "e" and sub is None and sup is None:
            if not commutative:
                raise NotScalar("e is Euler's number: its powers are exponentials")
            return sp.E  # Euler's number: e^{x} is the exponential
        if base == "\\pi" and sub is None and sup is None and commutative:
            return sp.pi  # the number π (a written π with an index or a label is a name)
        if commutative:
            return sp.Symbol(symbol_name(node), positive=True)
        return sp.Symbol(symbol_name(node), commutative=False)
    if kind == "neg":
        return -inner(node[1])
    if kind == "add":
        return sp.Add(*[s * inner(t) for t, s in zip(node[1], node[2])])
    if kind == "mul":
        if node[3] == "/" and _differential(node[1]) and _differential(node[2]):
            raise NotScalar("dL/dY is a derivative, not a quotient")
        if suffixed(node):  # 1.1\text{B}: a number with its suffix
            return sp.Rational(node[1][2]) * suffixed(node)[1]
        a, b = inner(node[1]), inner(node[2])
        if node[3] == "×" and not (a.is_number and b.is_number) and not times:
            raise NotScalar("× between symbols is a shape (d × n), not a product")
        if node[3] in ("*", "×", "·"):
            return a * b
        if node[3] == "/":
            return a / b
        raise NotScalar(f"the product {node[3]} is not a scalar one")
    if kind == "frac":
        if _differential(node[1]) and _differential(node[2]):
            raise NotScalar(r"\frac{dL}{dY} is a derivative, not a quotient")
        return inner(node[1]) / inner(node[2])
    if kind == "pow":
        base, exp = inner(node[1]), inner(node[2])
        if not exp.is_number or (not commutative and not (exp.is_Integer or base.is_number)):
            if not commutative:
                raise NotScalar("a power other than a whole one of a matrix")
        if exp.is_number and abs(exp) > _MAX_EXP:
            raise NotScalar("an exponent too large to judge")
        return base ** exp
    if kind == "sqrt":
        radicand = inner(node[1])
        if not (commutative or radicand.is_number):
            raise NotScalar("the root of a matrix")
        return sp.sqrt(radicand)
    if kind == "sum" and commutative:
        return _summed(node, inner)
    if kind == "call" and functions and node[1] in functions and node[3] and not node[2]:
        read = functions[node[1]]  # sin(x); min(a, b) for a caller that reads min as sympy.Min (any number of them)
        if len(node[3]) == 1 or getattr(read, "nargs", None) == sp.S.Naturals0:
            return read(*[inner(a) for a in node[3]])
    raise NotScalar(f"a {kind} is not a plain scalar expression")


def _summed(node, inner) -> sp.Expr:
    r"""``\sum_{i=1}^{4} i^2`` (30), ``\sum_{i=1}^{n} i`` (n(n+1)/2): a sum over a range whose bounds are written, of a
    term in which the index appears only as the plain letter (``\alpha_{ij}`` names an entry per index: no scalar).
    Up to :data:`_MAX_SUM_TERMS` terms are added one by one; a polynomial term of a longer or symbolic range is summed
    in closed form (Faulhaber); anything else is no scalar."""
    from .parse import ParseError, parse_expr

    _, var, lo, hi, body = node
    if lo is None or hi is None or not re.fullmatch(r"[A-Za-z]", var or ""):
        raise NotScalar("a sum without a written range")
    if any(n[0] == "sym" and (n[2] and var in n[2] or n[3] and var in n[3] or n[1] == var and n[3] and
                              not n[3].isdigit()) for n in walk(body)):
        raise NotScalar("a sum of terms indexed by its index (one symbol per term)")
    try:
        low, high = (inner(parse_expr(b)) for b in (lo, hi))
    except (ParseError, RecursionError) as exc:
        raise NotScalar("a sum's range that is no expression") from exc
    k = sp.Dummy("k", integer=True)
    term = inner(body).xreplace({sp.Symbol(var, positive=True): k})
    if low.is_Integer and high.is_Integer and 0 <= high - low < _MAX_SUM_TERMS:
        return sp.Add(*[term.xreplace({k: sp.Integer(v)}) for v in range(int(low), int(high) + 1)])
    if not term.has(k) or term.is_polynomial(k) and sp.degree(term, k) <= _MAX_DEGREE:
        return sp.summation(term, (k, low, high))
    raise NotScalar("a sum this reading does not add up")


def _differential(node) -> bool:
    """``dL``, ``d Y``, ``\\partial x``: a product whose first factor is the letter d (a differential)."""
    while node[0] == "mul" and node[3] == "*":
        node = node[1]
    return node[0] == "sym" and node[1] in ("d", r"\partial", r"\mathrm{d}") and node[2] is None and node[3] is None


_MAX_TERMS = 2000  # terms a product of sums may expand to before an identity in non-commuting letters is tried


def _terms(expr) -> int:
    """An upper bound on the number of terms ``expr`` expands to (bounded work: 2^64 terms are never built)."""
    if expr.is_Add:
        return sum(_terms(t) for t in expr.args)
    if expr.is_Mul:
        out = 1
        for t in expr.args:
            out = min(out * _terms(t), 10**9)
        return out
    if expr.is_Pow and expr.exp.is_Integer:  # 1/(a + b)^30 is expanded too when fractions are brought together
        return min(_terms(expr.base) ** min(abs(int(expr.exp)), 64), 10**9)
    return max((_terms(arg) for arg in expr.args), default=1)  # 2^{(a + b)^{40}}, \sqrt{…}: what is inside


_APPLIED = re.compile(r"(?:(?<![\\A-Za-z])[A-Za-z]|\\(?:" + "|".join(sorted(GREEK)) + r")(?![A-Za-z]))"
                      r"(?:\s*[_^]\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\?[A-Za-z0-9]+))*\s*(?:\\left)?\(")
# f(0), g(-2): a letter applied to a lone number, a function's value (a product would be written 0f, 2g)
_AT_NUMBER = re.compile(_APPLIED.pattern + r"\s*-?\d+(?:\.\d+)?\s*(?:\\right)?\)")


def holds_for_matrices(a_node, b_node) -> bool:
    """Is ``a = b`` an identity of polynomials in non-commuting letters (SymPy ``expand``), so that it holds
    whatever the letters stand for: numbers, or matrices of shapes that make it well-formed? False when it is
    not, or cannot be told within bounds."""
    try:
        a, b = to_sympy(a_node, commutative=False), to_sympy(b_node, commutative=False)
    except (NotScalar, ValueError, TypeError, ZeroDivisionError):
        return False
    if not (a.free_symbols or b.free_symbols) or sp.count_ops(a) > _MAX_OPS or sp.count_ops(b) > _MAX_OPS or \
            _terms(a) + _terms(b) > _MAX_TERMS:
        return False
    try:
        return sp.expand(a - b) == 0
    except (TypeError, ValueError, RecursionError):
        return False


_POWER = re.compile(r"-?\d+(?:\.\d+)?|.*(?:[-+/]|\\cdot|\\frac).*")  # e^{3.01}: a power too


def power_superscript(sup: str | None):
    r"""The parsed exponent where a superscript is a power, not a label: a negative whole number (``y^{-1}``) or an
    expression with an operator (``N^{\alpha+1}``, ``10^{2j/d}``); None for a label (``W^Q``, ``x^{(1)}``, ``a^*``)
    or a lone letter (``N^\alpha`` may be either), and for what does not parse."""
    from .parse import ParseError, parse_expr  # parse reads a superscript's text the same way

    if sup is None or sup.isdigit() or sup.startswith("(") or len(sup) > 80 or not _POWER.fullmatch(sup):
        return None
    try:
        return parse_expr(sup)
    except (ParseError, RecursionError):
        return None


_LABELS = {"T", "*", "'", r"\top", r"\prime", r"\dagger", r"\intercal"}


def _letter_exponent(sup: str | None):
    r"""A lone letter (``\alpha``, ``a``) superscript read as an exponent; None for a label (``T``, ``*``, ``Q``...
    in capitals are kept: ``W^Q``)."""
    if sup is None or sup in _LABELS or not re.fullmatch(r"[a-z]|\\[a-z]+", sup):
        return None
    return ("sym", sup, None, None)


def node_names(node) -> set[str]:
    """The names of the symbols of a parsed node (powers written as superscripts folded into their base)."""
    out = set()
    for n in walk(node):
        if n and n[0] == "sym":
            power = (n[3] or "").isdigit() or power_superscript(n[3]) is not None
            out.add(symbol_name(("sym", n[1], n[2], None if power else n[3])))
    return out
