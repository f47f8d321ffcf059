r"""Quotients taken as whole counts: ``\frac{1920}{16} \times \frac{1080}{16} = 120 \times 68``.

A count of patches, tiles or blocks is a quotient rounded to a whole number (up where the input is padded, down where
it is cropped), and writers set the quotient equal to the count: 1080/16 is 67.5, and a frame of 1080 rows gives 68
patches of 16 rows once padded. Such a link is neither exact nor a slip of arithmetic; it is left undecided.
"""
from __future__ import annotations

import math

from .scalar_read import NotScalar, to_sympy

MAX_FACTORS = 8


def _factors(node) -> list:
    """The factors of a product ``node`` (``a \\times b``), each with the divisions that follow it (``a / b \\times
    c / d``: a/b and c/d, as a left-to-right product reads); [] for a product of more than :data:`MAX_FACTORS`."""
    if _size(node) > 4 * MAX_FACTORS:
        return []
    return _grouped(node)


def _size(node) -> int:
    count, stack = 0, [node]
    while stack and count <= 4 * MAX_FACTORS:
        n = stack.pop()
        if isinstance(n, tuple) and n[0] == "mul":
            count += 1
            stack += [n[1], n[2]]
    return count


def _grouped(node) -> list:
    if not (isinstance(node, tuple) and node[0] == "mul"):
        return [node]
    if node[3] != "/":
        return _grouped(node[1]) + _grouped(node[2])
    left = _grouped(node[1])
    return left[:-1] + [("mul", left[-1], node[2], "/")]


def _quotient(node) -> bool:
    return isinstance(node, tuple) and (node[0] == "frac" or node[0] == "mul" and node[3] == "/")


def _value(node):
    try:
        value = to_sympy(node, letter_powers=False)
    except (NotScalar, ValueError, TypeError, ZeroDivisionError, RecursionError):
        return None
    return value if value.is_Rational else None


def whole_counts(a_node, b_node) -> str:
    r"""``\frac{1080}{16} = 68``: how a product of quotients set equal, factor by factor, to a product of whole
    numbers holds once each quotient that is not whole is rounded up or down to the count beside it (``1080/16 =
    67.5 as 68``); "" where some factor differs otherwise, no quotient is rounded, or the products do not pair."""
    if a_node is None or b_node is None:
        return ""
    left, right = _factors(a_node), _factors(b_node)
    if not left or len(left) != len(right):
        return ""
    rounded = []
    for x, y in zip(left, right):
        if _quotient(y) and not _quotient(x):
            x, y = y, x
        vx, vy = _value(x), _value(y)
        if vx is None or vy is None or not vy.is_Integer or vx != vy and y[0] != "num":  # a count is printed whole
            return ""
        if vx == vy:
            continue
        if not (_quotient(x) and not vx.is_Integer and int(vy) in (math.floor(vx), math.ceil(vx))):
            return ""
        rounded.append(f"{float(vx):g} as {int(vy)}")
    return ", ".join(rounded)
