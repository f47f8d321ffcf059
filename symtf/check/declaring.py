"""The document's own declarations of its matrices and vectors, read as the checker meets them, and the
judges that rest on them alone (shapes by declarations, identities of the document's own matrices)."""
from __future__ import annotations

import re

from . import shapeflow
from .data import load
from .checks_util import _before_relation, _MEMBER, _prose_subject, _subject_nodes, _top_level_commas, with_prose_left
from .compare import walk
from .docshapes import ELEMENTWISE, Misfit, shapes, size_of, Undetermined
from .figures import is_shape, shape_axes
from .identities import Book as MatrixBook, judge as judge_identity
from .lexicon import GREEK
from .macros import simplify
from .normalize import statements
from .parse import parse, ParseError
from .rotations import judge_algebra
from .scalars import symbol_name

# a sentence that explains the display before it: where / with / here, and their words in the languages of the
# documents read (其中 / 式中 / 这里 / 此处, ここで / ただし, 여기서, où, donde, wobei, dove)
_WHERE = re.compile(r"\s*(?:where|with|here|où|donde|wobei|dove|其中|式中|这里|此处|ここで|ただし|여기서)\b", re.I)
_ITEM = re.compile(r"\s*(?:[-*+]|\d{1,2}[.)])\s+\S")  # a list item's line
_ORIENTATION = re.compile(load("meanings.yaml")["vector_orientation"], re.I)
SCALAR = ("scalar",)  # the stated "shape" of an expression said to be in ℝ (``q^\top k \in \mathbb{R}``)


