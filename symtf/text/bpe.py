r"""Training a small byte-level BPE with the ``tokenizers`` library, and reading its merges.

Byte-pair encoding as the post's tokenization references describe it: split the text into words
(GPT-2's pre-tokenizer: a leading space belongs to the word after it, written ``Ġ``), start from
single symbols, and repeatedly merge the most frequent adjacent pair into a new symbol; the merges,
in the order learned, are what encoding replays. ``alphabet="bytes"`` starts from all 256 bytes,
so any text round-trips; ``alphabet="text"`` starts from the characters of the training text only
(a toy vocabulary small enough to print, e.g. for ``symtf example --text``).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import InputError

ALPHABETS = ("bytes", "text")
BYTE_ALPHABET_SIZE = 256
#: Far beyond any toy; a larger vocabulary is a real tokenizer's job, not this trainer's.
MAX_VOCAB_SIZE = 100_000


def train_bpe(texts: Iterable[str], vocab_size: int | None, alphabet: str = "bytes"):
    r"""$(a, b) \leftarrow \arg\max_{(a, b)} \#\{ab \text{ in the words of } \texttt{texts}\}$, merged into
    one symbol, repeated: a byte-level BPE trained on ``texts`` up to ``vocab_size`` entries.

    ``vocab_size=None`` merges while any adjacent pair is left inside a word, so every word of the
    training text ends as one token. A ``vocab_size`` smaller than the alphabet keeps the alphabet.
    Ties between equally frequent pairs are broken by the library (the earlier pair in its order).
    """
    from .tokenizer import require_tokenizers

    lib = require_tokenizers()
    Tokenizer, decoders, models, pre_tokenizers = lib.Tokenizer, lib.decoders, lib.models, lib.pre_tokenizers
    if alphabet not in ALPHABETS:
        raise InputError(f"unknown alphabet {alphabet!r}; known: {', '.join(ALPHABETS)}")
    if vocab_size is not None and not 1 <= vocab_size <= MAX_VOCAB_SIZE:
        raise InputError(f"vocabulary size must be between 1 and {MAX_VOCAB_SIZE:,}, got {vocab_size}")
    initial = pre_tokenizers.ByteLevel.alphabet() if alphabet == "bytes" else []
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = lib.trainers.BpeTrainer(vocab_size=MAX_VOCAB_SIZE if vocab_size is None else vocab_size,
                                  min_frequency=0, show_progress=False, initial_alphabet=initial)
    tokenizer.train_from_iterator(texts, trainer)
    return tokenizer


def merges(tokenizer) -> list[tuple[str, str]]:
    """The BPE merges of ``tokenizer`` in the order they were learned (and are applied)."""
    model = json.loads(tokenizer.to_str())["model"]
    if model.get("type") != "BPE":
        raise InputError(f"not a BPE tokenizer (its model is {model.get('type')!r}): it has no merges")
    return [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in model.get("merges", [])]


def save_tokenizer(tokenizer, directory: str | os.PathLike) -> Path:
    """Write ``tokenizer.json`` into ``directory`` (created if missing), replacing it atomically."""
    from ..io import write_atomic

    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise InputError(f"{directory}: exists and is not a directory")
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {directory}: {exc.strerror or exc}") from None
    return write_atomic(d / "tokenizer.json", tokenizer.to_str(pretty=True))
