"""symtf check on the corpus of real documents by other authors (tests/corpus, see SOURCES.md).

The expectations were written by reading each document before the checker was tuned on it. Asserted here:
no mismatch anywhere but at a listed mistake (a false mismatch is what makes people switch a checker off),
and no listed mistake verified (a false "verified" is the worst bug). How many listed mistakes are found and
how many claims are decided is printed by ``benchmarks/corpus.py`` and reported in the closing note: it is
far below the issue's targets today (see the note), and not asserted as if it were met.
"""
from pathlib import Path

import pytest
import yaml

from symtf.check.checker import check_text

CORPUS = Path(__file__).parent / "corpus"
SPECS = sorted(CORPUS.glob("*.yaml"))


def test_the_corpus_has_fifteen_documents_by_other_authors():
    assert len(SPECS) >= 15
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    for spec in SPECS:
        data = yaml.safe_load(spec.read_text(encoding="utf-8"))
        assert (CORPUS / data["file"]).is_file() and data["licence"] and data["commit"]
        assert spec.stem in sources


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_no_false_mismatch_and_no_listed_mistake_verified(spec):
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    findings = check_text((CORPUS / data["file"]).read_text(encoding="utf-8"))
    mistakes = data.get("mistakes") or []
    # a display's finding is reported at its first line: a mistake may sit a few lines below it
    near = {ln for m in mistakes for ln in range(m["line"] - 12, m["line"] + 1)}
    false = [(f.line, f.latex, f.message) for f in findings if f.status == "mismatch" and f.line not in near]
    assert not false
    for m in mistakes:
        at = [f for f in findings if f.line == m["line"] and m["fragment"].replace(" ", "")[:20] in
              f.latex.replace(" ", "")]
        # an arithmetic finding verifies only the sum as printed; where the listed mistake is a wrong formula or
        # a wrong term with the sum right (scalingbook-transformers 372: 2 * 37e9 * 14.8e12 = 1.1e24 holds, but
        # training needs 6ND, not 2ND), it is verified and says "arithmetic holds"; any other verified is a defect
        assert not [f for f in at if f.status == "verified" and not (f.basis == "arithmetic" and
                                                                     f.message.startswith("arithmetic holds"))], (m, at)
