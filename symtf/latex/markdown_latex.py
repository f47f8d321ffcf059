r"""A generated Markdown fragment (a table, an equation, a worked example) as LaTeX, for ``symtf render``
in ``.tex`` files: the same math, set the way a LaTeX paper sets it.

markdown-it-py (with ``dollarmath``) parses the fragment; paragraphs become text with ``$…$``,
pipe tables ``tabular``, display blocks ``\[ … \]`` (an environment such as ``align*`` stays as it
is), code blocks ``verbatim``. Text is escaped; math is copied unchanged.
"""
from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
            "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\xa0": "~"}


def escape(text: str) -> str:
    """Text as LaTeX: the characters TeX gives a meaning escaped."""
    return "".join(_SPECIAL.get(c, c) for c in text)


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    dollarmath_plugin(md, double_inline=True, allow_digits=True, allow_space=True)
    return md


def _inline(children: list[Token]) -> str:
    out = []
    for child in children:
        if child.type in ("math_inline", "math_inline_double"):
            out.append(f"${child.content.strip()}$")
        elif child.type == "text":
            out.append(escape(child.content))
        elif child.type == "code_inline":
            out.append(r"\texttt{" + escape(child.content) + "}")
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif child.type == "strong_open":
            out.append(r"\textbf{")
        elif child.type == "em_open":
            out.append(r"\emph{")
        elif child.type in ("strong_close", "em_close"):
            out.append("}")
    return "".join(out)


def _display(content: str) -> str:
    body = content.strip()
    return body if body.startswith("\\begin{") else f"\\[\n{body}\n\\]"


def markdown_to_latex(markdown: str) -> str:
    """The LaTeX of a generated Markdown fragment (blocks separated by blank lines)."""
    tokens = _parser().parse(markdown)
    blocks: list[str] = []
    row: list[str] | None = None
    rows: list[list[str]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "math_block":
            blocks.append(_display(tok.content))
        elif tok.type in ("fence", "code_block"):
            blocks.append(f"\\begin{{verbatim}}\n{tok.content.rstrip()}\n\\end{{verbatim}}")
        elif tok.type == "tr_open":
            row = []
        elif tok.type == "tr_close":
            rows.append(row)
            row = None
        elif tok.type == "table_close":
            blocks.append(_tabular(rows))
            rows = []
        elif tok.type == "inline":
            text = _inline(tok.children or [])
            if row is not None:
                row.append(text.strip())
            elif tokens[i - 1].type == "heading_open":
                blocks.append(r"\paragraph{" + text + "}")
            else:
                blocks.append(text)
    return "\n\n".join(blocks)


def _tabular(rows: list[list[str]]) -> str:
    width = max(len(r) for r in rows)
    lines = [f"\\begin{{tabular}}{{{'l' * width}}}", r"\hline", " & ".join(rows[0]) + r" \\", r"\hline"]
    lines += [" & ".join(r) + r" \\" for r in rows[1:]]
    return "\n".join(lines + [r"\hline", r"\end{tabular}"])
