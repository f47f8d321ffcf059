r"""Shapes of the document's own matrices and vectors, from its own declarations and definitions.

A document declares its matrices (``X \in \mathbb{R}^{n \times d}``, ``$W_k$ is of shape $D_x \times D_k$``,
``\mathbf{X} = [\,\cdots\,]_{d \times T}``) and vectors (``x_i \in \mathbb{R}^d``), defines others from them
(``Q = XW_q``), and then writes products, sums, Hadamard and dot products and transposes of them. A symbol means
what the document says it means, also where the reference model uses the same letter. Its shape here is:

- its declaration in force at the line (from the declaration's line on; a ``where``/``with`` clause right after
  a display also covers that display): a matrix (rows × columns) or a vector (a size, a row or a column as the
  reading takes it); two different shapes in force at the line leave it none (the document changed its
  meaning) unless the line's own section declares it, in one shape (then that one is the letter's there), a
  declaration after the line does not count, and one that states the letter anew on its line is not judged
  against the old;
- a member of a declared family (``k_t`` after ``k_j \in \mathbb{R}^d``; not a vector of ones or zeros,
  ``\mathbf{1}_n``, sized by its subscript), a slice ``W_Q^{[:, h, :]}`` of a
  declared tensor, or the shape its definition gives (``Q = XW_q``, read in order by :mod:`.shapeflow`; a
  definition after a declaration of the letter is its new meaning);
- ``q_j`` where only ``Q`` is declared (``M \times D_k``): a row or a column of it, a vector of either size.

:func:`shapes` evaluates an expression in both readings of its vectors (all columns, or all rows: a vector's
orientation is the reading's) and for each choice of a row/column vector's size; a product needs equal inner
sizes (two vectors side by side are a dot product), a sum and a Hadamard product equal shapes (a vector term
broadcasts), a transpose swaps; σ, softmax, LayerNorm … keep their argument's shape; anything else
(an unknown function, an entry, an undeclared letter) is :class:`Undetermined`. Sizes written with different
letters are different unless the document states an equation between them before the line (``d_k = d/h``; one
stated only later leaves them undecided) or
``implicitly_equal_sizes`` (``data/meanings.yaml``) pairs them; a mismatch that only an unstated equality of two
sizes would mend says so ("unless a = b").
"""
from __future__ import annotations

import bisect
import re
from contextlib import contextmanager
from dataclasses import dataclass, field

import sympy as sp

from ..shapes import plain_polynomial, rational_function
from .families import member, node_of
from .scalars import NotScalar, symbol_name

MAX_BRANCHES = 64  # readings × size choices evaluated for one expression
MAX_ENTRIES = 100  # a letter declared more often than this is not decided (keeps each lookup bounded)
_NUMERAL = re.compile(r"(?:\\text\{bold )?[01]\}?")  # 1_n, \mathbf{1}_n (read as \text{bold 1}): ones, zeros
MAX_FAMILY = 64  # names of one letter tried as a family (k_j for k_t)
ELEMENTWISE = {"sigma", "ReLU", "GELU", "exp", "tanh", "softmax", "LN", "LayerNorm", "RMSNorm", "sigmoid", "SiLU",
               "Swish", "softplus", "Dropout", "dropout", "norm_"}  # functions that keep their argument's shape
ELEMENTWISE_WORDS = {r"\text{" + n + "}" for n in ("LN", "LayerNorm", "RMSNorm", "ReLU", "GELU", "softmax",
                                                   "Softmax", "SiLU", "Dropout", "dropout", "sigmoid")}


class Undetermined(Exception):
    """The shape does not follow from the document's declarations alone."""


class Misfit(Exception):
    """The declared shapes do not fit together; the message says where, ``unless`` the size equalities that
    alone would mend it, ``diagnosis`` an edit that would (a missing transpose)."""

    def __init__(self, message: str, unless=(), diagnosis: str | None = None):
        super().__init__(message)
        self.unless, self.diagnosis = tuple(unless), diagnosis


