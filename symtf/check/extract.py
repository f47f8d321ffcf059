r"""Find the math of a Markdown post, with 1-based source lines.

Kramdown writes ``$$…$$`` both inline and as a display block; ``$…$``, ``\(…\)`` and ``\[…\]``
are read too. Code spans and code blocks are never math. Tables keep their cells so that the
Shape column and key-figure tables can be checked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin


@dataclass
class Fragment:
    line: int
    latex: str
    display: bool
    section: tuple[str, ...]  # headings in force, outermost first
    block: int  # paragraph / cell id: fragments of one block are neighbours in the prose
    before: str = ""  # prose between the previous fragment of the block and this one
    after: str = ""  # prose between this fragment and the next one of the block
    cell: tuple[int, int, int] | None = None  # (table, row, column) for a fragment in a table cell


@dataclass
class Table:
    line: int
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)  # (line, plain cell texts)


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    dollarmath_plugin(md, double_inline=True, allow_digits=True, allow_space=True)
    return md


_BRACKETS = (re.compile(r"\\\((.+?)\\\)"), re.compile(r"\\\[(.+?)\\\]", re.S))


def _dollars(source: str) -> str:
    r"""``\(…\)`` → ``$…$`` and ``\[…\]`` → ``$$…$$`` (Markdown would eat the backslashes), lines kept."""
    source = _BRACKETS[0].sub(lambda m: "$" + m.group(1) + "$", source)
    return _BRACKETS[1].sub(lambda m: "$$" + m.group(1) + "$$", source)


def extract(source: str) -> tuple[list[Fragment], list[Table]]:
    """Every math fragment of ``source`` in order, and its tables."""
    source = _dollars(source)
    tokens = _parser().parse(source)
    frags: list[Fragment] = []
    tables: list[Table] = []
    section: list[tuple[int, str]] = []
    block = 0
    line = 1
    cell = None
    row_line = line
    row_cells: list[str] = []
    in_head = False
    for i, tok in enumerate(tokens):
        if tok.map:
            line = tok.map[0] + 1
        if tok.type == "heading_open":
            level = int(tok.tag[1])
            title = tokens[i + 1].content
            section = [s for s in section if s[0] < level] + [(level, re.sub(r"<[^>]+>", "", title).strip())]
        elif tok.type == "table_open":
            tables.append(Table(line, []))
        elif tok.type == "thead_open":
            in_head = True
        elif tok.type == "tbody_open":
            in_head = False
        elif tok.type == "tr_open":
            row_cells = []
            col = 0
        elif tok.type == "tr_close":
            if in_head:
                tables[-1].header = row_cells
            else:
                tables[-1].rows.append((row_line, row_cells))
        elif tok.type in ("th_open", "td_open"):
            row_line = line
            cell = (len(tables) - 1, -1 if in_head else len(tables[-1].rows), col)
            col += 1
        elif tok.type in ("th_close", "td_close"):
            cell = None
        elif tok.type == "math_block" or tok.type == "math_block_label":
            block += 1
            start = tok.map[0] + 1 if tok.map else line
            first = source.splitlines()[start - 1] if start - 1 < len(source.splitlines()) else ""
            offset = 1 if first.strip() in ("$$", "$$$") else 0
            if "$$" in tok.content and "\n" not in tok.content.strip():  # "$$a$$ text $$b$$" on one line
                for k, piece in enumerate(tok.content.split("$$")):
                    if k % 2 == 0 and piece.strip():
                        frags.append(Fragment(start, piece, False, tuple(s[1] for s in section), block))
                continue
            frags.append(Fragment(start + offset, tok.content, True, tuple(s[1] for s in section), block))
        elif tok.type == "inline":
            block += 1
            sub_line = line
            text = ""
            plain = ""
            last: Fragment | None = None
            for child in tok.children or []:
                if child.type in ("softbreak", "hardbreak"):
                    sub_line += 1
                    text += " "
                    plain += " "
                elif child.type in ("math_inline", "math_inline_double", "math_single"):
                    frag = Fragment(sub_line, child.content, False, tuple(s[1] for s in section), block,
                                    before=text, cell=cell)
                    if last is not None:
                        last.after = text
                    frags.append(frag)
                    last, text = frag, ""
                    plain += f"$${child.content}$$"
                elif child.type == "text":
                    text += child.content
                    plain += child.content
                elif child.type == "code_inline":
                    text += child.content
                    plain += child.content
            if last is not None:
                last.after = text
            if tables and cell is not None:
                row_cells.append(plain.strip())
    return frags, tables
