r"""The sinusoidal positional encoding restated in a document's letters, judged against its published form.

:math:`PE_{(pos,2i)} = \sin(pos / 10000^{2i/d_\text{model}})`, :math:`PE_{(pos,2i+1)} = \cos(pos / 10000^{2i/d_\text{model}})`
(``data/formulas.yaml``: the source, the names a left side may carry, the base). The letters are bound by their
places on the left side, ``PE_{(pos, 2i)}``, ``p_{i,2j+1}``, ``E(p, 2i)``: the first is the position, the letter
doubled in the second is the pair index; the one other letter of the right side is the model width. A right side
that writes another letter where the pair index belongs (``p_{pos,2j} = \sin(pos/10000^{2i/d})``) is a mismatch;
one with other letters (``\sin(\omega_i t)``) or no base at all is not this formula's restatement and is left to
the other rules (:func:`judge` gives None); one with another printed base (``1000^{2i/d}``) is a slip only where the
document says it restates the published encoding (:func:`as_cited`), else its own choice. The frequencies
(``\theta_i = 10000^{-2(i-1)/d}``) are judged only beside the range of their index (:func:`frequency`); the form with
one index for the dimension and a case for each parity (``\sin(pos/10000^{i/d})`` at even i,
``\cos(pos/10000^{(i-1)/d})`` at odd i) by :func:`parity`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from .data import load
from .parse import ParseError, parse
from .scalar_read import NotScalar, to_sympy

_SPEC = load("formulas.yaml")["sinusoidal_encoding"]


def _rate(pair, d, base=None):
    """The published encoding's frequency of pair ``pair`` (dimensions 2·pair and 2·pair + 1) at width d:
    base^(−2·pair/d), the one place its formula is written (``base``: the published one, or another printed)."""
    return sp.Integer(_SPEC["base"] if base is None else base) ** (-2 * pair / d)


def _shown(want: str, pos, i, d) -> str:
    r"""The published form at dimension 2i (``want`` its function): ``\sin\left(\frac{pos}{10000^{2i/d}}\right)``."""
    return rf"\{want}\left(\frac{{{_tex(pos)}}}{{{_SPEC['base']}^{{2{_tex(i)}/{_tex(d)}}}}}\right)"


_NAMES = "|".join(re.escape(n) for n in sorted(_SPEC["names"], key=len, reverse=True))
_POSITION = r"\\text\s*\{\s*pos\s*\}|pos|[a-z]"
_LEFT = re.compile(r"\s*(?P<name>" + _NAMES + r")\s*(?:_\s*\{\s*\(?|\(|_\s*\()\s*(?P<pos>" + _POSITION +
                   r")\s*,\s*2\s*(?P<i>[a-z])\s*(?P<odd>\+\s*1)?\s*\)?\s*\}?\s*\)?\s*=(?P<right>[^=]+)")
_BARE_POS = re.compile(r"(?<![A-Za-z\\])(?<!\\text\{)pos(?![A-Za-z])")
_BARE_TRIG = re.compile(r"(?<![A-Za-z\\])(sin|cos)(?=\s*\()")
_POINTS = [(1, 0, 8), (3, 1, 16), (7, 2, 64), (11, 5, 512), (2, 3, 10)]  # (pos, i, d): no two forms agree on all


@dataclass
class Verdict:
    status: str  # verified, mismatch or unchecked
    message: str
    expected: str | None = None
    diagnosis: str | None = None
    cited: bool = False  # a slip only where the document says it restates the published formula (:func:`as_cited`)


_CITED = re.compile("|".join(re.escape(n) for n in _SPEC["cited"]), re.I)


def as_cited(verdict: Verdict, prose: str) -> Verdict:
    """``verdict`` where it holds whatever the prose says or ``prose`` (the section's headings, the paragraphs before)
    names the published formula's source; else the same reading, unchecked: the document's own choice."""
    if not verdict.cited or _CITED.search(prose):
        return verdict
    return Verdict("unchecked", f"{verdict.message}; the document does not say it restates that encoding, and "
                   "another base may be its own choice")


def judge(text: str) -> Verdict | None:
    r"""``PE_{(pos,2i)} = \sin(pos / 10000^{2i/d})`` judged by :func:`_judge`; None also where SymPy cannot compare
    the two sides (a division by zero, a NaN)."""
    try:
        return _judge(text)
    except (TypeError, ValueError, ZeroDivisionError, RecursionError):
        return None


def _judge(text: str) -> Verdict | None:
    r"""``PE_{(pos,2i)} = \sin(pos / 10000^{2i/d})`` (one statement's text) against the published encoding: verified
    by a SymPy proof, a mismatch where the two differ at a point, None where ``text`` is not a restatement."""
    left = _LEFT.fullmatch(text.replace("&", " "))
    if not left:
        return None
    right = _BARE_TRIG.sub(r"\\\1", _BARE_POS.sub(r"\\text{pos}", left.group("right"))).strip().rstrip(".,;")
    try:
        node = parse(right)[1][0]
    except (ParseError, IndexError):
        return None
    if node[0] != "call" or node[1] not in ("sin", "cos") or len(node[3]) != 1:
        return None
    try:
        arg = to_sympy(node[3][0])
    except (NotScalar, RecursionError):
        return None
    pos_name = r"\text{pos}" if "pos" in left.group("pos") else left.group("pos")
    by_name = {str(s): s for s in arg.free_symbols}
    pos, i = by_name.get(pos_name), by_name.get(left.group("i"))
    base = sp.Integer(_SPEC["base"])
    if pos is not None and i is None and base in arg.atoms(sp.Number):
        return _other_index(arg, node[1], left, pos)
    widths = [s for s in arg.free_symbols if s not in (pos, i)]
    if pos is None or i is None or len(widths) != 1:
        return None
    d = widths[0]
    if base not in arg.atoms(sp.Number):
        return _other_base(arg, node[1], left, pos, i, d)
    want = _SPEC["odd"] if left.group("odd") else _SPEC["even"]
    reference = pos * _rate(i, d)
    shown = _shown(want, pos, i, d)
    source = _SPEC["source"]
    differ = _differ(arg, reference, pos, i, d)
    if differ is None and node[1] == want:
        if sp.simplify(sp.powsimp(arg / reference, force=True)) == 1:
            return Verdict("verified", f"the sinusoidal encoding of {source}: holds symbolically (SymPy)")
        return Verdict("unchecked", f"agrees with the sinusoidal encoding of {source} at {len(_POINTS)} points, "
                       "not proved equal")
    if differ is None:
        return Verdict("mismatch", f"{source} has {want} at dimension 2{_tex(i)}" + (" + 1" if left.group("odd")
                       else "") + f", not {node[1]}", shown, f"{node[1]} where the encoding has {want}")
    return Verdict("mismatch", f"the argument differs from the sinusoidal encoding of {source} ({differ})", shown,
                   _diagnosis(arg, reference, pos, i, d))


_PARITY_LEFT = re.compile(r"\s*(?P<name>" + _NAMES + r")\s*(?:_\s*\{\s*\(?|\(|_\s*\()\s*(?P<pos>" + _POSITION +
                         r")\s*,\s*(?P<i>[a-z]|\\[a-z]+)\s*\)?\s*\}?\s*\)?\s*=\s*"
                         r"\\begin\{cases\}(?P<cases>.*)\\end\{cases\}\s*", re.S)
_PARITY_WORDS = re.compile(r"\b(even|odd)\b")
# a case's condition written as the index's form: \delta = 2\delta' (even), \delta = 2\delta' + 1 (odd)
_PARITY_FORMS = re.compile(r"=\s*2\s*(?:\\?[A-Za-z]+)\s*(?:'|\^\s*\{?\s*\\prime\s*\}?)?\s*(\+\s*1)?\s*(?=\\\\|\\end|$)")


def _parities(raw: str) -> list[str]:
    """The parity each case states, in order: by the words even and odd, else by the index's form."""
    words = _PARITY_WORDS.findall(raw)
    if words:
        return words
    return ["odd" if m.group(1) else "even" for m in _PARITY_FORMS.finditer(raw)]


def parity(text: str, raw: str) -> Verdict | None:
    r"""``PE_{(pos, i)} = \begin{cases} \sin(pos / 10000^{i/d}) & i \text{ even} \\ \cos(pos / 10000^{(i-1)/d}) & i
    \text{ odd} \end{cases}``: the encoding with one index for the dimension, its parity saying sin or cos (the
    words "even", "odd" read from ``raw``, the fragment as written, or the conditions ``\delta = 2\delta'`` and
    ``\delta = 2\delta' + 1``). Each case judged at dimensions of its parity
    against the published form; None where ``text`` is not such a restatement."""
    try:
        return _parity(text, raw)
    except (TypeError, ValueError, ZeroDivisionError, RecursionError, ParseError, NotScalar, IndexError):
        return None


def _parity(text: str, raw: str) -> Verdict | None:
    left = _PARITY_LEFT.fullmatch(text)
    words = _parities(raw)
    if not left or sorted(words) != ["even", "odd"]:
        return None
    rows = [r.split("&")[0].strip() for r in re.split(r"\\\\", left.group("cases")) if r.strip(" &\n")]
    if len(rows) != 2:
        return None
    pos_name = r"\text{pos}" if "pos" in left.group("pos") else left.group("pos")
    base, source = sp.Integer(_SPEC["base"]), _SPEC["source"]
    found = []
    for row, parity_word in zip(rows, words):
        row = re.sub(r"\\(?:left|right)(?![A-Za-z])", "", row)
        node = parse(_BARE_TRIG.sub(r"\\\1", _BARE_POS.sub(r"\\text{pos}", row)))[1][0]
        if node[0] != "call" or node[1] not in ("sin", "cos") or len(node[3]) != 1:
            return None
        arg = to_sympy(node[3][0])
        by_name = {str(x): x for x in arg.free_symbols}
        pos, i = by_name.get(pos_name), by_name.get(left.group("i"))
        widths = [x for x in arg.free_symbols if x not in (pos, i)]
        if pos is None or i is None or len(widths) != 1 or base not in arg.atoms(sp.Number):
            return None
        d = widths[0]
        odd = int(parity_word == "odd")
        want, reference = _SPEC["odd" if odd else "even"], pos * _rate((i - odd) / 2, d)  # the pair of dimension i
        found.append((node[1], want, arg, reference, pos, i, d, odd))
    for function, want, arg, reference, pos, i, d, odd in found:
        differ = _differ_at(arg, reference, pos, i, d, odd)
        if function == want and differ is None:
            continue
        exponent = f"({_tex(i)} - 1)" if odd else _tex(i)
        shown = rf"\{want}\left(\frac{{{_tex(pos)}}}{{{base}^{{{exponent}/{_tex(d)}}}}}\right)"
        why = f"{function} where the encoding has {want}" if function != want else f"the argument differs ({differ})"
        doubled = _differ_at(arg, pos * _rate(i - sp.Rational(odd, 2), d), pos, i, d, odd) is None
        return Verdict("mismatch", f"at {'odd' if odd else 'even'} dimensions ${_tex(i)}$ the sinusoidal encoding of "
                       f"{source} is {want}(pos / {base}^{{{exponent}/d}}): {why}", shown,
                       f"the exponent written for the pair index, not the dimension (2{_tex(i)} for {_tex(i)})"
                       if doubled else None)
    proved = all(sp.simplify(sp.powsimp(a / r, force=True)) == 1 for _, _, a, r, *_ in found)
    how = "holds symbolically (SymPy)" if proved else "equal at five points, not proved"
    return Verdict("verified" if proved else "unchecked", f"the sinusoidal encoding of {source}, one index for the "
                   f"dimension, sin at even and cos at odd ones: {how}")


def _differ_at(arg, reference, pos, i, d, odd: int) -> str | None:
    """:func:`_differ` at dimensions of one parity (2k or 2k + 1 for the pair indices k of :data:`_POINTS`), the
    dimension named in the message."""
    k = sp.Symbol("_k")
    return _differ(arg.subs(i, 2 * k + odd), reference.subs(i, 2 * k + odd), pos, k, d,
                   shown=lambda pair: f"{_tex(i)} = {2 * pair + odd}")


_FREQ_NAMES = "|".join(re.escape(n) for n in _SPEC["frequencies"])
_FREQUENCY = re.compile(r"\s*(?:" + _FREQ_NAMES + r")_\{?([a-z])\}?\s*=(?P<right>[^=]+)")
_RANGE = re.compile(r"(?<![A-Za-z\\])(?P<var>[a-z])\s*(?:\\in\s*(?:\\\{|\[|\()\s*(?P<lo>[01])\s*,[^=]*?,\s*(?P<hi>[^,\]}]+?)"
                    r"\s*(?:\\\}|\]|\))|=\s*(?P<lo2>[01])\s*,[^=]*?\\[lc]?dots\s*,\s*(?P<hi2>[^,;\\]+(?:\\frac\{[^{}]*\}"
                    r"\{[^{}]*\}[^,;\\]*)?))")


def frequency(text: str, fragment: str) -> Verdict | None:
    r"""``\theta_i = 10000^{-2(i-1)/d}, i \in [1, …, d/2]`` judged by :func:`_frequency`; None also where SymPy cannot
    compare the two sides."""
    try:
        return _frequency(text, fragment)
    except (TypeError, ValueError, ZeroDivisionError, RecursionError):
        return None


def _frequency(text: str, fragment: str) -> Verdict | None:
    r"""``\theta_i = 10000^{-2(i-1)/d}`` with ``i \in [1, \dots, d/2]`` in the same ``fragment``: the first pair's
    frequency is 1 (base^0) and the pairs are d/2; a mismatch where the formula or the range says otherwise, None
    where ``text`` is neither or the fragment states no range (the count the document starts from is unknown)."""
    formula = _FREQUENCY.fullmatch(text.replace("&", " "))
    ranges = {m.group("var"): m for m in _RANGE.finditer(fragment)}
    if formula is None:
        stated = _RANGE.fullmatch(text.strip().rstrip(".,;\\ "))
        if stated is None or not any(m.group(1) == stated.group("var") for m in _FREQUENCY.finditer(fragment)):
            return None
        return _count(stated)
    var = formula.group(1)
    if var not in ranges:
        return None
    lo = int(ranges[var].group("lo") or ranges[var].group("lo2"))
    try:
        expr = to_sympy(parse(formula.group("right").strip().rstrip(".,;"))[1][0])
    except (ParseError, NotScalar, IndexError, RecursionError):
        return None
    by_name = {str(x): x for x in expr.free_symbols}
    i = by_name.get(var)
    widths = [x for x in expr.free_symbols if x is not i]
    base = sp.Integer(_SPEC["base"])
    if i is None or len(widths) != 1 or base not in expr.atoms(sp.Number):
        return None
    d = widths[0]
    reference = _rate(i - lo, d)
    source = _SPEC["source"]
    if _differ(expr, reference, sp.Symbol("_p"), i, d) is None:
        proved = sp.simplify(sp.powsimp(expr / reference, force=True)) == 1
        return Verdict("verified" if proved else "unchecked", f"the frequencies of {source}, counted from {var} = {lo}"
                       f": the first pair's is 1 ({'SymPy' if proved else 'equal at 5 points, not proved'})")
    shown = rf"{base}^{{-2({_tex(i)} - {lo})/{_tex(d)}}}" if lo else rf"{base}^{{-2{_tex(i)}/{_tex(d)}}}"
    other = _differ(expr, _rate(i - (1 - lo), d), sp.Symbol("_p"), i, d) is None
    return Verdict("mismatch", f"with ${var}$ counted from {lo}, the first pair's frequency must be 1 (the frequencies "
                   f"of {source} run from base^0 down): the formula gives ${sp.latex(expr.subs(i, lo))}$", shown,
                   f"the exponent counts ${var}$ from {1 - lo}, the range from {lo}" if other else None)


def _count(stated) -> Verdict | None:
    r"""``i \in \{0, 1, …, d/2\}`` beside a frequency formula: d/2 pairs, so from 0 to d/2 − 1, from 1 to d/2."""
    lo = int(stated.group("lo") or stated.group("lo2"))
    try:
        hi = to_sympy(parse((stated.group("hi") or stated.group("hi2")).strip().rstrip(".,;"))[1][0])
    except (ParseError, NotScalar, IndexError, RecursionError):
        return None
    if len(hi.free_symbols) != 1:
        return None
    d = next(iter(hi.free_symbols))
    want = d / 2 - 1 + lo
    if sp.simplify(hi - want) == 0:
        return Verdict("verified", f"{_tex(d)}/2 pairs, counted from {lo} (SymPy)")
    return Verdict("mismatch", f"the range has {sp.simplify(hi - lo + 1)} values: the frequencies are one per pair of "
                   f"the {_tex(d)} dimensions, {_tex(d)}/2 of them", f"{stated.group('var')} \\in \\{{{lo}, \\dots, "
                   f"{sp.latex(want)}\\}}", "one pair too many or too few")


def _other_index(arg, function, left, pos) -> Verdict | None:
    """``p_{pos,2j} = \\sin(pos / 10000^{2i/d})``: the right side uses another letter than the left side's pair index;
    a mismatch where that letter in its place gives the published encoding, else None."""
    others = sorted(arg.free_symbols - {pos}, key=str)
    want = _SPEC["odd"] if left.group("odd") else _SPEC["even"]
    if len(others) != 2 or function != want:
        return None
    base, j = sp.Integer(_SPEC["base"]), sp.Symbol(left.group("i"), positive=True)
    for used, d in (others, others[::-1]):
        if _differ(arg.subs(used, j), pos * _rate(j, d), pos, j, d) is None:
            return Verdict("mismatch", f"the left side's pair index is ${left.group('i')}$, the right side's exponent "
                           f"uses ${used}$", rf"\{want}\left(\frac{{{_tex(pos)}}}{{{base}^{{2{left.group('i')}/"
                           rf"{_tex(d)}}}}}\right)", f"${used}$ written for the pair index ${left.group('i')}$")
    return None


def _other_base(arg, function, left, pos, i, d) -> Verdict | None:
    r"""``\sin(pos / 1000^{2i/d})``: the published form with another printed base, a mismatch that counts where the
    document cites the published encoding (``cited``); None where the argument is not pos · B^(−2i/d) for a base B
    printed in it, or the function is not the published one for the parity."""
    other = sp.simplify(sp.powsimp(sp.powsimp(arg / pos, force=True) ** (-d / (2 * i)), force=True))
    want = _SPEC["odd"] if left.group("odd") else _SPEC["even"]
    if not (other.is_Integer and other > 1 and other in arg.atoms(sp.Number)) or function != want or \
            _differ(arg, pos * _rate(i, d, other), pos, i, d) is not None:
        return None
    base = _SPEC["base"]
    return Verdict("mismatch", f"the sinusoidal encoding of {_SPEC['source']} has the base {base}; this one has "
                   f"{other}", _shown(want, pos, i, d), f"the base {other} for {base}", cited=True)


def _differ(arg, reference, pos, i, d, shown=None) -> str | None:
    """The first of a few points (position, pair index, width) where the two arguments differ, or None; ``shown``
    names the index's value in the message (``i = 2k + 1`` for the pair index k), by default ``i = k``."""
    for p, k, w in _POINTS:
        at = {pos: sp.Float(p, 30), i: sp.Float(k, 30), d: sp.Float(w, 30)}  # floats: no exact 10000^(10^9)
        a, b = arg.subs(at).evalf(30), reference.subs(at).evalf(30)
        if not (a.is_number and b.is_number and a.is_finite and b.is_finite) or a.has(sp.nan) or b.has(sp.nan):
            return "not comparable"
        if abs(a - b) > 1e-12 * max(abs(b), 1):
            index = shown(k) if shown else f"{_tex(i)} = {k}"
            return f"at {_tex(pos)} = {p}, {index}, {_tex(d)} = {w}: {float(a):.6g} against {float(b):.6g}"
    return None


def _diagnosis(arg, reference, pos, i, d) -> str | None:
    """The small edit that turns the written argument into the published one, when one of a few does."""
    base = sp.Integer(_SPEC["base"])
    edits = {"the width divides outside the power: the exponent is 2i/d": pos / base ** (2 * i) / d,
             "the exponent lacks its 2: 2i/d": pos / base ** (i / d),
             "the exponent lacks its division by the width: 2i/d": pos / base ** (2 * i),
             "the power multiplies the position: the position is divided by it": pos * base ** (2 * i / d)}
    for name, form in edits.items():
        if _differ(arg, form, pos, i, d) is None:
            return name
    return None


def _tex(symbol) -> str:
    """A symbol as the document's LaTeX writes it (``d_model`` → ``d_{model}``)."""
    name = str(symbol)
    base, _, sub = name.partition("_")
    return f"{base}_{{{sub}}}" if sub else name
