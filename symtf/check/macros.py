r"""A fragment's LaTeX in the reading grammar's terms: the document's own macros expanded, typography dropped.

Writers define macros (``\newcommand{\mbx}{\mathbf{x}}``), set symbols in bold or calligraphic type,
colour them, and attach side conditions (``\forall t``, ``\quad\text{for } i \le n``). None of that
changes what a claim says, so it is rewritten here before a fragment is parsed:

- the document's macros (``\newcommand``, ``\renewcommand``, ``\def``, ``\DeclareMathOperator``; with up to
  nine arguments) and a chapter's missing preamble abbreviations are expanded, a bounded number of times;
- ``\mathbf{x}``, ``\boldsymbol{x}``, ``\bm{x}``, ``\textbf{x}``, ``\mathrm{x}`` become the letter;
  ``\mathcal{L}`` becomes a name of its own (``\text{cal L}``), never the plain letter;
- colours, sizes and ``\underset``/``\overset``/``\underbrace`` labels are dropped;
- ``\iff``, ``\implies``, ``\Rightarrow``, ``\quad`` separate statements (:data:`SEPARATOR`), except
  inside an environment; a ``\forall`` or ``\text{for …}`` clause is dropped;
- ``\begin{equation}`` and friends are unwrapped, ``\label{…}`` and ``\tag{…}`` removed;
- a printed ``4.19e6`` / ``52\text{e}12`` is the number ``{4.19 \cdot 10^{6}}`` (one group), and so is ``180 * 10^9``
  as the divisor of a number written that way; ``50{,}257`` is 50257;
  a prime ``q'`` is the name ``q^{\prime}``.

Each rewrite is a regular expression over one fragment (bounded by the fragment's length).
"""
from __future__ import annotations

import re
from functools import lru_cache

_MAX_MACROS = 200
_MAX_PASSES = 4

_DEFINE_ARGS = re.compile(
    r"\\(?:newcommand|renewcommand|providecommand)\*?\s*\{?\s*(\\[A-Za-z]+)\s*\}?\s*\[([1-9])\]"
    r"\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")  # an optional argument's default ([1][x]) is not read


def _abbreviations() -> dict:
    """Common abbreviations of a preamble (``data/abbreviations.yaml``), each name with its backslash → body."""
    from .data import load

    data = load("abbreviations.yaml")
    out = {f"\\{name}": body for name, body in data["macros"].items()}
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        for form in data["calligraphic"]:
            out.setdefault("\\" + form.replace("{L}", letter), f"\\mathcal{{{letter}}}")
    return out


_DEFINE = re.compile(
    r"\\(?:newcommand|renewcommand|providecommand|DeclareMathOperator)\*?\s*\{?\s*(\\[A-Za-z]+)\s*\}?"
    r"\s*(?:\[0\])?\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
    r"|\\def\s*(\\[A-Za-z]+)\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")


_ABBREVIATIONS = _abbreviations()
_DEFINING = r"\\(?:newcommand|renewcommand|providecommand|DeclareMathOperator|def|let)\*?\s*\{?\s*"


def document_macros(text: str) -> dict[str, str]:
    r"""The document's macros: name (with its backslash) → body, ``name#k`` for one of k arguments (``#1`` … in its
    body); the abbreviations of ``data/abbreviations.yaml`` it uses and does not define (a chapter without its book's
    preamble); ``\otimes`` → ``\odot`` where a sentence of the document says its ⊗ is the entrywise product
    (:func:`entrywise_otimes`); ``^t`` → ``^\top`` where it writes its transposes so (:func:`transpose_t`)."""
    out: dict[str, str] = {}
    for m in _DEFINE.finditer(text):
        name, body = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if "#" in body or len(out) >= _MAX_MACROS:
            continue  # an argument's mark without a count: not read
        out.setdefault(name, body)
    for m in _DEFINE_ARGS.finditer(text):  # \newcommand{\norm}[1]{\lVert #1 \rVert}: name#count → body
        if len(out) < _MAX_MACROS and m.group(1) not in out:
            out.setdefault(f"{m.group(1)}#{m.group(2)}", m.group(3))
    used = set(re.findall(r"\\[A-Za-z]+", text)) & _ABBREVIATIONS.keys()  # one pass over the text
    defined = set(re.findall(_DEFINING + r"(\\[A-Za-z]+)", text)) if used else set()
    for name in sorted(used - defined):  # \alp, \RR, \Ocal: a book's preamble the chapter does not carry
        out.setdefault(name, _ABBREVIATIONS[name])
    if "\\otimes" not in out and entrywise_otimes(text):
        out["\\otimes"] = "\\odot"
    if transpose_t(text):
        out["^t"] = "^\\top"
    return out


