"""Check a whole document: every fragment in its context, tables, and the notation lint."""
from __future__ import annotations

import re

import numpy as np

from .compare import expected_for, free_vars, judge, tolerance, walk
from .context import Context, kind_for
from .evaluate import BadRef, CheckError, Evaluator, ShapeMismatch, Unknown, expand
from .extract import extract
from .figures import check_figures, check_shape, check_size_relation, is_figures_table, is_shape
from .normalize import statements
from .notation import COLUMN, ROW
from .parse import ParseError, parse
from .report import Finding
from .unparse import unparse

FUNCTION_DEFS = ("softmax", "LayerNorm", "ReLU", "GELU")
_OPERATOR = re.compile(r"\s*\\(odot|times|cdot|circ|otimes|oplus)\s*")
_MEMBER = re.compile(r"\s*(.+?)\s*\\in\s*\\mathbb\s*\{?R\}?\s*\^\s*\{(.+)\}\s*")
_RANGE = re.compile(r"\s*[a-z]\s*=\s*\d+\s*,\s*\\(l|c)?dots\s*,\s*[a-zA-Z0-9_{}\\]+\s*\.?\s*")


def choose_profiles(frags, convention: str, profile: dict | None):
    """(primary, secondary) profiles: a user profile, the requested convention, or auto-detection."""
    if profile is not None:
        return profile, None
    if convention == "column":
        return COLUMN, None
    if convention == "row":
        return ROW, None
    row = col = 0
    for frag in frags:
        row += len(re.findall(r"(?<![\\a-zA-Z])[QKVX](?![a-zA-Z])|W\^\{?[QKV]|d_\{?k\}?", frag.latex))
        col += len(re.findall(r"x\^\{\(\d\)\}|q_n|W_\{?[QKV]\}?\^?\{?h?\}? ?x", frag.latex))
    return (ROW, COLUMN) if row > col else (COLUMN, ROW)


def _n_for(latex: str) -> int:
    digits = [int(d) for sub in re.findall(r"_\{?(\d\d?)\}?", latex) for d in sub]
    return max([3] + [d for d in digits if d <= 9])