class Declaring:
    """Part of :class:`symtf.check.checker.DocumentChecker` (a mixin: it uses the checker's state)."""

    def _declare(self, frag, k: int = -1):
        r"""``W_k \in \mathbb{R}^{d \times d_k}`` anywhere in the document: a matrix of the document's own (three sizes:
        a tensor, one: a vector), also when the prose lists more letters before it (``$q_t$, $k_j$, $v_j \in
        \mathbb{R}^d$``) or a definition precedes it (``S_t = … \in \mathbb{R}^{d \times d}``: its first letter)."""
        if frag.cell is not None and frag.cell in self.shape_cells:
            self._declare_in_table(frag)
        elif r"\times" in frag.latex and r"\in" not in frag.latex and len(frag.latex) < 80 and k >= 0:
            self._declare_in_prose(frag, k)
        if r"\in" not in frag.latex or len(frag.latex) > 400:
            return
        for st in statements(simplify(with_prose_left(frag.before, frag.latex), self.macros, self.plain)):
            member = _MEMBER.fullmatch(st.text)
            if not member:
                continue
            try:
                stated = parse(member.group(2) or member.group(3))[1][0]
                dims = [size_of(n) for n in shape_axes(stated)]
                subjects = [parse(part)[1][0] for part in _top_level_commas(_before_relation(member.group(1)))]
            except (ParseError, Undetermined, IndexError):
                continue
            if len(subjects) == 1:
                subjects += self._listed_before(k)
            since = self._where_clause(k) or self._where_list(k)
            for subject in subjects:
                if subject and subject[0] == "T" and subject[1][0] == "sym" and len(dims) == 2:
                    subject, dims = subject[1], dims[::-1]  # W^T_{xh} \in R^{p×q}: W_{xh} is q × p
                if not subject or subject[0] != "sym" or not 1 <= len(dims) <= 3:
                    continue
                name = symbol_name(subject)
                if len(dims) == 2:
                    self.declared.declare(name, *dims, frag.line, since)
                elif len(dims) == 3:  # its slices W^{[:, h, :]} are matrices
                    self.declared.declare_tensor(name, tuple(dims), frag.line)
                else:
                    self.declared.declare_vector(name, dims[0], frag.line, since)

    def _where_clause(self, k: int) -> int | None:
        r"""The line of the display a declaration's sentence explains (``$$…$$ where $W_1 \in …$``): the
        declaration covers it too. None if the sentence does not open with where/with/here right after one."""
        j = k
        while j > 0 and self.frags[j - 1].block == self.frags[k].block and \
                not re.search(r"[.!?]\s", self.frags[j].before):
            j -= 1
        if k < 0 or j == 0 or not _WHERE.match(self.frags[j].before):
            return None
        prev = self.frags[j - 1]
        return prev.line if prev.display and 0 < self.frags[k].line - prev.line <= 12 else None

    def _where_list(self, k: int) -> int | None:
        r"""The line of the display that a "where:" line and the list after it explain (``$$…$$``, ``where:``,
        ``- $W_i^Q \in …$``): a declaration in one of its items covers the display too, as in a where-sentence.
        None unless fragment ``k`` sits in such an item within 12 lines of the display."""
        frag, lines = self.frags[k], self._lines
        at = frag.line - 1
        if not 0 <= at < len(lines) or not _ITEM.match(lines[at]):
            return None
        while at > 0 and frag.line - at <= 12 and (_ITEM.match(lines[at]) or not lines[at].strip()):
            at -= 1
        said = lines[at].strip()
        if not (_WHERE.match(said) and said.endswith(":") and len(said) <= 40):
            return None
        prev = next((f for f in reversed(self.frags[:k]) if f.display), None)
        return prev.line if prev is not None and prev.line <= at and frag.line - prev.line <= 12 else None

    def _declare_in_prose(self, frag, k: int):
        r"""``$W_k$ is of shape $D_x \times D_k$``: the shape the prose gives a letter (:func:`_prose_subject`)."""
        dims = _matrix_shape(simplify(frag.latex, self.macros, self.plain))
        for subject in _prose_subject(self.frags, k) if dims else ():
            if subject and subject[0] == "sym":
                self.declared.declare(symbol_name(subject), *dims, frag.line)

    def _declare_in_table(self, frag):
        r"""A table's Shape (or Dimensions) cell ``$T \times D$`` in the row of ``$\mathbf{X}$``: the shape of the
        row's symbols, from the table's line on."""
        pieces = statements(simplify(frag.latex, self.macros))
        dims = _matrix_shape(pieces[0].text) if pieces else None
        for cell in self.subjects.get(self.shape_cells[frag.cell], []) if dims else ():
            for subject in _subject_nodes(simplify(cell.latex, self.macros)):
                self.declared.declare(symbol_name(subject), *dims, frag.line)

    def _listed_before(self, k: int) -> list:
        r"""The lone letters listed just before fragment ``k`` in its sentence: ``$q$, $k$, $v \in …``."""
        out = []
        while k > 0 and len(out) < 8 and self.frags[k - 1].block == self.frags[k].block and \
                re.fullmatch(r"\s*(,|and|,\s*and)\s*", self.frags[k].before):
            text = simplify(self.frags[k - 1].latex.strip().rstrip(","), self.macros, self.plain)
            try:  # $W_Q, W_K,$ and $W_V$: a list of letters is as good as one letter per fragment
                items = [parse(part)[1] for part in _top_level_commas(text)[:9]]
            except (ParseError, RecursionError):
                break
            if not 1 <= len(items) <= 8 or not all(len(x) == 1 and x[0] and x[0][0] == "sym" for x in items):
                break
            out.extend(x[0] for x in reversed(items))
            k -= 1
        return out

    def _declared_shape(self, line, text, nodes, stated=None) -> bool:
        """Judge ``nodes`` (an expression, or the two sides of a link) by the document's own declarations and
        definitions alone (:mod:`symtf.check.shapeflow`); True if a finding was added (a shape contradiction, or
        a stated shape verified or contradicted; ``stated`` :data:`SCALAR`: the expression said to be in ℝ)."""
        decl = self.declared
        if not (decl.shapes or decl.vectors or decl.tensors):
            return False
        if not decl.flowed:
            shapeflow.read(decl, self.frags, self.macros, self.plain)
        if stated == SCALAR:
            verdict = shapeflow.judge_scalar(nodes[0], decl, line)
        elif stated is not None:
            verdict = shapeflow.judge_stated(nodes[0], stated, decl, line)
        else:
            verdict = shapeflow.judge_expression(nodes, decl, line)
        if verdict is None:
            return False
        if verdict.status == "mismatch" and stated is not None and nodes[0][0] == "sym" and \
                decl.stated_as.get((symbol_name(nodes[0]), line)) == ("sym", "O", None, None):
            self.add_claim(nodes, line, text, "unchecked", "shape", f"{verdict.message}; but a letter set to $O$ alone, "
                           "with a shape O does not have, is set to the zero matrix (often written O): not judged",
                           basis="document")  # S_0 = O ∈ R^{d' × d}: the initial state, zero
            return True
        if verdict.status == "mismatch" and stated is None and len(nodes) == 2 and \
                judge_algebra(nodes[0], nodes[1], "=", text) is not None:  # (AB)^T = B^T A^T: a rule of the algebra
            self.add_claim(nodes, line, text, "unchecked", "shape", f"{verdict.message}; but it holds as an identity "
                           "of its matrices whatever they are (where its products are defined): a general rule, not "
                           "judged against these declarations", basis="document")
            return True
        if verdict.status == "mismatch" and _vector_as_matrix(nodes, decl, line) and \
                _ORIENTATION.search(self._prose_before(line)):  # "with column vectors, y = Wx" after x ∈ R^{1×n}
            self.add_claim(nodes, line, text, "unchecked", "shape", f"{verdict.message}; but the text just before "
                           "speaks of the vectors' orientation: a vector read here in the other one than its "
                           "declaration (not judged)", basis="document")
            return True
        applied = _applied(text, decl, line, verdict.message) if verdict.status == "mismatch" else None
        if applied:  # P(X) with P never declared: a function of X
            self.add_claim(nodes, line, text, "unchecked", "shape", f"${applied}$, written before a parenthesis, is "
                           "read as a function of what the parenthesis holds, not a product (not judged)",
                           basis="document")
            return True
        own = self._own_function(line, verdict.message) if verdict.status == "mismatch" else None
        if own:  # A(x) = Σ a_i x^i, then C(x) = A(x) · B(x): A is the document's function there, not its matrix A
            self.add_claim(nodes, line, text, "unchecked", "shape", f"{verdict.message}; but line {own[1]} defines "
                           f"${own[0]}$ as a function of what its parenthesis holds, and this line writes it so: its "
                           "value, not a product with the matrix declared by that letter (not judged)",
                           basis="document")
            return True
        applied = _declared_function(text, decl, line) if verdict.status == "mismatch" and stated is None else None
        if applied:  # X W(X)^T with W declared: W as a function of X, its shape W's
            self.add_claim(nodes, line, text, "unchecked", "shape", f"{verdict.message}; but read with ${applied}$ a "
                           "function of what the parenthesis after it holds (a matrix that depends on it, of its "
                           "declared shape), it fits: not judged", basis="document")
            return True
        self.add_claim(nodes, line, text, verdict.status, "shape", verdict.message, verdict.expected,
                       diagnosis=verdict.diagnosis, basis="document")
        return True

    def _own_function(self, line: int, misfit: str) -> tuple[str, int] | None:
        r"""(letter, line) where the document defined, at or before ``line``, a letter that ``misfit`` multiplies as
        a factor ("a product of … (A) and …") as a function (``A(x) = \sum_i a_i x^i``), and ``line`` writes it before
        a parenthesis (a fragment that reaches it does); or None."""
        if self._functions is None:
            self._functions = {}
            for frag in self.frags:
                for m in _FUNCTION_DEFINED.finditer(frag.latex[:4000]):
                    self._functions.setdefault(m.group(1).replace("{", "").replace("}", ""), frag.line)
        product = misfit.split(":")[0]
        for name, at in self._functions.items():
            applied = re.compile(r"(?<![A-Za-z\\])" + re.escape(name) + r"\s*\(")
            if at <= line and f"({name})" in product and any(
                    f.line <= line <= f.line + f.latex.count("\n") and applied.search(re.sub(r"[{}]", "", f.latex))
                    for f in self.frags):
                return name, at
        return None

    def _defined_here(self, line, subject) -> bool:
        """Is ``subject`` defined on ``line`` where its shape is stated (``Q = X W_q \\in …``)?"""
        if not self.declared.flowed:
            shapeflow.read(self.declared, self.frags, self.macros, self.plain)
        return (symbol_name(subject), line) in self.declared.stated_as

    def _shape_subscripts(self, frag) -> None:
        r"""``[\, C^\top \,]_{d \times l}``: the shape a bracket's subscript states, by the declarations."""
        decl = self.declared
        if "times" not in frag.latex or "]" not in frag.latex or not (decl.shapes or decl.vectors):
            return
        if not decl.flowed:
            shapeflow.read(decl, self.frags, self.macros, self.plain)
        for latex, verdict in shapeflow.subscript_claims(simplify(frag.latex, self.macros, self.plain), decl,
                                                          frag.line):
            self.add(frag.line, latex, verdict.status, "shape", verdict.message, verdict.expected,
                     diagnosis=verdict.diagnosis)
            self.findings[-1].basis = "document"

    def _identity(self, frag, line, text, a, b, ctx, final: bool = False) -> bool:
        """``a = b`` among the document's own matrices, judged by their exact values at random integer matrices of
        the declared shapes (:mod:`symtf.check.identities`). Before the reference readings (:meth:`_bind`,
        :meth:`_unify`) only a verdict is added; with ``final`` (after them) also what it leaves unchecked and why
        (a definition, a property the prose gives a matrix). True if a finding was added."""
        if not (self.declared.shapes or self.declared.tensors):
            return False
        key = (line, text)
        if key not in self.identity_verdicts:
            self.identity_verdicts[key] = judge_identity(a, b, "=", self._book(), line, frag.section,
                                                         frag.before, frag.after, ctx, frozenset(self.bindings))
        verdict = self.identity_verdicts[key]
        if verdict is None or (verdict.status == "unchecked") != final:
            return False
        self.add_claim([a, b], line, text, verdict.status, verdict.rule, verdict.message, verdict.expected,
                       diagnosis=verdict.diagnosis, basis="document")
        return True

    def _book(self) -> MatrixBook:
        """The document's definitions (``Q = XW^Q``, ``g = h``) in reading order, and its matrices' properties: read
        once, on first use."""
        if self.identities is None:
            self.identities = MatrixBook.read(self.frags, self.macros, self.plain, self.declared)
        return self.identities

    def _declared_misfit(self, line, text, node) -> bool:
        """An expression of the document's declared matrices whose shapes do not fit (a mismatch: writing it
        claims it is well-formed); False when the declarations do not decide it or it fits."""
        return self._declared_shape(line, text, [node])