# a transpose mark other than ^t: ^T, ^{T}, ^\top, ^\intercal, ^\mathsf{T}, ^\mathrm{T}, ^\tr-like site macros
_OTHER_TRANSPOSE = re.compile(r"\^\s*(?:\{\s*)?(?:T(?![A-Za-z])|\\(?:top|intercal|mathsf\s*\{\s*T|mathrm\s*\{\s*T|"
                              r"T|Tr|tr|trans|transp|transpose)(?![A-Za-z]))")
# a matrix (a capital, perhaps subscripted) or a parenthesis with ^t, the t alone
_CAPITAL_T = re.compile(r"(?:(?<![a-z\\])[A-Z](?:_\{[^{}]*\}|_[A-Za-z0-9])?|\))\s*\^t(?![A-Za-z0-9_'])")
# the same letter with a time or step superscript elsewhere: W^{t+1}, W^{(t)}, W^0, x^{t-1}
_RUNNING_T = re.compile(r"\^\s*\{\s*\(?\s*t\s*[-+)']|\^\s*\{\s*\(\s*t\s*\)")


def transpose_t(text: str) -> bool:
    r"""Whether ``text`` writes its transposes as ``^t`` (``K Q^t e_i``, ``(W_u^t)^t``): at least two matrices or
    parentheses with ``^t``, no other transpose mark anywhere (``^T``, ``^\top`` …), and no ``^{t+1}``, ``^{t-1}``,
    ``^{(t)}`` that would make t a step index."""
    return len(_CAPITAL_T.findall(text)) >= 2 and not _OTHER_TRANSPOSE.search(text) and not _RUNNING_T.search(text)


_OTIMES = re.compile(r"\\otimes(?![A-Za-z])|⊗")
_END = re.compile(r"[.。!?\n]")
_REACH = 160  # characters each side of a ⊗ that its sentence may take
_ENTRYWISE = re.compile(r"element[- ]?wise|entry[- ]?wise|element[- ]by[- ]element|Hadamard|逐元素|逐位|按元素|按位|"
                        r"élément par élément|terme à terme|elementweise|要素ごと|요소별", re.I)
_OTHER_PRODUCT = re.compile(r"\\odot|\\circ|⊙|∘|Kronecker|outer|tensor product|張量積|张量积|外积|クロネッカー", re.I)


def entrywise_otimes(text: str) -> bool:
    r"""Whether a sentence of ``text`` says that its ⊗ is the entrywise product ("$\otimes$ stands for the
    elementwise product", "其中 ⊗ 是逐位对应相乘") and names no other product beside it (a sentence that sets ⊙
    against ⊗, or calls ⊗ a Kronecker or outer product, declares nothing)."""
    for m in _OTIMES.finditer(text):
        before = _END.split(text[max(0, m.start() - _REACH):m.start()])[-1]
        sentence = before + _END.split(text[m.start():m.end() + _REACH])[0]
        if _ENTRYWISE.search(sentence) and not _OTHER_PRODUCT.search(sentence):
            return True
    return False


_FONT = re.compile(r"\\(?:mathbf|boldsymbol|bm|bold|textbf|mathrm|mathit|mathsf|textsf|mathtt|texttt|mathbfit|mathbi|vec|overrightarrow|mathop|"
                   r"operatorname\*?)\s*\{\s*"
                   r"((?:[^{}]|\{[^{}]*\})*)\}")
