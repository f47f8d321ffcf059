"""`symtf tables`: Kramdown and JSON, every math cell rendering in KaTeX."""
from __future__ import annotations

import json
import re

from symtf.cli import main
from symtf.latex.tables import TABLE_IDS, render_tables
from symtf.model import Convention

from .katex import render_all


def test_json_layout(capsys):
    assert main(["tables", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["id"] for t in data["tables"]] == list(TABLE_IDS)
    full = next(t for t in data["tables"] if t["id"] == "full-one-layer")
    row = next(r for r in full["rows"] if r["name"] == "Attention weights")
    assert row == {"name": "Attention weights", "latex": r"A^h = \text{softmax}^*(S^h)", "shape": r"n \times n",
                   "hook": "blocks.0.attn.hook_pattern"}


def test_markdown_cells_render_in_katex():
    text = render_tables("markdown") + render_tables("markdown", convention=Convention.ROW)
    fragments = re.findall(r"\$\$(.+?)\$\$", text)
    assert len(fragments) > 80
    results = render_all([(f, False) for f in fragments])
    failures = [(f, r.error) for f, r in zip(fragments, results) if not r.ok]
    assert failures == []


def test_row_convention_tables_are_the_familiar_forms():
    text = render_tables("markdown", ids=("full-one-layer",), convention=Convention.ROW)
    assert r"$$S^h = Q^h (K^h)^\top / \sqrt{d_\text{head}}$$" in text
    assert r"$$Q^h = X^{(0)}_\text{LN} W_Q^h$$" in text
    assert r"$$n \times d_\text{model}$$" in text
