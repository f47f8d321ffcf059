"""Check a whole document: every fragment in its context, tables, and the notation lint."""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from .arith import arithmetic
from .binding import bind, near_miss, prepare, substitute, unify
from .compare import _head_vars, expected_for, free_vars, judge, relative_precision, rename, tolerance, walk
from .context import TAGS, Context, example_key, is_example, kind_for
from .diagnose import _star_all as _star
from .diagnose import diagnose
from .docshapes import Declarations, Misfit, Undetermined, _same, _show, shape, size_of
from .document import DocumentModel, about_the_model, deviations_in, meaning_from_prose
from .evaluate import BadRef, CheckError, Evaluator, ShapeMismatch, Unknown, expand, is_scalar
from symtf.sources import read
from .identities import Book as MatrixBook
from .identities import judge as judge_identity
from .figures import check_figures, check_shape, check_size_relation, is_figures_table, is_shape
from .normalize import statements
from .notation import COLUMN, ROW
from .parse import ParseError, parse
from .report import Finding
from .macros import SEPARATOR, bold_letters, document_macros, simplify
from .scalars import NotScalar, ScalarBook, judge_scalar, juxtaposed_division, node_names, symbol_name, to_sympy
from .scalars import tight
from .unparse import unparse

FUNCTION_DEFS = ("softmax", "LayerNorm", "ReLU", "GELU", "FFN", "MLP")
_OPERATOR = re.compile(r"\s*\\(odot|times|cdot|circ|otimes|oplus)\s*")
_MEMBER = re.compile(r"\s*(.+?)\s*\\in\s*\\mathbb\s*\{?R\}?\s*\^\s*(?:\{(.+)\}|([A-Za-z0-9]))\s*[.,]?\s*")
_FIGURE = re.compile(r"\s*~?\s*\d+(\.\d+)?\s*(\\,|\\ )?\s*(\\text\{)?[KMBT]\}?\s*")  # 85M, 1.5B
_MASK = re.compile(r"softmax\}?\s*\^\s*\{?\*|\\infty|\+\s*M\b|\\text\{mask\}")
#: prose right after a bare expression that gives its value: ``$$4DNH$$ = `4.2e9` `` (a number, e-notation allowed)
_TRAILING_VALUE = re.compile(r"\s*(=|≈|~|\\approx)\s*`?\s*(-?\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*`?(?![\w.]*\d)")
_RELATION = re.compile(r"(?<!\\)=|\\approx|\\in\b|\\le|\\ge|<|>|\\ne")
_MATRIXY = re.compile(r"\\top|\^\s*\{?\s*T\b|\\mathbb\s*\{?R\}?\s*\^\s*\{[^}]*\\times|\\mathbf|\\boldsymbol|\\bm\b")
# the letter a transpose, a membership with a matrix shape, or bold type is applied to
_MATRIX_NAMES = re.compile(r"(?:\\mathbf|\\boldsymbol|\\bm)\s*\{\s*([A-Za-z])|([A-Za-z])\s*\^\s*\{?\s*(?:\\top|T\b)|"
                           r"([A-Za-z])(?:_\{?[^}\s]*\}?)?\s*\\in\s*\\mathbb\s*\{?R\}?\s*\^\s*\{[^}]*\\times")
_RANGE = re.compile(r"\s*[a-z]\s*=\s*\d+\s*,\s*\\(l|c)?dots\s*,\s*[a-zA-Z0-9_{}\\]+\s*\.?\s*")


_MAX_UNIFY = 60  # claims per document whose unknown letters are given a reference reading (bounded work)


def choose_profiles(frags, convention: str, profile: dict | None, macros: dict | None = None):
    """(primary, secondary) profiles: a user profile, the requested convention, or auto-detection
    (:func:`convention_votes`)."""
    if profile is not None:
        return profile, None
    if convention == "column":
        return COLUMN, None
    if convention == "row":
        return ROW, None
    row, col = convention_votes(frags, macros)
    if row == col:  # no formula shows the convention: the letters the document uses (Q, K, V, X: row)
        for frag in frags:
            latex = re.sub(r"\s+", "", frag.latex[:2000])  # x ^{(0)} is x^{(0)}
            row += len(re.findall(r"(?<![\\a-zA-Z])[QKVX](?![a-zA-Z])|W\^\{?[QKV]|d_\{?k\}?", latex))
            col += len(re.findall(r"x\^\{\(\d\)\}|q_n|W_\{?[QKV]\}?\^?\{?h?\}? ?x", latex))
    return (ROW, COLUMN) if row > col else (COLUMN, ROW)


_T = r"\^\s*\{?\s*(?:\\top|T|\\intercal)\s*\}?"  # a transpose
_SUB = r"(?:\s*[_^]\s*(?:\{[^{}]{0,12}\}|[A-Za-z0-9]))*"  # subscripts and superscripts of a letter
#: (pattern, side): how a convention shows in a formula (after fonts and the document's macros are dropped).
#: Row: data on the left of a weight (X W^Q, x_i W), Q K^T, softmax(…) V. Column: a weight on the left
#: of data (W^Q x, A x_i, W^Q E), K^T Q or Q^T K, V softmax(…), the post's x^{(0)} and q_n.
_VOTES = tuple((re.compile(p), side) for p, side in (
    (r"(?<![A-Za-z\\])[XHE]" + _SUB + r"\s*W", "row"),
    (r"(?<![A-Za-z\\])x" + _SUB + r"\s*W", "row"),
    (r"(?<![A-Za-z\\])Q" + _SUB + r"\s*K" + _SUB.replace("*", "?") + _T, "row"),
    (r"softmax\s*\\?(?:left)?\(.{1,80}?\)\s*(?:\\right\))?\s*V(?![A-Za-z])", "row"),
    (r"(?<![A-Za-z\\])W" + _SUB + r"\s*(?:[xehqkv]|[XE](?![A-Za-z]))", "column"),
    (r"(?<![A-Za-z\\])[A-D]\s*x_", "column"),
    (r"(?<![A-Za-z\\])[KQ]" + _T + r"\s*[QK](?![A-Za-z])", "column"),
    (r"(?<![A-Za-z\\])V\s*\\?(?:text\{)?(?:softmax|sigma)", "column"),
    (r"(?<![A-Za-z\\])q" + _SUB.replace("*", "?") + r"\s*k" + _SUB.replace("*", "?") + _T, "row"),
    (r"(?<![A-Za-z\\])q" + _SUB.replace("*", "?") + _T + r"\s*k", "column"),
    (r"x\^\{\(\d\)\}", "column"),
))