_AFTER_COMMAND = re.compile(r"(\\[A-Za-z]+)(\\(?:mathbf|boldsymbol|bm|bold|textbf|mathrm|mathit|mathsf|mathbfit|mathbi|vec|overrightarrow)\s*\{)")
# a label the writer puts in the math: a word ending with a colon before the formula, or a sentence-ending word after it
_LABEL = re.compile(r"(?:^|(?<=\\\\)|(?<=&)|(?<=\n))[ \t]*\\(?:text|mathrm|textrm|textbf)\s*\{[^{}$]*:\s*\}|\\text\s*\{\s*[A-Za-z][^{}$]*\.\s*\}\s*$")
_TAG = re.compile(r"\\q?quad\s*\(\s*\d+(?:\.\d+)*[a-z]?\s*\)(?=\s*(?:\\\\|&|\\end|$))")
_REMARK = re.compile(r"\\text\s*\{\s*\([^{}]*\)\s*\}")
_NEWLINE = re.compile(r"\\newline(?![a-zA-Z])")
# \\[10pt]: the spacing of a row break (on the break's line: a newline before it is kept, for the lines' count)
_ROW_SPACE = re.compile(r"(\\\\)[ \t]*\[[ \t]*-?\d*\.?\d+[ \t]*(?:pt|em|ex|mm|cm|in|mu|px|bp|pc)[ \t]*\]")
_BOLD_SHORT = re.compile(r"\\(?:bf|rm|it)\s+")
_UPRIGHT_WORD = re.compile(r"\{\s*\\rm\s+([A-Za-z]{2,})\s*\}")  # {\rm AugMSA}, the old font switch around a word
# a font command on one letter or one Greek command without braces: \boldsymbol W, \mathbf q, \bm\theta
_FONT_BARE = re.compile(r"\\(?:mathbf|boldsymbol|bm|mathit|mathsf|mathbfit|mathbi|vec|overrightarrow|pmb|mathrm|rm)(?![a-zA-Z])\s*(?=[A-Za-z\\])")
_BBB = re.compile(r"\\Bbb\s*\{?\s*([A-Za-z])\s*\}?")  # plain TeX's \Bbb F is \mathbb{F}
_REALS = re.compile(r"\\(?:reals|Reals|R)(?![A-Za-z])")  # KaTeX's \reals, \R: the real numbers
# x \in R^{n \times d}: a plain R after \in, raised to a size, written for the real numbers (a matrix R is not a set)
_PLAIN_REALS = re.compile(r"(\\in\s*)R(?=\s*\^)")
# a site's own macros, defined in its MathJax or KaTeX configuration, not in the page: \bb{W} for a bold letter (its
# blackboard letters aside: \bb{R}), and a superscript \T, \Tr, \tr, \trans for the transpose (no trace is a superscript)
_SITE_BOLD = re.compile(r"\\bb\s*\{\s*([A-Za-z0-9])\s*\}")
_SITE_TRANSPOSE = re.compile(r"\^\s*(?:\\(?:T|Tr|tr|trans|transp|transpose)(?![A-Za-z])|"
                             r"\{\s*\\(?:T|Tr|tr|trans|transp|transpose)\s*\})")
_XARROW = re.compile(r"\\x(right|left)arrow\s*(?:\[[^\]]*\])?\s*\{(?:[^{}]|\{[^{}]*\})*\}")  # a labelled arrow
_CAL = re.compile(r"\\(?:mathcal|mathscr|mathfrak|cal)\s*\{?\s*([A-Za-z])\s*\}?")
_DROP_ARG = re.compile(r"\\(?:color|label|tag|vphantom|hphantom|phantom|hspace\*?|vspace\*?|kern|mkern|hskip)\s*"
                       r"\{[^{}]*\}|\\textcolor\s*\{[^{}]*\}|"
                       r"\\(?:small|tiny|large|Large|big|Big|bigg|Bigg|displaystyle|textstyle|scriptstyle|"
                       r"nonumber|notag|limits|nolimits|blue|red|green)\b(?![a-zA-Z])")