@dataclass
class Declarations:
    """The document's declared matrices in reading order: name → [(rows, columns, line)], its tensors, vectors
    (name → [(size, line)]), definitions' shapes (name → [(shape, line)]), the letters it uses as sizes and the
    size equations it states. A declaration holds from its line on, or from ``since[(name, line)]``."""

    shapes: dict = field(default_factory=dict)
    sizes: set = field(default_factory=set)
    size_lines: dict = field(default_factory=dict)  # a size letter → the first line it is declared a size on
    line: int = 10**9  # the line being judged: declarations after it do not count yet
    tensors: dict = field(default_factory=dict)  # W_Q ∈ R^{D × H × d}: name → [(sizes, line)]
    vectors: dict = field(default_factory=dict)  # x_i ∈ R^d: name → [(size, line)]
    defined: dict = field(default_factory=dict)  # Q = X W_q: name → [((rows, cols) or size, line)]
    since: dict = field(default_factory=dict)  # (name, line) → the first line a declaration covers
    equations: list = field(default_factory=list)  # d_k = d / h: (left, right, line), SymPy expressions
    values: dict = field(default_factory=dict)  # d_k = 64: size name → value
    stated_as: dict = field(default_factory=dict)  # (Q, line) → X W_q, where Q = X W_q ∈ R^{…} is written
    quantified: dict = field(default_factory=dict)  # "(for any $T$)": a size letter → the line that quantifies it
    confirmed: set = field(default_factory=set)  # (W_Q, its declaration's line, a line whose shape arithmetic used it and held)
    skip: int | None = None  # a line whose own declarations are not used (the claim being judged there)
    units: tuple = ()  # the lines that open independent units (numbered exercises), ascending
    headings: tuple = ()  # the lines of every heading, ascending
    bare_sizes: dict = field(default_factory=dict)  # line → the size letters of shapes it writes alone (R^{T_1 × d})
    named: dict = field(default_factory=dict)  # a size letter → the reference size the document's prose says it is
    spelled: dict = field(default_factory=dict)  # a size's spelling (d_model, d_ff) → the reference size it names
    flowed: bool = False  # definitions read (by shapeflow.read)
    _memo: dict = field(default_factory=dict, repr=False)  # size comparisons and shape changes, decided once
    _letters: dict = field(default_factory=dict, repr=False)  # a letter → the names written with it

    def _sizes(self, *dims: sp.Expr, line: int = 0) -> None:
        names = {s.name for d in dims for s in sp.sympify(d).free_symbols}
        self.sizes |= names
        for name in names:
            self.size_lines.setdefault(name, line)

    def size_at(self, name: str, line: int) -> bool:
        """Whether ``name`` is a size by the declarations read up to ``line`` (a letter a later section first
        uses as a size, the vocabulary size V, is not one before it: there it may still be a matrix)."""
        return name in self.sizes and self.size_lines.get(name, 0) <= line

    def declare(self, name: str, rows: sp.Expr, cols: sp.Expr, line: int, since: int | None = None) -> None:
        self._sizes(rows, cols, line=min(line, since or line))
        self.shapes.setdefault(name, []).append((rows, cols, line))
        self._index(name)
        if since is not None and since < line:
            self.since[(name, line)] = since

    def declare_vector(self, name: str, size: sp.Expr, line: int, since: int | None = None) -> None:
        r"""``x_i \in \mathbb{R}^d``: a vector, a column or a row as the reading takes it."""
        self._sizes(size, line=min(line, since or line))
        self.vectors.setdefault(name, []).append((size, line))
        self._index(name)
        if since is not None and since < line:
            self.since[(name, line)] = since

    def declare_tensor(self, name: str, dims: tuple, line: int) -> None:
        r"""``W_Q \in \mathbb{R}^{D \times H \times d}``: its slices ``W_Q^{[:, h, :]}`` are D × d matrices."""
        self._sizes(*dims, line=line)
        self.tensors.setdefault(name, []).append((tuple(dims), line))

    def _force(self, name: str, entries, line: int) -> list:
        if len(entries) > MAX_ENTRIES:
            raise Undetermined(f"{name} is declared more than {MAX_ENTRIES} times")
        opened = self.units[bisect.bisect_right(self.units, line) - 1] if self.units and line >= self.units[0] else None
        return [d for d in entries if d[-1] != self.skip and self.since.get((name, d[-1]), d[-1]) <= line and
                (opened is None or not self.units[0] <= d[-1] < opened)]  # another exercise's letters stay there

    def slice_of(self, node, line: int | None = None):
        """(rows, columns, line) of ``W_Q^{[:, h, :]}``, a slice of a declared tensor with two axes kept
        (every other index a single letter or number), or None."""
        _, base, sub, sup = node
        text, name = (sup, base + (f"_{sub}" if sub else "")) if sup else (sub, base)
        m = re.fullmatch(r"\[([^\[\]]*)\]", (text or "").replace(" ", ""))
        line = self.line if line is None else line
        seen = [t for t in self.tensors.get(name, ()) if t[1] <= line] if m else []
        if not seen:
            return None
        dims, at = seen[-1]
        items = m.group(1).split(",")
        if len(items) != len(dims) or not all(i == ":" or re.fullmatch(r"[A-Za-z0-9]+", i) for i in items):
            return None
        kept = [d for d, i in zip(dims, items) if i == ":"]
        return (kept[0], kept[1], at) if len(kept) == 2 else None

    def at(self, name: str, line: int | None = None):
        """(rows, columns, line) of the declaration in force at ``line`` (default :attr:`line`), or None."""
        try:
            seen = self._force(name, self.shapes.get(name, ()), self.line if line is None else line)
        except Undetermined:
            return None
        return seen[-1] if seen else None

    def of(self, node, line: int | None = None):
        """(rows, columns, line) of a symbol node: its declaration, or a slice of a declared tensor; or None."""
        found = self.at(symbol_name(node), line)
        return found if found is not None else self.slice_of(node, line)

    # ------------------------------------------------------------------ the shape of a letter
    def lookup(self, node, line: int):
        """What the document makes of the symbol ``node`` at ``line``: ("matrix", rows, cols, line), ("vector",
        (sizes…), line) or None; :class:`Undetermined` where it declared it with two different shapes."""
        name = symbol_name(node)
        found = self._own(name, line)
        if found is not None:
            return found
        sliced = self.slice_of(node, line)
        if sliced is not None:
            return ("matrix",) + sliced
        for other in self._family(node[1]) if not _NUMERAL.fullmatch(node[1]) else ():  # k_t after k_j ∈ R^d
            # (\mathbf{1}_n after \mathbf{1}_m ∈ R^m: a vector of ones is sized by its subscript, no family)
            if other != name and member(other, node):
                found = self._own(other, line)
                if found is not None:
                    return found
        if node[2] is None and node[3] is None:  # k after k_t ∈ R^{d_k} only: the index dropped
            indexed = [o for o in self._family(node[1]) if (n := node_of(o)) is not None and n[3] is None and
                       n[2] is not None and re.fullmatch(r"[a-z]", n[2])]
            found = self._own(indexed[0], line) if len(indexed) == 1 else None
            # a matrix only under a time step (S after S_t, a recurrence's state); Q after Q_i ∈ R^{B_r×d} is
            # a block's or a head's shape, not Q's
            if found is not None and (found[0] == "vector" or node_of(indexed[0])[2] == "t") and \
                    bisect.bisect_right(self.headings, found[-1]) == bisect.bisect_right(self.headings, line):
                return found  # (an index dropped in the same section: another section's s is its own)
        return self._row_of(node, line)

    def _family(self, letter: str) -> list:
        """The declared or defined names written with ``letter`` (kept as they are declared)."""
        return self._letters.get(letter, [])[:MAX_FAMILY]

    def _index(self, name: str) -> None:
        names = self._letters.setdefault(re.split(r"[_^]", name)[0], [])
        if name not in names[:MAX_FAMILY + 1]:
            names.append(name)

    def define(self, name: str, shape, line: int) -> None:
        """``Q = X W_q``: Q's shape from its definition, (rows, columns) or a vector's size, from ``line`` on."""
        self.defined.setdefault(name, []).append((shape, line))
        self._index(name)

    def _declared(self, name: str, entries=None) -> list:
        """The declarations of ``name``, ("matrix", rows, cols, line) and ("vector", (size,), line), all of them or
        those of ``entries`` (a filter on (shapes, vectors) lists)."""
        shapes, vectors = entries or (self.shapes.get(name, ()), self.vectors.get(name, ()))
        return [("matrix", r, c, at) for r, c, at in shapes] + [("vector", (s,), at) for s, at in vectors]

    def _own(self, name: str, line: int):
        entries = self._declared(name, (self._force(name, self.shapes.get(name, ()), line),
                                        self._force(name, self.vectors.get(name, ()), line)))
        declared = max((e[-1] for e in entries), default=0)  # a definition after it: the letter's new meaning
        entries = [(("matrix",) + tuple(s) if isinstance(s, tuple) else ("vector", (s,))) + (at,)
                   for s, at in self._force(name, self.defined.get(name, ()), line) if at > declared] or entries
        if not entries:
            return None
        if self._changes(name, entries):
            section = bisect.bisect_right(self.headings, line)
            here = [e for e in entries if bisect.bisect_right(self.headings, e[-1]) == section]
            if not here or self._changes(name, here):  # the section's own declarations, if they agree, are its
                raise Undetermined(f"{name} is declared with different shapes (its meaning changes)")
            return here[-1]  # q ∈ R^d in one section, q ∈ R^q in this one: this section's q
        return entries[-1]

    def declared_anew(self, name: str, line: int) -> bool:
        """Whether ``line`` declares ``name`` with another shape than the declaration in force before it."""
        every = self._declared(name)
        here, before = [e[:-1] for e in every if e[-1] == line], [e[:-1] for e in every if e[-1] < line]
        return bool(here and before) and not self._alike(here[0], before[-1])

    def _changes(self, name: str, entries: list) -> bool:
        """Whether the declarations of ``name`` in force at a line give it two different shapes. A declaration
        after the line does not count: a letter a later section declares anew keeps its meaning up to there."""
        key = (name, len(entries), entries[-1][-1], len(self.equations))
        if key not in self._memo:
            self._memo[key] = any(not self._alike(e[:-1], entries[0][:-1]) for e in entries[1:])
        return self._memo[key]

    def _alike(self, a, b) -> bool:
        """Two declared shapes, ("matrix", rows, cols) or ("vector", (size,)), the same for this document."""
        sizes = (a[1:], b[1:]) if a[0] == "matrix" else (a[1], b[1])
        return a[0] == b[0] and all(self.same(x, y) is True for x, y in zip(*sizes))

    def _row_of(self, node, line: int):
        """``q_j`` (a lower-case letter with one index) where the document declares only ``Q``: a row or a
        column of Q, a vector of one of its two sizes."""
        _, base, sub, sup = node
        if not (re.fullmatch(r"[a-z]", base) and sub and re.fullmatch(r"[ijtnmsl]", sub) and sup is None):
            return None
        upper = ("sym", base.upper(), None, None)
        found = self._own(symbol_name(upper), line)
        if found is None or found[0] != "matrix":
            return None
        return ("vector", (found[1], found[2]), found[3])

    # ------------------------------------------------------------------ sizes
    def same(self, a, b) -> bool | None:
        """Equal sizes (True), different for generic sizes (False), or not decidable (None), with the size
        equations the document states (``d_k = d_v = d/h``) and ``implicitly_equal_sizes``."""
        key = (a, b, len(self._equations()), len(self.values))
        if key not in self._memo:
            self._memo[key] = self._same(sp.sympify(a), sp.sympify(b))
        return self._memo[key]

    def _same(self, a, b) -> bool | None:
        gap = self._gap(a, b, self._equations())
        if gap == 0:
            return True
        if len(self._equations()) < len(self.equations) and self._gap(a, b, self.equations) == 0:
            return None  # equal by an equation stated later ("generally D_v = D_x = d"): neither verified nor a misfit
        if _implicitly_equal(a, b) or a.is_Symbol and b.is_Symbol and (a.name in self.named or b.name in self.named) \
                and self.reference_size(a.name) == self.reference_size(b.name):
            return None  # d ("the hidden dim") and d_model: one size by the document's words, an equation unstated
        if self.values:  # d_k = 64 and d_v = 64: not different in this document's numbers
            both = gap.xreplace({s: self.values[s.name] for s in gap.free_symbols if s.name in self.values})
            if both == 0:
                return None
        number = a if a.is_number else b if b.is_number else None
        if number is not None and a.is_number != b.is_number and number > 1 and \
                not any(s.name in self.values for s in gap.free_symbols):
            return None  # 4 against d_head, to which the document gives no value: an example's size for the letter
        return False if gap.is_number or gap.free_symbols else None

    def reference_size(self, name: str) -> str | None:
        """The reference size a size letter names: by the document's prose ("$d$: hidden dim"), or by being spelled
        as that size's own name (``d_{model}``, ``d_\\text{model}``). An alias (``d_k``, ``d_v``: both the head size
        in the profile) or a single letter (``d``, ``n``) names nothing here: documents use them for several sizes."""
        plain = re.sub(r"\\(?:text|mathrm)\s*|[{}\\ ]", "", name)
        return self.named.get(name) or (plain if len(plain) > 1 and self.spelled.get(plain) == plain else None)

    def _equations(self) -> list:
        """The size equations stated up to the line being judged: one said later (``d_k = d_v = d``) verifies
        nothing before it, and makes no misfit there either (:meth:`_same`)."""
        return [(left, right) for left, right, at in self.equations if at <= self.line]

    @contextmanager
    def judging(self, line: int):
        """Judge ``line``: the size equations in force are those stated up to it."""
        before, self.line = self.line, line
        try:
            yield self
        finally:
            self.line = before

    def _gap(self, a, b, equations) -> sp.Expr:
        gap = self._reduce(a, equations) - self._reduce(b, equations)
        if plain_polynomial(gap):
            return gap.expand()  # canonical there, and cheap
        return sp.cancel(gap) if rational_function(gap) else sp.simplify(gap)  # cancel: canonical, no simplify's cost

    @staticmethod
    def _reduce(expr: sp.Expr, equations) -> sp.Expr:
        for _ in range(4):  # d_k → d_v → d / h: a few rounds of the stated equations
            subs = {}
            for left, right, *_ in equations:
                if left.is_Symbol and left in expr.free_symbols and left not in right.free_symbols:
                    subs.setdefault(left, right)
            if not subs:
                break
            expr = expr.xreplace(subs)
        return expr


