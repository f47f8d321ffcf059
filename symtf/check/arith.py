r"""Arithmetic written outside LaTeX math: inline code spans and runs of prose.

Writers put much of their arithmetic in code spans (`` `8.5e9 + 4.2e9 + 0.39e9 = 13.1e9` ``) and plain
prose ("44 days * 8960 / 171 = 1752 days"). A chain ``e_0 rel e_1 rel … e_k`` (rel one of ``=``, ``≈``,
``~``) of printed numbers is read into SymPy: exact rationals for the numbers (``1.6e10``, ``37.5M``,
``1,024``, ``7.2%``), ``*``, ``x``/``×`` between numbers, ``/``, ``^``/``**``, ``+``, ``-``, parentheses,
and units (``data/units.yaml``) as symbols whose quantities must agree on both sides. Each link is
judged by :mod:`symtf.check.scalars`' rule: equal when the printed side is the exact value rounded or cut
to the digits it shows. A link that fails with the inputs as printed is a mismatch only when it fails for
every value the rounded inputs (``8k``, ``4.5e14``) could stand for; otherwise it is unchecked.

Conservative by construction (:mod:`symtf.check.arith_read`): a code span is arithmetic only when every word
in it is a unit (``x = 5 * 2``, ``BT=16e16`` are code); a run of prose stops at any other word, and a side cut
by a word (``B * 2 = 10``) is dropped. Versions (``1.2.3``), ranges and dates (``1-2``), ratios (``1:2``) are not
numbers.
"""
from __future__ import annotations

import re
from dataclasses import replace

import sympy as sp

from .arith_read import Side, Token, _units, chain, runs, tokens, unit_scale
from .compare import replace_node
from .report import Finding
from .scalars import NotScalar, Verdict, _last_digit, _numbers, _show, to_sympy


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
    scales, quantities = {}, {}
    for s in unit.free_symbols:
        quantity, scale = unit_scale(s.name, binary)
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


def _per_element(ca, cb, ua, ub, rel: str, a: Side, b: Side) -> int | None:
    """A count without a unit set equal to a size in bytes (``8192*8192 = 128MB``) that holds for elements of 2 or 4
    bytes (16- or 32-bit numbers), in decimal or binary units: that element size, or None."""
    if (ua == 1) == (ub == 1):
        return None
    for binary in (False, True):
        (sa, qa), (sb, qb) = _in_base(ua, binary), _in_base(ub, binary)
        if (qa * qb) != sp.Symbol("bytes", positive=True):
            return None
        for size in (2, 4):
            factor = size / sb if ua == 1 else sa / size
            if _numbers(ca * factor, cb, rel, _bare(a), _bare(b), "", estimate=True).status == "verified":
                return size
    return None


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
    # a side read in another unit keeps no rounding of its own digits: 503316480000 FLOPs has trailing zeros, but in
    # GFLOPs (503.316) one unit of 10^4 FLOPs is not one of 10^4 GFLOPs; the printed side's digits decide
    verdicts = [(_numbers(ca * f, cb, rel, _bare(a) if f == 1 else None, _bare(b), "", estimate=True), f, note)
                for f, note in readings]
    for verdict, _, note in verdicts:
        if verdict.status == "verified":
            return Verdict("verified", f"arithmetic {verdict.message}{note}")
    # a reading within a unit of the printed digits (8.053e12 FLOPs and 8.06 TFLOPs) says more than the one in which
    # the sides are twelve orders apart: its verdict (not decided) is the one reported
    verdict, factor, note = next((v for v in verdicts if v[0].status == "unchecked"), verdicts[0])
    per_element = _per_element(ca, cb, ua, ub, rel, a, b)
    if per_element is not None:  # 8192*8192 = 128MB: elements of 2 bytes, as the text may say elsewhere
        return Verdict("unchecked", f"{verdict.message.replace('does not hold: ', 'does not hold as written (')}); it "
                       f"holds for elements of {per_element} bytes each, which the document may mean: not judged")
    bytes_or_billions = [t for side in (a, b) for _, _, t in side.inputs if t.endswith("B")]
    if bytes_or_billions:
        return Verdict("unchecked", f"does not hold with {', '.join(bytes_or_billions)} read as billions "
                       f"({verdict.message.replace('does not hold: ', '')}); B may also mean bytes")
    if _could_hold(a, factor, cb, b):
        rounded = ", ".join(_rounded_texts(a) + _rounded_texts(b)) or "its inputs"
        shown = verdict.message.replace("does not hold: ", "")
        binary = " (a k, M or T perhaps binary: 2^10, 2^20, 2^40)" if re.search(r"\d[kKMT]\b", rounded) else ""
        return Verdict("unchecked", f"does not hold with the inputs as printed ({shown}{note}), but {rounded} may "
                       f"stand for any value that rounds to the digits printed{binary}, and then it may hold")
    if verdict.status == "unchecked":
        return Verdict("unchecked", f"{verdict.message}{note}")  # the digits printed, a float sum: not decided
    left_off = _left_off_unit(ca, ua, cb, ub, rel, a, b)
    if left_off is not None:  # 96 × 32 ≈ 3 GiB, the 96 MiB of the line before: the unit carried over, unwritten
        return Verdict("unchecked", f"does not hold as written ({verdict.message.replace('does not hold: ', '')}); it "
                       f"holds with the unitless side in {left_off}, a unit the document may leave off: not judged")
    return Verdict("mismatch", f"arithmetic {verdict.message}{note}", f"{a.text} {rel} {_like(ca * factor, b)}")


