r"""Math in LaTeX papers and notes (``.tex``), read with ``pylatexenc``'s LaTeX walker.

Found: inline ``$…$`` and ``\(…\)``, display ``$$…$$`` and ``\[…\]``, and the display
environments of :data:`DISPLAY_ENVIRONMENTS` (``equation``, ``align`` …); ``tabular`` becomes a
table whose first row is the header. Sectioning commands give the headings (``\title`` is the
outermost). Comments, ``verbatim`` and listings, and the arguments of commands that hold no prose
(``\label``, ``\cite``, ``\newcommand`` …) are skipped; the preamble holds no fragments.
"""
from __future__ import annotations

import re

from pylatexenc.latexwalker import (LatexCharsNode, LatexCommentNode, LatexEnvironmentNode, LatexGroupNode,
                                    LatexMacroNode, LatexMathNode, LatexSpecialsNode, LatexWalker)

from .fragments import Reading, Table, unwrap

DISPLAY_ENVIRONMENTS = frozenset(
    name + star for name in ("equation", "align", "gather", "multline", "eqnarray", "flalign", "alignat",
                             "displaymath") for star in ("", "*"))
SKIPPED_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "Verbatim", "lstlisting", "minted", "comment",
                                  "filecontents", "tikzpicture", "thebibliography"})
TABLE_ENVIRONMENTS = frozenset({"tabular", "tabular*", "tabularx", "longtable"})
#: Heading level of each sectioning command (``\title`` is the document's ``#``).
HEADINGS = {"title": 1, "part": 1, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4,
            "paragraph": 5, "subparagraph": 6}
#: Commands whose arguments are not prose (nothing in them is read).
SKIPPED_MACROS = frozenset({
    "label", "ref", "eqref", "cref", "Cref", "autoref", "pageref", "cite", "citep", "citet", "nocite",
    "newcommand", "renewcommand", "providecommand", "def", "DeclareMathOperator", "newenvironment",
    "usepackage", "documentclass", "input", "include", "includegraphics", "bibliography",
    "bibliographystyle", "url", "verb", "hline", "toprule", "midrule", "bottomrule", "cline", "author",
    "date", "vspace", "hspace", "setlength", "maketitle", "tableofcontents",
})
_RULES = ("hline", "toprule", "midrule", "bottomrule", "cline")


class LatexReader:
    """Walks pylatexenc's node tree of a whole ``.tex`` file into a :class:`Reading`."""

    def __init__(self, source: str):
        self.source = source
        self.walker = LatexWalker(source, tolerant_parsing=True)
        self.reading = Reading()
        self.cell: tuple[int, int, int] | None = None
        self.plain: list[str] | None = None  # the current table cell's text

    def line(self, pos: int) -> int:
        return self.walker.pos_to_lineno_colno(pos)[0]

    def read(self) -> Reading:
        nodes, _, _ = self.walker.get_latex_nodes()
        body = next((n for n in nodes if isinstance(n, LatexEnvironmentNode) and n.environmentname == "document"),
                    None)
        if body is not None:  # the preamble gives the title only
            for node in nodes:
                if isinstance(node, LatexMacroNode) and node.macroname == "title":
                    self.macro(node)
        self.reading.start_block()
        self.walk(body.nodelist if body is not None else nodes)
        self.reading.end_block()
        return self.reading

    # ------------------------------------------------------------------ nodes
    def walk(self, nodes) -> None:
        for node in nodes or []:
            if node is None or isinstance(node, LatexCommentNode):
                continue
            if isinstance(node, LatexCharsNode):
                self.chars(node.chars, node.pos)
            elif isinstance(node, LatexMathNode):
                self.math(node)
            elif isinstance(node, LatexEnvironmentNode):
                self.environment(node)
            elif isinstance(node, LatexMacroNode):
                self.macro(node)
            elif isinstance(node, LatexGroupNode):
                self.walk(node.nodelist)
            elif isinstance(node, LatexSpecialsNode):
                self.text(" " if node.specials_chars == "~" else node.specials_chars)

    def text(self, text: str, line: int | None = None) -> None:
        self.reading.prose(text, line)
        if self.plain is not None:
            self.plain.append(text)

    def chars(self, chars: str, pos: int) -> None:
        line = self.line(pos)
        for k, para in enumerate(chars.replace("\r", "").split("\n\n")):
            if k and self.cell is None:
                self.reading.start_block()  # a blank line ends the paragraph
            lead = len(para) - len(para.lstrip())
            self.text(" ".join(para.split("\n")) if para.strip() else (" " if para else ""),
                      line + para[:lead].count("\n"))
            line += para.count("\n") + 2

    def math(self, node: LatexMathNode) -> None:
        open_, close = node.delimiters
        verbatim = node.latex_verbatim()
        latex = verbatim[len(open_): len(verbatim) - len(close)]
        line = self.line(node.pos + len(open_))
        if node.displaytype == "display" and self.cell is None:
            self.reading.display(line, latex)
        else:
            self.reading.math(line, latex, cell=self.cell)
            if self.plain is not None:
                self.plain.append(f"$${latex}$$")

    def environment(self, node: LatexEnvironmentNode) -> None:
        name = node.environmentname
        if name in SKIPPED_ENVIRONMENTS:
            return
        if name in DISPLAY_ENVIRONMENTS:
            self.reading.display(self.line(node.pos), unwrap(name, _without_labels(node)))
        elif name in TABLE_ENVIRONMENTS and self.cell is None:
            self.table(node)
        else:
            if name in ("itemize", "enumerate", "description", "figure", "table", "abstract", "center"):
                self.reading.start_block()
            self.walk(node.nodelist)

    def macro(self, node: LatexMacroNode) -> None:
        name = node.macroname
        args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
        if name in HEADINGS:
            title = args[-1] if args else None
            nodes = title.nodelist if isinstance(title, LatexGroupNode) else []
            self.reading.heading(HEADINGS[name], _title(nodes), self.line(node.pos))
            self.reading.start_block(self.line(node.pos))  # the title is a block, its math fragments,
            self.walk(nodes)  # as a Markdown heading's are
            self.reading.start_block()
        elif name in ("item", "par"):
            self.reading.start_block()
        elif name == "\\":
            self.text(" ")
        elif name not in SKIPPED_MACROS:
            for arg in args:
                self.walk([arg])

    # ------------------------------------------------------------------ tables
    def table(self, node: LatexEnvironmentNode) -> None:
        reading = self.reading
        reading.end_block()
        table = Table(self.line(node.pos), [])
        reading.tables.append(table)
        index = len(reading.tables) - 1
        rows: list[list[list]] = [[[]]]  # rows of cells of nodes
        for child in node.nodelist or []:
            if isinstance(child, LatexSpecialsNode) and child.specials_chars == "&":
                rows[-1].append([])
            elif isinstance(child, LatexMacroNode) and child.macroname == "\\":
                rows.append([[]])
            elif not (isinstance(child, LatexMacroNode) and child.macroname in _RULES):
                rows[-1][-1].append(child)
        rows = [r for r in rows if any(_content(cell) for cell in r)]
        for r, row in enumerate(rows):
            texts = []
            first = next((n for cell in row for n in cell if _content([n])), None)
            for c, cell in enumerate(row):
                reading.start_block()
                self.cell, self.plain = (index, r - 1, c), []
                self.walk(cell)
                texts.append(" ".join("".join(self.plain).split()))
                self.cell, self.plain = None, None
                reading.end_block()
            if r == 0:
                table.header = texts
            else:
                table.rows.append((self.line(first.pos) if first is not None else table.line, texts))
        reading.start_block()


