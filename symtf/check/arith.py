r"""Arithmetic written outside LaTeX math: inline code spans and runs of prose.

Writers put much of their arithmetic in code spans (`` `8.5e9 + 4.2e9 + 0.39e9 = 13.1e9` ``) and plain
prose ("44 days * 8960 / 171 = 1752 days"). A chain ``e_0 rel e_1 rel … e_k`` (rel one of ``=``, ``≈``,
``~``) of printed numbers is read into SymPy: exact rationals for the numbers (``1.6e10``, ``37.5M``,
``1,024``, ``7.2%``), ``*``, ``x``/``×`` between numbers, ``/``, ``^``/``**``, ``+``, ``-``, parentheses,
and units (``data/units.yaml``) as symbols whose quantities must agree on both sides. Each link is
judged by :mod:`symtf.check.scalars`' rule: equal when the printed side is the exact value rounded or cut
to the digits it shows. A link that fails with the inputs as printed is a mismatch only when it fails for
every value the rounded inputs (``8k``, ``4.5e14``) could stand for; otherwise it is unchecked.

Conservative by construction: a code span is arithmetic only when every word in it is a unit (``x = 5 * 2``,
``BT=16e16`` are code); a run of prose stops at any other word, and a side cut by a word (``B * 2 = 10``)
is dropped. Versions (``1.2.3``), ranges and dates (``1-2``), ratios (``1:2``) are not numbers. Work is
linear: one regular-expression scan without nested repetition, and runs capped at :data:`_MAX_TOKENS`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import sympy as sp
import yaml

from .report import Finding
from .scalars import NotScalar, Verdict, _last_digit, _numbers, _show, to_sympy

_MAX_TOKENS = 120  # a longer run is not read (no sentence of arithmetic is this long)
_MAX_DEPTH = 16  # parentheses deeper than this are not read
_SCAN = re.compile(r"""
  (?P<space>\s+)
