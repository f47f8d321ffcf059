r"""Normalise the field's LaTeX before parsing, and split a fragment into statements.

Sizing commands (``\left``, ``\big``…), spacing, font wrappers and trailing punctuation go;
``align*`` rows become statements (``&=`` continues the previous row's chain); top-level
``, \quad`` separates equations written on one line.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass

_DROP = re.compile(r"\\(?:left|right|bigg|Bigg|big|Big)[lr]?(?![a-zA-Z])|\\(?:displaystyle|nonumber|notag)\b")
_SPACE = re.compile(r"\\(?:quad|qquad)(?![a-zA-Z])|\\[,;:! ]|~|&nbsp;")
_SUBST = [
    (re.compile(r"\\(?:vert|lvert|rvert|mid)(?![a-zA-Z])"), "|"),
    (re.compile(r"\\(?:dfrac|tfrac)(?![a-zA-Z])"), r"\\frac"),
    (re.compile(r"\\(?:ldots|cdots|dotsc|dotsb)(?![a-zA-Z])"), r"\\dots"),
    (re.compile(r"\\(?:mathbf|boldsymbol|bm|mathit)\s*\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\\(?:mathrm|operatorname|textrm|textit|textnormal)\s*\{"), r"\\text{"),
    (re.compile(r"\\leq?(?![a-zA-Z])"), r"\\le"),
    (re.compile(r"\\geq?(?![a-zA-Z])"), r"\\ge"),
    (re.compile(r"\\neq?(?![a-zA-Z])"), r"\\ne"),
    (re.compile(r"\\(?:intercal|top|mathsf\{T\}|mathrm\{T\})(?![a-zA-Z])"), r"\\top"),
    (re.compile(r"\\begin\{(?:pmatrix|matrix)\}"), r"\\begin{bmatrix}"),
    (re.compile(r"\\end\{(?:pmatrix|matrix)\}"), r"\\end{bmatrix}"),
]
_GROUPED = re.compile(r"(?<=\d)(?:\\,|\{,\}|\\ |~)(?=\d{3}(?!\d))")
_ALIGN_BEGIN = re.compile(r"\\begin\{(align\*?|aligned|eqnarray\*?|gather\*?)\}")
_RELATION = re.compile(r"^\s*(=|\\approx|\\le|\\ge|<|>|\\ne)")


@dataclass(frozen=True)
class Statement:
    text: str
    line_offset: int  # lines after the fragment's first line
    continues: bool = False  # an ``&=`` row: its left side is the previous row's last expression


def clean(latex: str) -> str:
    """The fragment with sizing, spacing and font commands removed and synonyms unified."""
    s = _GROUPED.sub("", latex)  # 1\,000\,000 and 1{,}000 are one number
    s = _DROP.sub("", s.replace("\\\\", "\x00"))
    s = _SPACE.sub(" ", s)
    for pattern, repl in _SUBST:
        s = pattern.sub(repl, s)
    s = re.sub(r"\\text\s*\{\s*\}", "", s)
    s = re.sub(r"[ \t]{2,}", " ", s.replace("\x00", "\\\\")).strip()
    return _strip_punctuation(s)


_TEXT_PUNCT = re.compile(r"\\text\{\s*[.,;]\s*\}")


def _strip_punctuation(s: str) -> str:
    """``s`` without its trailing punctuation (``.``, ``,``, ``;``, possibly as ``\\text{.}``), in one pass."""
    end = len(s)
    while True:
        while end and s[end - 1].isspace():
            end -= 1
        if end and s[end - 1] in ".,;":
            end -= 1
            continue
        if end and s[end - 1] == "}":
            start = s.rfind("\\text{", max(0, end - 16), end)
            if start >= 0 and _TEXT_PUNCT.fullmatch(s, start, end):
                end = start
                continue
        return s[:end]


_COMMAND = re.compile(r"\\(begin|end)\{[^}]*\}|\\[a-zA-Z]+|\\.?", re.S)


def _top_level_split(s: str, sep: str) -> list[str]:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if depth == 0 and s.startswith(sep, i):
            parts.append(s[start:i])
            start = i + len(sep)
            i += len(sep)
            continue
        if c == "\\":
            word = _COMMAND.match(s, i).group(0)  # a lone backslash at the end is a word too
            depth += word.startswith("\\begin") - word.startswith("\\end")
            i += len(word)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    parts.append(s[start:])
    return parts


@lru_cache(maxsize=4096)
def statements(latex: str) -> tuple[Statement, ...]:
    return tuple(_statements(latex))


def _align(latex: str) -> tuple[str, int] | None:
    """(rows, where they start) of the first closed alignment environment, in time linear in ``latex``."""
    unclosed = set()  # names with no \end after an earlier \begin: none after a later one either
    for m in _ALIGN_BEGIN.finditer(latex):
        name = m.group(1)
        if name in unclosed:
            continue
        close = latex.find("\\end{" + name + "}", m.end())
        if close < 0:
            unclosed.add(name)
            continue
        return latex[m.end():close], m.end()
    return None


def _statements(latex: str) -> list[Statement]:
    """The statements of a fragment: align rows, lines broken by ``\\\\``, comma-separated equations, or the whole."""
    align = _align(latex)
    base = latex[: len(latex) - len(latex.lstrip())].count("\n")
    if align:
        out = []
        body, start = align
        lines = latex.count("\n", 0, start) - base  # newlines before the current row
        for row in _top_level_split(body, r"\\"):
            lead = len(row) - len(row.lstrip())
            offset = lines + row.count("\n", 0, lead)
            lines += row.count("\n")
            cells = _top_level_split(row, "&")
            keep = [cells[0]]
            for c in cells[1:]:  # drop annotation columns like & \text{(embedding)}
                if re.fullmatch(r"\s*(\\text\{[^{}]*\}|\([^()]*\))?\s*", c):
                    continue
                keep.append(c)
            text = clean(" ".join(keep))
            if text:
                cont = not cells[0].strip() and bool(_RELATION.match(text))
                out.append(Statement(text, offset, cont))
        return out or [Statement(clean(latex), 0)]  # an empty alignment is still one (unparsable) statement
    rows = _top_level_split(latex, r"\\")  # a display broken into lines by \\ outside any environment
    if len(rows) > 1:
        out, lines = [], -base
        for row in rows:
            lead = len(row) - len(row.lstrip())
            text = clean(row)
            if text:
                out += _line_statements(text, lines + row.count("\n", 0, lead), bool(out))
            lines += row.count("\n")
        if out:
            return out
    return _line_statements(clean(latex), 0, False)


def _line_statements(text: str, offset: int, after: bool) -> list[Statement]:
    """One line's statements: comma-separated equations, or the whole; a leading relation continues."""
    parts = [p.strip() for p in _top_level_split(text, ",")]
    if len(parts) > 1 and sum(1 for p in parts if _has_relation(p)) >= 2:
        return [Statement(clean(p), offset) for p in parts if p]
    return [Statement(text, offset, after and bool(_RELATION.match(text)))]


def _has_relation(s: str) -> bool:
    return bool(re.search(r"=|\\approx|\\le|\\ge", s))
