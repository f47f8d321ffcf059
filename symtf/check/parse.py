r"""A small recursive-descent parser for the restricted matrix-expression LaTeX of the field.

The result is a tree of tuples ``(kind, ...)`` that keeps what the field's notation means:
``x^{(0)}_n`` is one symbol with a layer and an index (never a power), ``^\top`` a transpose,
``\text{ReLU}(a+b)`` a call, ``[A \,|\, B]`` a block row, ``\dots`` a sequence to expand.
Nodes:

- ``("num", value, text)``, ``("inf",)``, ``("sym", base, sub, sup)`` (``sub``/``sup`` are the
  normalised source text of the index groups, or None), ``("dots",)``
- ``("call", name, star, args)``, ``("add", [terms], [signs])``, ``("mul", a, b, op)`` with op
  in ``* / ⊙ ×``, ``("neg", a)``, ``("pow", a, b)``, ``("T", a)``, ``("sqrt", a)``,
  ``("frac", a, b)``, ``("list", kind, items)`` with kind ``, | ;``, ``("matrix", rows)``,
  ``("tuple", items)``, ``("sum", var, lo, hi, body)``
- a statement is ``("chain", [exprs], [relations])``
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from ..errors import InputError

FUNCTIONS = {"softmax", "LayerNorm", "ReLU", "GELU", "Attn", "Attention", "exp", "max", "mu", "sigma", "Phi",
             "MultiHead", "FFN", "MLP", "LN", "T"}
GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "theta", "lambda", "mu", "sigma", "tau",
         "phi", "Phi", "psi", "omega", "ell", "pi", "rho", "eta", "kappa", "nu", "xi", "zeta", "chi", "Sigma"}
RELATIONS = {"=": "=", r"\approx": "≈", r"\le": "≤", r"\ge": "≥", "<": "<", ">": ">", r"\ne": "≠", r"\equiv": "="}

_TOKEN = re.compile(
    r"(?P<text>\\text\s*\{(?P<word>[^{}]*)\})"
    r"|(?P<begin>\\begin\{(?P<env>[a-zA-Z*]+)\})|(?P<end>\\end\{[a-zA-Z*]+\})"
    r"|(?P<rowsep>\\\\)"
    r"|(?P<cmd>\\[a-zA-Z]+)"
    r"|(?P<esc>\\[{}|])"
    r"|(?P<num>(?:\d+(?:\.\d+)?|\.\d+)(?:(?:[eE]|\\text\s*\{\s*[eE]\s*\})[+-]?\d+)?)"  # 2e9, 52\text{e}12
    r"|(?P<letter>[a-zA-Z])"
    r"|(?P<op>[-+*/=^_{}()\[\],|&<>;:'!.])"
    r"|(?P<space>\s+)"
)


# Bounds that keep the work on any fragment small (issue 10): nesting (of groups, braces, powers,
# negations, shapes) and the parsed tree's depth, and the digits of one printed number.
MAX_DEPTH = 100
MAX_DIGITS = 50

_CANONICAL = {"softmax": "softmax", "layernorm": "LayerNorm", "relu": "ReLU", "gelu": "GELU", "ln": "LN",
              "ffn": "FFN", "mlp": "MLP", "attention": "Attention", "multihead": "MultiHead"}


class ParseError(InputError):
    """The fragment is not in the grammar; the message says where."""


def shown(text: str, limit: int = 80) -> str:
    """``text`` quoted for a message, shortened in the middle past ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    half = limit // 2
    return repr(text[:half] + " … " + text[-half:])


