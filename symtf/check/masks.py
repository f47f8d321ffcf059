r"""Slips in how attention is written: a mask multiplied into the scores inside a softmax
(``\mathrm{softmax}(QK^\top \odot M)``) or dividing them (:func:`divided`), the values inside it
(:func:`values_inside`), a softmax over an index its argument does not use (:func:`constant_in_its_variable`).

A causal mask works inside a softmax only by addition (``QK^\top + M`` with M_ij = −∞ above the diagonal) or after
the exponential (``\exp(QK^\top) \odot M``, then normalised). Multiplying the scores by a 0/1 mask inside the softmax
sets the masked scores to 0, and the softmax still gives them the weight e^0/Z > 0; multiplying by a 0/−∞ mask gives
0·(−∞). Either way the softmax is not masked. The letter must be one the document's prose calls a mask (a block of
its prose names it next to the word "mask", or M where the prose speaks of a mask and names no letter): a gate or
another matrix multiplied in is not judged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .compare import replace_node, script_letters, walk
from .document import speaks_of
from .unparse import unparse

_MASK_WORD = re.compile(r"\bmasks?\b", re.I)  # the noun: "masking applied to $S$" is not S a mask
_SUBJECT = re.compile(r"\s*(?:\\mathbf\s*\{?\s*|\\boldsymbol\s*\{?\s*)?([A-Z])\s*\}?\s*(?:$|\\in\b|=|_)")
_MATH = re.compile(r"\$+([^$]{1,120})\$+")
_NEAR = 40  # characters between the word "mask" and a math span that names the mask


def mask_letters(blocks) -> frozenset:
    """The letters a block of prose names in its math next to the word "mask" (``$M$ is the causal mask``); M, the
    usual letter, where the prose speaks of a mask ("a 0-1 matrix called the attention mask") and names none."""
    out, spoken = set(), False
    for _, text in blocks:
        if not _MASK_WORD.search(text):
            continue
        spoken = True
        text = text[:5000]
        inside = [(m.start(), m.end()) for m in _MATH.finditer(text)]  # $\text{mask}$: a name, not the prose's word
        words = [w.start() for w in _MASK_WORD.finditer(text) if not any(a <= w.start() < b for a, b in inside)]
        for span in _MATH.finditer(text):  # "a mask $M$", "$M$ is the causal mask": math next to the word
            if not any(-_NEAR <= span.start() - w <= _NEAR or 0 <= w - span.end() <= _NEAR for w in words):
                continue
            m = _SUBJECT.match(span.group(1))  # $M$, $\mathbf{M} \in …$, $M_{ij} = …$: the letter it is about
            if m:
                out.add(m.group(1))
    return frozenset(out or ({"M"} if spoken else ()))


def _softmax_terms(nodes):
    """``(softmax call, its argument, a node inside the argument)`` for every softmax of ``nodes`` of one argument."""
    for n in walk(list(nodes)):
        if n[0] == "call" and n[1] == "softmax" and len(n[3]) == 1:
            for m in walk([n[3][0]]):
                yield n, n[3][0], m


def _mask_letter(node, masks: frozenset) -> bool:
    """A lone letter the prose calls a mask."""
    return node[0] == "sym" and node[1] in masks and not node[2]


def _named_mask(node) -> bool:
    r"""A name that says it is a mask (``\text{mask}``, ``\text{sliding\_window\_mask}``)."""
    return node[0] == "sym" and node[1].startswith("\\text{") and "mask" in node[1].lower()


def multiplied(nodes, masks: frozenset):
    """``(softmax call, mask, the call with the product made a sum)`` for the first softmax of ``nodes`` whose
    argument multiplies entrywise by a mask (a letter the prose calls one, or a name that says it is one), or None."""
    for n, arg, m in _softmax_terms(nodes):
        if m[0] == "mul" and m[3] == "⊙":
            mask = next((x for x in (m[1], m[2]) if _mask_letter(x, masks) or _named_mask(x)), None)
            if mask is not None:
                other = m[2] if mask is m[1] else m[1]
                mended = ("call", n[1], n[2], [replace_node(arg, m, ("add", [other, mask], [1, 1]))])
                return n, unparse(mask), mended
    return None


def divided(nodes, masks: frozenset):
    r"""``(softmax call, mask, the call with the division made a sum)`` for the first softmax of ``nodes`` whose
    argument divides by a mask (a letter the prose calls one, or a name that says it is one:
    ``\mathrm{softmax}(\alpha \frac{QK^\top}{\text{sliding\_window\_mask}})``), or None."""
    for n, arg, m in _softmax_terms(nodes):
        over = m[2] if m[0] == "frac" or m[0] == "mul" and m[3] == "/" else None
        if over is not None and (_mask_letter(over, masks) or _named_mask(over)):
            mended = ("call", n[1], n[2], [replace_node(arg, m, ("add", [m[1], over], [1, 1]))])
            return n, unparse(over), mended
    return None


def divided_message(found) -> str:
    call, mask, mended = found
    return (f"${mask}$ (a mask) divides the scores inside the softmax: where it is 0 the score becomes infinite, "
            f"elsewhere it is not masked, so ${unparse(call)}$ is not masked; a mask inside a softmax is added, "
            f"${unparse(mended)}$ with −∞ where it masks")


def message(found) -> str:
    call, mask, mended = found
    said = "its name" if mask.startswith("\\text") else "the prose"
    return (f"${mask}$ (a mask, as {said} says) multiplies the scores inside the softmax: a masked score becomes 0 "
            f"(or 0·(−∞)) and the softmax still gives it weight e^0/Z > 0, so ${unparse(call)}$ is not masked; a mask "
            f"inside a softmax is added, ${unparse(mended)}$ with −∞ where it masks")


def values_inside(nodes):
    r"""``(softmax call, mended)`` for the first softmax of ``nodes`` whose argument (or its numerator, over a scale)
    is a product that has the keys among its factors and ends with the values, a V or v letter not transposed:
    ``\mathrm{softmax}(Q K^\top V)``, and ``\mathrm{softmax}(Q K^\top) V`` mended. Attention weights the values
    after the softmax, so a softmax of a product that already holds the values is not attention (the rule reads K and V
    as keys and values because they stand in one product inside a softmax). None if there is none."""
    for n in walk(list(nodes)):
        if n[0] != "call" or n[1] != "softmax" or len(n[3]) != 1:
            continue
        arg = n[3][0]
        product, scale = (arg[1], arg[2]) if arg[0] == "frac" else (arg, None)
        if product[0] != "mul" or product[3] != "*" or not _letter(product[2], "Vv"):
            continue
        factors, stack = [], [product[1]]
        while stack:
            m = stack.pop()
            if m[0] == "mul" and m[3] == "*":
                stack += [m[1], m[2]]
            else:
                factors.append(m[1] if m[0] == "T" else m)
        if any(_letter(f, "Kk") for f in factors):
            scores = product[1] if scale is None else ("frac", product[1], scale)
            return n, ("mul", ("call", n[1], n[2], [scores]), product[2], "*")
    return None


def _letter(node, bases: str) -> bool:
    """A lone letter of ``bases`` (with any sub- or superscript)."""
    return node[0] == "sym" and node[1] in bases


def values_message(found) -> str:
    call, mended = found
    return (f"the values are inside the softmax in ${unparse(call)}$: attention normalises the scores and then weights "
            f"the values with them, ${unparse(mended)}$")


def constant_in_its_variable(nodes):
    r"""``(written softmax, its letter)`` for the first ``\mathrm{softmax}_j(…)`` of ``nodes`` whose argument does not
    depend on j (no j in its indices, no lone j): every j gets the same weight, so the weights are uniform whatever the
    scores (``\mathrm{Softmax}_j(q_{t,i}^\top k_{t,i})``, the key of position t in every term). None if there is none."""
    for n in walk(list(nodes)):
        if n[0] != "mul" or n[1][0] != "sym" or n[1][1].lower() != r"\text{softmax}" or n[1][3] is not None:
            continue
        letter = (n[1][2] or "").strip("{} ")
        if not re.fullmatch(r"[a-z]", letter):
            continue
        inside = _scores(n[2])
        if not any(m[0] == "sym" for m in inside):
            continue
        used = set()
        for m in inside:
            if m[0] == "sym":
                used |= script_letters(m[2]) | script_letters(m[3]) | ({m[1]} if m[2] is None and m[3] is None else set())
            elif m[0] == "idx":
                used |= script_letters(m[2])
        if letter not in used and _indexed(inside):
            return ("mul", n[1], n[2], "*"), letter
    return None


def _scores(node) -> list:
    """The nodes of a softmax's argument that say what the scores depend on: not a scale under a root or in a
    denominator (``\\sqrt{d_k}``: a size, whose subscript is no index)."""
    out, stack = [], [node]
    while stack:
        m = stack.pop()
        if m[0] == "sqrt":
            continue
        out.append(m)
        if m[0] == "frac":
            stack.append(m[1])
        elif m[0] == "mul" and m[3] == "/":
            stack.append(m[1])
        else:
            stack.extend(c for c in m[1:] if isinstance(c, tuple))
            stack.extend(x for c in m[1:] if isinstance(c, list) for x in c if isinstance(x, tuple))
    return out


def _indexed(nodes) -> bool:
    """Is a vector or matrix of ``nodes`` written with an index (``q_{t,i}``, ``k_t``): the argument is entries or
    vectors, whose indices say what it depends on (a bare matrix ``S`` is not: softmax_j(S) is along an axis; nor are
    a weight's or a size's naming subscripts, ``W_q``, ``d_k``)."""
    return any(m[0] == "sym" and m[2] and m[1] not in ("W", "w", "d", "D") and script_letters(m[2]) for m in nodes)


def constant_message(found) -> str:
    written, letter = found
    return (f"the softmax over ${letter}$ in ${unparse(written)}$ has an argument that does not depend on ${letter}$: "
            f"every ${letter}$ gets the same weight, so the weights are uniform whatever the scores (the key, or the "
            f"score, should be indexed by ${letter}$)")


@dataclass(frozen=True)
class Slip:
    """A slip in how attention is written: what is wrong, the mended form (or None) and the diagnosis."""

    message: str
    expected: str | None
    diagnosis: str


def slip(nodes, masks: frozenset) -> Slip | None:
    """The first slip of :func:`multiplied` (with the document's ``masks``), :func:`constant_in_its_variable` and
    :func:`values_inside` in ``nodes``, or None: one judge for a link and for an expression written alone."""
    masked = multiplied(nodes, masks)
    if masked is not None:
        return Slip(message(masked), unparse(masked[2]), "a mask multiplied inside the softmax, not added")
    over = divided(nodes, masks)
    if over is not None:
        return Slip(divided_message(over), unparse(over[2]), "the scores divided by a mask inside the softmax")
    uniform = constant_in_its_variable(nodes)
    if uniform is not None:
        return Slip(constant_message(uniform), None, "the scores do not use the softmax's index")
    inside = values_inside(nodes)
    if inside is not None:
        return Slip(values_message(inside), unparse(inside[1]), "the values multiplied inside the softmax, not after it")
    return None


# --------------------------------------------------------------------------- a causal mask given by cases
_CASES = re.compile(r"([A-Za-z]+)\s*_\s*\{([^{}]*)\}\s*&?\s*(?:=|:=)\s*&?\s*\\begin\{cases\}(.*?)\\end\{cases\}", re.S)
_INDEX = r"[a-z](?:'|\^\{?\\prime\}?)?"
_COMPARE = re.compile(rf"({_INDEX})\s*(\\leq?|\\geq?|\\lt|\\gt|<|>|≤|≥)(?![A-Za-z])\s*({_INDEX})")
_OPS = {"\\le": "<=", "\\leq": "<=", "≤": "<=", "<": "<", "\\lt": "<",
        "\\ge": ">=", "\\geq": ">=", "≥": ">=", ">": ">", "\\gt": ">"}


def _index_name(text: str) -> str:
    return re.sub(r"\^\{?\\prime\}?", "'", text.replace(" ", ""))


def _region(cond: str, first: str, second: str) -> str | None:
    """Where ``cond`` (``j > i``, ``s \\le s'``) holds, as the second index against the first: ``later``, ``not later``,
    ``earlier`` or ``not earlier``; None if it compares other letters or more than once."""
    found = _COMPARE.findall(cond)
    if len(found) != 1:
        return None
    a, op, b = _index_name(found[0][0]), _OPS[found[0][1]], _index_name(found[0][2])
    if (a, b) == (first, second):
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]  # first-op-second, read as second-op-first
    elif (a, b) != (second, first):
        return None
    return {">": "later", "<=": "not later", "<": "earlier", ">=": "not earlier"}[op]


_COMPLEMENT = {"later": "not later", "not later": "later", "earlier": "not earlier", "not earlier": "earlier"}


def reversed_causal(latex: str, prose: str) -> Slip | None:
    r"""A mask the prose calls causal, given by cases on its two indices (query first, key second, as the scores
    q_i k_j^T of the row convention index them), that sets −∞ where the key is at or before the query and keeps the
    later keys (``m_{ss'} = 0`` for ``s \le s'``, −∞ for ``s > s'``): every position attends to itself and the
    future, never to the past. None where it blocks the later keys, or cannot be read so."""
    m = _CASES.search(latex[:3000])
    if m is None or "infty" not in m.group(3) or not speaks_of([(0, prose)], "causal_words"):
        return None
    indices = re.findall(_INDEX, re.sub(r"[,\s]", "", m.group(2)).replace("^\\prime", "'").replace("^{\\prime}", "'"))
    if len(indices) != 2 or indices[0] == indices[1]:
        return None
    first, second = (_index_name(x) for x in indices)
    blocked = None
    for row in re.split(r"\\\\|\\nn(?![A-Za-z])|\n", m.group(3)):  # rows: \\, a book's \nn, or a line each
        value, _, cond = row.partition("&")
        region = _region(cond, first, second)
        if region is not None:  # the region −∞ covers: this row's, or the other side of a kept row's
            blocked = region if "infty" in value else _COMPLEMENT[region]
            break
    if blocked not in ("not later", "earlier"):
        return None
    name = f"{m.group(1)}_{{{m.group(2).strip()}}}"
    where, kept = ("before", "at or after") if blocked == "earlier" else ("at or before", "after")
    return Slip(f"${name}$ is −∞ where ${second}$ is {where} ${first}$ and kept where ${second}$ is {kept} it: "
                f"a causal mask blocks the later positions (−∞ for ${second} > {first}$), so that each position "
                "attends to itself and the past", None, "the causal mask's comparison reversed")