_GROUP = r"\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"  # a braced group, nested up to three levels
# a site's macros for operators (\diag{\gamma}, \softmax(QK^T), \floor{x}): the operator applied to the group
_SITE_OPERATOR = re.compile(r"\\(diag|softmax|floor|ceil)(?![a-zA-Z])\s*(?:" + _GROUP + ")?")
_SITE_WRITTEN = {"diag": (r"\text{diag}(", ")"), "softmax": (r"\text{softmax}(", ")"), "floor": (r"\lfloor ", r" \rfloor"),
                 "ceil": (r"\lceil ", r" \rceil")}


def _site_operator(m: re.Match) -> str:
    r"""``\diag{\gamma}`` as ``\text{diag}(\gamma)``, ``\floor{x}`` as ``\lfloor x \rfloor``; the name alone where no
    group follows (``\softmax(QK^T)``: its own parentheses)."""
    left, right = _SITE_WRITTEN[m.group(1)]
    if m.group(2) is None:
        return left[:-1] if left.endswith("(") else left.rstrip()
    return left + m.group(2) + right
# \underset{\theta \in \Theta}{\text{argmax}}: an operator's subscript, written below it
_UNDER_OPERATOR = re.compile(r"\\underset\s*" + _GROUP + r"\s*\{\s*(\\text\s*\{\s*arg\s*(?:max|min)\s*\}|"
                             r"\\(?:arg\s*\\)?(?:max|min|sum|lim))\s*\}")
_OVER = re.compile(r"\\(?:underset|overset|stackrel)\s*" + _GROUP.replace("(", "(?:", 1) + r"\s*" + _GROUP)
_BRACE = re.compile(r"\\(?:underbrace|overbrace)\s*" + _GROUP + r"\s*(?:[_^]\s*\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})?")
_ENV = re.compile(r"\\(?:begin|end)\s*\{equation\*?\}")
SEPARATOR = "\x00"  # between two statements of one fragment (``a = b \quad c = d``)
_AND = re.compile(r"\\text\s*\{\s*(?:,?\s*and|[,;])\s*\}")  # \text{ and }, \text{, }: between two statements
_SEPARATE = re.compile(r"\\(?:iff|implies|impliedby|Rightarrow|Longrightarrow|Leftarrow|Longleftarrow|Leftrightarrow|"
                       r"Longleftrightarrow|leftrightarrow|longleftrightarrow|therefore|because|quad|qquad)(?![a-zA-Z])")
_FORALL = re.compile(r"\(?[ \t]*(?:\\forall|\\text\s*\{\s*(?:for|where|if|when|with|s\.t\.)(?:\s[^{}]*)?\})"
                     r"[^&]*?(?=\\\\|&|\\end\{|$)\)?")  # up to a row's end, a cell's or the environment's
# a quotient of two numbers in scientific notation, 917 * 10^{12} / 180 * 10^9: the divisor is the whole printed
# number (as 180e9 would be), not 180 with the quotient then multiplied by 10^9; a plain dividend (1/2 \cdot 10^{-3})
# keeps the strict reading
_TEN_POWER = r"10\s*\^\s*(?:\{\s*[+-]?\d{1,3}\s*\}|\d)"
_DIVIDED_BY_TIMES_TEN = re.compile(r"((?<![\w.^_])\d+(?:\.\d+)?\s*(?:\*|\\times|\\cdot)\s*" + _TEN_POWER + r"\s*/\s*)"
                                   r"(\d+(?:\.\d+)?)\s*(?:\*|\\times|\\cdot)\s*(" + _TEN_POWER + ")")