def convention_votes(frags, macros: dict | None = None) -> tuple[int, int]:
    """(row, column): how many formulas of the document read each way (see ``_VOTES``)."""
    votes = {"row": 0, "column": 0}
    for frag in frags:
        text = simplify(frag.latex[:2000], macros)
        text = re.sub(r"\\(?:mathbf|boldsymbol|bm|mathrm|text|operatorname)\s*(?:\{\s*([^{}]*)\}|([A-Za-z]))",
                      lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
        text = re.sub(r"\\[,;:!]|\\(?:left|right|big|Big|bigg)(?![A-Za-z])", " ", text)
        text = re.sub(r"(?<![_^])\{\s*([A-Za-z])\s*\}", r"\1", text)  # {W}^K: the letter
        for pattern, side in _VOTES:
            votes[side] += len(pattern.findall(text))
    return votes["row"], votes["column"]


def _n_for(latex: str) -> int:
    digits = [int(d) for sub in re.findall(r"_\{?(\d\d?)\}?", latex) for d in sub]
    return max([3] + [d for d in digits if d <= 9])


class DocumentChecker:
    def __init__(self, source, convention: str = "auto", profile: dict | None = None):
        self.text = text = str(source)  # a str, or a symtf.sources.Source (a str that knows its format)
        reading = read(source)
        self.frags, self.tables, self.blocks = reading.fragments, reading.tables, reading.blocks
        self.spans, self.texts = reading.spans, reading.texts  # code spans and prose: arithmetic outside math
        self.macros = document_macros(text)
        self.primary, self.secondary = choose_profiles(self.frags, convention, profile, self.macros)
        if re.search(r"\\mathbb\s*\{?R\}?\s*\^\s*\{\s*T\s*\\times|\\times\s*T\s*\}", text) and \
                self.primary.get("convention") == "row":  # T tokens: T is the sequence length, not a matrix
            self.primary = {**self.primary, "sizes": {**self.primary["sizes"], "T": "n"},
                            "activations": {k: {a: b for a, b in v.items() if a != "T"}
                                            for k, v in self.primary["activations"].items()}}
        self.findings: list[Finding] = []
        self.section_vars: dict = {}
        self.section_examples: dict = {}  # section -> names whose section_vars are a worked example's values
        self.constant_lines: dict = {}  # (section, letter) -> the line of a section constant's printed value
        self.values_given: dict = {}  # letter -> how many "letter = number" statements the document makes
        self.table_numbers: dict = {}  # letter -> (value, line) from a table row "d_model (D) | 5,120", so far
        self.plain: frozenset = frozenset()  # letters whose plain form means something other than their bold one
        self.scalars = ScalarBook()
        self.bindings: dict = {}  # document letter -> [Binding]: the reference activations its definitions name
        self.unbound: list = []  # definitions of document letters that bound nothing (see _contradictions)
        self.unify_budget = _MAX_UNIFY
        self.declared = Declarations()  # the document's own matrices and their declared shapes
        self.identities: MatrixBook | None = None  # their definitions and properties, read on first use
        self.identity_verdicts: dict = {}  # (line, link) → the verdict of identities.judge (None: not one)
        self.model = self._read_model(text)
        self.primary = _written(self.model.profile(self.primary), text)
        self.secondary = _written(self.model.profile(self.secondary), text) if self.secondary else None
        self.flipped = self._flipped_sections()
        self.ln_written = re.search(r"_\s*\{?\s*(?:\\text\s*\{|\\mathrm\s*\{)?\s*LN\b", text) is not None
        self.model.convention = self.primary.get("convention", "")
        # sections that define the score matrix S with −∞ above the diagonal (the masked reading of S)
        self.masked_sections = {f.section for f in self.frags if re.match(r"\s*S\s*=", f.latex) and "infty" in f.latex}

    def _read_model(self, text: str) -> DocumentModel:
        """The document's own model: meanings from the prose around lone symbols, sizes, deviations."""
        model = DocumentModel()
        bold = bold_letters(text)
        for line, para in self.blocks:  # the prose as the format's reader found it (a notebook's, not its JSON)
            for dev in deviations_in(para, line):
                if model.deviation(dev.id) is None:
                    model.deviations.append(dev)
        for k, frag in enumerate(self.frags):
            if model.mask_written is None and _MASK.search(frag.latex):
                model.mask_written = frag.line
            if _MATRIXY.search(frag.latex):  # \mathbf{X}, X^\top, X \in \mathbb{R}^{a \times b}: not a scalar
                model.matrices |= {next(g for g in m.groups() if g) for m in _MATRIX_NAMES.finditer(frag.latex[:2000])}
            self._declare(frag, k)
            if len(frag.latex) > 200:
                continue
            try:
                exprs = parse(statements(simplify(frag.latex, self.macros).split(SEPARATOR)[0])[0].text)[1]
            except (ParseError, IndexError, RecursionError):
                continue
            node = exprs[0]
            if not node or node[0] != "sym" or node[3] is not None or len(exprs) > 2:
                continue
            key = node[1] + (f"_{node[2]}" if node[2] else "")
            if key not in model.meanings and len(exprs) == 1 or (len(exprs) == 2 and exprs[1][0] == "num"):
                if key in bold and not bold_letters(frag.latex):
                    key = rf"\text{{{key}}}"  # plain V (say, the vocabulary size) beside bold V (the values)
                if key in model.meanings:
                    continue
                meaning = meaning_from_prose(key, frag.line, frag.before, frag.after)
                if meaning is not None:
                    if meaning.kind == "index" and key.startswith(r"\text{"):
                        meaning = replace(meaning, key=key[6:-1])
                    model.meanings[meaning.key] = meaning
        self.plain = frozenset(m.group(1) for k in model.meanings if (m := re.fullmatch(r"\\text\{([A-Za-z])\}", k)))
        return model

    # ------------------------------------------------------------------ contexts
    def context(self, frag, ln: bool, profile=None) -> Context:
        kind = kind_for(frag.section) or "full"
        return Context(profile or self._profile_for(frag), kind, ln, _n_for(frag.latex),
                       fvars=dict(self.section_vars.get(frag.section, {})),
                       masked_allowed=frag.section in self.masked_sections,
                       examples=frozenset(self.section_examples.get(frag.section, ())),
                       ln_unwritten=not self.ln_written)

    def fallback(self, frag, ln) -> tuple:
        if not self.secondary:
            return ()
        other = self.primary if self._profile_for(frag) is self.secondary else self.secondary
        return (Context(other, "full", ln, _n_for(frag.latex)),)

    def _profile_for(self, frag) -> dict:
        """The document's convention, or the other one in a section whose formulas clearly read the other
        way (a document that writes its multi-head section in rows and its MLP in columns)."""
        return self.secondary if self.secondary and frag.section in self.flipped else self.primary

    def _flipped_sections(self) -> frozenset:
        """Sections whose own formulas vote for the secondary convention, at least 2 votes and twice the
        primary's (:func:`convention_votes`)."""
        if not self.secondary:
            return frozenset()
        by_section: dict = {}
        for frag in self.frags:
            by_section.setdefault(frag.section, []).append(frag)
        out = set()
        for section, frags in by_section.items():
            row, col = convention_votes(frags, self.macros)
            mine, other = (row, col) if self.primary.get("convention") == "row" else (col, row)
            if other >= 2 and other >= 2 * mine:
                out.add(section)
        return frozenset(out)

    # ------------------------------------------------------------------ driver
    def run(self) -> list[Finding]:
        self._scalar_definitions()
        pending = self._table_constants()
        ln = False
        shape_cells, subjects = self.shape_cells, self.subjects = self._table_layout()
        self.ln_at = []
        for i, frag in enumerate(self.frags):
            while pending and pending[0][0] < frag.line:  # a table's values hold from its line on
                at, name, expr = pending.pop(0)
                known = {sp_symbol: value for sp_symbol in expr.free_symbols
                         if (value := self.table_numbers.get(sp_symbol.name, (None,))[0]) is not None}
                self.table_numbers[name] = (expr.xreplace(known), at)
            start = len(self.findings)
            if any(re.search(r"layer ?norm", s, re.I) for s in frag.section) or \
                    re.search(r"LayerNorm|_\{?(\\text\{|\\mathrm\{)?LN\b", frag.latex):
                ln = True  # from the first LayerNorm on, the model has LayerNorm
            self.ln_at.append(ln)
            ctx = self.context(frag, ln)
            try:
                if frag.cell in shape_cells:
                    self._shape_cell(frag, ctx)
                else:
                    self.check_fragment(i, frag, ctx, self.fallback(frag, ln))
            except Exception as exc:  # noqa: BLE001 - one fragment never stops the document
                del self.findings[start:]
                self.add(frag.line, frag.latex, "unchecked", "internal",
                         f"internal error in the checker ({type(exc).__name__}: {str(exc)[:200]}); not checked",
                         kind="claim" if _RELATION.search(frag.latex) else "mention")
            self._lint(frag, ctx)
            self._tag(start, i)
        for table in self.tables:
            if is_figures_table(table):
                for f in check_figures(table):
                    f.basis = "published"
                    self.findings.append(f)
        self._contradictions()
        self.findings = arithmetic(self.findings, self.frags, self.spans, self.texts)
        self._anchor()
        self.findings.sort(key=lambda f: f.line)
        return self.findings

    def _anchor(self):
        """Judge against the document first. A mismatch with the reference model stands when every symbol of
        the claim is tied to the reference by a verified claim of the document, or when the symbols it does
        not tie are used nowhere else (the profile's name is all the document says of them) and a small edit
        of the claim (a diagnosis) reconciles it with the reference. Otherwise the document may mean another
        model, and the claim is left unchecked with that reason."""
        anchored, contested, doubted = set(), {}, {}
        for f in self.findings:
            if f.basis == "reference" and f.kind == "claim":
                if f.status == "verified":
                    anchored |= f.symbols
                    continue
                for key in f.symbols:
                    doubted[key] = doubted.get(key, 0) + 1
                if f.defines and not f.diagnosis and f.rule != "shape":  # well-formed, far from the reference
                    contested.setdefault(f.defines, set()).add(id(f))
        self.model.anchored = anchored
        self._consistent_shapes()
        declared = any(f.rule == "shape" and f.status == "verified" and f.basis == "reference" and "stated" not in
                       f.message and f.symbols for f in self.findings)  # the document's declarations fit the reference
        for f in self.findings:
            if f.status != "mismatch" or f.basis != "reference":
                continue
            loose = sorted(f.symbols - anchored)
            if not loose:
                continue
            others = [k for k in loose if contested.get(k, set()) - {id(f)}]  # defined so in another claim
            if not others:
                if f.diagnosis and (f.diagnosis != "a transposed shape" or declared):
                    continue  # a near miss, or a declared shape against the document's own declared convention
                if f.rule != "shape" and all(doubted.get(k, 0) <= 1 for k in loose):
                    continue  # the profile's name is all the document says of them, and the shapes fit
            why = (f"this document defines {', '.join('$' + k + '$' for k in others)} as something else" if others
                   else "no small edit reconciles it")
            f.status, f.expected, f.diagnosis = "unchecked", None, None
            f.message = (f"differs from the reference model ({f.message}); no verified claim of this document ties "
                         f"{', '.join('$' + k + '$' for k in loose)} to the reference quantity and {why}: a different "
                         "model may be meant")

    def recheck(self, i: int, latex: str) -> list[Finding]:
        """The findings fragment ``i`` would get with ``latex`` in its place (after ``run``)."""
        from dataclasses import replace

        saved, old = self.findings, self.frags[i]
        frag = self.frags[i] = replace(old, latex=latex)
        self.findings = []
        try:
            ctx = self.context(frag, self.ln_at[i])
            if frag.cell in self.shape_cells:
                for stated, subject in self._pair(frag, self.shape_cells, self.subjects):
                    self.findings += check_shape(frag.line, frag.latex, stated, subject, ctx)
            else:
                self.check_fragment(i, frag, ctx, self.fallback(frag, self.ln_at[i]))
            return self.findings
        finally:
            self.findings, self.frags[i] = saved, old

    def _condition(self, frag, i):
        """``… $$a_{ij} = 0$$ when $$j > i$$``: the index condition stated right after a claim, if any."""
        if re.match(r"\s*(otherwise|else)\b", frag.after):  # "$M_{ij} = -\infty$ for $j > i$, $M_{ij} = 0$ otherwise"
            for k in range(i - 1, -1, -1):
                if self.frags[k].block != frag.block:
                    break
                earlier = self._condition(self.frags[k], k)
                if earlier is not None:
                    return lambda env: not earlier(env)
            return None
        nxt = self.frags[i + 1] if i + 1 < len(self.frags) else None
        if nxt is None or nxt.block != frag.block or not re.fullmatch(r"\s*(when|for|if|whenever)\s*", frag.after):
            return None
        try:
            exprs, rels = parse(statements(nxt.latex)[0].text)[1:]
        except (ParseError, IndexError):
            return None
        ops = {"<": lambda x, y: x < y, ">": lambda x, y: x > y, "≤": lambda x, y: x <= y,
               "≥": lambda x, y: x >= y, "=": lambda x, y: x == y, "≠": lambda x, y: x != y}
        if len(exprs) != 2 or any(e[0] != "sym" or e[2] or e[3] or e[1] not in "ijkh" for e in exprs) or \
                rels[0] not in ops:
            return None
        a, b, op = exprs[0][1], exprs[1][1], ops[rels[0]]
        return lambda env: a not in env or b not in env or op(env[a], env[b])

    def _lint(self, frag, ctx):
        for written, canonical in dict(ctx.lints).items():
            bare = canonical.split("_")[1].replace(r"\text{", "").rstrip("}")
            if f"n_{bare}" in ctx.profile.get("written", ()):  # the document writes the canonical name too
                self.findings.append(Finding(frag.line, frag.latex, "lint", "notation",
                                             f"{written} names the same size as {canonical}, used elsewhere in "
                                             f"this document: write {canonical}", canonical))

    def _scalar_definitions(self):
        """``P = -\\infty``-style values of otherwise unknown one-letter symbols, per section; and how many
        values the document gives each letter (``values_given``: a letter given two values is a variable)."""
        for frag in self.frags:
            try:
                chain = parse(statements(frag.latex)[0].text)
            except (ParseError, IndexError):
                continue
            exprs = chain[1]
            if len(exprs) == 2 and exprs[0] and exprs[0][0] == "sym" and exprs[1] is not None and \
                    not any(n[0] == "sym" for n in walk(exprs[1])):
                name = symbol_name(exprs[0])
                self.values_given[name] = self.values_given.get(name, 0) + 1
            if len(exprs) == 2 and exprs[0] and exprs[0][0] == "sym" and exprs[0][2] is None and \
                    exprs[0][3] is None and len(exprs[0][1]) == 1 and \
                    not any(n[0] == "sym" for n in walk(exprs[1])):
                ctx = self.context(frag, False)
                try:
                    ctx.resolve(exprs[0], {})
                    continue
                except CheckError:
                    pass
                try:
                    value = Evaluator(ctx).ev(exprs[1], {})
                except CheckError:
                    continue
                self.section_vars.setdefault(frag.section, {})[exprs[0][1]] = value
                self.section_examples.setdefault(frag.section, set()).add(exprs[0][1])
                self.constant_lines[(frag.section, exprs[0][1])] = frag.line

    # ------------------------------------------------------------------ tables
    def _table_constants(self) -> list:
        """``| d_model (D) | 5,120 |``: a table row that names a letter in parentheses (or a ratio of two, ``(F / D)``)
        and gives a number is the document's value of that letter, from the row's line on:
        ``[(line, name, expression)]`` in reading order."""
        import sympy as sp

        out = []
        for table in self.tables:
            if is_figures_table(table):
                continue
            for line, cells in table.rows:
                named = [m for c in cells if (m := _NAMED_CELL.search(c))]
                values = [v for c in cells if (v := _number_cell(c)) is not None]
                if len(named) != 1 or len(values) != 1:
                    continue
                top, bottom = named[0].group(1), named[0].group(2)
                if bottom:  # (F / D) = 2.7: F is 2.7 D
                    out.append((line, top, values[0] * sp.Symbol(bottom)))
                else:
                    out.append((line, top, values[0]))
        return sorted(out, key=lambda t: t[0])


    def _table_layout(self):
        shape_cells, subjects = {}, {}
        for t, table in enumerate(self.tables):
            header = [h.lower() for h in table.header]
            if "shape" not in header or is_figures_table(table):
                continue
            shape_col = header.index("shape")
            subject_col = next((c for c, h in enumerate(header) if h.startswith(("expression", "parameter"))), None)
            for r, _ in enumerate(table.rows):
                shape_cells[(t, r, shape_col)] = (t, r, subject_col)
        subject_cells = set(shape_cells.values())  # once, not once per fragment
        self.by_cell: dict = {}  # cell -> indices of its fragments in self.frags
        for k, frag in enumerate(self.frags):
            if frag.cell:
                self.by_cell.setdefault(frag.cell, []).append(k)
            if frag.cell and frag.cell in subject_cells:
                subjects.setdefault(frag.cell, []).append(frag)
        return shape_cells, subjects

    def _shape_cell(self, frag, ctx):
        """A table's Shape cell: a shape claim about the symbol of its row (never a lost fragment)."""
        start = len(self.findings)
        for stated, subject in self._pair(frag, self.shape_cells, self.subjects):
            begin = len(self.findings)
            self.findings += check_shape(frag.line, frag.latex, stated, subject, ctx)
            self._about(begin, subject)
        if len(self.findings) == start:
            self.add(frag.line, frag.latex, "unchecked", "shape", "a shape with no symbol it is said of (the row "
                     "names none the checker can read)")

    def _pair(self, frag, shape_cells, subjects):
        """(stated shape node, [subject nodes]) for a Shape cell fragment."""
        try:
            stated = parse(statements(frag.latex)[0].text)[1][0]
            if stated is None:
                raise ParseError(f"a continued row (no left side) is not a shape: {frag.latex!r}")
        except (ParseError, IndexError) as exc:
            self.findings.append(Finding(frag.line, frag.latex, "unparsed", "shape", str(exc)))
            return []
        nodes = []
        for sub in subjects.get(shape_cells[frag.cell], []):
            nodes += _subject_nodes(sub.latex)
        shapes = [self.frags[k] for k in self.by_cell.get(frag.cell, ())] or [frag]
        if len(shapes) > 1 and len(nodes) == len(shapes):
            nodes = [nodes[shapes.index(frag)]]
        return [(stated, nodes)] if nodes else [(stated, [])]

    # ------------------------------------------------------------------ fragments
    def add(self, *args, **kw):
        self.findings.append(Finding(*args, **kw))

    def _consistent_shapes(self):
        """A shape the document states for a symbol every time it states one (twice or more) is its own model
        (the post's W_pos of d_model × n): a note that it differs from the reference, not a mismatch."""
        stated: dict = {}
        for f in self.findings:
            if f.rule == "shape" and f.basis == "reference" and len(f.symbols) == 1 and f.status != "unparsed":
                shape = re.sub(r"\s|\{|\}", "", f.latex.split(r"\mathbb{R}^")[-1] if r"\in" in f.latex else f.latex)
                stated.setdefault(next(iter(f.symbols)), []).append((shape, f))
        for key, items in stated.items():
            shapes = {shape for shape, _ in items}
            if len(items) < 2 or len(shapes) != 1:
                continue
            lines = ", ".join(str(f.line) for _, f in items)
            for _, f in items:
                if f.status == "mismatch":
                    f.status, f.expected, f.basis = "unchecked", None, "document"
                    f.message = (f"this document states the same shape for ${key}$ every time (lines {lines}); it "
                                 f"differs from the reference model ({f.message}): a simplification of its own, "
                                 "not a contradiction")

    def add_claim(self, nodes, *args, basis: str = "reference", **kw):
        """A claim's finding, with the symbols it is about (for anchoring) and what its verdict rests on."""
        self.add(*args, **kw)
        f = self.findings[-1]
        f.basis, f.symbols = basis, frozenset(_anchor_key(n) for n in walk(list(nodes)) if n[0] == "sym")

    def _tag(self, start: int, index: int):
        for f in self.findings[start:]:
            f.fragment = index

    def check_fragment(self, i, frag, ctx: Context, fb):
        if _OPERATOR.fullmatch(frag.latex):
            return self.add(frag.line, frag.latex, "recognized", "notation", "an operator symbol, not a formula",
                            kind="mention")
        if _FIGURE.fullmatch(frag.latex):
            return self.add(frag.line, frag.latex, "unchecked", "figures", "a parameter figure in prose: checked "
                            "only in a key-figure table or as a size claim", kind="mention")
        if _RANGE.fullmatch(frag.latex):
            return self.add(frag.line, frag.latex, "recognized", "notation", "an index range", kind="mention")
        prev_last = None
        pieces = [p for p in simplify(frag.latex, self.macros, self.plain).split(SEPARATOR) if p.strip()] or \
            [frag.latex]
        said = _TRAILING_VALUE.match(frag.after) if len(pieces) == 1 and not _RELATION.search(frag.latex) else None
        for st in (st for piece in pieces for st in statements(piece)):
            line = frag.line + st.line_offset
            start = len(self.findings)
            if said:  # "$$4DNH$$ = `4.2e9`": the value the prose gives the expression right after it
                rel = "=" if said.group(1) == "=" else r"\approx"
                st = replace(st, text=f"{st.text} {rel} {simplify(said.group(2).replace(',', ''))}")
            kind = "claim" if _RELATION.search(st.text) else "mention"
            member = _MEMBER.fullmatch(st.text)
            if member:  # X \in \mathbb{R}^{n \times d}: a shape claim about X
                try:
                    subjects = [parse(part)[1][0] for part in _top_level_commas(member.group(1))]
                    stated = parse(member.group(2) or member.group(3))[1][0]
                except ParseError as exc:
                    self.add(line, st.text, "unparsed", "shape", f"cannot parse: {exc}")
                    continue
                for subject in subjects:  # W^Q, W^K \in \mathbb{R}^{d \times d_k}: each of them
                    begin = len(self.findings)
                    if subject[0] == "sym":
                        self.findings.extend(check_shape(line, st.text, stated, [subject], ctx))
                    else:
                        self._expr_shape(line, st.text, subject, stated, ctx, fb)
                    if [f.status for f in self.findings[begin:]] == ["unchecked"] and subject[0] != "sym" and \
                            stated[0] == "mul" and stated[3] == "×":
                        del self.findings[begin:]  # the reference cannot say: the document's declarations may
                        if not self._declared_shape(line, st.text, [subject], stated):
                            self._expr_shape(line, st.text, subject, stated, ctx, fb)
                    self._about(begin, [subject])
                continue
            try:
                chain = parse(st.text)
            except ParseError as exc:
                try:
                    chain = ("chain", [parse("[" + st.text + "]")[1][0]], [])
                    if "=" in st.text:
                        raise exc
                except ParseError:
                    self.add(line, st.text, "unparsed", "definition", f"cannot parse: {exc}", kind=kind)
                    continue
            exprs, rels = list(chain[1]), chain[2]
            if exprs[0] is None:
                if prev_last is None:
                    self.add(line, st.text, "unparsed", "chain", "a continued row without a previous row")
                    continue
                exprs[0] = prev_last
            prev_last = exprs[-1]
            if not rels:
                self.bare(i, frag, line, st.text, exprs[0], ctx, fb)
                for f in self.findings[start:]:
                    if f.status != "mismatch" and not f.basis:  # a mismatch: it claims to be well-formed
                        f.kind, f.status = "mention", "recognized" if f.status == "verified" else f.status
                self._about(start, [exprs[0]])
            else:
                self.relation(i, frag, line, st.text, exprs, rels, ctx, fb)

    def _declare(self, frag, k: int = -1):
        r"""``W_k \in \mathbb{R}^{d \times d_k}`` anywhere in the document: a matrix of the document's own (three sizes:
        a tensor, one: a vector), also when the prose lists more letters before it (``$q_t$, $k_j$, $v_j \in
        \mathbb{R}^d$``) or a definition precedes it (``S_t = … \in \mathbb{R}^{d \times d}``: its first letter)."""
        if r"\times" in frag.latex and r"\in" not in frag.latex and len(frag.latex) < 80 and k >= 0:
            self._declare_in_prose(frag, k)
        if r"\in" not in frag.latex or len(frag.latex) > 400:
            return
        for st in statements(simplify(frag.latex, self.macros, self.plain)):
            member = _MEMBER.fullmatch(st.text)
            if not member:
                continue
            try:
                stated = parse(member.group(2) or member.group(3))[1][0]
                dims = [size_of(n) for n in _axes(stated)]
                subjects = [parse(part)[1][0] for part in _top_level_commas(_before_relation(member.group(1)))]
            except (ParseError, Undetermined, IndexError):
                continue
            if len(subjects) == 1:
                subjects += self._listed_before(k)
            for subject in subjects:
                if not subject or subject[0] != "sym" or not 1 <= len(dims) <= 3:
                    continue
                name = symbol_name(subject)
                if len(dims) == 2:
                    self.declared.declare(name, *dims, frag.line)
                elif len(dims) == 3:  # its slices W^{[:, h, :]} are matrices
                    self.declared.declare_tensor(name, tuple(dims), frag.line)
                else:
                    self.declared.declare_vector(name, dims[0], frag.line)

    def _declare_in_prose(self, frag, k: int):
        r"""``$W_k$ is of shape $D_x \times D_k$``: the shape the prose gives a letter (:func:`_prose_subject`)."""
        try:
            exprs = parse(simplify(frag.latex, self.macros, self.plain))[1]
            if len(exprs) != 1 or not is_shape(exprs[0]) or exprs[0][0] != "mul":
                return
            dims = [size_of(n) for n in _axes(exprs[0])]
        except (ParseError, Undetermined, IndexError, RecursionError):
            return
        for subject in _prose_subject(self.frags, k) if len(dims) == 2 else ():
            if subject and subject[0] == "sym":
                self.declared.declare(symbol_name(subject), *dims, frag.line)

    def _listed_before(self, k: int) -> list:
        r"""The lone letters listed just before fragment ``k`` in its sentence: ``$q$, $k$, $v \in …``."""
        out = []
        while k > 0 and len(out) < 8 and self.frags[k - 1].block == self.frags[k].block and \
                re.fullmatch(r"\s*(,|and|,\s*and)\s*", self.frags[k].before):
            try:
                node = parse(simplify(self.frags[k - 1].latex, self.macros, self.plain))[1]
            except (ParseError, RecursionError):
                break
            if len(node) != 1 or not node[0] or node[0][0] != "sym":
                break
            out.append(node[0])
            k -= 1
        return out

    def _declared_shape(self, line, text, nodes, stated=None) -> bool:
        """Judge ``nodes`` (an expression, or the two sides of a link) by the document's declared shapes alone;
        True if a finding was added (a shape contradiction, or a stated shape verified or contradicted)."""
        if not self.declared.shapes:
            return False
        self.declared.line = line
        shapes = []
        for node in nodes:
            try:
                shapes.append(shape(node, self.declared))
            except Undetermined:
                shapes.append(Undetermined)
            except Misfit as exc:
                where = ", ".join(f"{k} (line {self.declared.at(k)[2]})" for k in sorted(node_names(node))
                                  if self.declared.at(k) is not None)
                self.add(line, text, "mismatch", "shape", f"{exc}, by this document's declarations of {where}")
                self.findings[-1].basis = "document"
                return True
        if Undetermined in shapes:
            if len(nodes) == 2 and nodes[0][0] == "sym" and shapes[1] not in (Undetermined, None):
                name = symbol_name(nodes[0])  # C = X W_k: C's shape, from the document's own definition
                if self.declared.at(name) is None and name not in self.declared.sizes:
                    self.declared.declare(name, *shapes[1], line)
            return False
        try:
            if stated is not None:
                rows, cols = size_of(stated[1]), size_of(stated[2])
        except Undetermined:
            return False
        if stated is not None and shapes[0] is not None:
            same = _same(shapes[0][0], rows), _same(shapes[0][1], cols)
            if None in same:
                return False
            ok = all(same)
            self.add(line, text, "verified" if ok else "mismatch", "shape",
                     f"{unparse(nodes[0])} is {_show(*shapes[0])} by this document's declarations" +
                     ("" if ok else ", not the stated shape"), None if ok else _show(*shapes[0]))
            self.findings[-1].basis = "document"
            return True
        if len(shapes) == 2 and None not in shapes and not all(
                _same(x, y) is not False for x, y in zip(shapes[0], shapes[1])):
            self.add(line, text, "mismatch", "shape", f"the left side is {_show(*shapes[0])} and the right side "
                     f"{_show(*shapes[1])}, by this document's declarations")
            self.findings[-1].basis = "document"
            return True
        return False

    def _identity(self, frag, line, text, a, b, ctx, final: bool = False) -> bool:
        """``a = b`` among the document's own matrices, judged by their exact values at random integer matrices of
        the declared shapes (:mod:`symtf.check.identities`). Before the reference readings (:meth:`_bind`,
        :meth:`_unify`) only a verdict is added; with ``final`` (after them) also what it leaves unchecked and why
        (a definition, a property the prose gives a matrix). True if a finding was added."""
        if not (self.declared.shapes or self.declared.tensors):
            return False
        if self.identities is None:
            self.identities = MatrixBook.read(self.frags, self.macros, self.plain, self.declared)
        key = (line, text)
        if key not in self.identity_verdicts:
            self.identity_verdicts[key] = judge_identity(a, b, "=", self.identities, line, frag.section,
                                                         frag.before, frag.after, ctx, frozenset(self.bindings))
        verdict = self.identity_verdicts[key]
        if verdict is None or (verdict.status == "unchecked") != final:
            return False
        self.add_claim([a, b], line, text, verdict.status, verdict.rule, verdict.message, verdict.expected,
                       diagnosis=verdict.diagnosis, basis="document")
        return True

    def _declared_misfit(self, line, text, node) -> bool:
        """An expression of the document's declared matrices whose shapes do not fit (a mismatch: writing it
        claims it is well-formed); False when the declarations do not decide it or it fits."""
        self.declared.line = line
        try:
            shape(node, self.declared)
        except Undetermined:
            return False
        except Misfit as exc:
            self.add(line, text, "mismatch", "shape", f"{exc}, by this document's declarations")
            self.findings[-1].basis = "document"
            return True
        return False

    def own_sizes(self, ctx) -> dict:
        """The document's stated sizes as size symbols → (value, line)."""
        from .. import dims

        return {getattr(dims, k): v for k, v in self.model.sizes.items() if hasattr(dims, k)}

    def _remember_size(self, exprs, rels, line, ctx, found):
        """``d_\\text{model} = 512`` with no model named: the document's own value of that size, from here on."""
        from .figures import size_expr

        if len(exprs) != 2 or rels != ["="] or not found or "this document's value" not in found[0].message:
            return
        try:
            a, b = (size_expr(e, ctx) for e in exprs)
        except CheckError:
            return
        sym, num = (a, b) if b.is_number else (b, a)
        if sym.is_Symbol and num.is_number:
            self.model.sizes[str(sym)] = (float(num), line)

    def _about(self, start: int, nodes):
        """Mark the claims found since ``start`` as about the symbols of ``nodes`` (for anchoring)."""
        keys = frozenset(_anchor_key(n) for n in walk(list(nodes)) if n[0] == "sym")
        for f in self.findings[start:]:
            if f.kind == "claim" and not f.basis:
                f.basis, f.symbols = "reference", keys

    def _expr_shape(self, line, text, subject, stated_node, ctx, fb):
        r"""``QK^T \in \mathbb{R}^{n \times n}``: the shape of an evaluated expression at the prime sizes."""
        from .figures import shape_of

        try:
            stated = shape_of(stated_node, ctx)
        except CheckError as exc:
            return self.add(line, text, "unchecked", "shape", str(exc))
        reason = ""
        for c in [ctx] + list(fb):
            try:
                value = Evaluator(c).ev(subject, {v: 1 for v in free_vars([subject])})
            except Unknown as exc:
                reason = reason or str(exc)
                continue
            except (ShapeMismatch, BadRef) as exc:
                return self.add(line, text, "mismatch", "shape", str(exc))
            sizes = c.values.sizes
            try:
                want = tuple(int(e.xreplace(sizes)) for e in stated)
            except TypeError:
                return self.add(line, text, "unchecked", "shape", "the stated shape is not a whole number of entries")
            got = tuple(np.shape(value)) or (1, 1)
            ok = got == want or (len(want) == 1 and 1 in got and got[0] * got[1] == want[0])
            shown = Evaluator(c).dims(value)
            if ok:
                return self.add(line, text, "verified", "shape", f"{unparse(subject)} is {shown} (evaluated at "
                                "distinct prime sizes)")
            return self.add(line, text, "mismatch", "shape", f"{unparse(subject)} is {shown}, not the stated shape",
                            shown.replace(" × ", r" \times "))
        return self.add(line, text, "unchecked", "shape", reason)

    def bare(self, i, frag, line, text, node, ctx, fb):
        if is_shape(node):
            subject = _prose_subject(self.frags, i)
            if not subject:
                return self.add(line, text, "unchecked", "shape", "a shape with no symbol it is said of")
            start = len(self.findings)
            self.findings.extend(check_shape(line, text, node, subject, ctx))
            self._about(start, subject)  # a prose shape claim: "$W$ is a $d \times n$ matrix"
            return
        if node[0] == "num":
            return self.add(line, text, "verified", "notation", "a constant")
        if node[0] in ("mul", "add", "T") and self._declared_misfit(line, text, node):
            return
        if node[0] == "sym" and node[1].startswith(r"\text{") and node[1][6:-1].rstrip("*") in FUNCTION_DEFS:
            return self.add(line, text, "verified", "notation", "names a known function")
        items = node[2] if node[0] == "list" and node[1] == "," and text.lstrip()[:1] != "[" else [node]
        kinds, reason = [], ""
        if not any(n[0] == "sym" for n in walk(items)):
            ctx, fb = ctx.with_(literal=True), ()  # printed numbers: sizes are numbers, not model sizes
        for ctx_try in [ctx] + list(fb):
            try:
                ev = Evaluator(ctx_try)
                names = free_vars(items)
                env = {v: 1 for v in names}
                values = [ev.ev(x, env) for x in expand(list(items), env, ctx_try)]
                kinds = values
                break
            except Unknown as exc:
                reason = reason or str(exc)
                continue
            except ShapeMismatch as exc:
                return self.add(line, text, "mismatch", "shape", str(exc))
            except BadRef as exc:  # a mention, not a claim: t_{n+1} is the token after the input
                return self.add(line, text, "unchecked", "notation", f"not a quantity of the model: {exc}")
        else:
            return self.add(line, text, "unchecked", "notation", reason)
        if all(x[0] == "sym" for x in items if x != ("dots",)):
            return self.add(line, text, "verified", "notation", "names " + ("model quantities" if len(items) > 1
                                                                            else "a model quantity"))
        shape = ev.dims(kinds[0]) if len(kinds) == 1 else f"{len(kinds)} items"
        note = "" if ctx_try is ctx else f" in the {ctx_try.profile['name']} convention"
        self.add(line, text, "verified", "shape", f"well-formed ({shape}){note}; an expression, not a claim")

    def relation(self, index, frag, line, text, exprs, rels, ctx, fb):
        """A chain of relations: a size claim, an example's definition, a condition on indices, or its links
        judged one by one (:meth:`_link`), with the variables a function definition binds."""
        if self._size_claim(index, frag, line, text, exprs, rels, ctx):
            return
        first = exprs[0]
        if len(exprs) == 2 and first and first[0] == "sym" and first[2] is None and first[3] is None and \
                first[1] in self.section_vars.get(frag.section, {}) and rels in (["="], ["≈"]) and \
                not any(n[0] == "sym" for n in walk(exprs[1])):
            return self.add(line, text, "unchecked", "definition",
                            f"defines {first[1]} for this section's example (a definition, nothing to check)")
        syms = [n for n in walk(exprs) if n[0] == "sym"]
        if syms and all(s[1] in "ijkhn" and s[2] is None and s[3] is None for s in syms) and len(exprs) == 2 and \
                not any(n[0] in ("list", "matrix") for n in walk(exprs)):
            return self.add(line, text, "recognized", "notation", "a condition on indices", kind="mention")
        if first and first[0] == "call" and first[1] in ("sigma", "mu") and rels[0] == "=" and len(first[3]) == 1:
            return self.add(line, text, "unchecked", "definition", f"defines the function ${unparse(first)}$ of the "
                            "document's own (on the left of a definition it is not the standard deviation or mean)")
        unused = _idle_sum(exprs)
        if unused is not None:
            return self.add_claim(exprs, line, text, "mismatch", "definition", f"the terms of the sum over ${unused}$ do "
                                  f"not depend on ${unused}$ (an index of the terms is wrong, or the sum is not needed)",
                                  basis="document", diagnosis="the summation index is not used in its terms")
        exprs = _head_indexed(exprs, ctx)
        ctx = self._bind_statistics(frag, exprs, self._bind_function_variable(frag, exprs, ctx))
        condition = self._condition(frag, index)
        if condition:
            ctx = ctx.with_(condition=condition)
        for k, rel in enumerate(rels):
            self._link(frag, line, text, exprs[k], exprs[k + 1], rel, len(rels), ctx, fb)

    def _size_claim(self, index, frag, line, text, exprs, rels, ctx) -> bool:
        """A chain of sizes (``d_\\text{model} = 768``, ``d_k = d_\\text{model}/h = 64``): against the model
        the sentence or its section names, else the document's own sizes. True if it was one."""
        para = ""
        for k in range(index, max(index - 30, -1), -1):  # the paragraph up to this fragment (bounded)
            if self.frags[k].block != frag.block:
                break
            para = self.frags[k].before + " " + para
        prose = para + " " + " ".join(frag.section)  # the model a sentence or its section names
        loose = sorted({_anchor_key(n) for n in walk(exprs) if n[0] == "sym"} & set(ctx.profile.get("ambiguous", ())) -
                       set(self.model.meanings))
        lone = len(exprs) == 2 and any(e[0] == "sym" for e in exprs) and any(e[0] == "num" for e in exprs)
        sized = check_size_relation(line, text, exprs, rels, ctx, prose, {} if lone else self.own_sizes(ctx))
        if sized is None:
            return False
        if loose and any(f.status == "mismatch" and f.basis != "document" for f in sized):
            self.add(line, text, "unchecked", "figures", f"{', '.join('$' + k + '$' for k in loose)} names "
                     "different sizes in different documents (d_model or d_head, heads or head size) and this "
                     "one does not say which: not compared with published figures")
            return True
        self._remember_size(exprs, rels, line, ctx, sized)
        for f in sized:
            f.basis = f.basis or "published"
        self.findings.extend(sized)
        return True

    def _bind_function_variable(self, frag, exprs, ctx):
        """``\\text{FFN}(x) = …``, ``\\text{LayerNorm}(x) = …``: the defined function's variable bound to a random
        vector of the right size (and LayerNorm's statistics of it), for this section."""
        first = exprs[0]
        if first[0] == "idx" and first[1][0] == "call":  # softmax(z)_i = ...: one entry of a function's value
            first = first[1]
        if not (first[0] == "call" and first[1] in FUNCTION_DEFS and len(first[3]) == 1 and
                first[3][0][0] == "sym" and first[3][0][2] is None and first[3][0][3] is None):
            return ctx
        var = first[3][0][1]
        rng = np.random.default_rng(7)
        bound = {var: rng.standard_normal((ctx.n, 1)), r"\gamma": rng.standard_normal((ctx.n, 1)),
                 r"\beta": rng.standard_normal((ctx.n, 1))}
        if first[1] in ("FFN", "MLP"):  # one token of the residual stream: a row or a column of d_model
            d = ctx.size_value("d_model")
            bound = {var: rng.standard_normal((1, d) if ctx.row else (d, 1))}
        if first[1] == "LayerNorm":  # the statistics of the bound vector; the model's epsilon is 0
            x = bound[var]
            bound.update({r"\mu": np.float64(x.mean()), r"\sigma": np.float64(x.std()),
                          r"\epsilon": np.float64(0.0), r"\varepsilon": np.float64(0.0)})
        self.section_vars.setdefault(frag.section, {}).update(bound)
        return ctx.with_(fvars={**ctx.fvars, **bound}, elementwise=first[1] in ("ReLU", "GELU"))

    def _bind_statistics(self, frag, exprs, ctx):
        """``\\mu = \\frac{1}{d}\\sum_i x_i``: an otherwise unknown vector x bound to a random one of d_model
        entries, with its mean and deviation, for this section."""
        if not (_statistic(exprs[0]) and len(exprs) == 2):
            return ctx
        var = next((n[1] for n in walk(exprs[1]) if n[0] == "sym" and n[1] not in (r"\mu", r"\sigma", "d")
                    and len(n[1]) == 1), None)
        if var is None or var in ctx.fvars:
            return ctx
        try:
            ctx.resolve(("sym", var, None, None), {})
            return ctx
        except CheckError:
            pass
        d = ctx.size_value("d_model")
        rng = np.random.default_rng(11)
        shape = (1, d) if ctx.row else (d, 1)
        x = rng.standard_normal(shape)
        bound = {var: x, r"\mu": np.float64(x.mean()), r"\sigma": np.float64(x.std()), "d": np.float64(d),
                 r"\gamma": rng.standard_normal(shape), r"\beta": rng.standard_normal(shape)}
        self.section_vars.setdefault(frag.section, {}).update(bound)
        return ctx.with_(fvars={**ctx.fvars, **bound})

    def _link(self, frag, line, text, a, b, rel, links, ctx, fb):
        """One link ``a rel b``: the document's own numbers and scalars first, then the reference model, with
        the readings that forgive a modelling choice (tied embeddings, an implied causal mask, a printed
        vector's orientation) and an example's printed values as definitions; a mismatch gets a diagnosis."""
        link = text if links == 1 else unparse(("chain", [a, b], [rel]))
        if self._worked(frag, line, link, a, b, rel, ctx) or self._by_document_numbers(frag, line, link, a, b, rel, ctx):
            return
        if a is not None and not any(n[0] == "sym" for n in walk([a, b])) and \
                self._own_scalars(line, text, a, b, rel, links, ctx):
            return  # printed numbers only: exact rational arithmetic
        out = judge(a, b, rel, ctx, fb)
        back = None
        usable = self._usable()
        primary = out.status == "unchecked" or out.ctx is not None and out.ctx.profile is not ctx.profile
        if primary and ("not bound to a whole number" in out.message or usable and any(
                n[0] == "sym" and n[1] in usable for n in walk([a, b]))):
            a, b, out, back = self._own_indices(a, b, rel, ctx, fb, out)
        if out.status == "unchecked" and (self._own_scalars(line, text, a, b, rel, links, ctx) or
                                          rel == "=" and (self._declared_shape(line, link, [a, b]) or
                                                          self._identity(frag, line, link, a, b, ctx)) or
                                          self._bind(frag, line, link, a, b, rel, ctx) or
                                          self._unify(frag, line, link, a, b, rel, ctx) or
                                          rel == "=" and self._identity(frag, line, link, a, b, ctx, final=True)):
            return
        if primary and out.status == "mismatch" and (self._bind(frag, line, link, a, b, rel, ctx) or
                                                     self._unify(frag, line, link, a, b, rel, ctx)):
            return  # the other convention's mismatch, where this document's own letters read in its own hold
        if out.status == "mismatch" and _tying(a, b):
            return self.add(line, text, "unchecked", "definition", "weights set equal (tied or shared, as GPT-2 ties W_U "
                            "= W_E^T) are a modelling choice: the model here keeps them separate parameters")
        if out.status == "mismatch" and "'softmax', False" in repr((a, b)) and not self._mask_expected(frag, line) \
                and judge(_star(a), _star(b), rel, ctx, fb).status == "verified":
            dev = self.model.deviation("no-causal-mask")  # right once the reference's causal mask is applied
            why = (f"this document's attention is unmasked ({dev.evidence!r}, line {dev.line}), which the "
                   "reference model (a causal decoder) cannot check" if dev and dev.line <= line else
                   "the document has not written the mask so far, so it may be implied")
            return self.add_claim([a, b], line, link, "unchecked", "definition",
                                  f"holds with the causal mask (softmax*); {why}", basis="document")
        flip = {v: ctx.fvars[v].T for v in ctx.examples if np.ndim(ctx.fvars.get(v)) == 2 and
                1 in np.shape(ctx.fvars[v]) and any(n[0] == "sym" and v in (n[1], example_key(n)) for n in walk([a, b]))}
        if out.status == "mismatch" and flip:  # an inline [1, 0, 2] is a row or a column: the other reading
            other = judge(a, b, rel, ctx.with_(fvars={**ctx.fvars, **flip}), fb)
            if other.status == "verified" or (other.status == "mismatch" and out.shape_problem and
                                              not other.shape_problem):
                out = other
        if out.status == "mismatch" and links == 1 and _example_value(a, b) and not is_example(a, ctx):
            return self._example_values(frag, line, text, a, b, ctx)
        self._record(line, link, a, b, rel, links, out, ctx, back)

    def _own_indices(self, a, b, rel, ctx, fb, out):
        """``a_{it} = …`` in a document that numbers tokens with its own letters: the link with the left side's
        index letters renamed to the model's ``i, j`` (and ``back``, the renaming undone), if that decides it."""
        usable = self._usable()
        ready = prepare(a, b, usable)
        if ready is not None:
            _, mapping, body = ready
            left = rename(substitute(a, usable), mapping)
        else:
            mapping, left, body = {}, substitute(a, usable), substitute(b, usable)
        other = judge(left, body, rel, ctx)  # in this document's convention only: its letters were read in it
        for _ in range(2):  # a letter still unknown as an index (``\sum_{i=1}^t``): given a free model letter
            m = re.search(r"uses '([a-z])', which is not bound", other.message)
            used = "".join((n[2] or "") if n[0] == "sym" else (n[1] or "") if n[0] == "sum" else "" for n in walk([left, body]))
            free = [x for x in ("i", "j") if x not in mapping.values() and x not in used]
            if other.status != "unchecked" or not m or not free or m.group(1) in mapping:
                break
            step = {m.group(1): free[0]}
            mapping[m.group(1)] = free[0]
            left, body = rename(left, step), rename(body, step)
            other = judge(left, body, rel, ctx)
        back = {v: k for k, v in mapping.items()}
        if other.status == "unchecked" or other.status == "mismatch" and not diagnose(left, body, rel, other.ctx or ctx):
            return a, b, out, None  # a new reading: a mismatch only where a small edit reconciles it
        other.message = re.sub(r"\b([ij]) = ", lambda m: f"{back.get(m.group(1), m.group(1))} = ", other.message)
        other.message = re.sub(r"for every ([ij](?:, [ij])*)", lambda m: "for every " + ", ".join(
            back.get(x, x) for x in m.group(1).split(", ")), other.message)
        return left, body, other, back

    def _bind(self, frag, line, link, a, b, rel, ctx) -> bool:
        """A letter of the document's own defined as a reference activation (:mod:`symtf.check.binding`):
        verified, and remembered so that later definitions read it as that activation. A definition that
        binds nothing is kept for :meth:`_contradictions`. True if a finding was added."""
        if a is None or a[0] != "sym" or a[1] in self.model.meanings:
            return False
        try:
            ctx.resolve(a, {"i": 1, "j": 1, "h": 1})
            return False  # the reference knows the letter: not the document's own
        except CheckError:
            pass
        except Exception:  # noqa: BLE001 - a letter the reference cannot even look up is the document's
            pass
        found = bind(a, b, rel, ctx, line, self._usable(), self._own(line), self._may_give(frag, a, b),
                     self._meant(a, ctx, line))
        if found is None:
            self.unbound.append((len(self.findings), a, b, rel, ctx, line))
            return False
        (binding, *given), out = found
        mine = unparse(rename(binding.candidate, dict(zip(("i", "j"), binding.order))))
        first = next((x for x in self.bindings.get(binding.key, ()) if x.candidate[1] == binding.candidate[1] and
                      x.candidate[2] != binding.candidate[2]), None)
        if first is not None:  # the same activation with its indices exchanged: the two factors' roles swapped
            theirs = unparse(rename(first.candidate, dict(zip(("i", "j"), first.order))))
            self.add_claim([a, b], line, link, "mismatch", "definition",
                           f"line {first.line} defines ${unparse(a)}$ as the reference model's ${theirs}$; this "
                           f"definition makes it ${mine}$: the indices' roles exchanged", basis="document",
                           diagnosis="the indices' roles exchanged (the two factors swapped)")
            return True
        self.bindings.setdefault(binding.key, []).append(binding)
        for other in given:
            self.bindings.setdefault(other.key, [other])
        how = out.message.replace("for every i, j", "for every " + ", ".join(binding.order)).replace(
            "for every i ", f"for every {binding.order[0]} " if binding.order else "for every i ")
        also = "".join(f", reading ${_shown(k)}$ as ${unparse(k.candidate)}$" for k in given)
        self.add_claim([a, b], line, link, "verified", "definition",
                       f"defines ${unparse(a)}$ as the reference model's ${mine}${also}: its right side {how}")
        self.findings[-1].defines = binding.key
        return True

    def _may_give(self, frag, a, b) -> bool:
        """May letters the reference does not know be given a model meaning here? Where the paragraph or its
        heading speaks of the model, or the claim uses a letter the document has already tied to it."""
        if any(n[0] == "sym" and n[1] in self.bindings for n in walk([a, b])):
            return True
        return about_the_model(frag.before + " " + frag.after + " " + (frag.section[-1] if frag.section else ""))

    def _meant(self, a, ctx, line: int) -> str | None:
        """The activation the letter ``a`` names in the other convention's profile (``K``: the keys), unless the
        document's prose says what the letter is."""
        other = ROW if ctx.profile.get("convention") == "column" else COLUMN
        if a[1] in self.model.meanings:
            return None  # the prose says what the letter is
        return other["activations"].get("full", {}).get(a[1])

    def _own(self, line: int) -> frozenset:
        """One-letter names the document declares with a shape of its own by ``line`` (not yet bound)."""
        return frozenset(k for k, v in self.declared.shapes.items() if re.fullmatch(r"[A-Za-z]", k) and
                         any(d[2] <= line for d in v) and k not in self.bindings)

    def _unify(self, frag, line, link, a, b, rel, ctx) -> bool:
        """``q_i = A x_i``: the document's own letters read as the reference quantities that make the claim
        hold, when exactly one reading does (:func:`symtf.check.binding.unify`); verified, and remembered.
        Bounded: at most ``_MAX_UNIFY`` claims of a document are tried."""
        if self.unify_budget <= 0 or not self._may_give(frag, a, b):
            return False
        self.unify_budget -= 1
        found = unify(a, b, rel, ctx, line, self._usable(), self._own(line))
        if found is None:
            return False
        made, out, (left, filled, back) = found
        for binding in made:
            if binding.key not in self.bindings:
                self.bindings[binding.key] = [binding]
        read = ", ".join(f"${_shown(k)}$ as ${unparse(k.candidate)}$" for k in made)
        self.add_claim([a, b], line, link, "verified", "definition",
                       f"reads {read} (the reference model's): then the claim holds ({out.message})")
        return True

    def _usable(self) -> dict:
        """The document's letters bound to one reference activation (never two different ones)."""
        return {k: v[0] for k, v in self.bindings.items() if len({x.candidate for x in v}) == 1}

    def _contradictions(self):
        """A definition one small edit away from the reference activation that another line of the document
        binds the same letter to: the document contradicts its own definition (a mismatch, with the edit).
        A missing scale before the scaled definition is left unchecked: a text may introduce it later."""
        for index, a, b, rel, ctx, line in self.unbound:
            found = self.findings[index] if index < len(self.findings) else None
            seen = self.bindings.get(a[1], [])
            if found is None or found.line != line or found.status != "unchecked" or \
                    len({x.candidate for x in seen}) != 1:
                continue
            bindings = {k: v for k, v in self._usable().items() if k != a[1]}
            miss = near_miss(a, b, rel, ctx, seen[0], bindings)
            if miss is None:
                continue
            name, edited = miss
            other = seen[0].line
            mine = unparse(rename(seen[0].candidate, dict(zip(("i", "j"), seen[0].order))))
            if name.startswith("missing") and line < other:
                found.message = (f"defines ${unparse(a)}$ without the scale that line {other} gives it (there, the "
                                 f"reference model's ${mine}$): a text may add the scale later, so not a mismatch")
                continue
            found.status, found.rule, found.diagnosis, found.basis = "mismatch", "definition", name, "document"
            found.expected = unparse(("chain", [a, edited], [rel]))
            found.message = (f"line {other} defines ${unparse(a)}$ as the reference model's ${mine}$; this "
                             f"definition differs from it by {name}")

    def _worked(self, frag, line, link, a, b, rel, ctx) -> bool:
        """A worked example in the document's own letters: ``x_1 = [1, 0, 1, 0]`` binds its printed value to
        the name as written (a letter the reference does not know; a reference letter is bound by
        :meth:`_example_values` when the model's values cannot confirm it); ``q_1 = x_1 W_Q`` of bound values
        computes and binds ``q_1`` (a mismatch if the printed values do not fit together); a link that mixes
        bound values with the model's quantities is left unchecked. Links among bound values only are judged
        by the usual comparison, in printed-number mode. True if a finding was added."""
        if a is None:
            return False
        syms = [n for n in walk([a, b]) if n[0] == "sym"]
        bound = [n for n in syms if is_example(n, ctx) and  # a printed vector or matrix (a constant mixes freely)
                 not is_scalar(ctx.fvars.get(example_key(n), ctx.fvars.get(n[1])))]
        left = a[0] == "sym" and not is_example(a, ctx) and rel == "="
        rhs = [n for n in walk(b) if n[0] == "sym"]
        if left and not rhs and _example_value(a, b) and self._reference_quantity(a, ctx) is False:
            return self._bind_example(frag, line, link, a, b, ctx, "printed")
        if left and rhs and all(is_example(n, ctx) for n in rhs):
            return self._bind_example(frag, line, link, a, b, ctx, "computed")
        if bound and len(bound) < len(syms) and not (left and len(bound) == len(syms) - 1):
            return self.add(line, link, "unchecked", "numeric", "mixes a worked example's printed values ("
                            + ", ".join(sorted({"$" + example_key(n) + "$" for n in bound})) + ") with quantities it "
                            "has not printed: the model's random weights cannot stand in for them") or True
        return False

    def _by_document_numbers(self, frag, line, link, a, b, rel, ctx) -> bool:
        """``4DNH = 4.2e9`` where the document has given every letter a number (a constant of the section, a
        scalar it defined, a size it stated): judged exactly with those numbers (:func:`scalars.judge_scalar`),
        before any reading of the letters as the reference model's."""
        if a is None or rel not in ("=", "≈"):
            return False  # "B > 240" with letters states a condition, not a fact to check
        if a[0] == "sym" and not any(n[0] == "sym" for n in walk(b)):
            return False  # a letter given a (new) value: a definition
        names = {symbol_name(n) for n in walk([a, b]) if n[0] == "sym"}
        if not names or names & self.model.matrices:
            return False
        numbers = self._document_numbers(frag, line)
        if not names <= set(numbers):
            return False
        book = ScalarBook({k: numbers[k] for k in names})
        try:
            verdict = judge_scalar(a, b, rel, book, link)
            if verdict is not None and verdict.status == "mismatch":
                sides = [book.substituted(to_sympy(x)) for x in (a, b)]
                gap = abs(float(sides[0]) - float(sides[1])) / max(abs(float(sides[0])), abs(float(sides[1])), 1e-300)
                if gap <= relative_precision([a, b]):  # 2.95e23 for the 2.9533e23 it defined: its printed digits
                    verdict = replace(verdict, status="verified", expected=None, message=verdict.message.replace(
                        "does not hold", "holds to the precision of its printed decimals") + f" (relative gap {gap:.2g})")
        except (NotScalar, ValueError, TypeError, ZeroDivisionError, OverflowError):
            return False
        if verdict is None or verdict.status == "unchecked":
            return False
        expected = verdict.expected and unparse(("chain", [a, ("num", 0.0, verdict.expected)], [rel]))
        given = ", ".join(f"${k} = {_number(numbers[k][0])}$" for k in sorted(names))
        self.add(line, link, verdict.status, "numeric", f"{verdict.message} [{given}]", expected)
        self.findings[-1].basis = "document"
        return True

    def _document_numbers(self, frag, line: int) -> dict:
        """The numbers the document has given letters (name → (value, line)): its section's constants, the
        scalars it defined, the sizes it stated, the values its tables give."""
        import sympy as sp

        def exact(value):
            return sp.Integer(int(value)) if float(value).is_integer() else sp.nsimplify(float(value), rational=True)

        out = {name: (exact(value), at) for name, (value, at) in self.model.sizes.items()}
        out.update({name: v for name, v in self.table_numbers.items() if v[0].is_number})
        for name, (expr, at) in self.scalars.values.items():
            if expr.is_number:
                out[name] = (expr, at)
        for name, value in self.section_vars.get(frag.section, {}).items():
            at = self.constant_lines.get((frag.section, name))
            if at is not None and at < line and is_scalar(value) and np.isfinite(float(value)):
                out[name] = (exact(value), at)
        return {k: v for k, v in out.items() if self.values_given.get(k, 0) <= 1}  # a letter given two values varies

    def _bind_example(self, frag, line, link, a, b, ctx, how: str) -> bool:
        try:
            value = Evaluator(ctx.with_(literal=True)).ev(b, {})
        except ShapeMismatch as exc:
            self.add(line, link, "mismatch", "shape", f"the worked example's printed values do not fit together: {exc}")
            self.findings[-1].basis = "arithmetic"
            return True
        except CheckError:
            return False
        if b[0] == "list" and not ctx.row and np.ndim(value) == 2 and value.shape[0] == 1:
            value = value.T  # [1, 0, 2] written inline: a column vector in the column convention
        key = example_key(a)
        self.section_vars.setdefault(frag.section, {})[key] = value
        self.section_examples.setdefault(frag.section, set()).add(key)
        flat = np.asarray(value, dtype=float).ravel()
        shown = "[" + ", ".join(f"{v:.4g}" for v in flat[:12]) + (", …" if flat.size > 12 else "") + "]"
        what = ("printed numbers, not the model's weights: a definition, nothing to check" if how == "printed" else
                f"computed from the example's printed values: {shown}; the values printed for it later are checked "
                "against this")
        self.add(line, link, "unchecked", "definition", f"defines ${key}$ for this section's example ({what})")
        return True

    def _reference_quantity(self, node, ctx) -> bool:
        """Does the reference model know the symbol (in this reading)?"""
        try:
            ctx.resolve(node, {"i": 1, "j": 1, "h": 1})
            return True
        except Exception:  # noqa: BLE001 - not found, or not resolvable here
            return False

    def _example_values(self, frag, line, text, a, b, ctx):
        """``q = [1, 0, 2, 1]``: printed numbers for a model quantity are a worked example's own values, unless
        the section has bound the example's inputs and the quantity is derived from them (its printed value is a
        result, checked only where the document computes it: ``q_1 = x_1 W_Q`` first)."""
        earlier = self.section_vars.get(frag.section, {})
        if not (earlier and a[1] in _DERIVED) and self._bind_example(frag, line, text, a, b, ctx, "printed"):
            return
        self.add(line, text, "unchecked", "numeric", "printed numbers for a model quantity: an example's "
                 "own values, which the model's random weights cannot confirm" +
                 (" (the document does not compute it from the example's inputs before printing it)" if earlier
                  else ""))

    def _record(self, line, link, a, b, rel, links, out, ctx, back: dict | None = None):
        """The finding of a judged link, with a diagnosis and the expected form for a mismatch (``back``: the
        document's index letters for the model's, where the link was renamed to be judged)."""
        numeric = rel == "≈" or tolerance([a, b]) is not None
        rule = "shape" if out.shape_problem else "numeric" if numeric else "definition" if links == 1 else "chain"
        expected = diagnosis = None
        if out.status == "mismatch":
            dev = self.model.deviation("no-causal-mask")
            found = diagnose(a, b, rel, out.ctx or ctx, unmasked=bool(dev and dev.line <= line), back=back)
            diagnosis, expected = found if found else (None, None if back else expected_for(a, b, rel, out, ctx))
        syms = [n for n in walk([a, b]) if n[0] == "sym"]
        basis = "arithmetic" if all(is_example(n, ctx) for n in syms) else "reference"
        self.add_claim([a, b], line, link, out.status, rule, out.message, expected, diagnosis=diagnosis,
                       basis=basis)
        if rel == "=" and a is not None and a[0] == "sym":
            self.findings[-1].defines = _anchor_key(a)

    def _own_scalars(self, line, text, a, b, rel, links: int, ctx) -> bool:
        """A claim among the document's own scalars (no reference quantity, nothing matrix-like): its
        definition recorded, or judged in its own terms (:mod:`symtf.check.scalars`). True if a finding
        was added."""
        names = node_names(a) | node_names(b) if a is not None else set()
        if any(n.startswith("\\text") for n in names):
            return False  # words (king − man + woman): vectors or units, not the document's scalar letters
        if {n.split("_")[0].split("^")[0] for n in names} & self.model.matrices or any(self._reference_matrix(n, ctx) for n in walk([a, b])
                                               if n[0] == "sym"):
            return False
        link = text if links == 1 else unparse(("chain", [a, b], [rel]))
        if rel == "=" and a[0] == "sym" and (a[3] is None or not a[3].isdigit()):
            name = symbol_name(a)
            if name not in self.scalars.values or self.scalars.values[name][0].is_number:
                try:  # a first definition, or a new value of a setting (the document sweeps it)
                    self.scalars.define(name, to_sympy(tight(b) if juxtaposed_division(text) else b), line)
                except (NotScalar, ValueError, TypeError, ZeroDivisionError):
                    return False
                self.add(line, link, "unchecked", "definition", f"defines ${name}$ in the document's own terms "
                         "(a definition: the claims after it are checked with it)")
                return True
        verdict = judge_scalar(a, b, rel, self.scalars, text)
        if verdict is None:
            return False
        expected = verdict.expected
        if expected is not None:
            expected = unparse(("chain", [a, ("num", 0.0, expected)], [rel]))
        self.add(line, link, verdict.status, "numeric", verdict.message, expected)
        self.findings[-1].basis = "document"
        return True

    def _reference_matrix(self, node, ctx) -> bool:
        """Does the symbol name a vector or matrix of the reference model in this reading?"""
        try:
            ref = ctx.resolve(node, {"i": 1, "j": 1, "h": 1})
        except Exception:  # noqa: BLE001 - any failure to resolve: not a reference quantity
            return False
        return not is_scalar(ref.value)

    def _mask_expected(self, frag, line: int) -> bool:
        """Has the document written the causal mask before ``line``, or does the prose around the fragment call
        the attention causal or masked (and the document not said its model is an encoder)?"""
        dev = self.model.deviation("no-causal-mask")
        if dev and dev.line <= line:
            return False
        written = self.model.mask_written
        near = re.search(r"\b(causal|masked|autoregressive)\b", (frag.before[-200:] + " " + frag.after[:200]).lower())
        return (written is not None and written <= line) or near is not None


# activations computed from others: printed values for them, after an example's inputs, are results to
# recompute (not supported), not new inputs
_DERIVED = {"S", "s", "A", "a", "r", "o", "z", "m", r"\ell", "p", "Z", "O", "P", "L"}


def _written(profile: dict, text: str) -> dict:
    """``profile`` with the size names this document writes (``d_k`` or ``d_\\text{head}``): expected forms use
    the document's spelling, and the notation lint fires only where the canonical name is written too."""
    def spelled(key: str) -> str:
        base, sub = key.split("_", 1)
        return re.escape(base) + r"\s*_\s*\{?\s*(?:\\(?:text|mathrm)\s*\{)?\s*" + re.escape(sub) + r"\b"

    written = tuple(k for k in profile["sizes"] if "_" in k and re.search(spelled(k), text))
    return {**profile, "written": written}


def _head_indexed(exprs, ctx):
    """``K_i = X W_i^K``: where a claim numbers heads with a letter (on a weight, ``W_i^K``), the same letter
    under a per-head activation (``K_i``) is that head too, not a token's row."""
    heads = _head_vars(exprs, ctx)
    per_head = set(ctx.profile.get("per_head", ()))
    if not heads:
        return exprs

    def rec(node):
        if isinstance(node, list):
            return [rec(c) for c in node]
        if not isinstance(node, tuple) or not node:
            return node
        if node[0] == "sym" and node[1] in per_head and node[2] in heads and node[3] is None:
            return ("sym", node[1], None, node[2])
        return tuple(rec(c) if isinstance(c, (tuple, list)) else c for c in node)

    return rec(exprs)


_NAMED_CELL = re.compile(r"\(\s*\$?([A-Za-z])\$?\s*(?:/\s*\$?([A-Za-z])\$?\s*)?\)\s*$")


def _number_cell(cell: str):
    """The number a table cell holds (``5,120``, ``2.7``, ``32e3``), exactly, or None."""
    import sympy as sp

    text = cell.strip().strip("$`").replace(",", "").replace("{,}", "")
    if not re.fullmatch(r"-?\d+(\.\d+)?([eE][+-]?\d+)?", text):
        return None
    return sp.Rational(text) if "e" not in text.lower() else sp.Rational(sp.Float(text, 30))


def _idle_sum(exprs) -> str | None:
    r"""The variable of a sum whose terms do not use it as an index (``\sum_k e^{q_i \cdot k_j}``) while they
    are indexed by other letters, if any; a sum of an unindexed term (``\sum_{i=1}^n 1``) is a count, not this."""
    from .binding import exponentials

    for node in walk(exponentials(list(exprs))):
        if node[0] != "sum" or not node[1] or not re.fullmatch(r"[a-z]", node[1].strip()):
            continue
        var, body = node[1].strip(), node[4]
        texts = []
        for n in walk(body):
            if n[0] == "sym":
                texts += [n[2] or "", n[3] or ""]
            elif n[0] == "idx":
                texts.append(n[2])
            elif n[0] == "sum":
                texts += [n[2] or "", n[3] or ""]
        letters = set()
        for t in texts:  # "ik" is two indices, "d_k" a name with one, "\\text{pos}" none
            if re.fullmatch(r"[a-z, +\-0-9()]{1,8}", t):
                letters |= set(re.findall(r"[a-z]", t))
            else:
                letters |= set(re.findall(r"(?<![A-Za-z\\])[a-z](?![A-Za-z])", t))
        if letters and var not in letters:
            return var  # the terms are indexed, but not by the sum's variable
    return None


def _number(value) -> str:
    return str(value) if getattr(value, "is_Integer", False) else f"{float(value):g}"


def _shown(binding) -> str:
    """A bound letter as the document writes it: ``x_i`` for a letter bound with a token index."""
    return binding.key + ("_" + binding.order[0] if binding.order else "")


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
        depth += ch in "{([" and 1 or ch in "})]" and -1 or 0
        if depth == 0 and (ch == "=" or text.startswith((r"\triangleq", r"\coloneqq", r"\equiv", ":="), i)):
            return text[:i]
    return text


def _axes(node) -> list:
    """The sizes of a written shape, in order: ``D \times H \times d`` → [D, H, d] (bounded by the parse)."""
    return _axes(node[1]) + _axes(node[2]) if node[0] == "mul" and node[3] == "×" else [node]


def _anchor_key(node) -> str:
    """The quantity a symbol names, without its indices: ``W^Q_i`` → ``W_Q``, ``x^{(0)}_n`` → ``x``."""
    _, base, sub, sup = node
    tags = TAGS.get(base, ())
    tag = sup if base == "W" and sup in tags else sub if sub in tags else None
    return base + (f"_{tag}" if tag else "")


def _tying(a, b) -> bool:
    """``W_U = W_E^T``, ``W^K = W^Q``: two weight matrices set equal (either side, any spelling of the transpose)."""
    def name(n):
        n = n[1] if n[0] == "T" else n
        return (n[1], n[2] or n[3]) if n[0] == "sym" else None
    return None not in (name(a), name(b)) and name(a) != name(b) and name(a)[0] == name(b)[0] == "W"


def _example_value(a, b) -> bool:
    """A plain symbol set equal to a list or matrix of finite printed numbers (at least two)."""
    nodes = list(walk(b))
    return a is not None and a[0] == "sym" and b[0] in ("list", "matrix") and \
        all(n[0] in ("list", "matrix", "num", "neg") for n in nodes) and sum(n[0] == "num" for n in nodes) >= 2


def _statistic(node) -> bool:
    r"""``\mu``, ``\sigma`` or ``\sigma^2`` standing alone: the mean / deviation of a vector's entries."""
    return node is not None and node[0] == "sym" and node[1] in (r"\mu", r"\sigma") and node[2] is None and \
        node[3] in (None, "2")


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


def _prose_subject(frags, i) -> list:
    """The symbol a prose shape is said of: ``$W$ is a $d \\times n$`` or ``a $d \\times n$ matrix $W$``."""
    frag = frags[i]
    prev = frags[i - 1] if i > 0 and frags[i - 1].block == frag.block else None
    nxt = frags[i + 1] if i + 1 < len(frags) and frags[i + 1].block == frag.block else None
    before = re.sub(r"[*_]", "", frag.before).strip().lower()
    if prev is not None and re.fullmatch(r"(,\s*)?(is|are|is an?|an?|each of shape|of shape|is of shape)", before):
        nodes = _subject_nodes(prev.latex)
        j = i - 1
        plural = re.search(r"each|are", before)
        while plural and j > 0 and frags[j - 1].block == frag.block and \
                re.fullmatch(r"\s*(and|,)\s*", frags[j].before):
            nodes += _subject_nodes(frags[j - 1].latex)
            j -= 1
        return nodes
    after = re.sub(r"[*_]", "", frag.after).strip().lower()
    if nxt is not None and re.fullmatch(r"[a-z -]{0,30}(matrix|vector|tensor)", after):
        return _subject_nodes(nxt.latex)
    return []


def check_text(text: str, convention: str = "auto", profile: dict | None = None) -> list[Finding]:
    """Every finding of ``text`` (a Markdown document), in line order."""
    return DocumentChecker(text, convention, profile).run()


def check_document(text: str, convention: str = "auto", profile: dict | None = None) -> tuple[list[Finding], dict]:
    """The findings of ``text`` and what was learned of its model (:meth:`DocumentModel.explain`)."""
    doc = DocumentChecker(text, convention, profile)
    findings = doc.run()
    return findings, doc.model.explain()
