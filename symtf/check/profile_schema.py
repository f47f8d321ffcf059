"""The shape of a user's notation profile (``symtf check --profile FILE``), checked key by key.

Each key of :data:`SCHEMA` has a small function that says what is wrong with a value (or ``None``),
so a bad profile gets one line naming the file and the key instead of a crash in the checker.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from .notation import COLUMN, PROFILES, ROW

_TARGET_SIZES = frozenset(COLUMN["sizes"].values()) | frozenset(ROW["sizes"].values())
_TARGET_PARAMS = frozenset(COLUMN["params"].values()) | frozenset(ROW["params"].values())


def _names(targets: frozenset | None = None):
    """A table of names to names (``targets``: the allowed values)."""
    def check(value) -> str | None:
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            return "expected a table of names to names, like {\"d_emb\": \"d_model\"}"
        unknown = sorted(set(value.values()) - targets) if targets else []
        return f"unknown target {unknown[0]!r}; known: {', '.join(sorted(targets))}" if unknown else None
    return check


def _text(value) -> str | None:
    return None if isinstance(value, str) else "expected a string"


def _convention(value) -> str | None:
    return None if value in PROFILES else "expected \"column\" or \"row\""


def _text_list(value) -> str | None:
    ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    return None if ok else "expected a list of strings"


def _lint_sizes(value) -> str | None:
    ok = isinstance(value, dict) and all(
        isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, str) for x in v) for v in value.values())
    return None if ok else "expected a table of names to [size key, LaTeX] pairs"


def _activations(value) -> str | None:
    if not isinstance(value, dict) or set(value) - {"zero", "simplified", "full"}:
        return "expected a table with any of zero, simplified, full"
    for kind, table in value.items():
        if not isinstance(table, dict) or not all(v is None or isinstance(v, str) for v in table.values()):
            return f"{kind}: expected a table of names to activation keys"
    return None


#: Every key a profile may have, with its check (returns what is wrong, or None).
SCHEMA = {
    "base": _convention, "convention": _convention, "name": _text,
    "sizes": _names(_TARGET_SIZES), "shape_sizes": _names(_TARGET_SIZES),
    "lint_sizes": _lint_sizes, "params": _names(_TARGET_PARAMS), "per_head": _text_list,
    "entries": _names(), "head_alias": _names(), "activations": _activations,
}


def validate_profile(data: object, path: str | Path) -> None:
    """Raise :class:`InputError` naming ``path`` and the key unless ``data`` is a profile table of :data:`SCHEMA`."""
    if not isinstance(data, dict):
        raise InputError(f"profile {path}: expected a table of keys ({', '.join(SCHEMA)}), got a {type(data).__name__}")
    for key, value in data.items():
        problem = SCHEMA[key](value) if key in SCHEMA else f"unknown key; known: {', '.join(SCHEMA)}"
        if problem:
            raise InputError(f"profile {path}: key {key!r}: {problem}")
