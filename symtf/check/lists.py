r"""A list written with its first entries and ``\dots`` set equal to a list of printed numbers:
``[\frac{e^{1.0}}{e^{1.0} + e^{0.5} + e^{0.05}}, \dots] = [0.506, 0.307, 0.187]``.

The entries written stand for the printed entries at their places (from the left before a trailing ``\dots``, from the
right after a leading one); each pair is a claim of printed arithmetic, judged by the scalar judge, and the entries
the dots stand for are not judged.
"""
from __future__ import annotations

from .compare import walk

MAX_ENTRIES = 64


def _printed(node) -> bool:
    """An expression of printed numbers only (no letter, no list)."""
    nodes = list(walk(node))
    return any(n[0] == "num" for n in nodes) and not any(n[0] in ("sym", "list", "matrix", "dots", "tuple")
                                                         for n in nodes)


def written_entries(a, b) -> list[tuple] | None:
    """The pairs (entry written, printed entry at its place) of ``a = b`` where one side is a list with ``\\dots``
    at one end and printed entries before (or after) it and the other a list of printed numbers at least as long;
    None for anything else."""
    for dotted, full in ((a, b), (b, a)):
        if not (dotted and full and dotted[0] == "list" == full[0] and dotted[1] == "," == full[1]):
            continue
        items, values = dotted[2], full[2]
        if len(values) > MAX_ENTRIES or any(v == ("dots",) or not _printed(v) for v in values):
            continue
        if items[-1:] == [("dots",)] and ("dots",) not in items[:-1]:
            written = items[:-1]
            pairs = list(zip(written, values))
        elif items[:1] == [("dots",)] and ("dots",) not in items[1:]:
            written = items[1:]
            pairs = list(zip(written, values[len(values) - len(written):]))
        else:
            continue
        if written and len(written) < len(values) and all(_printed(x) for x in written):
            return pairs
    return None
