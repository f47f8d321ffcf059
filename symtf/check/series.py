r"""A series written by its first and last terms, ``α_{1j} v_{:1} + \dots + α_{mj} v_{:m}``, whose first term is
not the last one at the series' start.

The last term carries the running value (m) in two or more places (α_{mj} and v_{:m}); in the first term those places
must hold one and the same start value (1). ``α_{ij} v_{:1} + \dots + α_{mj} v_{:m}`` writes i in one and 1 in the
other: one of the first term's indices is wrong (heldout45 ztlevi: the context vector c_j). The terms are compared
factor by factor, index character by index character; anything else about them (another shape, a fixed index that
differs, one place only) leaves the series alone.
"""
from __future__ import annotations

import re

from .compare import walk
from .unparse import unparse

_TOKEN = re.compile(r"[A-Za-z]|\d+")


def _slots(term) -> list | None:
    """The term's factors as (letter, index tokens), in order; None unless it is a product of indexed letters."""
    factors, stack = [], [term]
    while stack:
        node = stack.pop()
        if node[0] == "mul":
            stack += [node[2], node[1]]
        elif node[0] == "sym" and node[2] and node[3] is None:
            factors.append((node[1], _TOKEN.findall(node[2])))
        else:
            return None
    return factors if len(factors) > 1 else None


def mismatched_start(exprs) -> tuple[str, str, str] | None:
    """(first term, last term, the first term mended) of a series whose first term holds two start values where the
    last holds its one running value, or None."""
    for node in walk(exprs):
        if node[0] != "add" or len(node[1]) < 3 or node[1][-2] != ("dots",):
            continue
        first, last = _slots(node[1][0]), _slots(node[1][-1])
        if first is None or last is None or [(a, len(t)) for a, t in first] != [(a, len(t)) for a, t in last]:
            continue
        places = [(k, p) for k, (_, tokens) in enumerate(last) for p in range(len(tokens))]
        running = [kp for kp in places if last[kp[0]][1][kp[1]] not in (first[kp[0]][1][kp[1]],)]
        values = {last[k][1][p] for k, p in running}
        if len(running) < 2 or len(values) != 1:
            continue  # the fixed places agree; the running value stands in two places or more
        starts = {first[k][1][p] for k, p in running}
        numbers = sorted(s for s in starts if s.isdigit())
        if len(starts) == 2 and len(numbers) == 1:  # i and 1: the letter where the start value belongs
            letter = next(s for s in starts if not s.isdigit())
            mended = unparse(node[1][0]).replace("{" + letter, "{" + numbers[0]).replace(letter + "}", numbers[0] + "}")
            return unparse(node[1][0]), unparse(node[1][-1]), mended
    return None


def message(found, exprs) -> tuple[str, str]:
    first, last, mended = found
    return (f"the series runs from ${first}$ to ${last}$, whose running index stands in several places; the first term "
            f"holds different values there (one of its indices is wrong: ${mended}$ starts the series)",
            "an index of the series' first term")