def _without_labels(node: LatexEnvironmentNode) -> str:
    r"""The environment's source without its ``\label{…}`` commands (a name, not math)."""
    text, start = node.latex_verbatim(), node.pos
    for child in reversed(node.nodelist or []):
        if isinstance(child, LatexMacroNode) and child.macroname == "label":
            text = text[: child.pos - start] + text[child.pos - start + child.len:]
    return text


def _content(nodes) -> bool:
    return any(not (isinstance(n, LatexCharsNode) and not n.chars.strip()) and not isinstance(n, LatexCommentNode)
               for n in nodes)


def _title(nodes) -> str:
    """A heading's words: its text, its math as ``$…$``."""
    words = []
    for node in nodes:
        if isinstance(node, LatexCharsNode):
            words.append(node.chars)
        elif isinstance(node, LatexMathNode):
            words.append(node.latex_verbatim().replace("\\(", "$").replace("\\)", "$"))
        elif isinstance(node, LatexGroupNode):
            words.append(_title(node.nodelist))
        elif isinstance(node, LatexMacroNode) and node.nodeargd and node.macroname not in SKIPPED_MACROS:
            words.append(_title([a for a in node.nodeargd.argnlist if a is not None]))
    return " ".join("".join(words).split())


#: Display shorthands physicists' and mathematicians' preambles define (``\\newcommand{\\beq}{\\begin{equation}}``),
#: often missing from a chapter that a book's main file inputs: (opening, closing, environment).
DISPLAY_SHORTHANDS = (("beq", "eeq", "equation"), ("beqa", "eeqa", "eqnarray"), ("bea", "eea", "eqnarray"),
                      ("be", "ee", "equation"), ("beqn", "eeqn", "equation*"))


def _shorthand_displays(source: str) -> str:
    r"""``source`` with each pair of a display shorthand (``\beq … \eeq``) written as its environment, where the
    file writes the pair strictly alternating, opening first (no other use of those names); lines are kept."""
    for opening, closing, env in DISPLAY_SHORTHANDS:
        marks = re.compile(r"\\(" + opening + "|" + closing + r")(?![A-Za-z@])")
        found = [m.group(1) for m in marks.finditer(source)]
        if not found or len(found) % 2 or any(f != (opening if k % 2 == 0 else closing) for k, f in enumerate(found)):
            continue
        source = marks.sub(lambda m: f"\\begin{{{env}}}" if m.group(1) == opening else f"\\end{{{env}}}", source)
    return source


def read_latex(source: str) -> Reading:
    """The fragments and tables of a LaTeX document."""
    return LatexReader(_shorthand_displays(source)).read()