_E_NOTATION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:\\text\s*\{\s*e\s*\}|\\mathrm\s*\{\s*e\s*\}|e)\s*\{?([+-]?\d{1,3})\}?(?![\d.])")
_THOUSANDS = re.compile(r"(?<=\d)\{,\}(?=\d{3})")
_PRIME = re.compile(r"(?<=[A-Za-z}])'(?!')")
_ASCII_NORM = re.compile(r"(?<![|\\A-Za-z0-9}])\|\|([^|$]{1,40}?)\|\|")  # ||Q||: the norm \|Q\| (not |B||E|)
# q.k_1, Q.K^T: a period between two one-letter names as their dot product (ASCII for \cdot); not in a word or number
_ASCII_DOT = re.compile(r"(?<![A-Za-z\\])([A-Za-z](?:_\{[^{}]*\}|_[A-Za-z0-9])?)\.(?=[A-Za-z](?![A-Za-z]))")
_ASCII_DOTS = re.compile(r"(?<!\\)\s*(,?)\s*\.{3,}\s*(,?)\s*")  # x_3...x_n, c, c, .... c: three or more periods
_GETS = re.compile(r"\\gets(?![a-zA-Z])")
_ESCAPED_NAME = re.compile(r"(?<![\\A-Za-z])([A-Za-z][A-Za-z0-9]*(?:\\_[A-Za-z0-9]+)+)")
# \alpha\_i, [\cdot]\_k, (x)\_j: Markdown's escaped underscore after a Greek letter or a closing bracket, a subscript
_ESCAPED_AFTER = re.compile(r"(\\(?:alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|"
                            r"xi|pi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Sigma|Phi|"
                            r"Psi|Omega)(?![A-Za-z])|[\])])\\_(?=\s*[{\\A-Za-z0-9])")
# x\_i, W\_{\text{I}}, \text{bold 1}\_L: Markdown's escaped underscore as a subscript (one letter or a group before
# it, one character, a group or a command after it); m\_new, qk\_scale stay names (_ESCAPED_NAME)
_ESCAPED_SCRIPT = re.compile(r"(?:(?<=[}])|(?<![\\A-Za-z{][A-Za-z])(?<=[A-Za-z]))\\_(?=\s*[{\\]|[A-Za-z0-9](?![A-Za-z0-9]|\\\\_))")


_BOLD_LETTER = re.compile(r"\\(?:mathbf|boldsymbol|bm)\s*\{?\s*([A-Za-z])\s*\}?")


def bold_letters(text: str) -> set[str]:
    r"""The letters a document sets in bold somewhere (``\mathbf{V}``): there, plain ``V`` may be another thing."""
    return set(_BOLD_LETTER.findall(text))


def _unfont(m: re.Match) -> str:
    """The letter of ``\\mathbf{x}``; a word in a font is a name (``\\mathrm{head_i}`` → ``\\text{head}_i``)."""
    if m.group(0).startswith((r"\mathrm", r"\operatorname")) and \
            re.fullmatch(r"\s*[A-Za-z](?:\s+[A-Za-z]){2,}\s*", m.group(1)):
        # \mathrm { s o f t m a x } (a converted PDF's spacing): math mode ignores the spaces, one upright name
        return r"\text{" + re.sub(r"\s+", "", m.group(1)) + "}"
    ones = re.fullmatch(r"\s*(\d)\s*([_^].*)?", m.group(1), re.S)
    if ones and not m.group(0).startswith((r"\mathrm", r"\textrm", r"\operatorname")):
        # \mathbf{1}, \bold{1_n^T}: the all-ones vector (with its scripts), never the number 1
        return r" \text{bold " + ones.group(1) + "}" + (ones.group(2) or "")
    if re.fullmatch(r"\s*[A-Za-z]{2,}(?:\s*,\s*[A-Za-z]+)+\s*", m.group(1)):
        return r"\text{" + m.group(1).strip() + "}"  # \mathrm{lin, te}: one name with a comma in it
    word = re.fullmatch(r"\s*([A-Za-z]{2,})\s*(.*)", m.group(1), re.S)
    if word:
        return r"\text{" + word.group(1) + "}" + word.group(2)
    after = m.string[m.end():m.end() + 1]  # \bm{\beta}\bm{W}: \beta W, not the command \betaW
    return m.group(1) + (" " if re.search(r"\\[A-Za-z]+\s*$", m.group(1)) and re.match(r"[A-Za-z\\]", after) else "")


