r"""Exact evaluation of an expression of a document's own matrices at one random draw (for
:mod:`symtf.check.identities`): each size bound to its own prime, each free matrix to integer entries drawn
uniformly from ``2^S_BITS`` values, a size used as a number to t² (so that √d = t is exact); products, sums,
transposes, Hadamard products, scalar multiples and quotients, integer powers and inverses computed with Python
integers and fractions, with bounds on the degrees of the entries as rational functions of the drawn numbers.
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp

from .families import concrete
from .idbook import Book, _modifier
from .lexicon import GREEK
from .scalars import symbol_name
from .unparse import unparse

S_BITS = 32  # entries are drawn uniformly from 2^32 integers
DRAWS = 2  # independent draws per claim
MAX_FACTORS = 50  # a claim with more factors (letters and numbers) is not judged here
MAX_DIM = 60  # a matrix dimension above this (a printed 12288) is not evaluated
MAX_WORK = 50_000  # entries drawn and multiplied per draw (a claim at prime sizes needs a few hundred)
MAX_DEPTH = 20  # definitions substituted inside definitions
MAX_TERMS = 12  # terms of a sum over an index, added one by one


class Unsupported(Exception):
    """Not an expression of the document's own matrices in the operations evaluated exactly."""


class ShapeError(Unsupported):
    """The shapes do not fit (in this reading of the vectors, as columns or as rows)."""


class Singular(Exception):
    """A matrix to invert, or a number to divide by, is zero at this draw."""


@dataclass
class Val:
    """A value (a Fraction or a 2-D object array) and bounds on the degrees of its entries as rational functions
    of the drawn numbers: ``num`` of the numerators, ``den`` of their common denominator."""

    v: object
    num: int = 0
    den: int = 0

    @property
    def matrix(self) -> bool:
        return isinstance(self.v, np.ndarray)


def _first_alike(decl, name: str, declared) -> int:
    r"""The line of the first of the declarations of ``name`` up to ``declared`` that all give it the same shape: a
    display that states ``W_c \in \mathbb{R}^{d \times d_c}`` again declares the same matrix, not a new one."""
    for table in (decl.shapes, decl.vectors):
        seen = table.get(name)
        if seen and declared in seen:
            k = seen.index(declared)
            while k > 0 and seen[k - 1][:-1] == declared[:-1]:
                k -= 1
            return seen[k][-1]
    return declared[-1]


