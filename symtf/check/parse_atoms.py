r"""The atoms of the fragment parser (:mod:`symtf.check.parse`): numbers, letters, ``\text`` words, commands
(``\frac``, ``\sqrt``, ``\sum``, functions, Greek letters), brackets, matrices, ``cases`` and calls. A mixin of
:class:`symtf.check.parse.Parser`, which gives the helpers (``peek``, ``next``, ``at``, ``expect``,
``group_text``) and the grammar above an atom (``expr``, ``factor``, ``postfix``).
"""
from __future__ import annotations

import re

from .lexicon import (_BRACKETS, _CANONICAL, _DERIVATIVE, FUNCTION_COMMANDS, FUNCTIONS, GREEK, MAX_DEPTH,
                      OPERATOR_WORDS, RELATIONS, ParseError, _nested, shown)

ACCENTS = ("hat", "tilde", "bar", "widetilde", "widehat", "overline", "dot", "ddot", "check", "breve", "mathring")


class Atoms:
    def call_args(self):
        """The arguments in ``(…)`` or ``[…]``; one after ``|`` or ``;`` (``P(x | y)``, ``f(x; \\theta)``) is
        wrapped in a call no evaluator knows, so such a call is parsed and never evaluated."""
        close = {"(": ")", "[": "]"}[self.next()[1]]
        args = self.listed(self.event(), self.event, (",", ";", "|"))
        self.expect(close)
        return args

    def event(self):
        r"""An argument, or a relation as one (``\mathbb{P}[L \le \epsilon]``, ``I(x < 0)``): a call no evaluator knows."""
        arg = self.expr()
        if self.peek()[1] in RELATIONS and self.peek()[0] != "word":
            rel = RELATIONS[self.next()[1]]
            arg = ("call", "relation " + rel, False, [arg, self.expr()])
        return arg

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
            return self.word(val)
        if kind == "cmd":
            return self.command(val)
        if kind == "begin":
            if val == "cases":
                return self.cases()
            if val not in ("bmatrix", "pmatrix", "matrix", "array"):
                raise ParseError(f"unsupported environment {val} in {shown(self.text)}")
            return self.matrix()
        if val == "(":
            first = self.event()
            if self.at(",", ";", "|"):  # (a, b); p(x | y), f(x; θ) as a product's argument: never evaluated
                items = self.listed(first, self.event, (",", ";", "|"))
                self.expect(")")
                self.wrapped = ("tuple", items)
                return self.wrapped
            self.expect(")")
            if first[0] == "sym" and first[2] and re.fullmatch(r"[a-z],?[a-z]", first[2]) and first[3] is None:
                return ("call", "entries", False, [first])  # A = (a_{ij}): the matrix of these entries, opaque
            return first
        if val == "{":
            e = self.expr()
            if self.at(","):  # {x_1, \dots, x_T}: a set written without its backslashes
                e = ("call", "set", False, self.listed(e, self.expr))
            self.expect("}")
            return e
        if val == "[":
            return self.bracket()
        if kind == "esc" and val == r"\{":  # a set {a, b, …}: a call no evaluator knows
            items = self.listed(self.expr(), self.expr)
            self.expect(r"\}")
            if len(items) == 1 and items[0][0] != "num":
                return items[0]  # \exp\{x\}: braces that group
            return ("call", "set", False, items)  # {0} (no one groups a lone number), {a, b}
        if kind == "esc" and val == r"\|":  # ‖x‖
            self.norms += 1
            try:
                e = self.expr()
            finally:
                self.norms -= 1
            self.expect(r"\|")
            return ("call", "norm", False, [e])
        if kind == "esc" and val == r"\%":
            return ("sym", r"\%", None, None)
        if val == "|" and kind == "op":  # |x|: an absolute value or a set's size
            e = self.expr()
            self.expect("|")
            return ("call", "abs", False, [e])
        raise ParseError(f"unexpected {val or 'end of formula'!r} in {shown(self.text)}")

    def word(self, val):
        r"""``\text{…}``: a function of the model (softmax), an operator word with its argument, or a name."""
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
            if self.peek()[0] in ("letter", "cmd", "num") and self.peek()[1] not in self._STOP:
                return ("call", val, star, [self.postfix(self.atom())])
        elif len(val) > 1 and re.fullmatch(r"[A-Za-z]+", val) and (val in OPERATOR_WORDS or self.at("(")):
            name = val + ("_{" + (self.next() and self.group_text()) + "}" if self.at("_") else "")
            if self.at("(", "["):  # \text{Re}[q k^*], \text{head}(x), \text{argmax}_i(p): a call, never a product
                return ("call", name, False, self.call_args())
            if val in OPERATOR_WORDS and self.peek()[0] in ("letter", "cmd", "num", "word"):
                return ("call", name, False, [self.plain_argument()])
            if name != val:
                return ("sym", r"\text{" + val + "}", name[len(val) + 2:-1], None)
        return ("sym", r"\text{" + val + "}", None, None)

    def command(self, val):
        r"""A command in an atom's place: a decorated or Greek symbol, ``\frac``, ``\sqrt``, ``\sum``, a function."""
        name = val[1:]
        if name in ACCENTS and (self.at("{") or self.peek()[0] in ("letter", "cmd") and
                                     self.peek()[1][1:] not in ACCENTS):
            inner = self.group_text()  # \tilde{X}, \widetilde H: a decorated symbol of its own
            return ("sym", f"\\{name}{{{inner}}}", None, None)
        if name in ("dots", "vdots", "ddots"):
            return ("dots",)
        if name == "infty":
            return ("inf",)
        if name == "frac":
            if self.at("{") and self.peek(1)[1] == r"\partial":
                save = self.i
                top, bottom = self.raw_group(), self.raw_group()
                if _DERIVATIVE.fullmatch(top) and _DERIVATIVE.fullmatch(bottom):
                    return ("sym", r"\frac{" + top + "}{" + bottom + "}", None, None)  # ∂L/∂A: one opaque name
                self.i = save
            a = self.frac_part()
            return ("frac", a, self.frac_part())
        if name == "partial":  # ∂L, ∂_t x: an opaque name of its own, never a product with ∂
            if self.at("_", "^"):
                return ("sym", r"\partial", None, None)
            inner = self.atom()
            if inner[0] != "sym":
                raise ParseError(rf"\partial of an expression in {shown(self.text)}")
            return ("sym", r"\partial " + inner[1], inner[2], inner[3])
        if name == "sqrt":
            if self.at("{"):
                return ("sqrt", self.braced())
            return ("sqrt", self.postfix(self.atom()))
        if name == "sum":
            return self.sum()
        if name == "prod":  # a product over an index: parsed, never evaluated
            _, var, lo, hi, body = self.sum()
            return ("call", r"\prod" + (f"_{{{var}={lo}}}" if lo else f"_{{{var}}}" if var else "") +
                    (f"^{{{hi}}}" if hi else ""), False, [body])
        if name in ("mathbb", "mathcal", "mathscr"):
            letter = self.group_text()
            sym = ("sym", rf"\{name}{{{letter}}}", None, None)
            if name == "mathbb" and letter in ("E", "P", "V") and self.at("_", "[", "("):  # 𝔼_x[…], ℙ(…)
                return self.operator(sym[1])
            return sym
        if name in FUNCTION_COMMANDS:
            if name == "arg" and self.at(r"\max", r"\min"):
                name = "arg" + self.next()[1][1:]
            return self.operator(name)
        if name in _BRACKETS:  # ⟨q, k⟩, ⌊n/2⌋, ⌈x⌉: calls no evaluator knows
            what, close = _BRACKETS[name]
            items = self.listed(self.expr(), self.expr)
            self.expect(close)
            return ("call", what, False, items)
        if name == "cdot" and self.at(")", ",", r"\rangle", "]"):  # f(\cdot), ⟨w, \cdot⟩: a placeholder argument
            return ("sym", r"\cdot", None, None)
        if name in GREEK:
            if name in FUNCTIONS and self.at("("):
                return ("call", name, False, self.call_args())
            return ("sym", val, None, None)
        raise ParseError(f"unsupported command {val} in {shown(self.text)}")

    def operator(self, name):
        r"""``\sin x``, ``\log(n)``, ``\max_j s_j``, ``\mathbb{E}_x[f]``: a call; one with a subscript is named with it."""
        if self.at("_"):
            self.next()
            name = rf"\{name}" if name[0] != "\\" else name
            name += "_{" + self.group_text() + "}"
        if self.at("^") and name in ("log", "sin", "cos", "tan", "tanh"):  # \sin^2 x: a power of the call
            self.next()
            power = type(self)(self.group_text(), self.depth + 1).expr_all()
            return ("pow", self.operator(name), power)
        if self.at("(", "["):
            args = self.call_args()
        elif self.peek()[0] in ("eof", "end", "rowsep") or self.peek()[1] in self._STOP:
            return ("sym", name if name[0] == "\\" else "\\" + name, None, None)  # \tanh, \max: the name alone
        else:
            args = [self.plain_argument()]
        return ("call", name, False, args)

    def plain_argument(self):
        r"""The argument of a function written without parentheses: juxtaposed factors (``\sin m\theta_1``)."""
        arg = self.factor()
        for _ in range(MAX_DEPTH):
            tok = self.peek()
            if tok[0] not in ("letter", "num") and not (tok[0] == "cmd" and tok[1][1:] in GREEK):
                return arg
            arg = ("mul", arg, self.factor(), "*")
        return arg

    def cases(self):
        r"""``\begin{cases} v & \text{if …} \\ … \end{cases}``: the values, with their conditions left out, as one
        call no evaluator knows (a piecewise value is parsed, never compared as one of its branches)."""
        values = []
        while True:
            values.append(self.expr())
            depth = 0
            while True:  # the row's condition: skipped, bounded by the fragment's length
                tok = self.next()
                if tok[0] == "eof":
                    raise ParseError(f"an unclosed cases environment in {shown(self.text)}")
                if tok[0] == "begin":
                    depth += 1
                elif tok[0] == "end":
                    if depth == 0:
                        return ("call", "cases", False, values)
                    depth -= 1
                elif tok[0] == "rowsep" and depth == 0:
                    if self.peek()[0] == "end":
                        self.next()
                        return ("call", "cases", False, values)
                    break

    def frac_part(self):
        r"""A ``\frac`` argument: ``{…}``, or one token (``\frac 1 N``); of digits written together (``\frac12``, as TeX
        reads it ½) the first, the rest left for what follows; a decimal point among them is left unparsed."""
        if self.at("{"):
            return self.braced()
        if self.peek()[0] == "num" and not re.fullmatch(r"\d", self.peek()[1]):
            digits = self.peek()[1]
            if not digits.isdigit():
                raise ParseError(f"a \\frac with digits for both arguments in {shown(self.text)}")
            self.toks[self.i:self.i + 1] = [("num", digits[0]), ("num", digits[1:])]  # bounded: one token split
        if self.peek()[0] not in ("num", "letter", "cmd"):
            raise ParseError(f"a \\frac without arguments in {shown(self.text)}")
        return self.atom()

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
        rows, row = [], [self.event()]
        while True:
            tok = self.next()
            if tok[1] == "&":
                row.append(self.event())
            elif tok[0] == "rowsep":
                rows.append(row)
                while self.peek()[0] == "rowsep":  # an empty row (\\ \\, \\[3pt]): spacing in a table
                    self.next()
                if self.peek()[0] == "end":
                    continue
                row = [self.event()]
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

