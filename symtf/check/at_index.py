r"""A member of a family the document defines, at a printed index: ``\theta_i = 10000^{-2i/d}`` with ``d = 64``,
then ``\theta_{15} \approx 0.0133``.

The family's definition (a scalar the document wrote with a one-letter index, :class:`~symtf.check.scalars.ScalarBook`)
is taken at the printed index, with the document's other definitions in force, and compared with the printed value
to the digits it shows (:func:`symtf.check.scalars._numbers`: exact rational arithmetic, rounding as printed).
Where the family's value at that index is not a number with the document's definitions (a letter it never gave a
value), nothing is said here: the claim is read as before, a definition of its own. (A member written at an index
expression in the family's letter, ``p^{(i+k)}``, is :mod:`symtf.check.members`'s.)
"""
from __future__ import annotations

import re
import string

import sympy as sp

from .scalar_read import NotScalar, to_sympy
from .scalars import _numbers

_PRINTED_INDEX = re.compile(r"\d{1,4}")  # θ_{15}: at most 9999, the index of a frequency or a position
_INDEX_LETTERS = string.ascii_lowercase  # θ_i, ω_k: a family over one lower-case index


def printed_member(node) -> bool:
    """Is ``node`` a letter at a printed index (``θ_{15}``), no superscript?"""
    return node is not None and node[0] == "sym" and node[3] is None and bool(node[2]) and \
        _PRINTED_INDEX.fullmatch(node[2]) is not None


def family_at(a_node, book, known) -> tuple[sp.Expr, str, int] | None:
    r"""``θ_{15}`` where the book defines ``θ_i``: (θ_i's definition at i = 15 with the book's definitions applied,
    then the values ``known`` gives other letters (a function of a letter's name: the document's sizes, a section's
    constants; None where it has none), ``"\theta_i"``, its line), if that is a number; else None."""
    if not printed_member(a_node):
        return None
    for index in _INDEX_LETTERS:  # a look-up per letter, not a pass over the book: linear in the claims
        name = f"{a_node[1]}_{index}"
        if name not in book.values:
            continue
        expr, line = book.values[name]
        letter = [s for s in expr.free_symbols if s.name == index]
        if not letter:
            return None  # θ_i = 0.5 for every i: a constant, not a family over i
        value = book.substituted(expr.xreplace({letter[0]: sp.Integer(int(a_node[2]))}))
        given = {s: known(s.name) for s in value.free_symbols}
        value = value.xreplace({s: v for s, v in given.items() if v is not None})
        return (value, name, line) if value.is_number and value.is_finite else None
    return None


def judge_member(a_node, b_node, rel: str, book, known):
    r"""``θ_{15} = 0.0133`` (or ``\approx``) against the family's definition at 15 (:func:`family_at`): (a
    :class:`~symtf.check.scalars.Verdict`, the line of the family's definition), or None where the family or the
    printed side gives no number."""
    if rel not in ("=", "≈") or b_node is None:
        return None
    found = family_at(a_node, book, known)
    if found is None:
        return None
    value, name, line = found
    try:
        printed = to_sympy(b_node)
    except (NotScalar, ValueError, TypeError, ZeroDivisionError):
        return None
    if not printed.is_number or printed.free_symbols:
        return None
    where = f" with this document's ${name}$ (line {line}) at ${name.rpartition('_')[2]} = {a_node[2]}$"
    return _numbers(value, printed, rel, None, b_node, where), line
