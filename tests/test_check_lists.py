r"""A list written with its first (or last) entries and \dots set equal to a printed list: each entry written is
judged against the printed one at its place (symtf.check.lists); the entries the dots stand for are not."""
from __future__ import annotations

from symtf.check.checker import DocumentChecker
from symtf.check.lists import written_entries
from symtf.check.parse import parse


def _claims(text: str, line: int):
    return [(f.latex, f.status) for f in DocumentChecker(text).run() if f.line == line and f.kind == "claim"]


def test_the_entries_written_are_judged_at_their_places():
    text = "# Weights\n\n$$[\\frac{1}{4}, \\dots] = [0.25, 0.75]$$ and $$[\\dots, \\frac{3}{4}] = [0.25, 0.70]$$\n"
    assert _claims(text, 3) == [(r"\frac{1}{4} = 0.25", "verified"), (r"\frac{3}{4} = 0.70", "mismatch")]


def test_only_printed_lists_with_dots_at_one_end():
    def pairs(latex):
        return written_entries(*parse(latex)[1])

    assert pairs(r"[\frac{1}{4}, \dots] = [0.25, 0.75]") == [(parse(r"\frac{1}{4}")[1][0], ("num", 0.25, "0.25"))]
    assert pairs(r"[a, \dots] = [0.25, 0.75]") is None  # a letter: the model's or the document's, judged elsewhere
    assert pairs(r"[1, \dots, 4] = [1, 2, 3, 4]") is None  # dots in the middle: a range, expanded elsewhere
    assert pairs(r"[0.25, 0.75] = [0.25, 0.75]") is None  # no dots
    assert pairs(r"[0.1, 0.2, \dots] = [0.1, 0.2]") is None  # as many entries written as printed: no dots to stand for