# a letter: one Latin letter or a Greek one, with a subscript
_LETTER = (r"(?:[A-Za-z]|\\(?:" + "|".join(sorted(GREEK, key=len, reverse=True)) + r")(?![A-Za-z]))"
           r"(?:_\{[^{}]*\}|_[A-Za-z0-9])?")
# the left side of a function's definition: A(x) = …, L(N, D) := …, at a fragment's start or after \\, & or a comma
_FUNCTION_DEFINED = re.compile(r"(?:^|\\\\|&|\\begin\{[a-z*]+\}|[,;])\s*(" + _LETTER + r")\s*\(\s*[A-Za-z](?:_[A-Za-z0-9])?"
                               r"(?:\s*,\s*[A-Za-z](?:_[A-Za-z0-9])?)*\s*\)\s*(?::=|=|\\coloneqq|\\triangleq|\\equiv)")
# a letter, not itself a script, right before an opening parenthesis
_BEFORE_PARENTHESIS = re.compile(r"(?<![\\A-Za-z^_])(" + _LETTER + r")\s*\(")


def _vector_as_matrix(nodes, decl, line: int) -> bool:
    """Is a letter of ``nodes`` declared, in force at ``line``, as a matrix with one row or one column (``x \\in
    \\mathbb{R}^{1 \\times d_{in}}``): a vector in a fixed orientation?"""
    shapes = (decl.at(symbol_name(n), line) for n in walk(nodes) if n[0] == "sym")
    return any(found is not None and 1 in found[:2] for found in shapes)


