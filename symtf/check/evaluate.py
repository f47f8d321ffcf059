r"""Evaluate a parsed fragment numerically in a context (which model, which notation).

Values are numpy arrays (2-D) or scalars; a 1×1 result is a scalar. Shapes are checked as the
math requires (no silent numpy broadcasting): a product needs equal inner sizes, a sum equal
shapes, except a bias column added to every token column and the post's scalar-minus-vector
abuse ``x - \mu(x)``. ``\dots`` sequences are expanded at the concrete sizes.
"""
from __future__ import annotations

import re

import numpy as np

from .numeric import causal_softmax, gelu, layernorm, normal_cdf, softmax
from .parse import entrywise_first, walk
from .unparse import unparse


class CheckError(Exception):
    """Base of the evaluation outcomes that are not a value."""

    def __init__(self, message: str, fix=None):
        super().__init__(message)
        self.fix = fix  # (old node, new node): a repair to try for the expected form


class ShapeMismatch(CheckError):
    """The expression is not shape-consistent."""


class BadRef(CheckError):
    """A symbol that names nothing in this model although its base does (wrong layer or index)."""


class Unknown(CheckError):
    """A symbol or notation this context does not know: the fragment cannot be checked."""


class PastTheHeads(Unknown):
    """A head written with a free index letter (``Q^i``) at a value past the model's heads: that value is skipped."""


def _matrix_power(a, k: int):
    """``A^k`` of a square matrix (``A^{-1}`` its inverse): ShapeMismatch if A is not square, Unknown if an inverse
    is asked of a matrix that has none (singular to working precision)."""
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ShapeMismatch(f"a power of a non-square matrix ({a.shape[0]} × {a.shape[1]})")
    if k < 0 and np.linalg.cond(a) > 1e12:
        raise Unknown("the inverse of a matrix that is singular at the values drawn: not checked")
    return np.linalg.matrix_power(a, k)


def is_scalar(v) -> bool:
    return np.ndim(v) == 0


def scalarize(v):
    if isinstance(v, np.ndarray) and v.shape == (1, 1):
        return v[0, 0]
    return v


# The most items a ``\dots`` sequence or a sum may have to be evaluated term by term, and the most
# nodes one Evaluator visits (the largest fragment of the post, the fixtures and tests/corpus needs
# 144): past them a fragment is left unchecked, never materialised (issue 10).
MAX_ITEMS = 10_000
MAX_STEPS = 10_000
_INDEX_SUM = re.compile(r"[+-]?(\d+[A-Za-z]*|[A-Za-z]+)([+-](\d+[A-Za-z]*|[A-Za-z]+))*")
_INDEX_TERM = re.compile(r"([+-]?)(\d*)([A-Za-z]*)")


def index_value(text: str, env: dict, ctx) -> int:
    """``n+1``, ``i``, ``2``, ``2i-1``, ``H`` with the loop/free variables of ``env``.

    A sum of terms, each an optional whole number (at most 18 digits) times an optional name (a
    loop variable of ``env`` or a size of ``ctx``, when there is one); no other syntax. Unknown otherwise.
    """
    text = text.strip().strip("{}").replace(" ", "")
    if not _INDEX_SUM.fullmatch(text):
        raise Unknown(f"index {text!r} is not an integer expression")
    total = 0
    for sign, digits, name in _INDEX_TERM.findall(text):
        if not (digits or name):
            continue
        if len(digits) > 18:
            raise Unknown(f"index {text!r} has a number of more than 18 digits")
        value = int(digits) if digits else 1
        if name:
            try:
                bound = env[name] if name in env else ctx.size_value(name) if ctx is not None else None
                whole = None if bound is None else int(bound)
                bound = whole if whole == bound else None  # d = 3.5 is no index bound
            except (OverflowError, ValueError, TypeError):  # a section's "n = \infty", say
                bound = None
            if bound is None:
                raise Unknown(f"index {text!r} uses {name!r}, which is not bound to a whole number here")
            value *= bound
        total += -value if sign == "-" else value
    return total


def _count(lo: int, hi: int, what: str) -> int:
    """The number of items from ``lo`` to ``hi``; Unknown past ``MAX_ITEMS`` (never materialised)."""
    count = hi - lo + 1
    if count > MAX_ITEMS:
        raise Unknown(f"{what} of {count} items is longer than the {MAX_ITEMS} the checker evaluates one by one")
    return count


