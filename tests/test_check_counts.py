r"""Quotients taken as whole counts (``\frac{1080}{16} \times … = … \times 68``, patches of a padded frame) are not
judged as exact arithmetic (symtf.check.counts); a count that is neither the quotient rounded up nor down still is."""
from __future__ import annotations

from symtf.check.checker import DocumentChecker
from symtf.check.counts import whole_counts
from symtf.check.parse import parse


def _statuses(text: str, line: int) -> list[tuple[str, str]]:
    return [(f.latex, f.status) for f in DocumentChecker(text).run() if f.line == line and f.kind == "claim"]


def _sides(latex: str):
    return parse(latex)[1]


def test_each_quotient_rounded_up_or_down_to_the_count_beside_it():
    assert whole_counts(*_sides(r"\frac{1920}{16} \times \frac{1080}{16} = 120 \times 68")) == "67.5 as 68"
    assert whole_counts(*_sides(r"\frac{240}{2} \times \frac{135}{2} = 120 \times 67")) == "67.5 as 67"
    assert whole_counts(*_sides(r"1920 / 16 \times 1080 / 16 = 120 \times 68")) == "67.5 as 68"  # a/b × c/d


def test_not_a_rounded_count():
    assert whole_counts(*_sides(r"\frac{1920}{16} \times \frac{1080}{16} = 120 \times 69")) == ""  # 69: neither
    assert whole_counts(*_sides(r"\frac{1920}{16} \times \frac{1080}{16} = 8160")) == ""  # the factors not shown
    assert whole_counts(*_sides(r"\frac{2^{-14}}{10^{-6}} = \frac{6.1 \times 10^{-5}}{10^{-6}}")) == ""  # not whole
    assert whole_counts(*_sides(r"\frac{1920}{16} \times 68 = 120 \times 67")) == ""  # a whole factor differs


def test_a_padded_frames_patches_are_not_a_mismatch_and_a_wrong_count_is():
    text = "# Tokens\n\nA frame of 1920 by 1080 in patches of 16: $$\\frac{1920}{16} \\times \\frac{1080}{16} = 120 " \
           "\\times 68 = 8160$$\n"
    assert _statuses(text, 3) == [(r"\frac{1920}{16} \times \frac{1080}{16} = 120 \times 68", "unchecked"),
                                  (r"120 \times 68 = 8160", "verified")]
    wrong = text.replace("120 \\times 68", "120 \\times 69")
    assert _statuses(wrong, 3)[0][1] == "mismatch"