def _applied(text: str, decl, line: int, misfit: str) -> str | None:
    r"""The first letter of ``text`` the document gives no shape at all, written before a parenthesis whose first letter
    it is multiplied with in the ``misfit`` message (``P(X) X^c``, P never declared: "a product of P X and X^c"), or
    None. Such a letter is a function applied, not a factor."""
    named = misfit.split(":")[0].split(" of ", 1)[-1]
    for m in _BEFORE_PARENTHESIS.finditer(text[:2000]):
        name = m.group(1).replace("{", "").replace("}", "")
        argument = re.match(r"\s*((?:[A-Za-z]|\\[A-Za-z]+)(?:_\{[^{}]*\}|_[A-Za-z0-9])?)", text[m.end():m.end() + 200])
        if name.lstrip("\\") in ELEMENTWISE or not argument or not re.search(
                r"(?<![A-Za-z\\])" + re.escape(m.group(1)) + r"\s*(?:and\s*)?" + re.escape(argument.group(1)) +
                r"(?![A-Za-z])", named):
            continue  # σ(W_1 x + b_1): read through already; x (Q^{-1}(W)) … x A^T B^T: the misfit is not of x with Q
        if name not in decl.sizes and not any(name in table for table in (decl.shapes, decl.vectors, decl.tensors,
                                                                          decl.defined)):
            return m.group(1)
    return None