def _split_mid(a: str, b: str):
    """Common prefix/suffix of two index texts and their differing middles."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return a[:p], a[p:len(a) - s], b[p:len(b) - s], a[len(a) - s:]


_INDEX = re.compile(r"[A-Za-z0-9]+([+-][A-Za-z0-9]+)*")


def _template(a, b, diffs: list):
    """Walk two item trees; record differing index texts; return a builder k -> node."""
    if isinstance(a, str) and isinstance(b, str):
        if a == b:
            return lambda k: a
        pre, ma, mb, suf = _split_mid(a, b)
        if not (_INDEX.fullmatch(ma) and _INDEX.fullmatch(mb)):
            pre, ma, mb, suf = "", a, b, ""
        diffs.append((ma, mb))
        return lambda k: f"{pre}{k}{suf}"
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and a[:1] == b[:1]:
        parts = [_template(x, y, diffs) for x, y in zip(a, b)]
        return lambda k: tuple(p(k) for p in parts)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        parts = [_template(x, y, diffs) for x, y in zip(a, b)]
        return lambda k: [p(k) for p in parts]
    if a == b:
        return lambda k: a
    raise Unknown("the items around \\dots differ in more than an index")


def expand(items: list, env: dict, ctx) -> list:
    """Replace ``a, \\dots, b`` by the items in between, at the concrete sizes."""
    out = []
    i = 0
    while i < len(items):
        item = items[i]
        if item == ("dots",):
            if not out or i + 1 >= len(items):
                raise Unknown("\\dots without items on both sides")
            first, last = out.pop(), items[i + 1]
            diffs: list = []
            build = _template(first, last, diffs)
            if not diffs or len(set(diffs)) != 1:
                raise Unknown("cannot tell which index \\dots runs over")
            lo, hi = (index_value(x, env, ctx) for x in diffs[0])
            if hi == lo - 1:  # s_{i1}, s_{i2}, \dots, s_{ii} at i = 1: only the first item
                i += 2
                continue
            if hi < lo:
                raise ShapeMismatch(f"the sequence runs from {lo} down to {hi}")
            if len(out) + _count(lo, hi, "a \\dots sequence") > MAX_ITEMS:
                raise Unknown(f"a list of more than {MAX_ITEMS} items after expanding \\dots")
            out.extend(build(k) for k in range(lo, hi + 1))
            i += 2
            continue
        out.append(item)
        i += 1
    return out


class Evaluator:
    def __init__(self, ctx):
        self.ctx = ctx
        self.steps = 0  # nodes evaluated: bounded by MAX_STEPS
        self.active = False  # inside an outer ev(): floating-point overflow already raises

    def dims(self, v) -> str:
        if is_scalar(v):
            return "a scalar"
        return f"{self.ctx.dim_name(v.shape[0])} × {self.ctx.dim_name(v.shape[1])}"

    def ev(self, node, env: dict):
        """The value of ``node``; Unknown where a finite computation overflows floating point."""
        if self.active:
            return self._ev(node, env)
        self.active = True
        try:
            # overflow is no value; NaN and ±∞ from 0/0, ∞ − ∞, 1/0 are the comparators' to judge
            with np.errstate(over="raise", invalid="ignore", divide="ignore"):
                return self._ev(node, env)
        except (FloatingPointError, OverflowError) as exc:
            raise Unknown(f"a value too large for floating point ({exc}): not checked") from exc
        finally:
            self.active = False

    def _ev(self, node, env: dict):
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise Unknown(f"more than {MAX_STEPS} evaluation steps: too large to evaluate term by term")
        kind = node[0]
        method = getattr(self, "_" + kind, None)
        if method is None:
            raise Unknown(f"cannot evaluate {kind}")
        return scalarize(method(node, env))

    def _num(self, node, env):
        return np.float64(node[1])

    def _inf(self, node, env):
        return np.float64(np.inf)

    def _sym(self, node, env):
        if node[1] == "e" and node[2] is None:
            if node[3] is None:
                return np.float64(np.e)
            from .parse import ParseError, parse_expr

            try:
                exponent = parse_expr(node[3])
            except ParseError as exc:
                raise Unknown(f"the exponent of e: {exc}") from exc
            return np.exp(self.ev(exponent, env))
        return self.ctx.resolve(node, env).value

    def _idx(self, node, env):
        if node[1][0] == "num" or node[1][0] == "list" and len(node[1][2]) == 1 and node[1][2][0][0] == "num":
            raise Unknown("a subscript on a printed number (3_k, [0]_6) is a label, not an index: not read")
        if re.search(r"\\le|\\ge|[<>=]|\\in\b", node[2]):  # (x_i)_{1 \le i \le n}: the family, its range
            raise Unknown("a subscript that states a range ((x_i)_{1 \\le i \\le n}) builds the family of its terms, "
                          "not an index into it: not read")
        value = self.ev(node[1], env)
        if is_scalar(value):
            raise ShapeMismatch("an index on a scalar")
        pair = node[2].strip("{} ").split(",")
        if len(pair) == 2 and min(value.shape) > 1:  # (\ldots)_{i,j}: the entry in row i, column j
            i, j = (index_value(t, env, self.ctx) for t in pair)
            if not (1 <= i <= value.shape[0] and 1 <= j <= value.shape[1]):
                raise BadRef(f"entry ({i}, {j}) of a {value.shape[0]} × {value.shape[1]} matrix")
            return value[i - 1, j - 1]
        j = index_value(node[2], env, self.ctx)
        if 1 in value.shape and value.shape != (1, 1) and value.shape[1] == 1:  # an entry of a column vector
            if not 1 <= j <= value.size:
                raise BadRef(f"entry {j} of a vector with {value.size} entries")
            return value.flat[j - 1]
        if not 1 <= j <= value.shape[1]:
            raise BadRef(f"column {j} of a matrix with {value.shape[1]} columns")
        return value[:, j - 1:j]

    def _neg(self, node, env):
        return -self.ev(node[1], env)

    def _T(self, node, env):
        v = self.ev(node[1], env)
        return v if is_scalar(v) else v.T

    def _sqrt(self, node, env):
        v = self.ev(node[1], env)
        if not is_scalar(v):
            raise ShapeMismatch("a square root of a matrix")
        if v < 0:
            raise Unknown("the square root of a negative number (not a real number): not checked")
        return np.sqrt(v)

    def _frac(self, node, env):
        return self._divide(self.ev(node[1], env), self.ev(node[2], env))

    def _divide(self, a, b):
        if not is_scalar(b):
            raise ShapeMismatch(f"division by {self.dims(b)} matrix")
        with np.errstate(divide="ignore", invalid="ignore"):
            return a / b

    def _pow(self, node, env):
        a, b = self.ev(node[1], env), self.ev(node[2], env)
        if not is_scalar(a) and is_scalar(b) and float(b).is_integer() and abs(b) <= 64:
            return _matrix_power(a, int(b))  # (X^T X)^{-1}: a square matrix's whole power
        if not is_scalar(a) and is_scalar(b):
            raise Unknown("a matrix to a power that is not a whole number (a matrix function): not checked")
        if not (is_scalar(a) and is_scalar(b)):
            raise ShapeMismatch("a power of a matrix")
        if a < 0 and b != np.floor(b):
            raise Unknown("a negative number to a fractional power (not a real number): not checked")
        return a ** b

    def _matrices(self, node, env) -> bool:
        """``O = P \\times V``, ``S = Q \\times K^\\top``: × between two operands that are both matrices of this
        reading (neither a size nor a number) is their product, as some writers set it; anything that fails to
        evaluate, or a scalar on either side (``n \\times d``), leaves it a shape."""
        try:
            return not is_scalar(self.ev(node[1], env)) and not is_scalar(self.ev(node[2], env))
        except Exception:  # noqa: BLE001 - an operand this reading cannot evaluate: not known to be a matrix
            return False

    def _mul(self, node, env):
        op = node[3]
        if op == "×":
            if not (printed_number(node[1]) and printed_number(node[2]) or
                    all(_printed_array(x) or self._example_matrix(x) for x in node[1:3]) or self._matrices(node, env)):
                raise Unknown("a shape (×) is not a value")
            op = "*"  # 6.7 \times 10^{9}: a product of printed numbers; O = P \times V: of matrices
        if op == "*" and node[2][0] == "list" and self._example_matrix(node[1]):
            return self._bracket_index(node, env)
        a, b = self.ev(node[1], env), self.ev(node[2], env)
        if op == "/":
            return self._divide(a, b)
        if is_scalar(a) or is_scalar(b):
            return a * b
        if op == "·" and not (self.ctx.elementwise and np.shape(a) == np.shape(b)):
            return _dot(a, b, self.dims)
        if op == "⊙" or (op in ("*", "·") and self.ctx.elementwise and np.shape(a) == np.shape(b)):
            if a.shape == b.shape or (b.shape[1] == 1 and a.shape[0] == b.shape[0]):
                return a * b
            other = entrywise_first(node) if op == "⊙" else None
            if other is not None:  # A ⊙ B C does not fit: (A ⊙ B) C may be what is meant
                try:
                    return self.ev(other, env)
                except ShapeMismatch:
                    pass
            raise ShapeMismatch(f"elementwise product of {self.dims(a)} and {self.dims(b)}")
        if a.shape[1] != b.shape[0]:
            raise ShapeMismatch(
                f"inner sizes of the product differ: {self.dims(a)} times {self.dims(b)}")
        return a @ b

    def _bracket_index(self, node, env):
        r"""``E[k]`` / ``E[i, j]`` of a worked example's printed matrix: its row k (an entry), counted from 0 as the
        document counts where it writes an index 0 in brackets; Unknown where it does not (from 0 or from 1?) or for an
        index that is not a whole number."""
        matrix, items = self.ev(node[1], env), node[2][2]
        if is_scalar(matrix) or not 1 <= len(items) <= 2 or any(x[0] != "num" or x[1] != int(x[1]) for x in items):
            raise Unknown(f"{unparse(node)}: an index in brackets on a printed matrix, not a whole number: not checked")
        if not self.ctx.zero_based:
            raise Unknown(f"{unparse(node)}: a row of a printed matrix, counted from 0 or from 1 (the document writes "
                          "no index 0 in brackets): not checked")
        at = [int(x[1]) for x in items]
        if any(k < 0 or k >= size for k, size in zip(at, matrix.shape)):
            raise BadRef(f"{unparse(node)}: index outside the printed {self.dims(matrix)} matrix")
        return matrix[at[0]:at[0] + 1, :] if len(at) == 1 else matrix[at[0], at[1]]

    def _example_matrix(self, node) -> bool:
        """Is ``node`` a letter bound to a worked example's printed matrix (``E \times WK1``: a product of them)?"""
        if node[0] != "sym" or self.ctx is None or not _example(node, self.ctx):
            return False
        try:
            return not is_scalar(self.ev(node, {}))
        except CheckError:
            return False

    def _add(self, node, env):
        terms = expand(list(node[1]), env, self.ctx)
        signs = list(node[2])
        if len(signs) != len(terms):  # a + \dots + b: every expanded term has the sign of the last
            signs = signs[:1] + [signs[-1]] * (len(terms) - 1)
        values = [self.ev(t, env) for t in terms]
        shapes = [np.shape(v) for v in values]
        big = max(shapes, key=lambda sh: (len(sh), int(np.prod(sh)) if sh else 0))
        for t, v, shape in zip(terms, values, shapes):
            if shape == big or (not shape and (t[0] == "call" and t[1] in ("mu", "sigma") or
                                               t[0] == "sym" and t[1] in (r"\mu", r"\sigma") and not t[2])):
                continue
            if t[0] == "num" and t[1] == 0:  # a written 0 added to a vector is the zero vector
                continue
            if t[0] == "sym" and t[1] == "b" and shape and big and (shape[0] == 1 and shape[1] == big[1] or shape[1]
                                                                    == 1 and shape[0] == big[0]) and \
                    self.ctx is not None and _example(t, self.ctx):
                continue  # a worked example's bias row [0, 1] added to every token row of x W_1 (broadcast)
            if shape and big and shape[1] == 1 and shape[0] == big[0] and self.ctx.is_bias(t):
                continue
            if self.ctx.row and shape and big and shape[1] == 1 and shape[0] == big[1] and self.ctx.is_bias(t):
                values[terms.index(t)] = v.T  # row convention: the bias is added to every token row
                continue
            other = next(t2 for t2, s2 in zip(terms, shapes) if s2 == big)
            fix = None
            if shape and big and shape[1] == 1 and big[0] == shape[0] and other[0] == "sym":
                token = _token_index(t)
                if token:
                    fix = (other, ("idx", other, token))
            raise ShapeMismatch(f"a sum of {self.dims(v)} and {self.dims(values[shapes.index(big)])}: "
                                f"{self.ctx.latex_of(t)} and {self.ctx.latex_of(other)}", fix)
        total = 0
        for s, v in zip(signs, values):
            total = total + s * v
        return total

    def _list(self, node, env):
        items = [self.ev(x, env) for x in expand(list(node[2]), env, self.ctx)]
        if node[1] == ";":
            return self._stack(items, 0)
        if all(is_scalar(v) for v in items):
            return np.array([[float(v) for v in items]])
        return self._stack(items, 1)

    def _stack(self, items, axis):
        items = [np.atleast_2d(v) for v in items]
        if len({v.shape[1 - axis] for v in items}) != 1:
            raise ShapeMismatch("blocks of different sizes side by side" if axis else "stacked blocks of different widths")
        return np.concatenate(items, axis=axis)

    def _matrix(self, node, env):
        rows = expand([("row", list(r)) if r != [("dots",)] else ("dots",) for r in node[1]], env, self.ctx)
        built = []
        for row in rows:
            cells = [self.ev(c, env) for c in expand(list(row[1]), env, self.ctx)]
            built.append(self._stack(cells, 1))
        return self._stack(built, 0)

    def _softmax_over_j(self, arg, star: bool, env):
        """``softmax(q_i^\\top k_j)``, an entry of a softmax written per entry: over the key index j (1 … n, or
        1 … i with ``softmax^*``), as in ``a_{ij} = exp(s_{ij}) / \\sum_{j'} exp(s_{ij'})``."""
        last = index_value("i", env, self.ctx) if star and "i" in env else self.ctx.default_range("j")
        _count(1, last, "a softmax")
        scores = [self.ev(arg, {**env, "j": k}) for k in range(1, last + 1)]
        if not all(is_scalar(s) for s in scores):
            raise ShapeMismatch("a softmax over j of entries that are not numbers")
        if not 1 <= env["j"] <= last:
            return np.float64(0.0)  # masked: a key after the query
        return softmax(np.array(scores, dtype=float).reshape(-1, 1), 0)[env["j"] - 1, 0]

    def _tuple(self, node, env):
        raise Unknown("a tuple (a shape or a list of arguments) is not a value")

    def _sum(self, node, env):
        _, var, lo, hi, body = node
        if var is None:
            raise Unknown("a sum without an index")
        var = var.strip()
        if lo is None:
            lo_v, hi_v = 1, self.ctx.default_range(var)
        else:
            lo_v = index_value(lo, env, self.ctx)
            hi_v = index_value(hi, env, self.ctx) if hi is not None else self.ctx.default_range(var)
        _count(lo_v, hi_v, "a sum")
        try:
            values = [self.ev(body, {**env, var: k}) for k in range(lo_v, hi_v + 1)]
        except PastTheHeads as exc:  # \sum_{h=1}^{H+1} o^h: a sum's own range past the heads is a wrong range
            raise BadRef(str(exc)) from exc
        except BadRef as exc:
            if hi is not None and hi.strip().strip("{}").strip().isdigit() and hi_v > self.ctx.default_range(var):
                # \sum_{j=1}^{49} e^{a_j}: the document's own count (49 patches), past the n the model is read at
                raise Unknown(f"the sum runs to {hi_v}, the document's own count, past the {self.ctx.default_range(var)}"
                              " the reference model is evaluated at: not judged against it") from exc
            raise
        if not values:
            raise ShapeMismatch("an empty sum")
        if len({np.shape(v) for v in values}) != 1:
            raise ShapeMismatch("terms of the sum have different shapes")
        return sum(values[1:], values[0])

    def _call(self, node, env):
        _, name, star, args = node
        if name in ("T", "Attn", "Attention", "MultiHead", "FFN", "MLP"):
            return self.ctx.model_call(name, args, env, self)
        values = [self.ev(a, env) for a in args]
        x = values[0]
        if name == "softmax" and len(values) > 1 and all(is_scalar(v) for v in values):
            return softmax(np.array([[float(v) for v in values]]), 1)  # softmax(1, 2, 300): of the vector of them
        if name == "softmax":
            if is_scalar(x) and len(args) == 1 and "j" in env and _uses_index(args[0], "j"):
                return self._softmax_over_j(args[0], star, env)
            if is_scalar(x) and args[0][0] == "list":
                return np.float64(1.0)  # [s_{i1}, \dots, s_{ii}] at i = 1: a one-entry vector
            if is_scalar(x):  # softmax(q \cdot k_1 / \sqrt{3}) = 0.005: one score's weight among others not written
                raise Unknown("the softmax of one score: its weight among the other scores, which are not written here")
            if star:
                if x.shape[0] != x.shape[1]:
                    raise ShapeMismatch(f"softmax* needs a square score matrix, got {self.dims(x)}")
                return causal_softmax(x)
            if 1 in x.shape:
                return softmax(x, 1 if x.shape[0] == 1 else 0)
            return softmax(x, self.ctx.softmax_axis)
        if name in ("LayerNorm", "LN"):
            g, b = self.ctx.ln_params(args[0], x)
            if is_scalar(x):
                raise ShapeMismatch("LayerNorm of a scalar")
            axis = 0 if self.ctx.softmax_axis == 0 or x.shape[1] == 1 else 1
            if g.shape[0] != x.shape[axis]:
                raise ShapeMismatch(f"LayerNorm over {self.dims(x)} with a {g.shape[0]}-entry γ")
            return layernorm(x, g, b, axis)
        if name == "ReLU":
            return np.maximum(x, 0)
        if name == "GELU":
            return gelu(x)
        if name == "exp":
            return np.exp(x)
        if name in _CIRCULAR and is_scalar(x) and len(values) == 1:  # \sin(\frac{1}{10000^{2/4}}), in radians
            return _CIRCULAR[name](x)
        if name == "max" and len(values) == 2:
            return np.maximum(values[0], values[1])
        if name in ("mu", "sigma", "Phi"):
            if name == "Phi":
                return normal_cdf(x)
            if name == "sigma" and _weighted(args):  # σ(x W_1), σ(W x + b): an activation, not a deviation
                raise Unknown("\\sigma of a weighted input is an activation (the logistic or another the document "
                              "does not name here), not the standard deviation: not judged")
            if is_scalar(x) or 1 not in x.shape:
                raise Unknown(f"\\{name} of a matrix (per column or overall?)")
            return np.mean(x) if name == "mu" else np.std(x)
        if name == "set":
            raise Unknown(f"{unparse(node)} is a set, not a value: not checked")
        raise Unknown(f"the function {name} is not known here")


