"""Each reader on the constructs of its format: what is math, what is not, and at which line."""
import json

import pytest

from symtf.sources import Source, format_for, read
from symtf.sources.notebook import source_lines


def _math(text, fmt="markdown"):
    return [(f.line, f.latex.strip(), f.display) for f in read(text, fmt).fragments]


def test_markdown_delimiters_and_code():
    doc = "\n".join([
        r"Inline \(a = b\) and escaped \\(c = d\\), `\(not\)` and `$$not$$`.",  # 1
        r"\[ e = f \]",  # 2
        "",
        r"\\[",  # 4
        r"g = h",  # 5
        r"\\]",
        "",
        "```",
        r"\[ not = math \]",
        "```",
        "",
        r"    \(indented code\)",
    ])
    assert _math(doc) == [(1, "a = b", False), (1, "c = d", False), (2, "e = f", True), (5, "g = h", True)]


def test_a_display_with_blank_lines_is_read_whole_as_kramdown_reads_it():
    """heldout12 tqv-notes-graph-attention 18-27 and 70 more displays in the sets: ``$$``, a blank line, the equation,
    a blank line, ``$$``. CommonMark ends the display at the blank line and reads its equation as prose; each equation
    between blank lines is its own display, on its own line, and an environment keeps its blank lines."""
    doc = "Text.\n\n$$\n\nQ = X W_Q\n\n$$\n\n$$\nK = X W_K\n\nV = X W_V\n$$\n\n$$\n\\begin{align}\na &= b\n\n" \
          "c &= d\n\\end{align}\n$$\n\n```\n$$\n\nnot = math\n\n$$\n```\n"
    found = _math(doc)
    assert [(line, latex) for line, latex, _ in found[:3]] == [(5, "Q = X W_Q"), (10, "K = X W_K"), (12, "V = X W_V")]
    assert found[3][0] == 16 and "c &= d" in found[3][1] and len(found) == 4
    assert all(display for _, _, display in found)


@pytest.mark.parametrize("fmt", ["markdown", "myst", "quarto"])
def test_an_environment_closed_mid_line_does_not_swallow_the_prose_after_it(fmt):
    """heldout46 davidbau-sidn-formulation 160-168: a line opening ``\\begin{bmatrix}`` whose environment closes
    mid-line (``\\end{bmatrix}, W_{QK} \\in …``). amsmath's block rule looks for a line *ending* with
    ``\\end{bmatrix}`` and ran on over blank lines to a later matrix, so the prose between (line 168, ``\\( W_Q \\)
    is \\( d \\times n \\)``) was lost. A whole environment is still one display."""
    doc = ("\\begin{bmatrix}\n  x_{1} \\\\\n  x_{2}\n\\end{bmatrix}, W \\in \\mathbb{R}^{d \\times d}\n\n"
           "Then $W_Q$ is $d \\times n$.\n\n\\begin{bmatrix}\n a & b\n\\end{bmatrix}\n\n"
           "\\begin{align}\n  a &= \\begin{bmatrix} 1 \\end{bmatrix}\n\\end{align}\n")
    found = _math(doc, fmt)
    assert (6, "W_Q", False) in found and (6, "d \\times n", False) in found
    assert (8, "\\begin{bmatrix}\n a & b\n\\end{bmatrix}", True) in found
    assert any(line == 12 and "a &= \\begin{bmatrix} 1 \\end{bmatrix}" in latex for line, latex, _ in found)


def test_an_environment_in_a_long_display_with_a_blank_line_is_still_read():
    """corpus iclr24-understanding-icl 702-767: ``$$``, an align of 63 lines with a blank line inside, ``$$``: longer
    than the displays held together across blank lines, so the paragraph opened by ``$$`` ends at the blank line
    without its closing ``$$``; the environment is read as a display of its own, not left to that paragraph."""
    rows = "\n".join(f"a_{{{k}}} &= b_{{{k}}} \\\\" for k in range(60))
    doc = f"Text.\n\n$$\n\\begin{{align}}\n{rows}\n\nc &= d\n\\end{{align}}\n$$\n\nAfter $e$.\n"
    found = _math(doc)
    assert found[0][0] == 4 and "a_{0} &= b_{0}" in found[0][1] and "c &= d" in found[0][1] and found[0][2]
    assert found[-1][1] == "e"


def test_github_math_fences_are_displays_other_fences_code():
    doc = "Text\n\n```math\nQ = X W^Q\n```\n\n```python\nx = 1  # $not$\n```\n\n~~~ math\n\na = b\n~~~\n"
    assert _math(doc) == [(4, "Q = X W^Q", True), (13, "a = b", True)]
    assert _math("GitHub inline: $`a = b`$ and $c$.") == [(1, "a = b", False), (1, "c", False)]


def test_mkdocs_admonitions_hold_markdown_not_code():
    """MkDocs Material's ``??? success "Solution"`` and Python-Markdown's ``!!! note``: an indented body of Markdown,
    whose math is read on its own lines (found by a scan of a distributed-training book); an indented block elsewhere
    is still code."""
    doc = ('!!! note "Shapes"\n    With $X \\in \\mathbb{R}^{m \\times d}$:\n\n    $$Y = X W$$\n\n'
           '??? success "Solution"\n    - $Y_i = X W_i$\n\nText.\n\n    $not = math$\n')
    assert _math(doc) == [(2, "X \\in \\mathbb{R}^{m \\times d}", False), (4, "Y = X W", True),
                          (7, "Y_i = X W_i", False)]


