r"""Math in the Markdown family: CommonMark with kramdown's ``$$``, MyST and Quarto.

One walker over markdown-it's tokens serves every dialect; a :class:`Dialect` says which
markdown-it plugins build its parser and how its fenced directives are read. What counts as math:
``$…$``, ``$$…$$`` (inline and display), ``\(…\)``, ``\[…\]`` and their doubled forms, amsmath
environments, GitHub's ```` ```math ```` fences and ``$`…`$``, KaTeX shortcodes, and the same inside HTML blocks
(:mod:`symtf.sources.html`). Code spans, other code blocks and front matter are never math.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from .fragments import Reading, Table, unwrap
from .html import read_html
from .mdplugins import amsmath_closed_plugin, brackets_plugin, shortcodes_plugin

_MATH_INLINE = ("math_inline", "math_inline_double", "math_single")
_MATH_BLOCK = ("math_block", "math_block_label", "math_block_eqno")
_GITHUB_INLINE = re.compile(r"\A`([^`]*)`\Z")


def _dollars(md: MarkdownIt) -> None:
    dollarmath_plugin(md, double_inline=True, allow_digits=True, allow_space=True, allow_labels=True,
                      allow_blank_lines=False)


@dataclass(frozen=True)
class Dialect:
    """A member of the Markdown family: its parser's plugins and how it reads a fenced block.

    ``fence(reader, token, line, reading)`` returns True when it has read the fence (a ``{math}``
    directive, a directive whose body is Markdown); otherwise the fence is code and is skipped.
    """

    name: str
    plugins: tuple[Callable[[MarkdownIt], None], ...]
    fence: Callable[["MarkdownReader", Token, int, Reading], bool] | None = field(default=None, compare=False)


def _code(reader: "MarkdownReader", token: Token, line: int, reading: Reading) -> bool:
    """A fenced block is code, except GitHub's ```` ```math ```` fence: one display equation (from the line after
    the fence's opening line)."""
    if token.info.strip().lower() != "math":
        return False
    reading.display(line + 1, token.content)
    return True


#: Plain Markdown (Jekyll/kramdown, Hugo, Zola, GitHub, MkDocs): tables, every delimiter, shortcodes, and the
#: admonitions of Python-Markdown and MkDocs Material (``!!! note``, ``??? success "Solution"``: an indented body of
#: Markdown, not an indented code block).
MARKDOWN = Dialect("markdown", (front_matter_plugin, admon_plugin, brackets_plugin, shortcodes_plugin, _dollars,
                                amsmath_closed_plugin), _code)


@lru_cache(maxsize=None)
def _parser(dialect: Dialect) -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    for plugin in dialect.plugins:
        plugin(md)
    return md