def size_of(node) -> sp.Expr:
    """A size as written in a shape (``d_k``, ``n``, ``512``, ``d/h``): a SymPy expression."""
    from .scalars import to_sympy

    if node[0] == "call" and node[1] == "abs" and len(node[3]) == 1 and node[3][0][0] == "sym":
        # |V|: the size of the set V, a size of its own (|v| beside |V| in one note: the same set, its case slipped)
        return sp.Symbol(f"|{symbol_name(node[3][0]).upper()}|", positive=True)
    try:
        size = to_sympy(node)
    except (NotScalar, ValueError, TypeError) as exc:
        raise Undetermined(f"the size {node!r} is not a plain size") from exc
    words = {s: sp.Symbol(m.group(1), positive=True) for s in size.free_symbols
             if (m := re.fullmatch(r"\\text\{([A-Za-z]\w*)\}", s.name))}
    if size.has(sp.E):  # a size written e is a letter, not Euler's number
        words[sp.E] = sp.Symbol("e", positive=True)
    return size.xreplace(words) if words else size  # \text{V} is the size V


def size_latex(size) -> str:
    r"""A size as LaTeX, a name that is LaTeX already (``d^\prime``) kept as written."""
    size = sp.sympify(size)
    return sp.latex(size, symbol_names={s: s.name for s in size.free_symbols if "\\" in s.name})


