"""Helpers shared by the checker and its parts: patterns and small functions on links and fragments."""
from __future__ import annotations

import re

from .compare import _head_vars, judge, walk
from .context import Context, TAGS
from .figures import size_key
from .forms import _ACCENT
from .normalize import statements
from .parse import parse, ParseError
from .unparse import unparse


_MEMBER = re.compile(r"\s*(.+?)\s*\\in\s*\\mathbb\s*\{?R\}?\s*\^\s*(?:\{(.+)\}|([A-Za-z0-9]))\s*[.,]?\s*")
# "- Q, K, V: $\in \mathbb{R}^{d \times d}$": bare letters the prose writes as the left side of what follows
_PROSE_LETTERS = re.compile(r"\s*(?:[-*+]|\d+[.)])?\s*((?:[A-Za-z]\s*,\s*){0,7}[A-Za-z])\s*:\s*")


def with_prose_left(before: str, latex: str) -> str:
    r"""``Q, K, V \in \mathbb{R}^{d \times d}`` for ``Q, K, V: $\in \mathbb{R}^{d \times d}$``: a membership with no
    left side, after bare letters the prose writes as its subjects (a list item's head), is said of them; any
    other fragment as it is."""
    tail = before[-40:]  # the line the fragment opens in, if it is that short
    m = _PROSE_LETTERS.fullmatch(tail.rsplit("\n", 1)[-1] if "\n" in tail or len(before) <= 40 else "")
    return f"{m.group(1)} {latex.lstrip()}" if m and re.match(r"\s*\\in\b", latex) else latex


def _top_level_commas(text: str) -> list[str]:
    """``W^Q, W^K`` → ``["W^Q", "W^K"]``; commas inside braces or brackets stay (at most 16 parts)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "{([" and 1 or ch in "})]" and -1 or 0
        if ch == "," and depth == 0 and len(parts) < 15:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [p for p in parts + [cur] if p.strip()]


def _before_relation(text: str) -> str:
    r"""``S_t \triangleq \sum_j k_j v_j^\top = K^\top V``: the text before its first relation outside braces."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
        elif depth == 0 and (ch == "=" or text.startswith((r"\triangleq", r"\coloneqq", r"\equiv", ":="), i)):
            return text[:i]
    return text


def _anchor_key(node) -> str:
    """The quantity a symbol names, without its indices: ``W^Q_i`` → ``W_Q``, ``x^{(0)}_n`` → ``x``."""
    _, base, sub, sup = node
    tags = TAGS.get(base, ())
    tag = sup if base == "W" and sup in tags else sub if sub in tags else None
    return base + (f"_{tag}" if tag else "")


def anchor_keys(nodes) -> frozenset:
    """The quantities ``nodes`` name (:func:`_anchor_key`), the letters of an exponent ``e^{m(x) - m(y)}`` too (the
    evaluator reads it as exp of that expression, so its letters are read as the reference's)."""
    keys = set()
    for n in walk(list(nodes)):
        if n[0] != "sym":
            continue
        keys.add(_anchor_key(n))
        if n[1] == "e" and n[3] and re.search(r"[A-Za-z]", n[3]):
            try:
                exponent = parse(n[3])[1]
            except (ParseError, RecursionError):
                continue
            keys |= {_anchor_key(m) for m in walk(exponent) if m[0] == "sym"}
    return frozenset(keys)


def _size_against_number(a, b, ctx: Context) -> str | None:
    """``\\sqrt{d_k} = 8``, ``1/\\sqrt{d_k} = 1/\\sqrt{3}``: one side printed numbers only, the other the model's sizes
    and numbers: true or false by the sizes' values, which the reference's test sizes are not. The size, or None."""
    if a is None:
        return None
    syms = [[n for n in walk(side) if n[0] == "sym"] for side in (a, b)]
    if bool(syms[0]) == bool(syms[1]):
        return None
    letters = syms[0] or syms[1]
    sizes = ctx.profile["sizes"]
    if all(n[3] is None and size_key(n) in sizes for n in letters):
        return unparse(letters[0])
    return None


_STATE_LETTERS = frozenset({"A", "B", "C", "\\Delta"})  # a state-space model's matrices (S4, Mamba)


def state_letter(node) -> bool:
    r"""``A``, ``\bar{B}``, ``C_t``, ``\Delta``: a letter a state-space model uses for its state matrices (an accent
    read off as :mod:`.forms` reads it)."""
    return node is not None and node[0] == "sym" and _ACCENT.sub(r"\1", node[1]) in _STATE_LETTERS


def _tying(a, b) -> bool:
    """``W_U = W_E^T``, ``W^K = W^Q``: two weight matrices set equal (either side, any spelling of the transpose)."""
    def name(n):
        n = n[1] if n[0] == "T" else n
        return (n[1], n[2] or n[3]) if n[0] == "sym" else None
    return None not in (name(a), name(b)) and name(a) != name(b) and name(a)[0] == name(b)[0] == "W"


