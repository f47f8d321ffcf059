r"""Math in Quarto documents (``.qmd``): Pandoc Markdown with ``$…$``, ``$$…$$`` and labelled
display equations ``$$ … $$ {#eq-name}``. Every ```` ```{lang} ```` block is an executable code
cell and is skipped; YAML front matter is skipped.
"""
from __future__ import annotations

from mdit_py_plugins.front_matter import front_matter_plugin

from .fragments import Reading
from .markdown import Dialect, MarkdownReader, _code, _dollars
from .mdplugins import amsmath_closed_plugin, brackets_plugin, quarto_labels_plugin

QUARTO = Dialect("quarto", (front_matter_plugin, quarto_labels_plugin, brackets_plugin, _dollars,
                            amsmath_closed_plugin), _code)


def read_quarto(source: str) -> Reading:
    """The fragments and tables of a Quarto document."""
    return MarkdownReader(QUARTO).read(source)
