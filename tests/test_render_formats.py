"""symtf render in MyST, Quarto and LaTeX: their marker syntax, code left alone, LaTeX regions that read
back as the same math as the Markdown ones."""
import pytest

from symtf.check.checker import check_text
from symtf.check.extract import extract
from symtf.cli import main
from symtf.latex.render import RenderError, render_text
from symtf.sources import Source

NAMES = ("full-one-layer", "attention-pattern", "key-figures", "params-full", "example-toy")


def _regions(begin, end, names=NAMES, stale="stale"):
    return "\n\n".join(f"{begin.format(n)}\n{stale}\n{end.format(n)}" for n in names) + "\n"


def test_myst_takes_percent_and_html_markers_and_skips_code():
    text = ("# Post\n\n% symtf:begin attention-pattern\nold\n% symtf:end attention-pattern\n\n"
            "<!-- symtf:begin attention-scores -->\nold\n<!-- symtf:end attention-scores -->\n\n"
            "```{code-cell} python\n% symtf:begin attention-pattern\nkeep\n% symtf:end attention-pattern\n```\n")
    out = render_text(text, fmt="myst")
    assert [r.name for r in out.stale] == ["attention-pattern", "attention-scores"]
    assert "\\text{softmax}^*" in out.text and out.text.count("keep") == 1 and "old" not in out.text
    assert render_text(out.text, fmt="myst").stale == ()  # idempotent


def test_quarto_markers_and_code_cells():
    text = ("---\ntitle: x\n---\n\n<!-- symtf:begin attention-pattern -->\nold\n<!-- symtf:end attention-pattern -->\n"
            "\n```{python}\n# <!-- symtf:begin attention-pattern -->\n```\n\n% symtf:begin attention-pattern\n")
    out = render_text(text, fmt="quarto")  # a % line is not a marker in Quarto: no unclosed region
    assert [r.line for r in out.stale] == [5] and "$$\nA^h" in out.text


def test_latex_regions_get_latex_and_verbatim_is_text():
    text = ("\\begin{document}\n% symtf:begin attention-pattern\nold\n% symtf:end attention-pattern\n"
            "\\begin{verbatim}\n% symtf:begin attention-pattern\nkeep\n% symtf:end attention-pattern\n\\end{verbatim}\n"
            "<!-- symtf:begin attention-pattern -->\n\\end{document}\n")
    out = render_text(text, fmt="latex")
    assert [r.line for r in out.stale] == [2]
    assert "\\[\nA^h = \\text{softmax}^*" in out.text and "keep" in out.text and "$$" not in out.text
    assert render_text(out.text, fmt="latex").stale == ()


def test_latex_unclosed_marker_names_the_latex_end():
    with pytest.raises(RenderError, match="expected % symtf:end mlp"):
        render_text("% symtf:begin mlp\n", source="p.tex", fmt="latex")


def test_latex_regions_read_back_as_the_markdown_regions():
    markdown = render_text(_regions("<!-- symtf:begin {} -->", "<!-- symtf:end {} -->")).text
    latex = render_text(_regions("% symtf:begin {}", "% symtf:end {}"), fmt="latex").text
    md_frags, md_tables = extract(Source(markdown, "markdown"))
    tex_frags, tex_tables = extract(Source(latex, "latex"))
    assert [" ".join(f.latex.split()) for f in tex_frags] == [" ".join(f.latex.split()) for f in md_frags]
    assert [t.header for t in tex_tables] == [t.header for t in md_tables]
    plain = lambda tables: [[" ".join(c.split()) for c in cells] for t in tables for _, cells in t.rows]  # noqa: E731
    assert plain(tex_tables) == plain(md_tables)
    strip = lambda fs: [(f.status, f.rule, " ".join(f.latex.split())) for f in fs]  # noqa: E731
    assert strip(check_text(Source(latex, "latex"))) == strip(check_text(Source(markdown, "markdown")))


def test_cli_renders_several_files_and_checks_them(tmp_path, capsys):
    tex, md = tmp_path / "paper.tex", tmp_path / "post.md"
    tex.write_text(_regions("% symtf:begin {}", "% symtf:end {}", ("attention-pattern",)))
    md.write_text(_regions("<!-- symtf:begin {} -->", "<!-- symtf:end {} -->", ("attention-pattern",)))
    assert main(["render", "--check", str(tex), str(md)]) == 1
    assert main(["render", str(tex), str(md)]) == 0
    assert "\\[\n" in tex.read_text() and "$$\n" in md.read_text()
    assert main(["render", "--check", str(tex), str(md)]) == 0
    assert main(["render", "--check", str(md), str(tmp_path / "missing.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"symtf render: error: {tmp_path / 'missing.md'}: no such file"]