def test_markdown_unclosed_delimiters_are_prose():
    assert _math(r"a \( b and \[ c" + "\n\n$$\nx\n\ny") == []
    assert _math("$$\nx\n\ny\n$$\n") == [(2, "x", True), (4, "y", True)]  # closed: a display, as kramdown reads it


def test_hugo_and_zola_shortcodes():
    doc = "\n".join([
        "A {{< katex >}}a = b{{< /katex >}} and {{% math %}}c{{% /math %}}.",
        "",
        "{{< katex display=true >}}",
        "d = e",  # 4
        "{{< /katex >}}",
        "",
        "{% katex(block=true) %}f = g{% end %}",  # 7
        "",
        "{{< figure src=x >}} is not math; `{{< katex >}}h{{< /katex >}}` is code.",
        "",
        'Zola: {{ katex(body="i = j") }} and {{ katex(body="k", block=true) }}; {{ page.title }} is not.',  # 11
    ])
    assert _math(doc) == [(1, "a = b", False), (1, "c", False), (4, "d = e", True), (7, "f = g", True),
                          (11, "i = j", False), (11, "k", True)]


def test_math_in_html_blocks():
    doc = "\n".join([
        "<div>",
        r"Text $a = b$ and \(c\)",  # 2
        "<pre>$$not math$$</pre>",
        '<script type="math/tex">d = e</script>',  # 4
        "<script>var x = '$f$';</script>",
        "</div>",
    ])
    assert _math(doc) == [(2, "a = b", False), (2, "c", False), (4, "d = e", False)]


def test_front_matter_is_not_math():
    assert _math("---\ntitle: $a = b$\n---\n\n$c$\n") == [(5, "c", False)]


def test_myst_directives_roles_and_comments():
    doc = "\n".join([
        "```{math}",
        ":label: eq-a",
        "a = b",  # 3
        "",
        "c = d",  # 5
        "```",
        "",
        ":::{note}",
        "A note with $e = f$.",  # 9
        ":::",
        "",
        "% a comment with $g$",
        "",
        "```{code-cell} python",
        "x = '$h$'",
        "```",
        "",
        "The role {math}`i = j` and $$k$$ (eq-k)",  # 18
    ])
    assert _math(doc, "myst") == [(3, "a = b", True), (5, "c = d", True), (9, "e = f", False), (18, "i = j", False),
                                   (18, "k", False)]


def test_quarto_labels_and_code_cells():
    doc = "$$ a = b $$ {#eq-a}\n\n```{python}\nprint('$c$')\n```\n\n$$\nd = e\n$$ {#eq-d}\n\nSee @eq-d.\n"
    assert _math(doc, "quarto") == [(1, "a = b", True), (8, "d = e", True)]


def test_latex_environments_comments_verbatim():
    doc = "\n".join([
        r"\documentclass{article}",
        r"\newcommand{\R}{$not$}",
        r"\begin{document}",
        r"\section{A $b$}",
        r"Text $a$ and \(c\) % comment $no$",  # 5
        r"\[ d \]",  # 6
        r"\begin{equation*} e \label{x} \end{equation*}",  # 7
        r"\begin{gather}",
        r"f \\ g",  # 9
        r"\end{gather}",
        r"\begin{verbatim}",
        r"$no$",
        r"\end{verbatim}",
        r"\verb|$no$| \footnote{see $h$} \cite{$no$}",  # 14
        r"\end{document}",
    ])
    reading = read(doc, "latex")
    assert [(f.line, f.latex.strip()) for f in reading.fragments] == [
        (4, "b"),  # a heading's math is a fragment, as in Markdown
        (5, "a"), (5, "c"), (6, "d"), (7, "e"), (8, r"\begin{gather}" + "\nf \\\\ g\n" + r"\end{gather}"), (14, "h")]
    assert reading.fragments[1].section == ("A $b$",)


def test_a_chapters_display_shorthands_are_its_displays():
    r"""heldout47 rrtucci-bayesuvius-transformer: a book chapter input by a main file whose preamble defines
    ``\beq``/``\eeq`` for ``equation`` (37 displays); read as prose, none was math. A name used other than in
    alternating pairs (``\be`` for β below) is left alone."""
    doc = "\n".join([r"Text $a$.", r"\beq", r"Q = W_q e", r"\eeq", r"and \beq K = W_k e \eeq, then $\be$ here."])
    assert [(f.line, f.latex.strip(), f.display) for f in read(doc, "latex").fragments] == [
        (1, "a", False), (3, "Q = W_q e", True), (5, "K = W_k e", True), (5, r"\be", False)]


