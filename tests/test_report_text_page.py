"""The docs page "From text to the next token": built from real runs of symtf's commands, deterministic."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("tokenizers", reason="the tokenizers library (the text or test extra) is not installed")

from symtf.report import text_page as page_module  # noqa: E402
from symtf.text import encode, train_bpe  # noqa: E402


@pytest.fixture(scope="module")
def page() -> str:
    return page_module.text_page()


def test_the_page_is_generated_with_the_site(page, monkeypatch):
    pytest.importorskip("mkdocs", reason="mkdocs not installed: pip install -e '.[docs]'")
    from symtf.report import pages, site

    class Files(list):
        def get_file_from_path(self, name):
            return None

    class File:  # records what the hook adds instead of mkdocs' File
        @staticmethod
        def generated(config, name, content=None, abs_src_path=None):
            return (name, content)

    monkeypatch.setattr(site, "File", File)
    monkeypatch.setattr(site, "load_report", dict)
    monkeypatch.setattr(pages, "generate_pages", lambda report: {"tables.md": "# tables"})
    added = dict(site.on_files(Files(), {}))
    assert added["text.md"] == page and added["tables.md"] == "# tables"


def test_each_step_shows_its_command_and_output(page):
    assert '$ symtf tokens --train corpus.txt --vocab-size 300 "The Empire State Building is in New"' in page
    assert '$ symtf eval --checkpoint gpt2-random --text "The Empire State Building is in New" --top 5' in page
    assert "symtf-text-page-" not in page  # temporary paths are shown by name only
    ids = encode(train_bpe([page_module.CORPUS], 300), page_module.PROMPT).ids
    assert f"text 'The Empire State Building is in New': {len(ids)} tokens {list(ids)}" in page
    assert "top 5 next tokens after ' New':" in page
    ranks = re.findall(r"^\s+([1-5])\s+\d+\s", page, re.M)
    assert ranks == ["1", "2", "3", "4", "5"]


def test_the_merges_listing_is_cut_with_the_right_count(page):
    total = int(re.search(r"^(\d+) merges, in the order learned:", page, re.M).group(1))
    assert total == 300 - 256
    shown = re.findall(r"^\s+(\d+)\. '", page, re.M)
    assert shown == [str(k) for k in range(1, 13)]
    assert f"... ({total - 12} more merges)" in page


def test_the_one_hot_t_is_the_example_texts_ids(page):
    tokens = encode(train_bpe(["in New York"], None, alphabet="text"), "in New York")
    math = page.split("$$\n", 1)[1].split("\n$$", 1)[0]
    rows = re.search(r"\\begin\{bmatrix\} (.*?) \\end\{bmatrix\}", math).group(1).split(r" \\ ")
    assert len(rows) == tokens.vocab_size
    for j, token_id in enumerate(tokens.ids):
        assert [r.split(" & ")[j] for r in rows] == ["1" if i == token_id else "0" for i in range(len(rows))]


def test_the_page_is_the_same_every_build(page):
    assert page_module.text_page() == page


def test_the_math_renders_in_katex(page):
    from tests.katex import render_all

    fragments = re.findall(r"^\$\$\n(.*?)\n\$\$$", page, re.S | re.M) + re.findall(r"(?<!\$)\$([^$\n]+)\$(?!\$)", page)
    assert len(fragments) >= 3
    results = render_all([(f, True) for f in fragments])
    assert [(f, r.error) for f, r in zip(fragments, results) if not r.ok] == []


def test_without_the_library_the_page_says_so(monkeypatch):
    from symtf.errors import SymtfError
    from symtf.text import tokenizer

    def missing():
        raise SymtfError("needs the tokenizers library: pip install 'symtf[text]' (or tokenizers)")

    monkeypatch.setattr(tokenizer, "require_tokenizers", missing)
    assert "Not built: needs the tokenizers library" in page_module.text_page()