def _subject_nodes(latex: str) -> list:
    """The symbols a table cell speaks of: the left side of its equation, or its listed symbols."""
    text = statements(latex)[0].text if statements(latex) else latex
    try:
        chain = parse(text)
        exprs = chain[1]
        return [exprs[0]] if exprs[0] and exprs[0][0] == "sym" else []
    except ParseError:
        try:
            items = parse("[" + text + "]")[1][0][2]
        except ParseError:
            return []
        return [x for x in items if x[0] == "sym"]


# what the prose between a symbol and a shape may say: "$W$ is a $d \times n$", "$W_k$ is a learnable weight matrix of
# shape $D_x \times D_k$", "$A$ has dimension $N \times N$", "$V = XW_V$ which results in shape $N \times D$" (up to
# three describing words; never a word that makes the shape another operand's: "multiplied by a matrix of shape")
_DESCRIBING = (r"(?:(?!(?:by|to|into|from|times|than|for|on|in|and|or|not|as|a|an|the|we|you|it|they|then|so|which|that|"
               r"this|when|if|after|get|gets|got|obtain|gives?|yields?|produces?|multiplied|applied|added|becomes?)\b)"
               r"[a-z-]+\s+)")
_SAID_OF = re.compile(r"(,\s*)?(which\s+)?(is|are|is an?|an?|((each|are|is|represents?|(each\s+)?(has|have)|(should|must|will)"
                      r"\s+have|results?\s+in)\s+)?((an?|the)\s+)?" + _DESCRIBING + r"{0,3}"
                      r"((matrix|matrices|vectors?|tensors?)\s+)?((of|with)\s+)?(the\s+same\s+)?"
                      r"(shape|size|dimensions?))")


# the same phrase in the other languages of the documents read: "sont de taille", "es de tamaño", "hat die Form",
# "的形状为", "大小为"
_SAID_OF_OTHER = re.compile(r"(est|sont)\s+(une\s+matrice\s+|un\s+vecteur\s+)?(de\s+)?(taille|dimension|forme)s?(\s+de)?|"
                            r"(es|son)\s+(una\s+matriz\s+|un\s+vector\s+)?(de\s+)?(tamaño|dimensi[oó]n|forma)(\s+de)?|"
                            r"(hat|haben|ist|sind)\s+(eine\s+matrix\s+)?(die\s+|der\s+)?(form|größe|dimension)|"
                            r"的?(形状|维度|大小|尺寸|shape)\s*(为|是)")


def _prose_subject(frags, i) -> list:
    """The symbol a prose shape is said of: ``$W$ is a $d \\times n$`` or ``a $d \\times n$ matrix $W$``."""
    frag = frags[i]
    prev = frags[i - 1] if i > 0 and frags[i - 1].block == frag.block else None
    nxt = frags[i + 1] if i + 1 < len(frags) and frags[i + 1].block == frag.block else None
    before = re.sub(r"[*_]", "", frag.before).strip().lower()
    if prev is not None and (_SAID_OF.fullmatch(before) or _SAID_OF_OTHER.fullmatch(before) or
                             before == "(" and frag.after.lstrip().startswith(")")):
        nodes = _subject_nodes(prev.latex)
        j = i - 1
        plural = re.search(r"each|are|represent\b|matrices|vectors|\b(?:sont|son|sind)\b", before)
        while plural and j > 0 and frags[j - 1].block == frag.block and \
                re.fullmatch(r"\s*(and|,)\s*", frags[j].before):
            nodes += _subject_nodes(frags[j - 1].latex)
            j -= 1
        return nodes
    after = re.sub(r"[*_]", "", frag.after).strip().lower()
    if nxt is not None and re.fullmatch(r"[a-z -]{0,30}(matrix|vector|tensor)", after):
        return _subject_nodes(nxt.latex)
    return []


def model_ref(node, ctx: Context):
    """The reference quantity a symbol node names at representative indices (``Ref``), or None where it names none."""
    try:
        return ctx.resolve(node, {x: 1 for x in "ijtnmslh"})
    except Exception:  # noqa: BLE001 - not the model's: no reference quantity
        return None


def implied_head(a, b, rel, ctx: Context, fb=()):
    """``Q = X W_i^Q``: the link with its per-head letters written without an index (``Q``) given the one head index
    the link names, if that verifies it (the outcome, its message saying so); None otherwise."""
    heads = _head_vars([a, b], ctx)
    if len(heads) != 1:
        return None
    head = next(iter(heads))
    implied = [_with_head(side, head, ctx) for side in (a, b)]
    if implied == [a, b]:
        return None
    out = judge(*implied, rel, ctx, fb)
    if out.status != "verified":
        return None
    out.message += f" (reading the per-head letters written without an index as head {head}'s)"
    return out


def _with_head(tree, head: str, ctx):
    """``tree`` with each per-head activation written without a head index (``Q``, ``A``) given ``head``."""
    if isinstance(tree, list):
        return [_with_head(c, head, ctx) for c in tree]
    if not isinstance(tree, tuple) or not tree:
        return tree
    if tree[0] == "sym":
        ref = model_ref(tree, ctx) if tree[3] is None else None
        return tree[:3] + (head,) if ref is not None and ref.kind == "activation" and ref.latex.endswith("^h") else tree
    return tuple(_with_head(c, head, ctx) if isinstance(c, (tuple, list)) else c for c in tree)
