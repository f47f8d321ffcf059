r"""Splice generated fragments into a Markdown post between markers.

A region is the lines between a begin and an end marker, each alone on its line::

    <!-- symtf:begin full-one-layer -->
    | Activation Name | Expression | Shape |
    ...
    <!-- symtf:end full-one-layer -->

In Quarto the markers are the same; MyST also takes ``% symtf:begin NAME`` (its comment syntax);
LaTeX takes ``% symtf:begin NAME`` … ``% symtf:end NAME``, and its regions get LaTeX (a
``tabular``, ``\[ … \]``, ``align*``: :mod:`symtf.latex.markdown_latex`).

``NAME`` is a table id (``symtf.latex.tables``), an equation id (``symtf.latex.equations``) or a
worked-example id (``symtf.latex.example``). :func:`render_text` replaces each region's lines by
the fragment and leaves every other byte alone, so rendering twice changes nothing. A marker inside
a code block (fenced or indented, as markdown-it-py's CommonMark parser sees it) is text, not a
marker; a byte-order mark before the first line is kept and does not hide a marker there.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..errors import InputError

BEGIN = re.compile(r"^\s*<!--\s*symtf:begin\s+(?P<name>\S+)\s*-->\s*$")
END = re.compile(r"^\s*<!--\s*symtf:end\s+(?P<name>\S+)\s*-->\s*$")
PERCENT_BEGIN = re.compile(r"^\s*%\s*symtf:begin\s+(?P<name>\S+)\s*$")
PERCENT_END = re.compile(r"^\s*%\s*symtf:end\s+(?P<name>\S+)\s*$")
#: The marker lines of each format, as (begin, end) pairs: an HTML comment in Markdown and Quarto,
#: also a ``%`` comment in MyST, a ``%`` comment in LaTeX.
MARKERS = {
    "markdown": ((BEGIN, END),),
    "quarto": ((BEGIN, END),),
    "myst": ((BEGIN, END), (PERCENT_BEGIN, PERCENT_END)),
    "latex": ((PERCENT_BEGIN, PERCENT_END),),
}


class RenderError(InputError):
    """A malformed marker or an unknown region name; nothing is written."""


@dataclass(frozen=True)
class Region:
    name: str
    line: int  # 1-based line of the begin marker
    changed: bool


@dataclass(frozen=True)
class Rendered:
    text: str
    regions: tuple[Region, ...]

    @property
    def stale(self) -> tuple[Region, ...]:
        return tuple(r for r in self.regions if r.changed)


def _table(name: str) -> str:
    from .tables import KEY_FIGURES_ID, key_figures_markdown, to_markdown, table

    return key_figures_markdown() if name == KEY_FIGURES_ID else to_markdown(table(name))


def _equation(name: str) -> str:
    from .equations import equation

    return equation(name).markdown()


def _example(name: str) -> str:
    from .example import named_example

    return named_example(name).markdown()


@lru_cache(maxsize=1)
def producers() -> dict[str, Callable[[str], str]]:
    """Every region name symtf can fill, mapped to the function that makes its text."""
    from .equations import EQUATION_IDS
    from .example import EXAMPLE_IDS
    from .tables import KEY_FIGURES_ID, TABLE_IDS

    names: dict[str, Callable[[str], str]] = {}
    for ids, make in (((*TABLE_IDS, KEY_FIGURES_ID), _table), (EQUATION_IDS, _equation), (EXAMPLE_IDS, _example)):
        for name in ids:
            if name in names:
                raise RuntimeError(f"region name {name!r} is defined twice")  # a bug in symtf, not user input
            names[name] = make
    return names


def fragment(name: str) -> str:
    """The generated text of region ``name`` (no trailing newline)."""
    try:
        make = producers()[name]
    except KeyError:
        raise RenderError(f"unknown region {name!r}; known: {', '.join(sorted(producers()))}") from None
    return make(name).rstrip("\n")


_LINE = re.compile(r"[^\n]*\n|[^\n]+$")  # lines as Markdown counts them: ended by \n only
_BOM = "\ufeff"


def _code_lines(text: str) -> set[int]:
    """The 0-based numbers of the lines inside a fenced or indented code block."""
    from markdown_it import MarkdownIt

    # markdown-it reads a lone \r as a line break; keep it inside the line so line numbers agree
    tokens = MarkdownIt("commonmark").enable("table").parse(re.sub(r"\r(?!\n)", " ", text))
    return {i for t in tokens if t.type in ("fence", "code_block") and t.map for i in range(*t.map)}


def _latex_code_lines(text: str) -> set[int]:
    """The 0-based numbers of the lines inside ``verbatim``-like environments of a LaTeX file."""
    from pylatexenc.latexwalker import LatexEnvironmentNode, LatexGroupNode, LatexMacroNode, LatexWalker

    from ..sources.latex import SKIPPED_ENVIRONMENTS

    walker = LatexWalker(text, tolerant_parsing=True)
    lines: set[int] = set()
    todo = list(walker.get_latex_nodes()[0])
    while todo:
        node = todo.pop()
        if isinstance(node, LatexEnvironmentNode) and node.environmentname in SKIPPED_ENVIRONMENTS:
            first = walker.pos_to_lineno_colno(node.pos)[0]
            last = walker.pos_to_lineno_colno(node.pos + node.len)[0]
            lines.update(range(first - 1, last))
        elif isinstance(node, (LatexEnvironmentNode, LatexGroupNode)):
            todo.extend(n for n in node.nodelist or [] if n is not None)
        elif isinstance(node, LatexMacroNode) and node.nodeargd:
            todo.extend(n for n in node.nodeargd.argnlist if n is not None)
    return lines


def _marker(line: str, syntaxes, which: int):
    """The begin (``which`` 0) or end (1) marker match of ``line`` in any of the format's syntaxes."""
    for pair in syntaxes:
        found = pair[which].match(line)
        if found:
            return found
    return None


