"""Every fragment symtf emits for the post renders in KaTeX (throwOnError: true, no strict-mode warnings)."""
from __future__ import annotations

import re

from symtf.latex.equations import EQUATION_IDS, equation
from symtf.latex.example import EXAMPLE_IDS, named_example, worked_example
from symtf.latex.render import fragment
from symtf.latex.tables import KEY_FIGURES_ID, TABLE_IDS
from tests.katex import render_all

MATH = re.compile(r"\$\$(.+?)\$\$", re.S)


def emitted_fragments() -> list[tuple[str, str, bool]]:
    """(where, latex, display) for every table cell, equation and worked example."""
    out = []
    for table_id in (*TABLE_IDS, KEY_FIGURES_ID):
        for number, math in enumerate(MATH.findall(fragment(table_id))):
            out.append((f"{table_id} #{number}", math, False))
    for equation_id in EQUATION_IDS:
        out.append((equation_id, equation(equation_id).latex(), True))
    for example_id in EXAMPLE_IDS:
        example = named_example(example_id)
        out.append((example_id, example.latex(), True))
        out += [(f"{example_id} heading #{i}", m, False)
                for i, m in enumerate(re.findall(r"\$([^$]+)\$", example.markdown().split("\n\n")[0]))]
    out.append(("example --precision 6 seed 7", worked_example(7, mlp=True, precision=6).latex(), True))
    return out


def test_every_emitted_fragment_renders_in_katex():
    fragments = emitted_fragments()
    assert len(fragments) > 80  # tables alone have ~75 math cells
    results = render_all([(latex, display) for _, latex, display in fragments])
    failures = [(where, r.error) for (where, _, _), r in zip(fragments, results) if not r.ok]
    warned = [(where, r.warnings) for (where, _, _), r in zip(fragments, results) if r.warnings]
    assert not failures, failures
    assert not warned, warned


def test_the_harness_would_catch_a_broken_fragment():
    # the printer's expansion of the simplified model once printed W_\text{pos}_n (a double subscript)
    (bad,) = render_all([(r"W_\text{pos}_n", False)])
    assert not bad.ok and "Double subscript" in bad.error