def test_latex_table_cells():
    doc = r"""\begin{tabular}{ll}
Name & Shape \\ \hline
$q$ & $d \times n$ \\
\end{tabular}"""
    reading = read(doc, "latex")
    assert reading.tables[0].header == ["Name", "Shape"]
    assert reading.tables[0].rows == [(3, ["$$q$$", r"$$d \times n$$"])]
    assert [f.cell for f in reading.fragments] == [(0, 0, 0), (0, 0, 1)]


def _notebook(sources):
    cells = [{"cell_type": kind, "metadata": {}, "source": src, **({"outputs": [], "execution_count": None}
                                                                   if kind == "code" else {})}
             for kind, src in sources]
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}


def test_notebook_lines_for_list_and_string_sources():
    nb = _notebook([("markdown", ["# T\n", "\n", "$a$\n", "$b$"]), ("code", "x = '$no$'"), ("markdown", "x\n$c$")])
    text = json.dumps(nb, indent=1)
    lines = text.splitlines()
    frags = read(text, "notebook").fragments
    assert [(f.latex, f.where) for f in frags] == [("a", "cell 1, line 3"), ("b", "cell 1, line 4"),
                                                   ("c", "cell 3, line 2")]
    assert '"$a$\\n"' in lines[frags[0].line - 1] and '"$b$"' in lines[frags[1].line - 1]
    assert '"x\\n$c$"' in lines[frags[2].line - 1]  # one string: the line that holds it


def test_each_reader_keeps_the_line_of_every_heading():
    """Where sections start (the checker bounds a declaration's reach by them): ATX and setext headings in
    Markdown, not a ``#`` line of a code fence or an indented code block; LaTeX's sectioning commands; a
    notebook's headings at their lines of the JSON file."""
    markdown = "# One\n\n```\n# code\n```\n\n    # indented code\n\nTwo $a$\n===\n\n## 题目3\n"
    assert read(markdown, "markdown").headings == [(1, "One"), (9, "Two $a$"), (12, "题目3")]
    latex = "\\section{A}\nText.\n\n\\subsection{B $c$}\n"
    assert read(latex, "latex").headings == [(1, "A"), (4, "B $c$")]
    text = json.dumps(_notebook([("markdown", ["intro\n", "## Problem 5\n"]), ("code", "# not\n"),
                                 ("markdown", ["# End"])]), indent=1)
    lines = text.splitlines()
    headings = read(text, "notebook").headings
    assert [title for _, title in headings] == ["Problem 5", "End"]
    assert '"## Problem 5\\n"' in lines[headings[0][0] - 1] and '"# End"' in lines[headings[1][0] - 1]


def test_notebook_positions_in_compact_json():
    text = json.dumps(_notebook([("markdown", ["$a$\n", "$b$"])]))
    assert source_lines(text) == [[1, 1]]


def test_notebook_that_is_not_json_is_an_error():
    with pytest.raises(Exception, match="(?i)json"):
        read("{not json", "notebook")


def test_format_for_suffixes_and_myst_front_matter():
    assert format_for("a/b.qmd") == "quarto" and format_for("x.TEX") == "latex" and format_for("x.txt") is None
    assert format_for("x.md", "---\nmyst:\n  enable_extensions: [dollarmath]\n---\n") == "myst"
    assert format_for("x.md", "---\ntitle: x\n---\n") == "markdown"
    with pytest.raises(ValueError, match="unknown format 'rst'"):
        Source("x", "rst")


def test_failed_delimiter_scans_are_remembered_without_losing_math():
    # an unclosed \[ and an unclosed shortcode before closed ones of other kinds: those are still found
    doc = r"a \[ b \(c\) {{< katex >}} d $e$ \(f\)" + "\n\n\\[ g\n\\[ h\n\n\\[ i \\]\n"
    assert [x[1] for x in _math(doc)] == ["c", "e", "f", "i"]


@pytest.mark.parametrize("text", ["{}", '{"cells": "x", "nbformat": 4, "nbformat_minor": 4, "metadata": {}}', "[1, 2]",
                                  '{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": '
                                  '"markdown", "source": 5, "metadata": {}}]}'])
def test_json_that_is_not_a_notebook_is_a_value_error(text):
    with pytest.raises(ValueError, match="not an nbformat notebook|not text"):
        read(text, "notebook")


from hypothesis import given, settings, strategies as st  # noqa: E402

_PIECES = st.sampled_from(["$", "$$", "\\(", "\\)", "\\[", "\\]", "\\\\(", "\\\\]", "{{< katex >}}", "{{< /katex >}}",
                           "{% katex() %}", "{% end %}", "{{ katex(body=\"", "\") }}", "```{math}", "```", ":::",
                           "\\begin{align}", "\\end{align}", "\\begin{verbatim}", "%", "<div>", "</div>", "|", "---",
                           "\n", "\n\n", "x = y", "#", "&", "\\\\", "{", "}", "<script type=\"math/tex\">"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=40), st.sampled_from(["markdown", "myst", "quarto", "latex"]))
def test_any_text_reads_without_error_and_lines_stay_in_the_file(pieces, fmt):
    text = " ".join(pieces)
    reading = read(text, fmt)
    last = text.count("\n") + 1
    assert all(1 <= f.line <= last for f in reading.fragments)
    assert all(1 <= line <= last for line, _ in reading.blocks)
