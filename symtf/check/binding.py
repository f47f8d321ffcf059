r"""A document's own symbol tied to a reference quantity by the structure of its definition.

``c_{it} = \mathbf{q}_i^\top \mathbf{k}_t / \sqrt{d_k}`` defines a letter the reference model does not
have. Its right side, read in the reference's letters, may equal one of the model's activations
(here an entry of the scores S, with the document's indices ``i, t`` playing the model's ``i, j`` in
some order). That is what the definition *means*: $c$ is the model's S (or Sᵀ). This module finds that
reading, by the same numeric identity test as every other link (:func:`symtf.check.compare.judge`):

- :func:`bind` renames the definition's free indices to the model's ``i, j``, and tries each activation
  of the model with the same number of indices, in both orders, whose value has the right side's shape;
  the first that verifies is the binding.
- :func:`near_miss` asks, for a definition of a letter that another line of the document binds to a
  reference activation, whether one small edit of this right side (:mod:`symtf.check.diagnose`) makes
  it that activation too: the document then contradicts its own definition, and the diagnosis says how.

Nothing here knows a document: the candidates are the profile's activations, the edits the diagnoses'.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .compare import judge, rename, walk
from .context import TAGS, Context
from .diagnose import RULES, _head_size_names
from .evaluate import CheckError, Evaluator

_TARGET = ("i", "j")  # the model's free token indices, in the order a definition's indices are given them
_SPARE = ("u", "w")  # bound indices renamed out of the way of the targets


@dataclass(frozen=True)
class Binding:
    """The reference activation a document letter names: ``candidate`` in the model's letters, with the
    model's indices; ``order`` the document's index letters in the order they were given ``i, j``."""

    key: str
    candidate: tuple
    order: tuple
    line: int


def _letters(sub: str | None) -> list[str] | None:
    """The free index letters of a subscript (``it`` → [i, t], ``m,n`` → [m, n]); None if not indices."""
    if sub is None:
        return []
    text = sub.replace(" ", "")
    parts = text.split(",") if "," in text else list(text)
    if not 1 <= len(parts) <= 2 or not all(re.fullmatch(r"[a-z]", p) for p in parts) or len(set(parts)) != len(parts):
        return None
    return parts


def _mapping(letters: list[str], body) -> dict | None:
    """Document index letters → the model's, with any bound letter in the way moved to a spare one."""
    mapping = dict(zip(letters, _TARGET))
    bound = {n[1].strip() for n in walk(body) if n[0] == "sum" and n[1]}
    used = {c for n in walk(body) if n[0] == "sym" and n[2] for c in re.findall(r"[a-z]", n[2])}
    spare = iter(s for s in _SPARE if s not in used and s not in bound)
    for b in sorted(bound):
        if b in _TARGET and b not in mapping:
            mapping[b] = next(spare, None)
            if mapping[b] is None:
                return None
    if set(mapping.values()) & (used - set(mapping)) - set(letters):
        return None  # the body already uses i or j for something else: no clean renaming
    return mapping


def _candidates(ctx: Context, count: int) -> list[tuple]:
    """The model's activations (one letter each, no layer) with ``count`` indices, in both orders."""
    table = ctx.table()
    entries = ctx.profile.get("entries", {})
    bases = [k for k, v in table.items() if v and re.fullmatch(r"[A-Za-z]|\\[a-z]+", k) and k not in ("t", "T")]
    bases += [k for k in entries if k not in bases]
    subs = {0: [None], 1: ["i"], 2: ["ij", "ji"]}[count]
    return [("sym", b, s, None) for b in bases for s in subs]


def _shape(node, ctx: Context):
    env = {"i": 1, "j": 2, "h": 1}
    try:
        return np.shape(Evaluator(ctx).ev(node, env))
    except (CheckError, ValueError, ArithmeticError, IndexError):
        return None