def _left_off_unit(ca, ua, cb, ub, rel: str, a: Side, b: Side) -> str | None:
    """The unit of the written side's quantity (``MiB`` for ``3 GiB``) in which the unitless side makes the link hold
    to the digits printed, or None; None also where neither side or both sides are unitless."""
    if (ua == 1) == (ub == 1):
        return None
    written = ub if ua == 1 else ua
    try:
        scale, quantity = _in_base(written)
    except (KeyError, TypeError):
        return None
    for name, (other, size) in _units()[0].items():
        if sp.Symbol(other, positive=True) != quantity or size == scale:
            continue
        x, y = (ca * size / scale, cb) if ua == 1 else (ca, cb * size / scale)
        if _numbers(x, y, rel, None, _bare(b), "", estimate=True).status == "verified":
            return name
    return None


def _rounded_texts(side: Side) -> list[str]:
    return [text for _, rounded, text in side.inputs if rounded and side.computed][:4]


def _could_hold(a: Side, factor, cb, b: Side) -> bool:
    """Could ``a`` equal ``b`` to the digits printed if each rounded input of ``a`` were any value it is rounded
    (half a unit of its last digit either way) or cut (up to one unit above) from, ``128K`` up to 128 · 1024?
    Interval arithmetic (``sympy.AccumBounds``)."""
    if b.computed and any(rounded for _, rounded, _ in b.inputs):
        return True  # both sides computed from rounded inputs: not judged this far
    subs, node = {}, a.node
    _, suffixes = _units()
    for k, (num, rounded, text) in enumerate(a.inputs):
        if rounded:
            unit, value = _last_digit(num), to_sympy(num)
            thousands = suffixes.get(text[-1], 0) // 3  # 8k, 16M: perhaps 8 · 2^10, 16 · 2^20
            binary = (sp.Integer(1024) / 1000) ** thousands
            name = f"_input{k}"
            subs[sp.Symbol(name, positive=True)] = sp.AccumBounds(value - unit / 2, (value + unit) * binary)
            node = replace_node(node, num, ("sym", name, None, None))
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


# a letter (with scripts) set equal to a chain of printed numbers: the chain after its "="
_DEFINED = re.compile(r"\s*[A-Za-z\\][\w{}^*\\ ]{0,40}?\s=\s*(.+)", re.S)


def arithmetic(findings: list[Finding], frags, spans: list[tuple[int, str]],
               texts: list[tuple[int, str]]) -> list[Finding]:
    """``findings`` with a finding (a claim, basis ``arithmetic``) for each link of each chain of printed numbers:
    in a code span that is arithmetic as a whole, in the runs of prose, and in a LaTeX fragment the checker
    left unchecked that is such a chain once read by :func:`latex_text` (its unchecked findings replaced when a
    link is decided). A chain of printed numbers only (``1.5M = 1,500,000``) is a conversion, not read."""
    mine: dict[int, list] = {}
    for f in findings:
        mine.setdefault(f.fragment, []).append(f)
    replaced, read, results = set(), [], _results(frags)
    for i, frag in enumerate(frags):
        own = mine.get(i)
        mended = _rounded_earlier(frag, i, own, results) if own and len(frag.latex) <= 2000 else None
        if mended is not None:
            replaced.add(i)
            read.append(mended)
            continue
        if own and len(frag.latex) <= 2000 and all(f.status in ("unchecked", "unparsed") for f in own):
            unit = unit_after(frag.after)  # $4096^2 \times 4 = 67$ MB: the unit the prose gives the last number
            text = latex_text(frag.latex) + (" " + unit if unit else "")
            found = _judged(frag.line, text, frag.latex, results=results, index=i)
            kept = []
            defined = _DEFINED.match(text) if not found else None
            if defined:  # D^* = 20 \times 3 \times 10^9 = 6 \times 10^{10}: the definition stands, its arithmetic is judged
                kept = [f for f in own if f.rule == "definition"]
                found = _judged(frag.line, defined.group(1), results=results, index=i) if len(kept) == 1 else []
            if all(f.status == "unchecked" for f in found):
                continue  # the checker's own reason stands
            for f in found + kept:
                f.fragment = i
            replaced.add(i)
            read += kept + found
    out = [f for f in findings if f.fragment not in replaced] + read
    for line, text in spans:
        if len(text) <= 2000:
            out += _judged(line, text, results=results)
    for line, text in texts:
        text, at = text[:_MAX_TEXT], 0
        for run in runs(text):
            line, at = line + text.count("\n", at, run[0].start), run[0].start  # the run's own line, counted once
            out += _judged(line, text, toks=run, results=results)
    return out


