"""Find the math of a document, with 1-based source lines: the readers of :mod:`symtf.sources`.

``extract`` reads Markdown unless told another format (or given a :class:`symtf.sources.Source`,
which carries its format). Code spans and code blocks are never math; tables keep their cells so
that the Shape column and key-figure tables can be checked.
"""
from __future__ import annotations

from symtf.sources import Fragment, Source, Table, read

__all__ = ["Fragment", "Source", "Table", "extract"]


def extract(source: str, fmt: str | None = None) -> tuple[list[Fragment], list[Table]]:
    """Every math fragment of ``source`` in order, and its tables."""
    reading = read(source, fmt)
    return reading.fragments, reading.tables
