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
    r"|(?P<num>\d+(?:\.\d+)?|\.\d+)"
    r"|(?P<letter>[a-zA-Z])"
    r"|(?P<op>[-+*/=^_{}()\[\],|&<>;:'!.])"
    r"|(?P<space>\s+)"
)


_CANONICAL = {"softmax": "softmax", "layernorm": "LayerNorm", "relu": "ReLU", "gelu": "GELU", "ln": "LN",
              "ffn": "FFN", "mlp": "MLP", "attention": "Attention", "multihead": "MultiHead"}


class ParseError(InputError):
    """The fragment is not in the grammar; the message says where."""


def tokenize(s: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m:
            raise ParseError(f"unexpected character {s[pos]!r} at position {pos}")
        pos = m.end()
        kind = m.lastgroup if m.lastgroup not in ("word", "env") else None
        if m.group("text") is not None:
            out.append(("word", m.group("word").strip()))
        elif m.group("begin") is not None:
            out.append(("begin", m.group("env")))
        elif m.group("space") is None:
            kind = next(k for k in ("end", "rowsep", "cmd", "esc", "num", "letter", "op") if m.group(k) is not None)
            out.append((kind, m.group(kind)))
    return out


class Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0

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
            raise ParseError(f"expected {value!r} but found {tok[1] or 'the end'!r} in {self.text!r}")

    def group_text(self) -> str:
        """The normalised source of a sub/superscript: ``{...}`` or one token."""
        tok = self.next()
        if tok[1] != "{":
            if tok[0] == "eof":
                raise ParseError(f"a sub/superscript is missing its argument in {self.text!r}")
            return tok[1]
        depth, parts = 1, []
        while True:
            tok = self.next()
            if tok[0] == "eof":
                raise ParseError(f"unbalanced braces in {self.text!r}")
            if tok[1] == "{" and tok[0] == "op":
                depth += 1
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
            raise ParseError(f"unexpected {self.peek()[1]!r} in {self.text!r}")
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
        while True:
            tok = self.peek()
            if tok[0] in ("end", "rowsep", "eof") or (tok[1] in self._STOP and tok[0] != "word"):
                return left
            if tok[1] == r"\times":  # a shape: binds looser than juxtaposition (d \times 3 d)
                self.next()
                return ("mul", left, self.term(), "×")
            if tok[1] in ("*", r"\cdot", "/", r"\odot", r"\circ"):
                self.next()
                op = {r"\cdot": "*", r"\circ": "⊙", r"\odot": "⊙"}.get(tok[1], tok[1])
                left = ("mul", left, self.factor(), op)
            else:
                left = ("mul", left, self.factor(), "*")

    def factor(self):
        if self.at("-"):
            self.next()
            return ("neg", self.factor())
        return self.postfix(self.atom())

    def postfix(self, node):
        while self.at("^", "_"):
            op = self.next()[1]
            text = self.group_text()
            if op == "^" and text in (r"\top", "T", r"\intercal"):
                node = ("T", node)
            elif node[0] == "sym" and (node[2] if op == "_" else node[3]) is None:
                node = ("sym", node[1], text if op == "_" else node[2], text if op == "^" else node[3])
            elif op == "^":
                node = ("pow", node, Parser(text).expr_all())
            else:
                node = ("idx", node, text)
        return node

    def expr_all(self):
        e = self.expr()
        if self.peek()[0] != "eof":
            raise ParseError(f"unexpected {self.peek()[1]!r} in {self.text!r}")
        return e

    def call_args(self):
        close = {"(": ")", "[": "]"}[self.next()[1]]
        args = [self.expr()]
        while self.at(","):
            self.next()
            args.append(self.expr())
        self.expect(close)
        return args

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
            raise ParseError(f"unsupported command {val} in {self.text!r}")
        if kind == "begin":
            if val not in ("bmatrix", "pmatrix", "matrix"):
                raise ParseError(f"unsupported environment {val} in {self.text!r}")
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
        raise ParseError(f"unexpected {val or 'end of formula'!r} in {self.text!r}")

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
            raise ParseError(f"mixed separators {sorted(seps)} in a bracket in {self.text!r}")
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
                raise ParseError(f"unexpected {tok[1] or 'end'!r} in a matrix in {self.text!r}")

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


@lru_cache(maxsize=4096)
def parse(text: str):
    """``("chain", exprs, relations)`` for one normalised statement; ParseError if not in the grammar.

    Cached: callers must not mutate the returned tree.
    """
    if not text.strip():
        raise ParseError("empty formula")
    return Parser(text).statement()
