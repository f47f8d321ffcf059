r"""Math in MyST Markdown (Jupyter Book, Sphinx): ``dollarmath``, ``amsmath``, the ``{math}`` role,
and the ``{math}`` directive, whose body holds one equation per blank-line-separated chunk after
its options (``:label: eq-x``). The body of any other directive that holds prose (``{note}``,
``{admonition}``, ``{dropdown}`` …) is read as Markdown; code directives are skipped.
"""
from __future__ import annotations

from markdown_it.token import Token
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from .fragments import Reading
from .markdown import Dialect, MarkdownReader, _dollars
from .mdplugins import amsmath_closed_plugin, brackets_plugin

#: Directives whose body is not Markdown: never read for math.
CODE_DIRECTIVES = frozenset({
    "code", "code-block", "code-cell", "sourcecode", "literalinclude", "raw", "eval-rst", "include",
    "mermaid", "graphviz", "toctree", "bibliography", "csv-table", "glue", "glue:math", "image", "jupyter-execute",
})


def directive_body(token: Token) -> tuple[str, str, int]:
    """``(name, body, skipped)``: the directive's name, its body without the options, and how many
    lines the options took (``:key: value`` lines, or a ``---`` YAML block)."""
    info = token.info.strip()
    name = info[1: info.index("}")] if info.startswith("{") and "}" in info else ""
    lines = token.content.split("\n")
    skipped = 0
    if lines and lines[0].strip() == "---":
        close = next((k for k in range(1, len(lines)) if lines[k].strip() == "---"), None)
        if close is not None:
            skipped = close + 1
    else:
        while skipped < len(lines) and lines[skipped].startswith(":") and lines[skipped].count(":") >= 2:
            skipped += 1
    return name, "\n".join(lines[skipped:]), skipped


def myst_fence(reader: MarkdownReader, token: Token, line: int, reading: Reading) -> bool:
    name, body, skipped = directive_body(token)
    if not name or name in CODE_DIRECTIVES:
        return False
    first = line + 1 + skipped  # the fence's opening line, then the options
    if name == "math":
        chunk: list[str] = []
        start = first
        for k, text in enumerate(body.split("\n") + [""]):
            if text.strip():
                if not chunk:
                    start = first + k
                chunk.append(text)
            elif chunk:
                reading.display(start, "\n".join(chunk))
                chunk = []
        return True
    reader.read(body, reading, first - 1)
    return True


MYST = Dialect("myst", (front_matter_plugin, myst_block_plugin, myst_role_plugin, colon_fence_plugin,
                        brackets_plugin, _dollars, amsmath_closed_plugin), myst_fence)


def read_myst(source: str) -> Reading:
    """The fragments and tables of a MyST document."""
    return MarkdownReader(MYST).read(source)