def simplify(latex: str, macros: dict[str, str] | None = None, plain: frozenset = frozenset()) -> str:
    r"""``latex`` rewritten for the reading grammar (see the module docstring); bounded work.

    ``plain``: letters the document uses both in bold and, plain, for something else (``V`` the vocabulary
    size beside the values ``\mathbf{V}``): a plain one becomes the name ``\text{V}``, kept apart.
    Remembered per process for short fragments (the checker's passes read each fragment several times)."""
    items, plain = (tuple(macros.items()) if macros else ()), frozenset(plain)
    if len(latex) > _MEMO_LENGTH:
        return _simplify(latex, items, plain)
    return _simplify_memo(latex, items, plain)


_MEMO_LENGTH = 2000  # longer fragments are rewritten afresh each time: the memo stays small


# one argument of a macro call: a braced group (two levels of braces inside), or one command or character
_ARGUMENT = r"\s*(?:\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}|(\\[A-Za-z]+|[^\s{}\\]))"


def _filled(body: str, call: re.Match) -> str:
    """A macro's ``body`` with ``#k`` replaced by the call's k-th argument."""
    args = [a if a is not None else b for a, b in zip(call.groups()[0::2], call.groups()[1::2])]
    return re.sub(r"#([1-9])", lambda m: args[int(m.group(1)) - 1] if int(m.group(1)) <= len(args) else "", body)


def _simplify(latex: str, items: tuple, plain: frozenset) -> str:
    macros = dict(items)
    text = latex
    for letter in plain:
        text = re.sub(r"(?<![\\{A-Za-z_^])" + letter + r"(?![A-Za-z])", r"\\text{" + letter + "}", text)
    if macros:
        with_args = [(name.split("#")[0], int(name.split("#")[1]), body) for name, body in macros.items() if "#" in name]
        macros = {name: body for name, body in macros.items() if "#" not in name}
        names = sorted(macros, key=len, reverse=True)
        pattern = re.compile("(?:" + "|".join(re.escape(n) for n in names) + r")(?![A-Za-z])") if names else None
        calls = [(re.compile(re.escape(name) + r"(?![A-Za-z])" + _ARGUMENT * count), body)
                 for name, count, body in with_args]  # \norm{x}: its body with x for #1
        for _ in range(_MAX_PASSES):
            new = pattern.sub(lambda m: " " + macros[m.group(0)] + " ", text) if pattern else text  # \R, not \Rightarrow
            for call, body in calls:
                new = call.sub(lambda m, body=body: " " + _filled(body, m) + " ", new)
            if new == text:
                break
            text = new[: 4 * len(latex) + 200]  # an expansion may not blow a fragment up
    text = _ENV.sub(" ", text)
    text = _NEWLINE.sub(r"\\\\", text)  # \newline: a line break, as \\
    text = _ROW_SPACE.sub(r"\1", text)  # \\[10pt]: the row break without its extra space
    text = _REMARK.sub(" ", text)
    text = _LABEL.sub(" ", text)  # \text{Original:} softmax(q^T k), … \text{Epanechikov.}: a label, not a factor
    text = _TAG.sub(" ", text)  # … V \quad (23): an equation number  # d_k = 3 \quad \text{(key/value dimension)}: a remark in parentheses
    text = _DROP_ARG.sub(" ", text)
    text = _UNDER_OPERATOR.sub(r"\2_{\1}", text)
    text = _OVER.sub(r"\1", text)
    text = _BRACE.sub(r"\1", text)
    text = _SITE_OPERATOR.sub(_site_operator, text)
    if "\\bb" in text:
        text = _SITE_BOLD.sub(lambda m: ("\\mathbb{%s}" if m.group(1) in "RNZCQ" else "\\mathbf{%s}") % m.group(1), text)
    text = _SITE_TRANSPOSE.sub(r"^\\top ", text)
    for _ in range(3):  # nested fonts: \mathbf{\mathrm{x}}; a word in a font is a name (\mathrm{softmax})
        new = _AFTER_COMMAND.sub(r"\1 \2", text)  # \Delta\mathbf{e}: the letter stays apart from the command
        new = _FONT.sub(_unfont, new)
        if new == text:
            break
        text = new
    text = _UPRIGHT_WORD.sub(r"\\text{\1}", text)  # {\rm AugMSA}: an upright word is a name, as \mathrm{AugMSA} is
    text = _BOLD_SHORT.sub("", text)
    text = _FONT_BARE.sub(" ", text)
    text = _CAL.sub(r"\\text{cal \1}", text)
    text = _BBB.sub(r"\\mathbb{\1}", text)
    text = _REALS.sub(r"\\mathbb{R}", text)
    text = _PLAIN_REALS.sub(r"\1\\mathbb{R}", text)
    text = _XARROW.sub(lambda m: r" \to " if m.group(1) == "right" else r" \leftarrow ", text)
    text = _FORALL.sub(" ", text)
    text = _SEPARATE.sub(" " if r"\begin" in text else f" {SEPARATOR} ", text)
    if len(re.findall(r"(?<![<>\\!])=", text)) >= 2:  # x = … \text{ and } y = …, h = 8\text{, }d_k = 64: two statements
        text = _AND.sub(r" \\\\ " if r"\begin" in text else f" {SEPARATOR} ", text)
    text = _E_NOTATION.sub(r"{\1 \\cdot 10^{\2}}", text)  # one group: 3.8e18 / 5e13 is (3.8·10¹⁸)/(5·10¹³)
    text = _DIVIDED_BY_TIMES_TEN.sub(r"\1{\2 \\cdot \3}", text)  # … / 180 * 10^9: by the number 180·10⁹
    text = _THOUSANDS.sub("", text)
    text = _PRIME.sub(r"^{\\prime}", text)
    text = _ASCII_NORM.sub(r"\\|\1\\|", text) if "||" in text else text
    text = text.replace(r"\approxeq", r"\approx").replace(r"\simeq", r"\approx")
    text = _GETS.sub(r"\\leftarrow", text)  # p \gets p + 1: an assignment, as ←
    if "." in text and "\\text" not in text:  # (not beside words in \text{…}: e.g., i.e. stay as written)
        text = _ASCII_DOTS.sub(_dots, _ASCII_DOT.sub(r"\1 \\cdot ", text))
    text = _ESCAPED_AFTER.sub(r"\1_", text.replace("{\\_}", "\\_"))  # \alpha\_i, [\cdot]\_k; step{\_}num
    text = _ESCAPED_SCRIPT.sub("_", text)
    return _ESCAPED_NAME.sub(_escaped_name, text)  # m\_new, qk\_scale: one name (Markdown escapes its _)


