"""Reading a user's text input (a Markdown post) with one clear error per way it can be wrong.

Every subcommand that takes a post goes through :func:`read_text_input` (``symtf.cli.main`` also
vets ``args.post`` up front), so a missing file, a directory, a binary or empty file and a file
far larger than any post each give one line naming the file, and exit code 2.
"""
from __future__ import annotations

import os
import re
from decimal import Decimal
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


#: Bounds on one number of a weights file, checked before any exact arithmetic: the worked example
#: is a toy, and an entry like ``1e1000000`` as an exact rational would keep SymPy busy for minutes.
MAX_MAGNITUDE = 10**6
MAX_DIGITS = 30

_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*([+-]?\d+)")


def _too_large(text: str, where: str) -> InputError:
    return InputError(f"{where}: {text!r} is larger than {MAX_MAGNITUDE:.0e} in magnitude")


def _bounded_decimal(text: str, where: str):
    """``text`` (a decimal numeral) as a SymPy Rational, exactly; its size is checked before it is built."""
    from sympy import Rational

    try:
        number = Decimal(text)
    except ArithmeticError:  # decimal.InvalidOperation: an exponent past what Decimal holds
        raise _too_large(text, where) from None
    _, numerals, exponent = number.as_tuple()
    if len("".join(map(str, numerals)).lstrip("0")) > MAX_DIGITS or -exponent > MAX_DIGITS:
        raise InputError(f"{where}: {text!r} has more than {MAX_DIGITS} significant digits or decimal places")
    if number and number.adjusted() >= len(str(MAX_MAGNITUDE)):
        raise _too_large(text, where)
    value = Rational(*number.as_integer_ratio())
    if abs(value) > MAX_MAGNITUDE:
        raise _too_large(text, where)
    return value


def exact_number(value, where: str):
    r"""$x \in \mathbb{Q}$ from a weights file: an int, a float (its shortest decimal, exactly) or a string
    such as ``"0.25"``, ``"-1/3"`` or ``"2e-3"``; at most :data:`MAX_DIGITS` digits and
    :data:`MAX_MAGNITUDE` in size, else :class:`InputError` naming ``where``.
    """
    import math

    from sympy import Integer, Rational

    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{where}: expected a number, got {value!r}")
    if isinstance(value, int):
        if abs(value) > MAX_MAGNITUDE:
            raise InputError(f"{where}: an integer larger than {MAX_MAGNITUDE:.0e} in magnitude")
        return Integer(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(f"{where}: {value!r} is not a finite number")
    text = repr(value) if isinstance(value, float) else value.strip()
    if _DECIMAL.fullmatch(text):
        return _bounded_decimal(text, where)
    fraction = _FRACTION.fullmatch(text)
    if fraction is None:
        raise InputError(f"{where}: {value!r} is not a number or a fraction like \"1/3\"")
    p, q = fraction.groups()
    if max(len(p.lstrip("+-")), len(q.lstrip("+-"))) > MAX_DIGITS:
        raise InputError(f"{where}: {text!r} has more than {MAX_DIGITS} digits")
    if int(q) == 0:
        raise InputError(f"{where}: {text!r} divides by zero")
    result = Rational(int(p), int(q))
    if abs(result) > MAX_MAGNITUDE:
        raise _too_large(text, where)
    return result