def _weighted(args) -> bool:
    """Does an argument multiply by a weight matrix (a W, with any scripts)?"""
    return any(n and n[0] == "mul" and any(isinstance(f, tuple) and f[:2] == ("sym", "W") for f in n[1:3])
               for n in walk(list(args)))


def _example(node, ctx) -> bool:
    """Is ``node`` a worked example's printed value (:func:`symtf.check.context.is_example`; imported here, where
    the context module, which builds on this one, is loaded)?"""
    from .context import is_example

    return is_example(node, ctx)


_CIRCULAR = {"sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh}


def _uses_index(node, letter: str) -> bool:
    """Whether a subscript in ``node`` uses the index ``letter`` (``k_j``, ``s_{ij}``, ``x_{j+1}``)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            stack += n
        elif isinstance(n, tuple) and n:
            if n[0] == "sym" and n[2] and letter in re.findall(r"[a-z]", n[2]):
                return True
            if n[0] == "sum" and n[1] and n[1].strip() == letter:
                continue  # a sum over j inside: j is bound there
            stack += [c for c in n[1:] if isinstance(c, (tuple, list))]
    return False


def _dot(a, b, dims):
    """``a \\cdot b``: the inner product ``a^T b`` of two vectors of one length (either orientation), else the
    matrix product ``a b``; two matrices of one shape that do not multiply are not judged (vectors meant?)."""
    if 1 in a.shape and 1 in b.shape and a.size == b.size:
        return a.reshape(1, -1) @ b.reshape(-1, 1)
    if a.shape[1] == b.shape[0]:
        return a @ b
    if a.shape == b.shape:
        raise Unknown(f"a dot product of two {dims(a)} matrices (vectors meant?): not checked")
    raise ShapeMismatch(f"inner sizes of the product differ: {dims(a)} times {dims(b)}")


def printed_number(node) -> bool:
    """Whether ``node`` is made of printed numbers only (``6.7``, ``10^{9}``, ``-2``, ``\\frac{1}{2}``)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if item[0] not in ("num", "pow", "neg", "frac", "sqrt", "mul"):
            return False
        stack.extend(c for c in item[1:] if isinstance(c, tuple))
    return True


def _printed_array(node) -> bool:
    r"""Is ``node`` a printed number or a matrix or list of printed numbers (``[0, 1] \times
    \begin{bmatrix}1 & 1\\0 & 1\end{bmatrix}``: between such, × is the product, as a worked example writes it)?"""
    if node[0] == "matrix":
        return all(printed_number(c) for row in node[1] for c in (row if isinstance(row, list) else [row]))
    if node[0] == "list":
        return all(printed_number(c) for c in node[2])
    return printed_number(node)


def _token_index(node):
    """The token index of a column like ``W_E t_n`` (``n``), for a suggested repair."""
    if node[0] == "sym" and node[2] and re.fullmatch(r"[a-z0-9+\-]+", node[2]):
        return node[2]
    for child in node[1:]:
        if isinstance(child, tuple):
            found = _token_index(child)
            if found:
                return found
    return None
