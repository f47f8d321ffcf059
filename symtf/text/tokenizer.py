r"""Text to token ids and back, with a Hugging Face tokenizer read by the ``tokenizers`` library.

A token sequence $t_1, \dots, t_n$ is what the post's model starts from; :func:`encode` produces it
from text, and :func:`one_hot` turns it into the $n_\text{vocab} \times n$ matrix $t$ of the tables.
A tokenizer comes from a directory as a checkpoint carries it (``tokenizer.json``, or GPT-2's
``vocab.json`` + ``merges.txt``) or from :mod:`symtf.text.bpe`. Nothing is downloaded.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, SymtfError

TOKENIZER_FILE = "tokenizer.json"
GPT2_FILES = ("vocab.json", "merges.txt")
#: Text longer than this is not a prompt; refuse it before the tokenizer allocates for it.
MAX_TEXT_CHARS = 1_000_000


def require_tokenizers():
    """The ``tokenizers`` module, or one clear line saying how to install it (the ``text`` extra)."""
    try:
        import tokenizers
    except ImportError:
        raise SymtfError("needs the tokenizers library: pip install 'symtf[text]' (or tokenizers)") from None
    return tokenizers


@dataclass(frozen=True)
class Token:
    """One token: its id $t_i$, its string in the vocabulary, and the text it decodes to alone."""

    id: int
    token: str
    text: str


@dataclass(frozen=True)
class Tokens:
    """The tokens $t_1, \\dots, t_n$ of a text under one tokenizer of ``vocab_size`` entries."""

    text: str
    tokens: tuple[Token, ...]
    vocab_size: int

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(t.id for t in self.tokens)


def load_tokenizer(path: str | os.PathLike):
    """The tokenizer of a directory (``tokenizer.json``, else ``vocab.json`` + ``merges.txt`` as a
    GPT-2 byte-level BPE), or of a ``tokenizer.json`` file named directly."""
    lib = require_tokenizers()
    Tokenizer, decoders, models, pre_tokenizers = lib.Tokenizer, lib.decoders, lib.models, lib.pre_tokenizers
    p = Path(path)
    if not p.exists():
        raise InputError(f"{path}: no such tokenizer directory")
    if p.is_file():
        return _read(p, Tokenizer.from_file)
    if (p / TOKENIZER_FILE).is_file():
        return _read(p / TOKENIZER_FILE, Tokenizer.from_file)
    vocab, merges = (p / name for name in GPT2_FILES)
    if vocab.is_file() and merges.is_file():
        model = _read(vocab, lambda _: models.BPE.from_file(str(vocab), str(merges)))
        tokenizer = Tokenizer(model)
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tokenizer.decoder = decoders.ByteLevel()
        return tokenizer
    raise InputError(f"{path}: no tokenizer in this directory (expected {TOKENIZER_FILE}, "
                     f"or {GPT2_FILES[0]} and {GPT2_FILES[1]})")


def _read(path: Path, reader):
    try:
        return reader(str(path))
    except Exception as exc:  # the library raises a bare Exception for a malformed file
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: not a readable tokenizer: {first}") from None


def encode(tokenizer, text: str) -> Tokens:
    r"""$t_1, \dots, t_n$: the token ids of ``text``, each with its vocabulary string and its text.

    Empty text and text the tokenizer cannot represent are :class:`InputError`\ s: an unknown
    token (the model's ``unk_token``) or, for a byte-level decoder, characters that do not come
    back from decoding (a BPE whose alphabet lacks them drops them silently).
    """
    if not text.strip():
        raise InputError("empty text: nothing to tokenize")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(f"text too long to tokenize ({len(text):,} characters; the limit is {MAX_TEXT_CHARS:,})")
    encoding = tokenizer.encode(text)  # special tokens as the tokenizer's post-processor adds them
    _check_known(tokenizer, text, encoding)
    tokens = tuple(Token(i, s, tokenizer.decode([i], skip_special_tokens=False))
                   for i, s in zip(encoding.ids, encoding.tokens))
    return Tokens(text, tokens, tokenizer.get_vocab_size(with_added_tokens=True))


def _check_known(tokenizer, text: str, encoding) -> None:
    unk = getattr(tokenizer.model, "unk_token", None)
    unk_id = tokenizer.token_to_id(unk) if unk else None
    for i, (start, end) in zip(encoding.ids, encoding.offsets):
        if unk_id is not None and i == unk_id:
            raise InputError(f"cannot tokenize {text[start:end]!r} (characters {start + 1}-{end} of the text): "
                             f"not in the tokenizer's vocabulary")
    if not encoding.ids:
        raise InputError(f"cannot tokenize {_clip(text)!r}: the tokenizer gives no tokens for it")
    if isinstance(tokenizer.decoder, require_tokenizers().decoders.ByteLevel) and tokenizer.normalizer is None:
        back = tokenizer.decode(encoding.ids, skip_special_tokens=True)
        if back != text:
            at = next((k for k, (a, b) in enumerate(zip(text, back)) if a != b), min(len(text), len(back)))
            raise InputError(f"cannot tokenize {text[at:at + 1]!r} (character {at + 1} of the text): "
                             f"not in the tokenizer's alphabet")


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def one_hot(ids, vocab_size: int):
    r"""$t = [t_1, \dots, t_n]$, $t_{ij} = 1$ if token $j$ has id $i$ else $0$: the $n_\text{vocab} \times n$
    one-hot matrix of the tables (ids 0-based), as a SymPy ``ImmutableMatrix``.

    >>> one_hot([2, 0], 3)
    Matrix([
    [0, 1],
    [0, 0],
    [1, 0]])
    """
    from sympy import ImmutableMatrix

    ids = list(ids)
    bad = [i for i in ids if not 0 <= i < vocab_size]
    if bad:
        raise InputError(f"token id(s) {bad} outside 0..{vocab_size - 1} (n_vocab = {vocab_size})")
    return ImmutableMatrix(vocab_size, len(ids), lambda i, j: 1 if ids[j] == i else 0)
