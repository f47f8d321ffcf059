r"""markdown-it rules for the math delimiters that CommonMark and ``dollarmath`` do not know.

- ``\(…\)`` and ``\[…\]`` (MathJax's defaults), and the doubled ``\\(…\\)`` / ``\\[…\\]`` that
  Jekyll and Zola posts write so that the backslash survives Markdown;
- Hugo and Zola shortcodes around KaTeX: ``{{< katex >}}…{{< /katex >}}`` (also ``{{% … %}}``,
  ``display`` for a display equation), ``{% katex(block=true) %}…{% end %}`` and Zola's inline
  ``{{ katex(body="…") }}``;
- Quarto's labelled display equations ``$$ … $$ {#eq-name}``;
- amsmath's top-level environments (``mdit_py_plugins.amsmath``), only where the environment ends at the end of the
  block's last line.

Each is a tokenizer rule: it runs at a position of markdown-it's own scan, so code spans and code
blocks (consumed by their own rules first) are never read as math.
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from mdit_py_plugins.amsmath import RE_OPEN, amsmath_block, amsmath_plugin
from markdown_it.rules_inline import StateInline

#: (open, close, display) for the bracket delimiters, longest first.
BRACKETS = (("\\\\(", "\\\\)", False), ("\\\\[", "\\\\]", True), ("\\(", "\\)", False), ("\\[", "\\]", True))
#: Shortcode names that hold TeX in Hugo and Zola themes.
SHORTCODES = ("katex", "math", "tex", "mathjax", "latex")
_ALT = ["paragraph", "reference", "blockquote", "list", "footnote_def"]


def _push(state, kind: str, content: str, display: bool, markup: str):
    token = state.push(kind, "math", 0)
    token.content = content
    token.markup = markup
    token.meta = {"display": display}
    return token


# --------------------------------------------------------------------------- brackets

def _unclosed(state, key: str, pos: int) -> bool:
    """Whether a search for ``key`` from ``pos`` is known to fail: once no closing delimiter follows a
    position, none follows a later one, so each failed search is remembered (linear time)."""
    return pos >= state.env.setdefault("symtf_unclosed", {}).get((id(state.src), key), 1 << 62)


def _remember_unclosed(state, key: str, pos: int) -> None:
    memo = state.env.setdefault("symtf_unclosed", {})
    memo[(id(state.src), key)] = min(pos, memo.get((id(state.src), key), pos))


def _bracket_inline(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src[pos] != "\\":
        return False
    for open_, close, display in BRACKETS:
        if src.startswith(open_, pos):
            if _unclosed(state, close, pos):
                return False
            end = src.find(close, pos + len(open_))
            if end < 0:
                _remember_unclosed(state, close, pos)
                return False
            if not src[pos + len(open_): end].strip():
                return False
            if not silent:
                _push(state, "math_inline_double" if display else "math_inline", src[pos + len(open_): end],
                      display, open_)
            state.pos = end + len(close)
            return True
    return False


def _display_block(opens: tuple[tuple[str, str], ...], label_open: str | None = None):
    """A block rule for a display equation from a line that starts with an opening delimiter to the
    first line that ends with its closing one (optionally followed by ``{#label}``); no blank lines."""

    def rule(state: StateBlock, start: int, end_line: int, silent: bool) -> bool:
        if state.sCount[start] - state.blkIndent >= 4:
            return False
        begin = state.bMarks[start] + state.tShift[start]
        first = state.src[begin: state.eMarks[start]]
        pair = next(((o, c) for o, c in opens if first.startswith(o)), None)
        if pair is None:
            return False
        open_, close = pair
        failed = state.env.setdefault("symtf_display_failed", {})
        if start <= failed.get((id(state.src), open_), -1):  # an earlier scan saw no close up to there
            return False
        lines = [first[len(open_):]]
        line = start
        while True:
            text = lines[-1].rstrip()
            label = ""
            if label_open and text.endswith("}") and label_open in text:
                cut = text.rindex(label_open)
                text, label = text[:cut].rstrip(), text[cut:]
            if text.endswith(close) and (line > start or len(text) >= len(close)):
                lines[-1] = text[: len(text) - len(close)]
                break
            line += 1
            nxt = state.src[state.bMarks[line]: state.eMarks[line]] if line < end_line else ""
            if not nxt.strip():
                failed[(id(state.src), open_)] = line
                return False
            lines.append(nxt)
        if silent:
            return True
        token = _push(state, "math_block_label" if label else "math_block", "\n".join(lines), True, open_)
        token.block = True
        token.info = label.strip("{}#") if label else ""
        token.map = [start, line + 1]
        state.line = line + 1
        return True

    return rule


def brackets_plugin(md: MarkdownIt) -> None:
    r"""``\(…\)``, ``\[…\]`` and their doubled forms, inline and as display blocks."""
    md.inline.ruler.before("escape", "math_brackets", _bracket_inline)
    md.block.ruler.before("fence", "math_block_brackets",
                          _display_block(tuple((o, c) for o, c, d in BRACKETS if d)), {"alt": _ALT})


def _ends_at_its_end(text: str) -> bool:
    r"""Does the environment that ``text`` opens (``\begin{bmatrix}``) close at ``text``'s end, counting nested
    ones of its name? ``\begin{bmatrix} … \end{bmatrix}, W \in \mathbb{R}^{d}`` closes mid-line: what follows
    is not inside it."""
    opened = re.match(RE_OPEN, text)
    if opened is None:
        return False
    name = re.escape(opened.group(1) + opened.group(2))
    depth = 0
    for tag in re.finditer(r"\\(begin|end)\{" + name + r"\}", text):
        depth += 1 if tag.group(1) == "begin" else -1
        if depth == 0:
            return not text[tag.end():].strip()
    return False


def _display_open_above(state: StateBlock, start: int, most: int = 60) -> bool:
    """Is a ``$$`` or ``\\[`` display open on the paragraph's lines above ``start`` (back to a blank line, at most
    ``most`` lines) and closed in the paragraph (before its blank line)? Then an environment starting at
    ``start`` is inside that display, not a block of its own; one the paragraph does not close (a ``$$`` display longer
    than what :func:`markdown._held_together` holds) leaves the environment to be read as a display of its own."""
    text = []
    line = start - 1
    while line >= 0 and start - line <= most and not state.isEmpty(line):
        text.append(state.src[state.bMarks[line]: state.eMarks[line]])
        line -= 1
    above = "\n".join(text)
    close = "$$" if above.count("$$") % 2 == 1 else "\\]" if above.count("\\[") > above.count("\\]") else None
    line = start  # open: inside it only if the paragraph closes it before its blank line
    while close is not None and line < state.lineMax and line - start <= most and not state.isEmpty(line):
        if close in state.src[state.bMarks[line]: state.eMarks[line]]:
            return True
        line += 1
    return False


def _amsmath_whole(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    r"""amsmath's block rule, except where its environment closes before the line it stops at: the plugin looks
    for the first *line ending* with ``\end{name}``, so an environment closed mid-line (text after it) would run on
    over blank lines and prose to a later one, and that prose would be lost."""
    if silent and state.parentType == "paragraph" and _display_open_above(state, start):
        return False  # inside ``$$ … $$`` that the paragraph's inline math will read whole
    line = state.line
    if not amsmath_block(state, start, end, True):
        return False
    stop, state.line = state.line, line
    if not _ends_at_its_end(state.src[state.bMarks[start] + state.tShift[start]: state.eMarks[stop - 1]]):
        return False
    return True if silent else amsmath_block(state, start, end, False)


def amsmath_closed_plugin(md: MarkdownIt) -> None:
    """amsmath's environments as display blocks (:func:`_amsmath_whole`)."""
    amsmath_plugin(md)
    md.block.ruler.at("amsmath", _amsmath_whole, {"alt": _ALT})


def quarto_labels_plugin(md: MarkdownIt) -> None:
    """Quarto's ``$$ … $$ {#eq-name}``: a display equation whose label follows its closing ``$$``."""
    md.block.ruler.before("fence", "math_block_quarto", _display_block((("$$", "$$"),), "{#"), {"alt": _ALT})


# --------------------------------------------------------------------------- shortcodes

def _tag(src: str, pos: int) -> tuple[str, str, str, int] | None:
    """``(kind, name, arguments, end)`` for a shortcode tag at ``pos``: ``{{< name args >}}``,
    ``{{% name args %}}`` (kind ``hugo``) or ``{% name(args) %}`` (kind ``zola``)."""
    for kind, open_, close in (("hugo", "{{<", ">}}"), ("hugo", "{{%", "%}}"), ("zola", "{%", "%}")):
        if src.startswith(open_, pos):
            end = src.find(close, pos + len(open_))
            if end < 0 or "\n" in src[pos:end]:
                return None
            body = src[pos + len(open_): end].strip()
            name = body.split("(")[0].split()[0] if body else ""
            return kind, name, body[len(name):], end + len(close)
    return None


def _zola_call(state: StateInline, silent: bool) -> bool:
    """Zola's inline form ``{{ katex(body="…", block=true) }}``: the TeX is the ``body`` string."""
    src, pos = state.src, state.pos
    if _unclosed(state, "}}", pos):
        return False
    end = src.find("}}", pos)
    if end < 0:
        _remember_unclosed(state, "}}", pos)
    if end < 0 or "\n" in src[pos:end]:
        return False
    call = src[pos + 2: end].strip()
    name, _, args = call.partition("(")
    if name.strip() not in SHORTCODES or not args.endswith(")") or "body=" not in args:
        return False
    rest = args[args.index("body=") + 5:]
    quote = rest[:1]
    close = rest.find(quote, 1) if quote in ("'", '"', "`") else -1
    if close < 0:
        return False
    if not silent:
        display = "block=true" in args.replace(" ", "")
        _push(state, "math_inline_double" if display else "math_inline", rest[1:close], display, name.strip())
    state.pos = end + 2
    return True


def _shortcode_inline(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if src.startswith("{{", pos) and not src.startswith(("{{<", "{{%"), pos):
        return _zola_call(state, silent)
    tag = _tag(src, pos)
    if tag is None or tag[1] not in SHORTCODES:
        return False
    kind, name, args, start = tag
    closing = ("/" + name,) if kind == "hugo" else ("end", "end" + name)
    if _unclosed(state, closing[0], pos):
        return False
    scan = start
    while True:  # the matching closing tag: the first tag named /name (hugo) or end (zola)
        scan = src.find("{", scan)
        if scan < 0:
            _remember_unclosed(state, closing[0], pos)
            return False
        found = _tag(src, scan)
        if found is not None and found[1] in closing:
            break
        scan += 1
    if not silent:
        display = "display" in args or "block=true" in args.replace(" ", "")
        _push(state, "math_inline_double" if display else "math_inline", src[start:scan], display, name)
    state.pos = found[3]
    return True


def shortcodes_plugin(md: MarkdownIt) -> None:
    """Hugo's ``{{< katex >}}`` and Zola's ``{% katex() %}`` shortcodes (names in :data:`SHORTCODES`)."""
    md.inline.ruler.before("escape", "math_shortcode", _shortcode_inline)