| (?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
| (?P<word>[A-Za-zµ_][A-Za-z0-9_]*)
| (?P<rel>\\approx|≈|~=|~|=)
| (?P<op>\*\*|[*/^+×·()\-−])
| (?P<other>.)
""", re.X | re.S)
_GLUED = re.compile(r"[A-Za-zµ]+")  # letters right after a number: a suffix, a unit, x, or a word
_STUCK = re.compile(r"[.,:\-/_]?\d|[.:_]\w")  # 1.2.3, 1,2, 1:2, 1-2, 1_000: not one number
_OPS = {"*": "*", "**": "^", "^": "^", "/": "/", "+": "+", "-": "-", "−": "-", "×": "*", "·": "*", "x": "*"}
_RELS = {"=": "=", "≈": "≈", "~": "≈", "~=": "≈", r"\approx": "≈"}


@lru_cache(maxsize=1)
def _units() -> tuple[dict, dict]:
    data = yaml.safe_load(resources.files("symtf.check.data").joinpath("units.yaml").read_text(encoding="utf-8"))
    units = {name: (quantity, sp.Rational(str(scale))) for name, (quantity, scale) in data["units"].items()}
    return units, {k: int(v) for k, v in data["suffixes"].items()}


@dataclass(frozen=True)
class Token:
    kind: str  # num, unit, op, rel, lp, rp, word (not arithmetic)
    text: str
    start: int
    end: int
    node: tuple | None = None  # a number's or a unit's node (symtf.check.parse's tuples)
    rounded: bool = False  # a number printed with fewer digits than it may stand for (4.5e14, 8k, 23000)


def _number(text: str, scale: int) -> tuple:
    """``1.6e10`` → 1.6 · 10^10, ``1,024`` → 1024, ``37.5M`` → 37.5 · 10^6 (``scale`` from a suffix or %)."""
    mantissa, _, exp = text.replace(",", "").lower().partition("e")
    exp10 = (int(exp) if exp else 0) + scale
    node = ("num", float(mantissa), mantissa)
    if exp10:
        node = ("mul", node, ("pow", ("num", 10.0, "10"), ("num", float(exp10), str(exp10))), "*")
    return node


def tokens(text: str) -> list[Token]:
    """The tokens of ``text``: numbers (with a suffix or unit glued on), units, operators, relations, words."""
    units, suffixes = _units()
    out: list[Token] = []
    pos, n = 0, len(text)
    while pos < n:
        m = _SCAN.match(text, pos)
        kind, start, pos = m.lastgroup, m.start(), m.end()
        if kind == "space":
            continue
        if kind == "num":
            if _STUCK.match(text, pos):  # a version, a range, a date, a ratio: one word
                pos = _word_end(text, pos)
                out.append(Token("word", text[start:pos], start, pos))
                continue
            num = m.group("num")
            glued = _GLUED.match(text, pos)
            scale, unit = 0, None
            if text.startswith("%", pos):
                scale, pos = -2, pos + 1
            elif glued and glued.group() in suffixes:
                scale, pos = suffixes[glued.group()], glued.end()
            elif glued and glued.group() in units:
                unit = glued
            elif glued and glued.group() == "x" and glued.end() < n and text[glued.end()].isdigit():
                unit = glued  # 4x4x4: a product, read as the operator below
            elif glued:
                pos = _word_end(text, pos)
                out.append(Token("word", text[start:pos], start, pos))
                continue
            digits = num.split("e")[0].split("E")[0].replace(",", "")
            rounded = "." in digits or scale != 0 or "e" in num.lower() or len(digits) - len(digits.rstrip("0")) >= 3
            out.append(Token("num", text[start:pos], start, pos, _number(num, scale), rounded))
            if unit is not None:
                word = unit.group()
                pos = unit.end()
                out.append(Token("op", word, unit.start(), pos) if word == "x" else
                           Token("unit", word, unit.start(), pos, ("sym", word, None, None)))
        elif kind == "word":
            word = m.group()
            out.append(Token("unit", word, start, pos, ("sym", word, None, None)) if word in units else
                       Token("op" if word == "x" else "word", word, start, pos))
        elif kind == "rel":
            out.append(Token("rel", _RELS[m.group()], start, pos))
        elif kind == "op":
            op = m.group()
            out.append(Token({"(": "lp", ")": "rp"}.get(op, "op"), op, start, pos))
        else:
            out.append(Token("word", m.group(), start, pos))
    return [_times(out, k) for k in range(len(out))]


def _word_end(text: str, pos: int) -> int:
    while pos < len(text) and not text[pos].isspace():
        pos += 1
    return pos


def _times(toks: list[Token], k: int) -> Token:
    """``x`` is a product only between two numbers (``8192 x 4``, ``4x4``); elsewhere it is a word."""
    tok = toks[k]
    if tok.text != "x" or tok.kind != "op":
        return tok
    before, after = toks[k - 1] if k else None, toks[k + 1] if k + 1 < len(toks) else None
    ok = before is not None and before.kind in ("num", "rp") and after is not None and after.kind in ("num", "lp")
    return tok if ok else Token("word", "x", tok.start, tok.end)


class _Unread(Exception):
    """Not a chain of arithmetic."""


class _Parser:
    """``expr := term (± term)*``, ``term := power ((* / × x) power)*``, ``power := atom (^ power)?``,
    ``atom := (number | unit | ( expr )) unit*``: a unit binds to the number it follows (``1.2e9 params / 32 chips``)."""

    def __init__(self, toks: list[Token]):
        self.toks, self.k, self.depth = toks, 0, 0

    def peek(self) -> Token | None:
        return self.toks[self.k] if self.k < len(self.toks) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise _Unread("the expression ends early")
        self.k += 1
        return tok

    def expr(self) -> tuple:
        tok = self.peek()
        if tok is not None and tok.kind == "op" and tok.text in "-−":
            self.take()
            node = ("neg", self.term())
        else:
            node = self.term()
        while (tok := self.peek()) is not None and tok.kind == "op" and _OPS[tok.text] in "+-":
            self.take()
            node = ("add", [node, self.term()], [1, 1 if _OPS[tok.text] == "+" else -1])
        return node

    def term(self) -> tuple:
        node = self.power()
        while (tok := self.peek()) is not None:
            if tok.kind == "op" and _OPS[tok.text] in "*/":
                self.take()
                node = ("mul", node, self.power(), _OPS[tok.text])
            else:
                break
        return node

    def power(self) -> tuple:
        node = self.atom()
        tok = self.peek()
        if tok is not None and tok.kind == "op" and _OPS[tok.text] == "^":
            self.take()
            sign = self.peek()
            if sign is not None and sign.kind == "op" and sign.text in "-−":
                self.take()
                return ("pow", node, ("neg", self.power()))
            return ("pow", node, self.power())
        return node

    def atom(self) -> tuple:
        node = self.bare()
        while (tok := self.peek()) is not None and tok.kind == "unit":  # 44 days, 1.2e9 params / 32 chips
            self.take()
            node = ("mul", node, tok.node, "*")
        return node

    def bare(self) -> tuple:
        tok = self.take()
        if tok.kind in ("num", "unit"):
            return tok.node
        if tok.kind == "lp":
            self.depth += 1
            if self.depth > _MAX_DEPTH:
                raise _Unread("nested too deep")
            node = self.expr()
            if self.take().kind != "rp":
                raise _Unread("an unclosed parenthesis")
            self.depth -= 1
            return node
        raise _Unread(f"{tok.text!r} is not a number")


@dataclass(frozen=True)
class Side:
    node: tuple
    start: int  # offsets in the run's text
    end: int
    computed: bool  # an operation on printed numbers, not one printed number (with units)
    inputs: tuple  # (node, rounded, text) of each printed number in it
    text: str  # as written


def chain(toks: list[Token]) -> tuple[list[Side], list[str]] | None:
    """The sides and relations of a run of arithmetic tokens, or None if it is not one."""
    if not toks or len(toks) > _MAX_TOKENS or any(t.kind == "word" for t in toks):
        return None
    sides, rels, part = [], [], []
    for tok in toks + [Token("rel", "", -1, -1)]:
        if tok.kind != "rel":
            part.append(tok)
            continue
        if not part:
            return None
        try:
            parser = _Parser(part)
            node = parser.expr()
        except (_Unread, RecursionError):
            return None
        if parser.peek() is not None:
            return None
        nums = [t for t in part if t.kind == "num"]
        if not nums:
            return None
        computed = len(nums) > 1  # one printed number with its units ("235 tokens / sec") is not computed
        sides.append(Side(node, part[0].start, part[-1].end, computed, tuple((t.node, t.rounded, t.text) for t in nums),
                          "".join(t.text if k == 0 or part[k - 1].end == t.start else " " + t.text
                                  for k, t in enumerate(part))))
        if tok.text:
            rels.append(tok.text)
        part = []
    return (sides, rels) if rels else None


def runs(text: str) -> list[list[Token]]:
    """The runs of arithmetic tokens of a stretch of prose, each cut to its complete sides: a side joined to a
    word by an operator (``B * 2 = 10``) or glued to one is dropped with its relation."""
    out, cur = [], []
    toks = tokens(text)
    for k, tok in enumerate(toks + [None]):
        if tok is not None and tok.kind != "word":
            cur.append(tok)
            continue
        if cur:
            before = toks[k - len(cur) - 1] if k - len(cur) - 1 >= 0 else None
            run = _trim(cur, text, before, tok)
            if run:
                out.append(run)
        cur = []
    return out


def _trim(run: list[Token], text: str, before: Token | None, after: Token | None) -> list[Token]:
    glued_before = before is not None and before.end == run[0].start and before.text not in "([{\"'"
    if run[0].kind in ("op", "rel", "rp") and run[0].text not in "(" or glued_before:
        rel = next((k for k, t in enumerate(run) if t.kind == "rel"), None)
        run = [] if rel is None else run[rel + 1:]
    glued_after = after is not None and run and after.start == run[-1].end and after.text not in ".,;:!?)]}\"'"
    if run and (run[-1].kind in ("op", "rel", "lp") or glued_after):
        rel = max((k for k, t in enumerate(run) if t.kind == "rel"), default=None)
        run = [] if rel is None else run[:rel]
    if len(run) > 2 and run[0].kind == "lp" and run[-1].kind == "rp" and _inside(run):
        run = run[1:-1]  # "(7 * 3 = 21)": parentheses around the sentence's arithmetic
    while run and run[0].kind == "lp" and _balance(run) > 0:
        run = run[1:]  # "(so 2 * 3 = 6)": a parenthesis opened before the run
    while run and run[-1].kind == "rp" and _balance(run) < 0:
        run = run[:-1]
    return run


def _inside(run: list[Token]) -> bool:
    """Is a relation of the run inside parentheses?"""
    depth = 0
    for tok in run:
        depth += (tok.kind == "lp") - (tok.kind == "rp")
        if tok.kind == "rel" and depth > 0:
            return True
    return False


def _balance(run: list[Token]) -> int:
    return sum(t.kind == "lp" for t in run) - sum(t.kind == "rp" for t in run)


# ---------------------------------------------------------------------------------------------- judging
def _split(expr) -> tuple | None:
    """``c · u``: a number times a product of powers of units (None if the units do not combine)."""
    coeff, rest = sp.sympify(expr).as_coeff_Mul()
    units, _ = _units()
    if rest == 1:
        return coeff, sp.Integer(1)
    if rest.is_Add or any(s.name not in units for s in rest.free_symbols) or not rest.free_symbols:
        return None
    return coeff, rest


def _in_base(unit, binary: bool = False) -> tuple:
    """``(scale, quantity)`` of a product of units: ``GB/s`` → (10^9, bytes/seconds)."""
    units, _ = _units()
    scales, quantities = {}, {}
    for s in unit.free_symbols:
        quantity, scale = units[s.name]
        if binary and quantity == "bytes" and s.name[:1] in "kKMGTP" and not s.name.endswith("iB"):
            scale = sp.Integer(2) ** (10 * "kMGTP".index(s.name[0].replace("K", "k")) + 10)
        scales[s], quantities[s] = scale, sp.Symbol(quantity, positive=True)
    return unit.xreplace(scales), unit.xreplace(quantities)


def _readings(unit_a, unit_b) -> list[tuple]:
    """The factors that put side a in side b's unit, with what each reading assumes."""
    out = []
    if unit_a == unit_b:
        out.append((sp.Integer(1), ""))
    for binary in (False, True):
        (sa, qa), (sb, qb) = _in_base(unit_a, binary), _in_base(unit_b, binary)
        note = " (bytes read binary: 1 GB = 2^30 bytes)" if binary else ""
        if qa == qb and (unit_a != unit_b or binary and sa != sb):
            out.append((sa / sb, f" (in {sp.sstr(unit_b)}{note})"))
        elif unit_a == 1 or unit_b == 1:  # the writer left the unit off one side: as written, or in base units
            if not out:
                out.append((sp.Integer(1), f" (the unit {sp.sstr(unit_a * unit_b)} is written on one side only)"))
            factor = 1 / sb if unit_a == 1 else sa
            if factor != 1:
                out.append((factor, f" (the unitless side read in {sp.sstr(qa * qb)}{note})"))
    seen, unique = set(), []
    for factor, note in out:
        if factor not in seen:
            seen.add(factor)
            unique.append((factor, note))
    return unique


def _bare(side: Side) -> tuple:
    """A side's printed number without its units (``130GB`` → 130), for the digits it shows."""
    return side.node if side.computed else side.inputs[0][0]


def judge_link(a: Side, b: Side, rel: str):
    """The :class:`~symtf.check.scalars.Verdict` on ``a rel b``: ``a = b`` exactly or to the digits printed
    (:func:`symtf.check.scalars._numbers`), in a common unit; a failure that rounded inputs could explain
    is unchecked."""
    if b.computed and not a.computed:
        a, b = b, a  # judged in the printed side's unit, with the digits it shows
    try:
        split_a, split_b = _split(to_sympy(a.node)), _split(to_sympy(b.node))
    except (NotScalar, ValueError, TypeError, ZeroDivisionError):
        return Verdict("unchecked", "an exponent too large to judge")
    if split_a is None or split_b is None:
        return Verdict("unchecked", "the units of a side do not combine into one quantity")
    (ca, ua), (cb, ub) = split_a, split_b
    readings = _readings(ua, ub)
    if not readings:
        return Verdict("unchecked", f"the two sides are in different units ({sp.sstr(ua)} and {sp.sstr(ub)})")
    if ca.has(sp.zoo, sp.nan) or cb.has(sp.zoo, sp.nan):
        return Verdict("unchecked", "a division by zero")
    verdicts = [(_numbers(ca * f, cb, rel, _bare(a), _bare(b), ""), f, note) for f, note in readings]
    for verdict, _, note in verdicts:
        if verdict.status == "verified":
            return Verdict("verified", f"arithmetic {verdict.message}{note}")
    verdict, factor, note = verdicts[0]
    if _could_hold(a, factor, cb, b):
        rounded = ", ".join(t for t in _rounded_texts(a)) or "its inputs"
        return Verdict("unchecked", f"does not hold with the inputs as printed ({verdict.message.replace('does not hold: ', '')}{note}), but "
                       f"{rounded} may stand for any value that rounds to the digits printed, and then it may hold")
    return Verdict("mismatch", f"arithmetic {verdict.message}{note}", f"{a.text} {rel} {_like(ca * factor, b)}")


def _rounded_texts(side: Side) -> list[str]:
    return [text for _, rounded, text in side.inputs if rounded][:4]


def _could_hold(a: Side, factor, cb, b: Side) -> bool:
    """Could ``a`` equal ``b`` to the digits printed if each rounded input of ``a`` were any value it rounds
    from (one unit of its last digit either way)? Interval arithmetic (``sympy.AccumBounds``)."""
    subs, node = {}, a.node
    for k, (num, rounded, _) in enumerate(a.inputs):
        if rounded:
            unit = _last_digit(num)
            name = f"_input{k}"
            subs[sp.Symbol(name, positive=True)] = sp.AccumBounds(to_sympy(num) - unit, to_sympy(num) + unit)
            node = _replace(node, num, ("sym", name, None, None))
    if not subs:
        return False
    try:
        bounds = _split_bounds(to_sympy(node).xreplace(subs) * factor)
    except (TypeError, ValueError, ZeroDivisionError, NotScalar):
        return True  # cannot tell: not a mismatch
    if bounds is None:
        return True
    unit = _last_digit(_bare(b)) or sp.Integer(0)
    lo, hi = bounds
    return bool(lo < cb + unit and hi > cb - unit) if unit else bool(lo <= cb <= hi)


def _split_bounds(expr) -> tuple | None:
    """(low, high) of the number part of an interval expression (its units dropped)."""
    units, _ = _units()
    expr = expr.xreplace({s: 1 for s in expr.free_symbols if s.name in units})
    if isinstance(expr, sp.AccumBounds):
        return expr.min, expr.max
    return (expr, expr) if expr.is_number and expr.is_finite else None


def _replace(node, old, new):
    """``node`` with the first occurrence of the sub-node ``old`` (by identity) replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, tuple):
        return tuple(_replace(c, old, new) if isinstance(c, (tuple, list)) else c for c in node)
    if isinstance(node, list):
        return [_replace(c, old, new) for c in node]
    return node


_PRINTED = re.compile(r"(?P<mant>[\d,]*\.?\d+)(?P<exp>[eE][+-]?\d+)?(?P<suffix>[kKMBT%])?")


def _like(value, printed: Side) -> str | None:
    """``value`` printed the way the printed side is, to as many digits (``1.6e10`` → ``1.6e6``, ``1752 days``
    → ``2306 days``, ``37.5M``, ``7.2%``, ``18,823``)."""
    m = _PRINTED.match(printed.text)
    if printed.computed or m is None:
        return _show(value)
    mant, exp, suffix = m.group("mant"), m.group("exp"), m.group("suffix")
    unit = printed.text[m.end():].strip()
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    if exp:
        digits = len(mant.replace(",", "").replace(".", "").lstrip("0")) or 1
        mantissa, _, power = f"{float(value):.{digits - 1}e}".partition("e")
        shown = f"{mantissa}e{int(power)}"
    else:
        _, suffixes = _units()
        scale = sp.Integer(10) ** (-2 if suffix == "%" else suffixes.get(suffix, 0))
        step = _last_digit(("num", 0.0, mant.replace(",", "")))
        rounded = sp.floor(value / scale / step + sp.Rational(1, 2)) * step
        shown = f"{float(rounded):,.{decimals}f}" if "," in mant else f"{float(rounded):.{decimals}f}"
        shown += suffix or ""
    return shown + (" " + unit if unit else "")


# ---------------------------------------------------------------------------------------------- findings
_MAX_TEXT = 100_000  # characters of one run of prose read (a paragraph longer than this is cut)


def arithmetic(spans: list[tuple[int, str]], texts: list[tuple[int, str]]) -> list[Finding]:
    """A finding (a claim, basis ``arithmetic``) for each link of each chain of printed numbers: in a code span
    that is arithmetic as a whole, and in the runs of prose. A chain of printed numbers only (``1.5M =
    1,500,000``) is a conversion, not read."""
    out: list[Finding] = []
    for line, text in spans:
        if len(text) <= 2000:
            out += _judged(line, text, tokens(text))
    for line, text in texts:
        text = text[:_MAX_TEXT]
        for run in runs(text):
            out += _judged(line + text.count("\n", 0, run[0].start), text, run)
    return out


def _judged(line: int, text: str, toks: list[Token]) -> list[Finding]:
    read = chain(toks)
    if read is None or not any(side.computed for side in read[0]):
        return []
    sides, rels = read
    out = []
    for k, rel in enumerate(rels):
        link = text[sides[0].start:sides[-1].end] if len(rels) == 1 else text[sides[k].start:sides[k + 1].end]
        verdict = judge_link(sides[k], sides[k + 1], rel)
        out.append(Finding(line, link, verdict.status, "numeric", verdict.message, verdict.expected,
                           kind="claim", basis="arithmetic"))
    return out