class MarkdownReader:
    """Reads Markdown source into a :class:`Reading`; ``offset`` lines precede ``source`` in its file."""

    def __init__(self, dialect: Dialect = MARKDOWN):
        self.dialect = dialect
        self.md = _parser(dialect)

    def read(self, source: str, reading: Reading | None = None, offset: int = 0) -> Reading:
        reading = Reading() if reading is None else reading
        self._walk(self.md.parse(_held_together(source)), reading, offset)
        reading.end_block()
        return reading

    def inline(self, text: str, reading: Reading, line: int, cell=None) -> list[str]:
        """The math of one run of inline text starting at ``line``; its plain text pieces."""
        tokens = self.md.parseInline(text)
        return self._inline(tokens[0].children or [] if tokens else [], reading, line, cell)

    # ------------------------------------------------------------------ tokens
    def _walk(self, tokens: list[Token], reading: Reading, offset: int) -> None:
        line = offset + 1
        cell = None
        row_line, row_cells, col, in_head = line, [], 0, False
        for i, tok in enumerate(tokens):
            if tok.map:
                line = offset + tok.map[0] + 1
            kind = tok.type
            if kind == "heading_open":
                reading.heading(int(tok.tag[1]), _plain(tokens[i + 1]), line)
            elif kind == "table_open":
                reading.end_block()
                reading.tables.append(Table(line, []))
            elif kind == "thead_open":
                in_head = True
            elif kind == "tbody_open":
                in_head = False
            elif kind == "tr_open":
                row_cells, col = [], 0
            elif kind == "tr_close":
                if in_head:
                    reading.tables[-1].header = row_cells
                else:
                    reading.tables[-1].rows.append((row_line, row_cells))
            elif kind in ("th_open", "td_open"):
                row_line = line
                cell = (len(reading.tables) - 1, -1 if in_head else len(reading.tables[-1].rows), col)
                col += 1
            elif kind in ("th_close", "td_close"):
                cell = None
            elif kind in _MATH_BLOCK:
                self._math_block(tok, reading, line)
            elif kind == "amsmath":
                reading.display(line, unwrap(tok.meta.get("environment", ""), tok.content))
            elif kind in ("fence", "colon_fence") and self.dialect.fence is not None:
                self.dialect.fence(self, tok, line, reading)
            elif kind == "html_block":
                reading.start_block()  # its first line of text says where its prose starts
                read_html(tok.content, self, reading, line)
                reading.end_block()
            elif kind == "inline" and tok.children is not None:
                reading.start_block(line)
                pieces = self._inline(tok.children, reading, line, cell)
                if reading.tables and cell is not None:
                    row_cells.append("".join(pieces).strip())
                reading.end_block()

    def _math_block(self, tok: Token, reading: Reading, line: int) -> None:
        content = tok.content
        if tok.markup == "$$" and "$$" in content and "\n" not in content.strip():
            reading.start_block(line)  # "$$a$$ text $$b$$" on one line: kramdown's inline math
            for k, piece in enumerate(content.split("$$")):
                if k % 2 == 0 and piece.strip():
                    reading.math(line, piece)
            reading.start_block()
            return
        if _HELD not in content:
            reading.display(line, content)
            return
        start, piece, depth = line, [], 0  # a display held across blank lines: each equation from its own line
        for k, text in enumerate(content.split("\n")):
            if text != _HELD or depth > 0:
                piece.append("" if text == _HELD else text)  # inside an environment a blank line goes on with it
                depth += text.count("\\begin{") - text.count("\\end{")
                continue
            if "".join(piece).strip():
                reading.display(start, "\n".join(piece))
            start, piece = line + k + 1, []
        if "".join(piece).strip():
            reading.display(start, "\n".join(piece))

    def _inline(self, children: list[Token], reading: Reading, line: int, cell) -> list[str]:
        plain = []
        for child in children:
            if child.type in ("softbreak", "hardbreak"):
                line += 1
                reading.prose(" ")
                plain.append(" ")
            elif child.type in _MATH_INLINE:
                content = _GITHUB_INLINE.sub(r"\1", child.content)  # $`…`$: GitHub's inline math
                if (child.meta or {}).get("display") and cell is None:  # \[…\] and the like: a block of its own
                    reading.display(line, content)
                else:
                    reading.math(line, content, False, cell)
                line += child.content.count("\n")
                plain.append(f"$${child.content}$$")
            elif child.type == "myst_role" and (child.meta or {}).get("name") == "math":
                reading.math(line, child.content, False, cell)
                plain.append(f"$${child.content}$$")
            elif child.type in ("text", "code_inline"):
                (reading.code if child.type == "code_inline" else reading.plain)(line, child.content)
                plain.append(child.content)
        return plain


_HELD = "\u2060"  # a word joiner: what a blank line inside a display becomes, so that CommonMark keeps the display
_FENCE = re.compile(r"\s{0,3}(```|~~~)")
MAX_HELD = 60  # lines of a display held together across blank lines


def _held_together(source: str) -> str:
    """``source`` with each blank line inside a display that a ``$$`` alone on its line opens and one alone on its
    line closes (no ``$$`` between, at most :data:`MAX_HELD` lines, outside code fences) made non-blank: kramdown
    reads such a display whole, CommonMark would end it at the blank line and read its rest as prose. Line numbers
    are kept; the display's text gets its blank lines back (:meth:`MarkdownReader._math_block`)."""
    if "$$" not in source:
        return source
    lines = source.split("\n")
    fenced, k = False, 0
    while k < len(lines):
        stripped = lines[k].strip()
        if _FENCE.match(lines[k]):
            fenced = not fenced
        elif not fenced and stripped == "$$":
            end = next((j for j in range(k + 1, min(k + 1 + MAX_HELD, len(lines))) if "$$" in lines[j]), None)
            if end is not None and lines[end].strip() == "$$":
                for j in range(k + 1, end):
                    if not lines[j].strip():
                        lines[j] = _HELD
                k = end
        k += 1
    return "\n".join(lines)


def _plain(inline: Token) -> str:
    """A heading's words: its text and code, its math as ``$…$``, without markup or HTML."""
    words = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline"):
            words.append(child.content)
        elif child.type in _MATH_INLINE:
            words.append(f"${child.content}$")
    return "".join(words).strip()


def read_markdown(source: str) -> Reading:
    """The fragments and tables of a Markdown post (kramdown/Jekyll, Hugo, Zola, GitHub)."""
    return MarkdownReader(MARKDOWN).read(source)
