r"""The model's guess for the next token: the $K$ largest entries of $p_n$, the last token's probabilities.

The post's output is $p = \text{softmax}(\ell)$ column-wise, $\ell = W_U x$ ($n_\text{vocab} \times n$);
its last column $p_n$ is the distribution over $t_{n+1}$. :func:`top_next` ranks it;
:func:`prompt` turns text into $t_1, \dots, t_n$ with a tokenizer directory (a checkpoint's own).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError

#: Top-k shown when --text is given without --top.
DEFAULT_TOP = 5


@dataclass(frozen=True)
class Guess:
    """One candidate for $t_{n+1}$: its id, probability $p_{n,\\text{id}}$, logit $\\ell_{n,\\text{id}}$ and strings."""

    rank: int
    id: int
    probability: float
    logit: float
    token: str | None = None  # the vocabulary string, when a tokenizer is known
    text: str | None = None  # what it decodes to alone


def last_token(matrix: np.ndarray, row_convention: bool) -> np.ndarray:
    """$p_n$ (or $\\ell_n$): the last column of an $n_\\text{vocab} \\times n$ array, the last row in the row convention."""
    return matrix[-1, :] if row_convention else matrix[:, -1]


def top_next(probs: np.ndarray, logits: np.ndarray, k: int, tokenizer=None) -> list[Guess]:
    r"""The $k$ ids with the largest $p_{n,i}$ (ties: smaller id first), from the last token's ``probs`` and ``logits``."""
    if k < 1:
        raise InputError(f"--top must be at least 1, got {k}")
    order = np.lexsort((np.arange(probs.size), -probs))[:k]  # by probability descending, then id
    guesses = []
    for rank, i in enumerate(order, 1):
        token = text = None
        if tokenizer is not None:
            token = tokenizer.id_to_token(int(i))
            text = tokenizer.decode([int(i)], skip_special_tokens=False) if token is not None else None
        guesses.append(Guess(rank, int(i), float(probs[i]), float(logits[i]), token, text))
    return guesses


def prompt(text: str, tokenizer_dir, n_vocab: int):
    """``(tokenizer, Tokens)`` for ``text`` under the tokenizer in ``tokenizer_dir``, every id below ``n_vocab``."""
    from ..text import encode, load_tokenizer

    tokenizer = load_tokenizer(tokenizer_dir)
    tokens = encode(tokenizer, text)
    outside = [t for t in tokens.tokens if t.id >= n_vocab]
    if outside:
        raise InputError(f"{tokenizer_dir}: token {outside[0].token!r} has id {outside[0].id}, outside the model's "
                         f"n_vocab = {n_vocab} (the tokenizer does not belong to these weights)")
    return tokenizer, tokens


def optional_tokenizer(tokenizer_dir, checkpoint_dir):
    """The tokenizer that names ``--top``'s ids: ``tokenizer_dir`` (must load), else the checkpoint's if it has one."""
    from ..text import load_tokenizer

    if tokenizer_dir is not None:
        return load_tokenizer(tokenizer_dir)
    try:
        return load_tokenizer(checkpoint_dir)
    except InputError:  # a checkpoint without a tokenizer: the ranking shows ids only
        return None


def prediction_json(guesses: list[Guess]) -> list[dict]:
    return [{"rank": g.rank, "id": g.id, "token": g.token, "text": g.text, "probability": g.probability,
             "logit": g.logit} for g in guesses]


def prediction_lines(guesses: list[Guess], after: str | None) -> list[str]:
    """The ranking as aligned text lines, headed by the token it follows."""
    head = f"top {len(guesses)} next tokens" + (f" after {after!r}" if after is not None else "") + ":"
    def shown(s):
        return repr(s) if s is not None else "-"

    rows = [("rank", "id", "token", "text", "probability", "logit")] + [
        (str(g.rank), str(g.id), shown(g.token), shown(g.text), f"{g.probability:.6g}", f"{g.logit:.6g}")
        for g in guesses]
    widths = [max(len(r[c]) for r in rows) for c in range(6)]
    align = (">", ">", "<", "<", ">", ">")
    return [head] + ["  " + "  ".join(f"{cell:{a}{w}}" for cell, a, w in zip(r, align, widths)).rstrip() for r in rows]


def print_prediction(args, acts: dict, tokens: list[int], prompt, tokenizer) -> int:
    """``symtf eval --text/--top``: the prompt's tokens and the ranking of $t_{n+1}$, as text or JSON."""
    import json

    row = getattr(args, "convention", "column") == "row"
    k = DEFAULT_TOP if args.top is None else args.top
    guesses = top_next(last_token(acts["probs"], row), last_token(acts["logits"], row), k, tokenizer)
    given = ([{"id": t.id, "token": t.token, "text": t.text} for t in prompt.tokens] if prompt is not None
             else list(tokens))
    variant = args.variant or "full"
    if args.format == "json":
        out = {"variant": variant, "dtype": args.dtype, "tokens": given, "next": prediction_json(guesses)}
        if prompt is not None:
            out = {"text": prompt.text, **out}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"{variant}; {args.dtype}")
    if prompt is not None:
        print(f"text {prompt.text!r}: {len(tokens)} tokens {list(tokens)}")
        after = prompt.tokens[-1].text
    else:
        print(f"tokens {list(tokens)}")
        after = None
    for line in prediction_lines(guesses, after):
        print(line)
    return 0
