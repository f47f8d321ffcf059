"""Reading a user's text input (a Markdown post) with one clear error per way it can be wrong.

Every subcommand that takes a post goes through :func:`read_text_input` (``symtf.cli.main`` also
vets ``args.post`` up front), so a missing file, a directory, a binary or empty file and a file
far larger than any post each give one line naming the file, and exit code 2.
"""
from __future__ import annotations

import os
from pathlib import Path

from .errors import InputError

#: A long post is ~50 kB; anything past this is not a post and would only make the checker crawl.
MAX_INPUT_BYTES = 2_000_000


def check_text_input(path: str | os.PathLike) -> Path:
    """Raise :class:`InputError` unless ``path`` is a readable, non-empty UTF-8 text file of sane size."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{path}: no such file")
    if p.is_dir():
        raise InputError(f"{path}: is a directory, not a Markdown file")
    if not p.is_file():
        raise InputError(f"{path}: not a regular file")
    size = p.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise InputError(f"{path}: too large for a post ({size / 1e6:.1f} MB; the limit is {MAX_INPUT_BYTES / 1e6:g} MB)")
    return p


def read_text_input(path: str | os.PathLike) -> str:
    """The text of ``path``, vetted by :func:`check_text_input`; binary, non-UTF-8 and empty files are errors."""
    p = check_text_input(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}: a binary file, not Markdown text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    if not text.strip():
        raise InputError(f"{path}: empty file")
    return text