def exponentials(tree):
    """``e^{c_{it}}`` (a symbol whose superscript is text) as the call ``exp(c_{it})``, so that its exponent
    is a tree that renaming and substitution reach."""
    from .parse import ParseError, parse_expr

    if isinstance(tree, list):
        return [exponentials(c) for c in tree]
    if not isinstance(tree, tuple) or not tree:
        return tree
    if tree[0] == "sym" and tree[1] == "e" and tree[2] is None and tree[3] is not None:
        try:
            return ("call", "exp", False, [exponentials(parse_expr(tree[3]))])
        except (ParseError, RecursionError):
            return tree
    return tuple(exponentials(c) if isinstance(c, (tuple, list)) else c for c in tree)


def substitute(tree, bindings: dict):
    """``tree`` with each letter the document has bound replaced by its reference activation, its
    indices carried over: with ``c_{it}`` bound to ``S_{ji}``, ``c_{jt}`` becomes ``S_{tj}``."""
    if isinstance(tree, list):
        return [substitute(c, bindings) for c in tree]
    if not isinstance(tree, tuple) or not tree:
        return tree
    if tree[0] == "sym" and tree[3] is None and tree[1] in bindings:
        bound = bindings[tree[1]]
        used = _letters(tree[2]) if tree[2] is None or "," in tree[2] or len(tree[2]) <= 2 else None
        if used is not None and len(used) == len(bound.order):
            cand = bound.candidate
            sub = cand[2] and "".join(dict(zip(_TARGET, used)).get(c, c) for c in cand[2])
            return ("sym", cand[1], sub, cand[3])
        return tree
    return tuple(substitute(c, bindings) if isinstance(c, (tuple, list)) else c for c in tree)


def prepare(a, b, bindings: dict | None = None):
    """(letters, mapping, renamed right side) for a definition ``a = b`` of a document letter, or None;
    letters the document has already bound are read as their reference activations."""
    if a is None or a[0] != "sym" or a[3] is not None:
        return None
    letters = _letters(a[2])
    if letters is None:
        return None
    b = exponentials(b)
    if bindings:
        b = substitute(b, bindings)
    mapping = _mapping(letters, b)
    if mapping is None:
        return None
    return letters, mapping, rename(b, mapping)


def bind(a, b, rel, ctx: Context, line: int, bindings: dict | None = None) -> tuple[Binding, object] | None:
    """``(binding, outcome)`` when the right side of ``a = b`` is a reference activation, else None."""
    if rel != "=":
        return None
    ready = prepare(a, b, bindings)
    if ready is None:
        return None
    letters, _, body = ready
    shape = _shape(body, ctx)
    if shape is None:
        return None
    for cand in _candidates(ctx, len(letters)):
        if _shape(cand, ctx) != shape:
            continue
        out = judge(cand, body, rel, ctx)
        if out.status == "verified":
            return Binding(_key(a), cand, tuple(letters), line), out
    return None


def near_miss(a, b, rel, ctx: Context, binding: Binding, bindings: dict | None = None) -> tuple[str, tuple] | None:
    """``(diagnosis, edited right side in the document's letters)`` when one small edit of ``b`` makes
    it the activation ``binding`` names, with this definition's indices in the same roles."""
    ready = prepare(a, b, bindings)
    if ready is None or rel != "=":
        return None
    letters, mapping, body = ready
    if len(letters) != len(binding.order):
        return None
    back = {v: k for k, v in mapping.items()}
    for name, rule in ((_SCALE, _scaled),) + RULES:
        if name.startswith("the causal mask"):
            continue  # masked and unmasked variants are both legitimate definitions of a letter
        for cand in rule(body, ctx):
            if cand == body:
                continue
            try:
                if judge(binding.candidate, cand, rel, ctx).status == "verified":
                    return name, rename(cand, back)
            except Exception:  # noqa: BLE001 - an edit that cannot be evaluated is no diagnosis
                continue
    return None


_SCALE = "missing 1/√d_head scale"


def _scaled(side, ctx):
    """The whole side divided by √d_head: a score written without its scale."""
    return [("mul", side, ("sqrt", ("sym", base, sub, None)), "/") for base, sub in _head_size_names(ctx)]


def _key(node) -> str:
    _, base, sub, sup = node
    return base if not (sub and sub in TAGS.get(base, ())) else f"{base}_{sub}"


__all__ = ["Binding", "bind", "near_miss", "prepare", "rename", "substitute"]