class DocumentChecker:
    def __init__(self, text: str, convention: str = "auto", profile: dict | None = None):
        self.text = text
        self.frags, self.tables = extract(text)
        self.primary, self.secondary = choose_profiles(self.frags, convention, profile)
        self.findings: list[Finding] = []
        self.section_vars: dict = {}
        # sections that define the score matrix S with −∞ above the diagonal (the masked reading of S)
        self.masked_sections = {f.section for f in self.frags if re.match(r"\s*S\s*=", f.latex) and "infty" in f.latex}

    # ------------------------------------------------------------------ contexts
    def context(self, frag, ln: bool, profile=None) -> Context:
        kind = kind_for(frag.section) or "full"
        return Context(profile or self.primary, kind, ln, _n_for(frag.latex),
                       fvars=dict(self.section_vars.get(frag.section, {})),
                       masked_allowed=frag.section in self.masked_sections)

    def fallback(self, frag, ln) -> tuple:
        return (Context(self.secondary, "full", ln, _n_for(frag.latex)),) if self.secondary else ()

    # ------------------------------------------------------------------ driver
    def run(self) -> list[Finding]:
        self._scalar_definitions()
        ln = False
        shape_cells, subjects = self.shape_cells, self.subjects = self._table_layout()
        self.ln_at = []
        for i, frag in enumerate(self.frags):
            start = len(self.findings)
            if any(re.search(r"layer ?norm", s, re.I) for s in frag.section):
                ln = True
            self.ln_at.append(ln)
            ctx = self.context(frag, ln)
            if frag.cell in shape_cells:
                for stated, subject in self._pair(frag, shape_cells, subjects):
                    self.findings += check_shape(frag.line, frag.latex, stated, subject, ctx)
                self._lint(frag, ctx)
                self._tag(start, i)
                continue
            try:
                self.check_fragment(i, frag, ctx, self.fallback(frag, ln))
            except Exception as exc:  # noqa: BLE001 - one fragment never stops the document
                del self.findings[start:]
                self.add(frag.line, frag.latex, "unchecked", "definition",
                         f"could not be checked ({type(exc).__name__}: {exc})")
            self._lint(frag, ctx)
            self._tag(start, i)
        for table in self.tables:
            if is_figures_table(table):
                self.findings += check_figures(table)
        self.findings.sort(key=lambda f: f.line)
        return self.findings

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
            if re.search(r"n_\{?(\\text\{)?" + bare, self.text):
                self.findings.append(Finding(frag.line, frag.latex, "lint", "notation",
                                             f"{written} names the same size as {canonical}, used elsewhere in "
                                             f"this document: write {canonical}", canonical))

    def _scalar_definitions(self):
        """``P = -\\infty``-style values of otherwise unknown one-letter symbols, per section."""
        for frag in self.frags:
            try:
                chain = parse(statements(frag.latex)[0].text)
            except (ParseError, IndexError):
                continue
            exprs = chain[1]
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

    # ------------------------------------------------------------------ tables
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
        for frag in self.frags:
            if frag.cell and frag.cell in set(shape_cells.values()):
                subjects.setdefault(frag.cell, []).append(frag)
        return shape_cells, subjects

    def _pair(self, frag, shape_cells, subjects):
        """(stated shape node, [subject nodes]) for a Shape cell fragment."""
        try:
            stated = parse(statements(frag.latex)[0].text)[1][0]
        except (ParseError, IndexError) as exc:
            self.findings.append(Finding(frag.line, frag.latex, "unparsed", "shape", str(exc)))
            return []
        nodes = []
        for sub in subjects.get(shape_cells[frag.cell], []):
            nodes += _subject_nodes(sub.latex)
        shapes = [f for f in self.frags if f.cell == frag.cell]
        if len(shapes) > 1 and len(nodes) == len(shapes):
            nodes = [nodes[shapes.index(frag)]]
        return [(stated, nodes)] if nodes else [(stated, [])]

    # ------------------------------------------------------------------ fragments
    def add(self, *args, **kw):
        self.findings.append(Finding(*args, **kw))

    def _tag(self, start: int, index: int):
        for f in self.findings[start:]:
            f.fragment = index

    def check_fragment(self, i, frag, ctx: Context, fb):
        if _OPERATOR.fullmatch(frag.latex):
            return self.add(frag.line, frag.latex, "unchecked", "notation", "an operator symbol, not a formula")
        if _RANGE.fullmatch(frag.latex):
            return self.add(frag.line, frag.latex, "unchecked", "notation", "an index range, not a claim")
        prev_last = None
        for st in statements(frag.latex):
            line = frag.line + st.line_offset
            member = _MEMBER.fullmatch(st.text)
            if member:  # X \in \mathbb{R}^{n \times d}: a shape claim about X
                try:
                    subject, stated = parse(member.group(1))[1][0], parse(member.group(2))[1][0]
                except ParseError as exc:
                    self.add(line, st.text, "unparsed", "shape", f"cannot parse: {exc}")
                    continue
                self.findings.extend(check_shape(line, st.text, stated, [subject], ctx))
                continue
            try:
                chain = parse(st.text)
            except ParseError as exc:
                try:
                    chain = ("chain", [parse("[" + st.text + "]")[1][0]], [])
                    if "=" in st.text:
                        raise exc
                except ParseError:
                    self.add(line, st.text, "unparsed", "definition", f"cannot parse: {exc}")
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
            else:
                self.relation(i, frag, line, st.text, exprs, rels, ctx, fb)

    def bare(self, i, frag, line, text, node, ctx, fb):
        if is_shape(node):
            subject = _prose_subject(self.frags, i)
            if not subject:
                return self.add(line, text, "unchecked", "shape", "a shape with no symbol it is said of")
            self.findings.extend(check_shape(line, text, node, subject, ctx))
            return
        if node[0] == "num":
            return self.add(line, text, "verified", "notation", "a constant")
        if node[0] == "sym" and node[1].startswith(r"\text{") and node[1][6:-1].rstrip("*") in FUNCTION_DEFS:
            return self.add(line, text, "verified", "notation", "names a known function")
        items = node[2] if node[0] == "list" and node[1] == "," and text.lstrip()[:1] != "[" else [node]
        kinds, reason = [], ""
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
        prose = frag.before if re.search(r"gpt|llama|bert", frag.before, re.I) else " ".join(frag.section)
        sized = check_size_relation(line, text, exprs, rels, ctx, prose)
        if sized is not None:
            self.findings.extend(sized)
            return
        syms = [n for n in walk(exprs) if n[0] == "sym"]
        if syms and all(s[1] in "ijkhn" and s[2] is None and s[3] is None for s in syms) and len(exprs) == 2:
            return self.add(line, text, "unchecked", "notation", "a condition on indices, not a claim")
        first = exprs[0]
        if first[0] == "call" and first[1] in FUNCTION_DEFS and len(first[3]) == 1 and first[3][0][0] == "sym" \
                and first[3][0][2] is None and first[3][0][3] is None:
            var = first[3][0][1]
            rng = np.random.default_rng(7)
            bound = {var: rng.standard_normal((ctx.n, 1)), r"\gamma": rng.standard_normal((ctx.n, 1)),
                     r"\beta": rng.standard_normal((ctx.n, 1))}
            self.section_vars.setdefault(frag.section, {}).update(bound)
            ctx = ctx.with_(fvars={**ctx.fvars, **bound}, elementwise=first[1] in ("ReLU", "GELU"))
        condition = self._condition(frag, index)
        if condition:
            ctx = ctx.with_(condition=condition)
        for k, rel in enumerate(rels):
            a, b = exprs[k], exprs[k + 1]
            out = judge(a, b, rel, ctx, fb)
            numeric = rel == "≈" or tolerance([a, b]) is not None
            rule = "numeric" if numeric else ("definition" if len(rels) == 1 else "chain")
            if out.shape_problem:
                rule = "shape"
            link = text if len(rels) == 1 else unparse(("chain", [a, b], [rel]))
            expected = expected_for(a, b, rel, out, ctx) if out.status == "mismatch" else None
            self.add(line, link, out.status, rule, out.message, expected)


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
    return DocumentChecker(text, convention, profile).run()