def tokenize(s: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m:
            raise ParseError(f"unexpected character {s[pos]!r} at position {pos} in {shown(s)}")
        pos = m.end()
        kind = m.lastgroup  # the outermost group that matched (text, begin: not their inner groups)
        if kind == "num":
            out.append(("num", _number(m.group(), s)))
        elif kind == "text":
            out.append(("word", m.group("word").strip()))
        elif kind == "begin":
            out.append(("begin", m.group("env")))
        elif kind != "space":
            out.append((kind, m.group()))
    return out


_E = re.compile(r"\\text\s*\{\s*([eE])\s*\}")


def _number(text: str, source: str) -> str:
    """A printed number as Python reads it (``52\\text{e}12`` → ``52e12``); ParseError where it is too long
    (``MAX_DIGITS``) or beyond floating point (``1e400``), so no arithmetic ever meets it."""
    text = _E.sub(r"\1", text)
    mantissa, _, exponent = text.lower().partition("e")
    if len(mantissa) > MAX_DIGITS or len(exponent) > 5:
        raise ParseError(f"the number {text[:20]}… is too long, in {shown(source)}")
    value = float(text)
    if not math.isfinite(value) or (value == 0 and mantissa.strip("0.")):
        raise ParseError(f"the number {text} is beyond floating point, in {shown(source)}")
    return text


def _nested(method):
    """Count one level of nesting around ``method``: ParseError past ``MAX_DEPTH``, never RecursionError."""
    def counted(self, *args):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError(f"nested more than {MAX_DEPTH} levels deep in {shown(self.text)}")
        try:
            return method(self, *args)
        finally:
            self.depth -= 1
    counted.__name__, counted.__doc__ = method.__name__, method.__doc__
    return counted


class Parser:
    def __init__(self, text: str, depth: int = 0):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.depth = depth  # levels of nesting already entered (a sub-parser continues its parent's count)

    # ------------------------------------------------------------------ helpers
    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("eof", "")

    def next(self):
        tok = self.peek()
        self.i += 1
        return tok

    def at(self, *values) -> bool:
        return self.peek()[1] in values and self.peek()[0] != "word"

    def expect(self, value):
        tok = self.next()
        if tok[1] != value:
            raise ParseError(f"expected {value!r} but found {tok[1] or 'the end'!r} in {shown(self.text)}")

    def group_text(self) -> str:
        """The normalised source of a sub/superscript: ``{...}`` or one token."""
        tok = self.next()
        if tok[1] != "{":
            if tok[0] == "eof":
                raise ParseError(f"a sub/superscript is missing its argument in {shown(self.text)}")
            return tok[1]
        depth, parts = 1, []
        while True:
            tok = self.next()
            if tok[0] == "eof":
                raise ParseError(f"unbalanced braces in {shown(self.text)}")
            if tok[1] == "{" and tok[0] == "op":
                depth += 1
                if self.depth + depth > MAX_DEPTH:
                    raise ParseError(f"braces nested more than {MAX_DEPTH} levels deep in {shown(self.text)}")
            elif tok[1] == "}" and tok[0] == "op":
                depth -= 1
                if depth == 0:
                    return "".join(parts)
            parts.append(tok[1])

    # ------------------------------------------------------------------ grammar
    def statement(self):
        exprs, rels = [], []
        if self.peek()[1] in RELATIONS:  # an &= continuation row
            exprs.append(None)
        else:
            exprs.append(self.expr())
        while self.peek()[1] in RELATIONS:
            rels.append(RELATIONS[self.next()[1]])
            exprs.append(self.expr())
        if self.peek()[0] != "eof":
            raise ParseError(f"unexpected {self.peek()[1]!r} in {shown(self.text)}")
        return ("chain", exprs, rels)

    def expr(self):
        terms, signs = [], []
        sign = 1
        if self.at("-", "+"):
            sign = -1 if self.next()[1] == "-" else 1
        terms.append(self.term())
        signs.append(sign)
        while self.at("+", "-"):
            signs.append(-1 if self.next()[1] == "-" else 1)
            terms.append(self.term())
        if len(terms) == 1:  # "-x" and "+-x" are the same negation
            return terms[0] if signs[0] == 1 else ("neg", terms[0])
        return ("add", terms, signs)

    _STOP = {"+", "-", ")", "]", "}", ",", "|", "&", ";", "=", "<", ">", r"\approx", r"\le", r"\ge", r"\ne",
             r"\\", "", r"\end", r"\equiv"}

    def term(self):
        left = self.factor()
        for _ in range(MAX_DEPTH + 1):  # each factor nests the product one level deeper
            tok = self.peek()
            if tok[0] in ("end", "rowsep", "eof") or (tok[1] in self._STOP and tok[0] != "word"):
                return left
            if tok[1] == r"\times":  # a shape: binds looser than juxtaposition (d \times 3 d)
                self.next()
                return ("mul", left, self.shape_rest(), "×")
            if tok[1] in ("*", r"\cdot", "/", r"\odot", r"\circ"):
                self.next()
                op = {r"\cdot": "*", r"\circ": "⊙", r"\odot": "⊙"}.get(tok[1], tok[1])
                left = ("mul", left, self.factor(), op)
            else:
                left = ("mul", left, self.factor(), "*")
        raise ParseError(f"a product of more than {MAX_DEPTH} factors in {shown(self.text)}")

    @_nested
    def shape_rest(self):
        """The factors after a ``\\times``."""
        return self.term()

    def factor(self):
        if self.at("-"):
            self.next()
            return self.negated()
        return self.postfix(self.atom())

    @_nested
    def negated(self):
        return ("neg", self.factor())

    def postfix(self, node):
        for _ in range(MAX_DEPTH + 1):
            if not self.at("^", "_"):
                return node
            op = self.next()[1]
            text = self.group_text()
            if op == "^" and text in (r"\top", "T", r"\intercal"):
                node = ("T", node)
            elif node[0] == "sym" and (node[2] if op == "_" else node[3]) is None:
                node = ("sym", node[1], text if op == "_" else node[2], text if op == "^" else node[3])
            elif op == "^":
                node = ("pow", node, Parser(text, self.depth + 1).expr_all())
            else:
                node = ("idx", node, text)
        raise ParseError(f"more than {MAX_DEPTH} sub/superscripts in a row in {shown(self.text)}")

    def expr_all(self):
        e = self.expr()
        if self.peek()[0] != "eof":
            raise ParseError(f"unexpected {self.peek()[1]!r} in {shown(self.text)}")
        return e

    def call_args(self):
        close = {"(": ")", "[": "]"}[self.next()[1]]
        args = [self.expr()]
        while self.at(","):
            self.next()
            args.append(self.expr())
        self.expect(close)
        return args

    @_nested
    def atom(self):
        kind, val = self.next()
        if kind == "num":
            return ("num", float(val), val)
        if kind == "letter":
            if val in FUNCTIONS and self.at("("):
                return ("call", val, False, self.call_args())
            return ("sym", val, None, None)
        if kind == "word":
            star = False
            val = _CANONICAL.get(val.lower().rstrip("*"), val.rstrip("*")) + ("*" if val.endswith("*") else "")
            if val in FUNCTIONS or val.rstrip("*") in FUNCTIONS:
                star = val.endswith("*")
                val = val.rstrip("*")
                if self.at("^"):
                    save = self.i
                    self.next()
                    sup = self.group_text()
                    if sup == "*":
                        star = True
                    else:
                        self.i = save
                if self.at("(", "["):
                    return ("call", val, star, self.call_args())
                if self.peek()[0] in ("letter", "cmd", "num"):
                    return ("call", val, star, [self.postfix(self.atom())])
            return ("sym", r"\text{" + val + "}", None, None)
        if kind == "cmd":
            name = val[1:]
            if name in ("hat", "tilde", "bar", "widetilde", "widehat", "overline") and self.at("{"):
                inner = self.group_text()  # \tilde{X}: a decorated symbol of its own
                return ("sym", f"\\{name}{{{inner}}}", None, None)
            if name in ("dots", "vdots", "ddots"):
                return ("dots",)
            if name == "infty":
                return ("inf",)
            if name == "frac":
                a = self.braced()
                return ("frac", a, self.braced())
            if name == "sqrt":
                if self.at("{"):
                    return ("sqrt", self.braced())
                return ("sqrt", self.postfix(self.atom()))
            if name == "sum":
                return self.sum()
            if name in ("exp", "max", "min", "log"):
                if self.at("(", "["):
                    return ("call", name, False, self.call_args())
                return ("call", name, False, [self.factor()])
            if name in GREEK:
                if name in FUNCTIONS and self.at("("):
                    return ("call", name, False, self.call_args())
                return ("sym", val, None, None)
            raise ParseError(f"unsupported command {val} in {shown(self.text)}")
        if kind == "begin":
            if val not in ("bmatrix", "pmatrix", "matrix"):
                raise ParseError(f"unsupported environment {val} in {shown(self.text)}")
            return self.matrix()
        if val == "(":
            first = self.expr()
            if self.at(","):
                items = [first]
                while self.at(","):
                    self.next()
                    items.append(self.expr())
                self.expect(")")
                return ("tuple", items)
            self.expect(")")
            return first
        if val == "{":
            e = self.expr()
            self.expect("}")
            return e
        if val == "[":
            return self.bracket()
        if kind == "esc" and val == r"\{":
            e = self.expr()
            self.expect(r"\}")
            return e
        raise ParseError(f"unexpected {val or 'end of formula'!r} in {shown(self.text)}")

    def braced(self):
        self.expect("{")
        e = self.expr()
        self.expect("}")
        return e

    def bracket(self):
        items, seps = [self.expr()], set()
        while self.at(",", "|", ";"):
            seps.add(self.next()[1])
            items.append(self.expr())
        self.expect("]")
        if len(seps) > 1:
            raise ParseError(f"mixed separators {sorted(seps)} in a bracket in {shown(self.text)}")
        return ("list", seps.pop() if seps else ",", items)

    def matrix(self):
        rows, row = [], [self.expr()]
        while True:
            tok = self.next()
            if tok[1] == "&":
                row.append(self.expr())
            elif tok[0] == "rowsep":
                rows.append(row)
                if self.peek()[0] == "end":
                    continue
                row = [self.expr()]
            elif tok[0] == "end":
                if row and (not rows or rows[-1] is not row):
                    rows.append(row)
                return ("matrix", rows)
            else:
                raise ParseError(f"unexpected {tok[1] or 'end'!r} in a matrix in {shown(self.text)}")

    def sum(self):
        var = lo = hi = None
        for _ in range(2):
            if self.at("_"):
                self.next()
                text = self.group_text()
                if "=" in text:
                    var, lo = text.split("=", 1)
                else:
                    var = text
            elif self.at("^"):
                self.next()
                hi = self.group_text()
        return ("sum", var, lo, hi, self.term())


def tree_depth(node) -> int:
    """The number of nested nodes on the longest path from ``node`` down (without recursion)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, tuple):
            deepest = max(deepest, level)
            stack.extend((c, level + 1) for c in item[1:] if isinstance(c, (tuple, list)))
        elif isinstance(item, list):
            stack.extend((c, level) for c in item)
    return deepest


def _bounded(tree, text: str):
    """``tree`` if its depth is within ``MAX_DEPTH`` (a long juxtaposition nests to the left), else ParseError."""
    if tree_depth(tree) > MAX_DEPTH:
        raise ParseError(f"more than {MAX_DEPTH} nested operations in {shown(text)}")
    return tree


def parse(text: str):
    """``("chain", exprs, relations)`` for one normalised statement; ParseError if not in the grammar.

    Any text gives a tree or a ParseError, with bounded work: nesting, the tree's depth and the digits
    of a number are limited (``MAX_DEPTH``, ``MAX_DIGITS``). Cached, failures too: callers must not
    mutate the tree.
    """
    tree, error = _parse_once(text)
    if error is not None:
        raise ParseError(error)
    return tree


@lru_cache(maxsize=4096)
def _parse_once(text: str):
    """(tree, None) or (None, the ParseError's message), computed once per text."""
    if not text.strip():
        return None, "empty formula"
    try:
        return _bounded(Parser(text).statement(), text), None
    except ParseError as exc:
        return None, str(exc)


@lru_cache(maxsize=1024)
def parse_expr(text: str):
    """One expression (a superscript's text, say) as a tree, with the bounds of ``parse``."""
    return _bounded(Parser(text).expr_all(), text)