def _newline(line: str) -> str:
    return "\r\n" if line.endswith("\r\n") else "\n"


def render_text(text: str, source: str = "<text>", fmt: str = "markdown") -> Rendered:
    """``text`` with every marked region regenerated; raises ``RenderError`` (naming ``source`` and the line).

    ``fmt`` is the file's format (a key of :data:`MARKERS`): it says which lines are markers and, for
    ``latex``, that the regions hold LaTeX. Each distinct region name is generated once, however many
    regions carry it.
    """
    if fmt not in MARKERS:
        raise RenderError(f"{source}: symtf render writes Markdown, MyST, Quarto and LaTeX files, not {fmt}")
    syntaxes = MARKERS[fmt]
    bom = _BOM if text.startswith(_BOM) else ""
    text = text[len(bom):]
    lines = _LINE.findall(text)
    code = _latex_code_lines(text) if fmt == "latex" else _code_lines(text)
    known = producers()
    made: dict[str, str] = {}
    out: list[str] = [bom]
    regions: list[Region] = []
    problems: list[str] = []
    open_name, open_line, body = None, 0, []
    for number, line in enumerate(lines, start=1):
        begin, end = (None, None) if number - 1 in code else (_marker(line, syntaxes, 0), _marker(line, syntaxes, 1))
        if begin:
            if open_name is not None:
                problems.append(f"{source}:{number}: symtf:begin {begin['name']} inside region "
                                f"{open_name!r} opened at line {open_line} (regions do not nest)")
                continue
            open_name, open_line, body = begin["name"], number, []
            if open_name not in known:
                problems.append(f"{source}:{number}: unknown region {open_name!r}; known: {', '.join(sorted(known))}")
            out.append(line)
        elif end:
            if open_name is None:
                problems.append(f"{source}:{number}: symtf:end {end['name']} without a symtf:begin")
                out.append(line)
                continue
            if end["name"] != open_name:
                problems.append(f"{source}:{number}: symtf:end {end['name']} closes region {open_name!r} "
                                f"opened at line {open_line}")
            old = "".join(body)
            new = old
            if not problems:
                if open_name not in made:
                    made[open_name] = fragment(open_name)
                    if fmt == "latex":
                        from .markdown_latex import markdown_to_latex

                        made[open_name] = markdown_to_latex(made[open_name])
                nl = _newline(lines[open_line - 1])
                new = nl.join(made[open_name].split("\n")) + nl
            regions.append(Region(open_name, open_line, new != old))
            out.append(new)
            out.append(line)
            open_name = None
        elif open_name is not None:
            body.append(line)
        else:
            out.append(line)
    if open_name is not None:
        closing = f"% symtf:end {open_name}" if fmt == "latex" else f"<!-- symtf:end {open_name} -->"
        problems.append(f"{source}:{open_line}: symtf:begin {open_name} is never closed (expected {closing})")
    if problems:
        raise RenderError("; ".join(problems))
    return Rendered("".join(out), tuple(regions))