def _show(rows, cols) -> str:
    return f"{size_latex(rows)} \\times {size_latex(cols)}"


def _same(a: sp.Expr, b: sp.Expr) -> bool | None:
    """Equal sizes (True), different for generic sizes (False), or not decidable (None), by the letters alone."""
    return Declarations().same(a, b)


def _per_head(a: sp.Expr, b: sp.Expr) -> bool:
    """Whether one size is the other times size letters (h d_v and d_v): W^V W^O written for one head with W^O
    declared for all heads is the usual shorthand, not a contradiction to report."""
    ratio = sp.simplify(a / b)
    ratio = ratio if ratio.is_Symbol or ratio.is_Mul else 1 / ratio
    return bool(ratio.free_symbols) and all(f.is_Symbol for f in sp.Mul.make_args(ratio))


def _implicitly_equal(a: sp.Expr, b: sp.Expr) -> bool:
    """Whether ``a`` and ``b`` are a pair of sizes the operations need equal (``implicitly_equal_sizes`` in
    ``data/meanings.yaml``: d_q and d_k)."""
    from .data import load

    names = {str(a), str(b)}
    return any(names == set(pair) for pair in load("meanings.yaml").get("implicitly_equal_sizes", ()))


def shapes(node, decl: Declarations, line: int | None = None, used: dict | None = None) -> set:
    """The shapes ``node`` can have — (rows, columns), or None for a scalar — over the readings of its vectors
    (all columns, all rows) and the sizes of row/column vectors; :class:`Misfit` if it fits in none,
    :class:`Undetermined` if any reading cannot tell. The first reading's misfit is the one reported; ``used``
    collects the declarations the shapes came from (name → line)."""
    line = decl.line if line is None else line
    with decl.judging(line):
        return _readings(node, decl, line, used)


