"""The second held-out set (tests/heldout2, see SOURCES.md): eight real documents by other authors whose expectations
were written and committed before the checker was ever run on them. It is a measure, not a target: do not tune the
checker on these files (once a finding here is used to change the checker, move the files to tests/corpus).

Asserted, and nothing more: the expectations are well-formed (every listed fragment is on its line, sources and
licences recorded), and no listed mistake's own claim is verified (a false "verified" is the worst bug). A mistake
stated in words (``format: prose``, e.g. "scaled by $d_k$") has no LaTeX claim of its own; a correct display next to
it (bentrevett line 383, the right formula two lines above the prose slip on line 385) is not that mistake's claim.
The figures (false mismatches per 500 fragments, mistakes found, decided share) are printed by
``python benchmarks/corpus.py --dir tests/heldout2``; the first run's figures are in tests/heldout2/SOURCES.md.
"""
import functools
import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from symtf.check.checker import check_text

HELDOUT2 = Path(__file__).parent / "heldout2"
SPECS = sorted(HELDOUT2.glob("*.yaml"))
KINDS = ("equation", "shape", "number", "notation", "prose")

_spec = importlib.util.spec_from_file_location("corpus_benchmark", Path(__file__).parents[1] / "benchmarks" / "corpus.py")
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)


def spec_of(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_eight_documents_from_several_repositories_none_seen_before():
    assert len(SPECS) >= 8
    sources = (HELDOUT2 / "SOURCES.md").read_text(encoding="utf-8")
    repos = Counter()
    for path in SPECS:
        data = spec_of(path)
        assert (HELDOUT2 / data["file"]).is_file() and data["licence"] and re.fullmatch(r"[0-9a-f]{40}", data["commit"])
        assert path.stem in sources and data["convention"] in ("row", "column", "mixed", "none")
        assert data["commit"] in data["source"]
        repos["/".join(data["source"].split("/")[3:5])] += 1  # https://github.com/<owner>/<repo>/blob/...
    assert len(repos) >= 3 and max(repos.values()) <= 2, repos
    earlier = {p.stem for d in ("corpus", "heldout") for p in (HELDOUT2.parent / d).glob("*.yaml")}
    assert not {p.stem for p in SPECS} & earlier
    assert len(list((HELDOUT2 / "LICENSES").iterdir())) >= len(repos)


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_every_listed_fragment_is_on_its_line(path):
    data = spec_of(path)
    lines = (HELDOUT2 / data["file"]).read_text(encoding="utf-8").split("\n")
    for m in data["mistakes"] or []:
        line = lines[m["line"] - 1]
        if data["file"].endswith(".ipynb"):  # the JSON string that holds the Markdown line
            line = json.loads(line.strip().rstrip(","))
        assert m["fragment"] in line, m
        assert m["kind"] in KINDS and m["why"] and m["confidence"] in ("high", "medium"), m


@functools.lru_cache(maxsize=None)
def _findings(path: Path):
    """The expectations and the findings of one document (checked once per test session)."""
    data = spec_of(path)
    return data, check_text(corpus.read_document(HELDOUT2 / data["file"]))


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_no_listed_mistake_is_verified(path):
    data, findings = _findings(path)
    verified = [(m["line"], f.line, f.latex) for m in data["mistakes"] or [] if m.get("format") != "prose"
                for f in findings if f.status == "verified" and corpus.at_mistake(f, m)]
    assert not verified