class Draw:
    """One draw: random integer values for the free matrices and sizes of a claim, and exact evaluation."""

    def __init__(self, book: Book, rng: random.Random, reading: str = "column", primes: dict | None = None):
        self.book, self.rng, self.reading = book, rng, reading  # reading: vectors as columns or as rows
        self.primes = {} if primes is None else primes  # size name → its prime, shared by a claim's draws
        self.values: dict = {}  # (name, declaration line) → Val; ("size", name) → Val; ("def", name, line) → Val
        self.work = 0
        self.depth = 0
        self.matrices: set = set()  # names of the free matrices used
        self.defined: set = set()  # names substituted by their definitions
        self.sizes: dict = {}  # size name → its prime, for the sizes that shaped a matrix
        self.vectors = False  # was a vector used (then its reading matters)
        self.shown: dict = {}  # name → as the document writes it
        self.pins: dict = {}  # family head → the line of the one definition its members follow in this test
        self.used: dict = {}  # family head → the line of the definition its members were evaluated by
        self.guessed: set = set()  # letters read by their type (see typographic)
        self.reached_start = False  # did a recurrence reach its initial state (index ≤ 0)
        self.zero_start = False  # is that state zero (else drawn like any matrix)
        self.env: dict = {}  # index letter → its whole-number value (the claim's free indices, sums' variables)

    def _entry(self) -> int:
        return self.rng.randrange(-(1 << (S_BITS - 1)), 1 << (S_BITS - 1))

    def _dim(self, expr) -> int:
        expr = sp.sympify(expr)
        primes = self.primes
        if self.env and expr.free_symbols:  # indices free: one size for every axis (see typographic)
            expr = sp.Symbol("n_{typographic}")
        for s in sorted(expr.free_symbols, key=lambda s: s.name):
            primes.setdefault(s.name, int(sp.prime(len(primes) + 2)))  # 3, 5, 7, 11, …: one size, one prime
        value = expr.xreplace({s: sp.Integer(primes[s.name]) for s in expr.free_symbols})
        if not (value.is_Integer and 1 <= value <= MAX_DIM):
            raise Unsupported(f"the size {expr} is not a small whole number at the prime sizes")
        self.sizes.update({s.name: primes[s.name] for s in expr.free_symbols})
        return int(value)

    # ------------------------------------------------------------------ leaves
    def symbol(self, node, line: int) -> Val:
        name = symbol_name(node)
        book = self.book
        index = concrete(node[2], self.env) if self.env and node[2] else None
        if index is not None:
            return self.member(node, index, line)
        found = book.definition(name, line) or book.family_definition(node, line)
        if found is not None and self.env and found[1] is not None and found[1][0] == "num":
            found = None  # β = 2 in a worked example: with indices free, β stays a letter
        fresh = book.decl.at(name, line)
        if found is not None and fresh is not None and fresh[2] > found[0]:
            found = None  # declared anew after its definition ("let Q ∈ R^{n×d}" in a later section): a new matrix
        if found is not None:
            def_line, rhs, _ = found
            if rhs is None:
                raise Unsupported(f"{name} is defined (line {def_line}) in a form not evaluated here")
            key = ("def", name, def_line, tuple(sorted(self.env.items())))  # its value depends on free indices
            if key not in self.values:
                if self.depth >= MAX_DEPTH:
                    raise Unsupported("definitions nested too deep")
                outer, self.matrices, self.defined = (self.matrices, self.defined), set(), set()
                self.depth += 1
                try:
                    self.values[key] = self.ev(rhs, def_line), self.matrices, self.defined
                finally:
                    self.depth -= 1
                    self.matrices, self.defined = outer
            value, matrices, defined = self.values[key]
            self.shown.setdefault(name, unparse(node))
            self.matrices |= matrices
            self.defined |= defined | {name}
            return value
        declared = book.decl.of(node, line) or book.family_shape(node, line)
        if declared is not None:
            key = (name, _first_alike(book.decl, name, declared))
            if key not in self.values:
                self.values[key] = self._drawn(declared)
            self.matrices.add(name)
            self.shown.setdefault(name, unparse(node))
            return self.values[key]
        if name in book.decl.sizes:
            key = ("size", name)
            if key not in self.values:
                t = self.rng.randrange(1, (1 << S_BITS) + 1)
                self.values[key] = Val(Fraction(t * t), 2)
                self.values[("root", name)] = Val(Fraction(t), 1)
            return self.values[key]
        mod = _modifier(node)
        if mod is not None:
            base = self.symbol(mod[0], line)
            return self.transpose(base) if mod[1] == "T" else self.power(base, mod[1])
        if self.env:
            return self.typographic(node)
        raise Unsupported(f"{name} is neither declared nor defined by this document")

    def typographic(self, node, index=None) -> Val:
        """A letter the document neither declares nor defines, in a claim about indexed quantities, read by its
        type as the field writes it: a Greek letter is a number, ``I`` the identity, a small Latin letter a vector,
        a capital a matrix, all of one size (an identity of polynomials that holds at one square size holds at
        every shape where its products are defined: pad with zeros). Such a reading only ever verifies."""
        base, sub, sup = node[1], node[2], node[3]
        name = symbol_name(node) if index is None else f"{base}_{index}"
        key = ("typographic", base, sup, sub if index is None else index)
        if key not in self.values:
            size = self._dim(sp.Symbol("n_{typographic}"))
            if base[1:] in GREEK and base.startswith("\\"):
                self.values[key] = Val(Fraction(self._entry()), 1)
            elif base == "I" and sub is None and sup is None:
                self.values[key] = Val(np.identity(size, dtype=object) * 1, 0)
            elif len(base) == 1 and base.isalpha():
                rows, cols = (size, 1) if base.islower() else (size, size)
                if base.islower():
                    self.vectors = True
                    rows, cols = (rows, cols) if self.reading == "column" else (cols, rows)
                self.values[key] = self._random(rows, cols)
            else:
                raise Unsupported(f"{name} is neither declared nor defined by this document")
        if base != "I" and base[1:] not in GREEK:
            self.matrices.add(name)
        self.guessed.add(name)
        self.shown.setdefault(name, unparse(node))
        return self.values[key]

    def member(self, node, index: int, line: int) -> Val:
        r"""``S_{t-1}`` at t = 4: the member S_3 of the family, by the family's definition in force (``S_t =
        S_{t-1} + v_t k_t^\top`` evaluated at t = 3, its own earlier members by the same definition), or drawn
        once for every way of writing it (``k_t`` at t = 3 and ``k_j`` at j = 3 are one matrix) where the family
        is only declared, or where a recurrence reaches its start (index ≤ 0: the initial state)."""
        base, sup = node[1], node[3]
        found = self._family_rule(base, sup, line) if index >= 1 else None
        if found is not None:
            head, (def_line, rhs, _) = found
            if rhs is None:
                raise Unsupported(f"{unparse(head)} is defined (line {def_line}) in a form not evaluated here")
            key = ("member", base, sup, index, def_line)
            if key not in self.values:
                if self.depth >= MAX_DEPTH:
                    raise Unsupported("definitions nested too deep")
                outer, self.matrices, self.defined, env = (self.matrices, self.defined), set(), set(), self.env
                self.depth, self.env = self.depth + 1, {**env, head[2]: index}
                try:  # on the line after its own: a recurrence's earlier members follow the same definition
                    self.values[key] = self.ev(rhs, def_line + 1), self.matrices, self.defined
                finally:
                    self.depth, self.env = self.depth - 1, env
                    self.matrices, self.defined = outer
            value, matrices, defined = self.values[key]
            self.matrices |= matrices
            self.defined |= defined | {symbol_name(head)}
            self.used[symbol_name(head)] = def_line
            self.shown.setdefault(symbol_name(head), unparse(head))
            return value
        start = index < 1 and self._family_rule(base, sup, line) is not None  # a recurrence's initial state
        self.reached_start |= start
        declared = self.book.family_shape(node, line)
        if declared is None:
            value = self.typographic(node, index)
        else:
            name = f"{base}^{sup}_{index}" if sup else f"{base}_{index}"
            key = ("free member", base, sup, index)
            if key not in self.values:
                self.values[key] = self._drawn(declared)
            self.matrices.add(name)
            self.shown.setdefault(name, unparse(("sym", base, str(index), sup)))
            value = self.values[key]
        return Val(value.v * 0, 0) if start and self.zero_start else value

    def _family_rule(self, base: str, sup, line: int):
        """(head, definition) of the family ``base``: the definition of a head written with one index letter
        (``S_t``) pinned for this test, else the latest in force before ``line`` (then pinned), or None."""
        best = None
        for name in self.book.bases().get(base, ()):
            head = self.book.heads.get(name)
            if head is None or head[3] != sup or not head[2] or not re.fullmatch(r"[a-z]", head[2].strip()):
                continue
            pinned = self.pins.get(name)
            if pinned is None:
                found = self.book.definition(name, line)
                if found is not None:  # one definition of a family for the whole test, both sides, every depth
                    self.pins[name] = found[0]
            else:
                found = next((d for d in self.book.definitions.get(name, ()) if d[0] == pinned), None)
            if found is not None and (best is None or found[0] > best[1][0]):
                best = (head, found)
        return best

    def _drawn(self, declared) -> Val:
        """A fresh matrix of a declared shape ((size, line) for a vector, a column or a row as this draw reads
        vectors; (rows, columns, line) for a matrix)."""
        if len(declared) == 2:
            rows, cols = (declared[0], 1) if self.reading == "column" else (1, declared[0])
            self.vectors = True
        else:
            rows, cols = declared[:2]
        return self._random(self._dim(rows), self._dim(cols))

    def _random(self, m: int, n: int) -> Val:
        """An m × n matrix of drawn integers; its entries count against :data:`MAX_WORK`."""
        self.work += m * n
        if self.work > MAX_WORK:
            raise Unsupported("too many entries for an exact test")
        return Val(np.array([[self._entry() for _ in range(n)] for _ in range(m)], dtype=object), 1)

    def sum(self, node, line: int) -> Val:
        r"""``\sum_{j=1}^{t-1} body`` where the limits are whole numbers here: its terms, added one by one."""
        _, var, lo, hi, body = node
        var = (var or "").strip()
        first, last = concrete(lo, self.env), concrete(hi, self.env)
        if not re.fullmatch(r"[a-z]", var) or first is None or last is None:
            raise Unsupported("a sum whose limits are not whole numbers here")
        if not 1 <= last - first + 1 <= MAX_TERMS:
            raise Unsupported(f"a sum of {last - first + 1} terms")
        env, terms = self.env, []
        try:
            for value in range(first, last + 1):
                self.env = {**env, var: value}
                terms.append(self.ev(body, line))
        finally:
            self.env = env
        return self.add(terms, [1] * len(terms))

    def root(self, node, line: int) -> Val:
        """√ of a product of sizes and numbers, exactly: √d = t where d was drawn as t²."""
        coef, num, den = Fraction(1), Fraction(1), 0
        deg = 0
        stack = [(node, 1)]
        while stack:
            n, e = stack.pop()
            if n[0] == "num":
                coef *= _number(n) ** e
            elif n[0] == "sym":
                value = self.symbol(n, line)
                if value.matrix:
                    raise Unsupported("a square root of a matrix")
                if value.num == value.den == 0:  # a size the document gives a value (d_k = 64)
                    coef *= value.v ** e
                    continue
                if ("root", symbol_name(n)) not in self.values:
                    raise Unsupported("a square root of a quantity not drawn as a square")
                num *= self.values[("root", symbol_name(n))].v ** e
                deg, den = (deg + e, den) if e > 0 else (deg, den - e)
            elif n[0] == "mul" and n[3] in ("*", "·", "/"):
                stack += [(n[1], e), (n[2], -e if n[3] == "/" else e)]
            elif n[0] == "frac":
                stack += [(n[1], e), (n[2], -e)]
            else:
                raise Unsupported("a square root of something other than sizes and numbers")
        a, b = coef.numerator, coef.denominator
        if a < 0 or math.isqrt(a) ** 2 != a or math.isqrt(b) ** 2 != b:
            raise Unsupported(f"the square root of {coef} is not rational")
        return Val(Fraction(math.isqrt(a), math.isqrt(b)) * num, deg, den)

    # ------------------------------------------------------------------ operations
    def transpose(self, x: Val) -> Val:
        return Val(x.v.T, x.num, x.den) if x.matrix else x

    def times(self, x: Val, y: Val, op: str = "*") -> Val:
        deg = (x.num + y.num, x.den + y.den)
        if op == "⊙":
            if not (x.matrix and y.matrix and x.v.shape == y.v.shape):
                raise ShapeError("a Hadamard product of different shapes")
            self.work += x.v.size
            return Val(x.v * y.v, *deg)
        if x.matrix and y.matrix and x.v.shape[1] != y.v.shape[0] and (1, 1) in (x.v.shape, y.v.shape):
            x, y = _scalar(x), _scalar(y)  # (q^T k) v: a 1 × 1 product is a number
        if x.matrix and y.matrix:
            (m, k), (k2, n) = x.v.shape, y.v.shape
            if k != k2:
                raise ShapeError("the inner sizes of a product differ")
            self.work += m * k * n
            if self.work > MAX_WORK:
                raise Unsupported("too much work for an exact test")
            return Val(x.v.dot(y.v), *deg)
        self.work += x.v.size if x.matrix else y.v.size if y.matrix else 1
        return Val(x.v * y.v, *deg)

    def divide(self, x: Val, y: Val) -> Val:
        if y.matrix:
            raise Unsupported("a division by a matrix")
        if y.v == 0:
            raise Singular
        return Val(x.v / y.v if x.matrix else x.v / y.v, x.num + y.den, x.den + y.num)

    def add(self, terms: list, signs: list) -> Val:
        kinds = {t.v.shape if t.matrix else None for t in terms}
        if len(kinds) != 1:
            raise ShapeError("a sum of different shapes")
        total = sum(t.den for t in terms)
        value = terms[0].v * signs[0]
        for t, s in zip(terms[1:], signs[1:]):
            value = value + t.v * s
        return Val(value, max(t.num + total - t.den for t in terms), total)

    def inverse(self, x: Val) -> Val:
        if not x.matrix:
            if x.v == 0:
                raise Singular
            return Val(1 / x.v, x.den, x.num)
        m, n = x.v.shape
        if m != n:
            raise ShapeError("the inverse of a matrix that is not square")
        self.work += m ** 3
        return Val(_inverse(x.v), x.den + (m - 1) * x.num, m * x.num)

    def power(self, x: Val, k: int) -> Val:
        if k < 0:
            return self.inverse(x if k == -1 else self.power(x, -k))
        if k == 1:
            return x
        if not 2 <= k <= 8:
            raise Unsupported(f"the power {k}")
        if x.matrix and x.v.shape[0] != x.v.shape[1]:
            raise ShapeError("a power of a matrix that is not square")
        out = x
        for _ in range(k - 1):
            out = self.times(out, x)
        return out

    def ev(self, node, line: int) -> Val:
        kind = node[0]
        if kind == "num":
            return Val(_number(node))
        if kind == "sym":
            return self.symbol(node, line)
        if kind == "T":
            return self.transpose(self.ev(node[1], line))
        if kind == "neg":
            x = self.ev(node[1], line)
            return Val(-x.v, x.num, x.den)
        if kind == "mul" and node[3] in ("*", "·", "⊙"):
            return self.times(self.ev(node[1], line), self.ev(node[2], line), node[3])
        if kind == "mul" and node[3] == "/" or kind == "frac":
            return self.divide(self.ev(node[1], line), self.ev(node[2], line))
        if kind == "add":
            return self.add([self.ev(t, line) for t in node[1]], node[2])
        if kind == "sqrt":
            return self.root(node[1], line)
        if kind == "sum" and self.env:
            return self.sum(node, line)
        if kind == "pow":
            exp = node[2]
            sign = -1 if exp[0] == "neg" else 1
            exp = exp[1] if exp[0] == "neg" else exp
            if exp[0] != "num" or not exp[2].isdigit():
                raise Unsupported("a power that is not a whole number")
            return self.power(self.ev(node[1], line), sign * int(exp[2]))
        raise Unsupported(f"a {kind} is not evaluated exactly here")


def _number(node) -> Fraction:
    if re.search(r"[eE][+-]?\d{3}", node[2] or ""):
        raise Unsupported(f"the number {node[2]!r} is too large to expand")
    try:
        return Fraction(node[2])
    except (ValueError, TypeError, ZeroDivisionError) as exc:
        raise Unsupported(f"the number {node[2]!r}") from exc


def _inverse(a: np.ndarray) -> np.ndarray:
    """The exact inverse (Gauss–Jordan over the rationals); :class:`Singular` if there is none."""
    n = a.shape[0]
    rows = [[Fraction(x) for x in a[i]] + [Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            raise Singular
        rows[col], rows[pivot] = rows[pivot], rows[col]
        p = rows[col][col]
        rows[col] = [x / p for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col])]
    return np.array([row[n:] for row in rows], dtype=object)


def _scalar(x: Val) -> Val:
    r"""A 1 × 1 matrix (``q^\top k``) is a number."""
    return Val(x.v[0, 0], x.num, x.den) if x.matrix and x.v.shape == (1, 1) else x