def _rounded_earlier(frag, index: int, own: list[Finding], results: dict) -> Finding | None:
    """``5 \times 0.0083 = 0.0417`` after ``1/120 = 0.0083``: a fragment whose one finding is a mismatch of its
    printed numbers that no longer holds once an input the document printed earlier as a (rounded) result may
    stand for anything that rounds to it: that judgement (unchecked, saying so), or None."""
    if len(own) != 1 or own[0].status != "mismatch" or own[0].rule != "numeric" or not printed_chain(frag.latex):
        return None
    found = _judged(frag.line, latex_text(frag.latex), frag.latex, results=results, index=index, exact=True)
    return replace(found[0], fragment=index) if len(found) == 1 and found[0].status == "unchecked" else None


def printed_chain(latex: str) -> bool:
    """Is ``latex`` a chain of printed numbers only (``4096^2 \\times 4 = 67``), as :func:`arithmetic` reads one?"""
    read = chain(tokens(latex_text(latex)))
    return read is not None and len(read[1]) > 0


def unit_after(prose: str) -> str | None:
    """The unit (``data/units.yaml``) that the prose right after a fragment opens with (``MB per head``), or None."""
    m = re.match(r"\s*([A-Za-z/]+)\b", prose)
    return m.group(1) if m and m.group(1) in _units()[0] else None


_LAST_UNIT = re.compile(r"\\(?:text|mathrm|mbox)\s*\{\s*([A-Za-z/µ]+)\s*\}\s*[.,;]?\s*$")


def trailing_unit(latex: str, prose: str) -> str | None:
    """The unit a fragment's last number is written in: a ``\\text{ms}`` ending the fragment, or the prose right after
    it (:func:`unit_after`); None if neither is a unit of ``data/units.yaml``."""
    m = _LAST_UNIT.search(latex[-60:])
    if m and m.group(1) in _units()[0]:
        return m.group(1)
    return unit_after(prose)


_LABEL = re.compile(r"(\d)\s*\\[ ,;]\s*\((?:[A-Za-z]|\\text\{[A-Za-z ]{1,20}\})\)")  # 8192\ (T): a label
_LATEX = (
    (re.compile(r"\\(?:text|mathrm)\{\s*e\s*\}(?=[-+]?\d)"), "e"),  # 52\text{e}12
    (re.compile(r"(\d)\s*\\(?:text|mathrm|textrm|mbox)\{\s*([kKMBT])\s*\}"), r"\1\2 "),  # 262.1\text{M}: a suffix
    (re.compile(r"\\(?:text|mathrm|textrm|mbox)\{([^{}]{0,40})\}"), r" \1 "),  # \text{GB}: a word
    (re.compile(r"(\d)\\,(\d{3})(?!\d)"), r"\1,\2"),  # 1\,000
    (re.compile(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}"), r"(\1)/(\2)"),
    (re.compile(r"\^\s*\{([^{}]*)\}"), r"^(\1)"),
    (re.compile(r"\\(?:times|cdot)(?![A-Za-z])"), " * "),
    (re.compile(r"\\(?:approx|sim)(?![A-Za-z])"), " ≈ "),
    (re.compile(r"\\left(?![A-Za-z])|\\right(?![A-Za-z])"), ""),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"\{,\}"), ","),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"[.,;]\s*$"), ""),  # the sentence's full stop after a display
)


def latex_text(latex: str) -> str:
    r"""A LaTeX fragment of printed numbers as plain arithmetic: ``8192\ (T) \times 2\ (\text{bytes}) = 16\text{kB}``
    → ``8192 * 2 = 16 kB`` (a parenthesised letter after an explicit space is a label, not a factor); any
    other command stays, and makes it not arithmetic."""
    text = _LABEL.sub(r"\1", latex.replace("~", " "))
    for pattern, repl in _LATEX:
        text = pattern.sub(repl, text)
    return text


