"""Readers of the formats writers publish math in: each finds the math fragments and tables of one
format with that format's own parser, at their lines in the source file.

:data:`FORMATS` maps a format's name to its reader and :data:`SUFFIXES` a file name's suffix to the
format; :class:`Source` is a document's text tagged with its format.
"""
from .fragments import Fragment, Reading, Table
from .registry import FORMATS, SUFFIXES, Source, format_for, read

__all__ = ["FORMATS", "SUFFIXES", "Fragment", "Reading", "Source", "Table", "format_for", "read"]