def _dots(m: re.Match) -> str:
    r"""Three or more periods as ``\dots``: in a list (``x_3...x_n``, ``c, .... c``) between commas, beside an
    operator (``1 + ... + n``) as they stand, before a closing bracket (``x_3,... \right)``) the list's last item."""
    before, after = m.string[:m.start()].rstrip(), m.string[m.end():].lstrip()
    if before[-1:] in set("+-*/=<>([{") or after[:1] in set("+-*/=<>)]}") or before.endswith("\\cdot") or \
            after.startswith(("\\right", "\\}", "\\rangle")):
        return ", \\dots " if (m.group(1) or "," in before[-40:]) and after[:1] in set(")]}\\") else " \\dots "
    return ", \\dots, " if before and after else " \\dots "


def _escaped_name(m: re.Match) -> str:
    r"""``qk\_scale`` as the name ``\text{qk\_scale}``; inside a ``\text{…}`` already (``\text{multiple\_of\_256}``)
    left as it is, one name, not a name inside a name."""
    before = m.string[max(0, m.start() - 200):m.start()]
    opened, closed = before.rfind("\\text{"), before.rfind("}")
    if opened > closed or re.search(r"\\[A-Za-z]+\s*\{$", before):  # in \text{…} or another command's argument
        return m.group(0)
    return "\\text{" + m.group(1) + "}"


_simplify_memo = lru_cache(maxsize=4096)(_simplify)