def _judged(line: int, text: str, latex: str | None = None, toks: list[Token] | None = None,
            results: dict | None = None, index: int | None = None, exact: bool = False) -> list[Finding]:
    """The findings of the chain ``toks`` (all of ``text``'s tokens by default); reported as ``latex`` when one
    link is read from a LaTeX fragment. ``results``: value → (line, fragment) where the document first printed it
    as a result (:func:`_results`); such a value used as an input on a later line, or in a later fragment than
    ``index`` (the fragment judged), may be rounded too; with ``exact``, only those (every other printed input is
    exact, as the LaTeX reading of :mod:`symtf.check.scalars` takes it)."""
    read = chain(tokens(text) if toks is None else toks)
    if read is None or not any(side.computed for side in read[0]):
        return []
    sides, rels = read
    if results:
        def earlier(value) -> bool:
            at = results.get(value)
            return at is not None and (at[0] < line or index is not None and at[0] == line and at[1] < index)
        sides = [replace(s, inputs=tuple((n, (r and not exact) or earlier(_value(n)), t) for n, r, t in s.inputs))
                 for s in sides]
    out = []
    for k, rel in enumerate(rels):
        link = text[sides[0].start:sides[-1].end] if len(rels) == 1 else text[sides[k].start:sides[k + 1].end]
        link = latex if latex is not None and len(rels) == 1 else link
        verdict = judge_link(sides[k], sides[k + 1], rel)
        if verdict.status == "unchecked" and verdict.message.endswith("B may also mean bytes"):
            verdict = _as_bytes(text[sides[k].start:sides[k + 1].end]) or verdict
        out.append(Finding(line, link, verdict.status, "numeric", verdict.message, verdict.expected,
                           kind="claim", basis="arithmetic"))
    return out


# a printed result: a number right after = or ≈ that is the whole of that side (not 10^{-3}'s base, not 6.1 × …)
_RESULT = re.compile(r"(?:=|\\approx)\s*(\d{1,3}(?:(?:\{,\}|,)\d{3})+|\d+\.\d+|\d{2,})(?![\d.,{])"
                     r"(?!\s*(?:\^|\\times|\\cdot|\*|/|\\frac))")


def _results(frags) -> dict:
    r"""Value → (line, fragment index) where a fragment first prints it right after ``=`` or ``≈`` as the result of
    what comes before, unless that is exactly the value (``4{,}513 \text{ GFLOPs} \times 1{,}024 = 4{,}621``, 4,621.3, or
    not read: a result the document may have rounded, so that a later ``2 \times 4{,}621 = 9{,}243`` is judged
    with 4,621 standing for anything that rounds to it; ``512 / 8 = 64`` is exact, and 64 stays 64)."""
    out: dict = {}
    for i, frag in enumerate(frags):
        latex = frag.latex[:2000]
        for m in _RESULT.finditer(latex):
            value = sp.Rational(m.group(1).replace("{,}", "").replace(",", ""))
            if value not in out and not _exactly(latex[:m.start()], value):
                out[value] = (frag.line, i)
    return out


def _exactly(before: str, value) -> bool:
    """Is the statement just before a printed result (from the last relation on) exactly ``value``?"""
    from .macros import simplify
    from .normalize import clean
    from .parse import ParseError, parse_expr

    text = re.split(r"=|\\approx|\\le|\\ge|<|>|&", before)[-1].strip()
    try:
        return text != "" and to_sympy(parse_expr(clean(simplify(text, {})))) == value
    except (ParseError, RecursionError, NotScalar, ValueError, TypeError, ZeroDivisionError):
        return False


def _value(node):
    """A printed number's value (exact), or None where it has none."""
    try:
        return to_sympy(node)
    except (NotScalar, ValueError, TypeError, ZeroDivisionError):
        return None


_BYTE_B = re.compile(r"(?<=\d)\s*B\b")


def _as_bytes(link: str):
    """``2 * 32,768 * 2B ≈ 10.7 GB``: the link with each number's B read as bytes, verified (with that said), or
    None; a link that fails in both readings stays unchecked (B may mean billions or bytes)."""
    read = chain(tokens(_BYTE_B.sub(" bytes", link)))
    if read is None or len(read[1]) != 1:
        return None
    verdict = judge_link(read[0][0], read[0][1], read[1][0])
    if verdict.status != "verified":
        return None
    return replace(verdict, message=verdict.message + " (B read as bytes)")