def _readings(node, decl: Declarations, line: int, used: dict | None) -> set:
    from .shapecalc import Evaluation

    out, misfits, pending, rows = set(), [], [("column", {})], False
    tried = 0
    while pending:
        reading, chosen = pending.pop(0)
        tried += 1
        if tried > MAX_BRANCHES:
            raise Undetermined("too many readings of its vectors")
        ev = Evaluation(decl, line, reading, chosen, used)
        try:
            out.add(ev.resolve(ev.ev(node)))
        except Misfit as exc:
            misfits.append(exc)
        except _Choose as exc:
            pending += [(reading, {**chosen, exc.name: size}) for size in exc.sizes]
            continue
        if reading == "column" and ev.vectors and not rows:
            rows = True  # a vector was met: the other reading too
            pending.append(("row", {}))
    if not out:
        raise misfits[0]
    return out


def shape(node, decl: Declarations) -> tuple | None:
    """(rows, columns) of an expression of declared matrices, the same in every reading; None for a scalar."""
    found = shapes(node, decl)
    if len(found) != 1:
        raise Undetermined("its shape depends on how its vectors are read")
    return next(iter(found))


class _Choose(Exception):
    """A row or column vector of a declared matrix was met: evaluate once per size it may have."""

    def __init__(self, name: str, sizes):
        super().__init__(name)
        self.name, self.sizes = name, sizes


__all__ = ["Declarations", "Misfit", "Undetermined", "shape", "shapes", "size_of", "ELEMENTWISE"]
