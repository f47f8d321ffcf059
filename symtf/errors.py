"""symtf's exceptions: one small hierarchy built on the standard ones."""
from __future__ import annotations


class SymtfError(Exception):
    """Base class of every error symtf raises on purpose."""


class ShapeError(SymtfError, ValueError):
    """Two sizes that must agree do not (or a table's Shape column disagrees with the expression)."""


class UnknownSymbolError(SymtfError, KeyError):
    """A name that is neither an activation, a parameter nor a size of the model."""

    def __str__(self) -> str:  # KeyError quotes its message; a plain sentence reads better
        return str(self.args[0]) if self.args else ""


class PrintingError(SymtfError, TypeError):
    """A printer met an expression node it does not know; it never guesses."""


class InputError(SymtfError, ValueError):
    """Bad user input: an unreadable file, malformed data, an unknown option value."""


class WriteError(SymtfError, OSError):
    """A file could not be written; the message names it, and the file it would replace is unchanged."""