def _declared_function(text: str, decl, line: int) -> str | None:
    r"""The first declared matrix of ``text`` written right before a parenthesis that holds one bare letter, unspaced
    (``X W(X)^T``), whose argument has a shape, such that, the parenthesis dropped (W as a function of X, of W's
    declared shape), the sides holding it have shapes; or None. ``A(B + C)`` with B + C a misfit, ``X (W_1 W_2)``:
    products."""
    for m in list(_BEFORE_PARENTHESIS.finditer(text[:2000]))[:4]:
        name = m.group(1).replace("{", "").replace("}", "")
        if name not in decl.shapes or m.group(0)[-2:-1].isspace():  # X (W_1 W_2): a product, spaced as one
            continue
        depth, end = 0, None
        for k in range(m.end() - 1, min(len(text), m.end() + 400)):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                end = k + 1
                break
        if end is None or not re.fullmatch(r"\(\s*[A-Za-z]\s*\)", text[m.end() - 1:end]):
            continue  # W(X): one bare letter as its argument (X(W^Q)^T is a product)
        try:
            exprs = [e for e in parse(text[:m.end() - 1] + text[end:])[1] if e is not None]
            shapes(parse(text[m.end():end - 1])[1][0], decl, line, {})  # the argument has a shape of its own
        except (ParseError, IndexError, RecursionError, Misfit, Undetermined):
            continue
        holding = [e for e in exprs if any(n[0] == "sym" and symbol_name(n) == name for n in walk([e]))]
        try:
            for e in holding:  # each side that holds the letter has a shape, read so
                shapes(e, decl, line, {})
        except (Misfit, Undetermined, RecursionError):
            continue
        if holding:
            return m.group(1)
    return None


def _matrix_shape(text: str) -> list | None:
    r"""``D_x \times D_k`` alone: its two sizes, or None (not one shape of two axes, or a size not read)."""
    try:
        exprs = parse(text)[1]
        if len(exprs) != 1 or not is_shape(exprs[0]) or exprs[0][0] != "mul":
            return None
        dims = [size_of(n) for n in shape_axes(exprs[0])]
    except (ParseError, Undetermined, IndexError, RecursionError):
        return None
    return dims if len(dims) == 2 else None
