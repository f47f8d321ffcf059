r"""Claims the prose states under a hypothesis: "If the keys are orthonormal ($k_j^\top k_i = 1$ when $j = i$) …".

A relation written inside a sentence that opens with *if*, *suppose*, *assume* … (or a display that continues such
a sentence after a colon: "If …, then all the cross-terms vanish: $$…$$"), inside a question ("Why not one head with
$d_k = d_\text{model}$?"), or one followed by its own condition
("$k_j^\top k_i = 1$ when $j = i$"), holds only where that condition does; one right after *when* or *if* ("MHA is
when $G=H$") is the condition itself. The checker cannot tell what the condition makes of the document's quantities,
so such a claim is never a mismatch: a verdict against the general case (random keys, the model's sizes) says nothing
about the case the text speaks of. A claim that holds in general still holds under the hypothesis, so verified
findings are kept. A statistical test's hypothesis (``H_0: \mu = 10``, :func:`statistical`) is neither claim nor
definition.
"""
from __future__ import annotations

import re

_OPENS = re.compile(r"^\W*(?:and\s+|but\s+|now\s+|so\s+)?((?:if|suppose|supposing|assume|assuming|whenever|when|"
                    r"provided|imagine|let'?s\s+(?:say|assume|suppose)|let\s+us\s+(?:say|assume|suppose)|"
                    r"in\s+the\s+(?:special\s+)?case|si|cuando|lorsque|quand|wenn|falls)\b|"
                    r"当|如果|假设|假如|倘若|もし|만약)", re.I)  # English, Spanish/French/German, Chinese, Japanese, Korean
# "If we define … as:", "When we write …": a definition the text makes, not a condition on what it states
_DEFINING = re.compile(r"^\W*\w+\s+(we|you|one)\s+(define|write|denote|call|set|let|take|introduce|use)\b", re.I)
_THEN = re.compile(r"^\W*then\b", re.I)
_FOLLOWED = re.compile(r"^\s*[,)]?\s*(?:(when|whenever|if|iff|provided|assuming|unless)\b|(时|的时候|の場合|のとき|일 때|当|如果))",
                       re.I)
# "MHA is when $G=H$", "… if $x<0$": the relation right after the word is the condition itself; "assume
# $d_{ff} = \frac{8}{3}d$", "substituting $…$": a premise the text takes, not a claim it makes
_PRECEDED = re.compile(r"(?:(?:^|\W)(when|whenever|if|iff|unless|provided(?:\s+that)?|assum(?:e|ing)|suppos(?:e|ing)|"
                       r"substitut(?:e|ing)|using|plugging\s+in)|(当|如果|若|もし|만약))\s*$", re.I)
_CONTRAST = re.compile(r"(?:^|\W)(instead\s+of|rather\s+than|as\s+opposed\s+to|而不是|而非)\s*$", re.I)
_AT = re.compile(r"(?:^|\W)at\s*$", re.I)
# S \approx 4096, d_k = 512: a letter set to a printed number, the value a sentence's "at" discusses
_SETTING = re.compile(r"\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*(?:=|\\approx|\\sim|<|>|\\le|\\ge)\s*[-\d.,{}\\ ]+")
_END = re.compile(r"(?<![A-Z]\.)(?<!\be\.g)(?<!\bi\.e)[.!?](?=\s|$)|[。！？]")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)
# H_0: \beta_1 = 0, H_a: \mu > 0: a statistical test's hypothesis, what it assumes or asks, not a statement of fact
# (H_1: \mathbb{R}^d \to \mathbb{R}^d is a map, not a hypothesis)
_STATISTICAL = re.compile(r"\s*(?:\\begin\s*\{[a-z]+\*?\}\s*(?:\{[^{}]*\}\s*)?)?&?\s*"  # \begin{align*} H_0 : …
                          r"H_\{?\s*(?:0|1|a|A|\\text\{[a-zA-Z]+\}|alt|null)\s*\}?\s*:(?!=)"
                          r"(?!\s*(?:\\mathbb|\\mathcal|\\R\b|R\^))")
MAX_BACK = 12  # fragments of one block looked back through for the sentence's start
MAX_CHARS = 600  # of prose read before a claim


def statistical(latex: str) -> bool:
    """Does ``latex`` state a statistical test's hypothesis (``H_0: \\mu = 10``, also opening an aligned environment)?
    What a test assumes or asks: neither a definition nor a claim."""
    return bool(_STATISTICAL.match(latex))


def _last_sentences(text: str) -> tuple[str, str]:
    """The sentence before the last one and the last one of ``text``, stripped (its math blanked, so a period
    inside it does not end the sentence)."""
    plain = _MATH.sub(" $ ", text[-MAX_CHARS:])
    ends = [0] + [m.end() for m in _END.finditer(plain)]
    return plain[ends[-2]:ends[-1]].strip() if len(ends) > 1 else "", plain[ends[-1]:].strip()


def _block_before(blocks: list, line: int) -> str:
    """The text of the last block of prose that starts before ``line``."""
    best = ""
    for first, text in blocks:
        if first >= line:
            break
        best = text
    return best


def condition(frags: list, blocks: list, i: int) -> str | None:
    """The words that make fragment ``i`` conditional, or None: its sentence opens with if/suppose/assume … (the
    sentence may begin in the block before a display that follows a colon), or its own condition follows it."""
    frag = frags[i]
    if _FOLLOWED.match(frag.after):
        return frag.after.strip()[:60]
    end = _END.search(_MATH.sub(lambda m: " " * len(m.group(0)), frag.after[:MAX_CHARS]))  # offsets kept
    if end and end.group(0) in "?？":  # "Why not one head with $d_k = d_{model}$?": asked, not stated
        return (_last_sentences(frag.before)[1][:50] + " $…$ " + frag.after[:end.start()].strip()[:20]).strip() + "?"
    contrast = _CONTRAST.search(frag.before)
    if contrast:  # "so that we get $QK^\top$ instead of $QK$": the form the text rejects
        return contrast.group(1)
    preceded = _PRECEDED.search(frag.before)
    if preceded:  # a CJK word needs no word boundary before it: 例如当 $x=0$ 时
        return preceded.group(1) or preceded.group(2)
    if _AT.search(frag.before) and _SETTING.fullmatch(frag.latex):  # "At $S \approx 4096$, the terms are equal"
        return "at"
    text, j = frag.before, i
    while not _END.search(_MATH.sub(" ", text)) and j > 0 and i - j < MAX_BACK and frags[j - 1].block == frag.block:
        j -= 1
        text = frags[j].before + " $ " + text
    if not _END.search(_MATH.sub(" ", text)) and not text.strip() and frag.display:
        previous = _block_before(blocks, frag.line).rstrip()
        if previous.endswith(":") or previous.endswith(","):
            text = previous
    previous, sentence = _last_sentences(text)
    if _OPENS.match(sentence) and not _DEFINING.match(sentence):
        return sentence[:60]
    if _THEN.match(sentence) and _OPENS.match(previous):  # "Suppose … . Then $…$"
        return previous[:60]
    return None


def _numbers_only(latex: str) -> bool:
    """Is ``latex`` arithmetic on printed numbers (no letter outside its commands)?"""
    return not re.search(r"[A-Za-z]", re.sub(r"\\[A-Za-z]+", "", latex))


def demote(findings: list, frags: list, blocks: list) -> None:
    """Every mismatch of a conditional claim becomes unchecked, with the condition as its reason."""
    memo: dict = {}
    for f in findings:
        if f.status != "mismatch" or not 0 <= f.fragment < len(frags) or _numbers_only(f.latex):
            continue  # ½ · 865/3.35 = 128 said after "when": arithmetic on printed numbers, whatever the condition
        if f.fragment not in memo:
            memo[f.fragment] = condition(frags, blocks, f.fragment)
        words = memo[f.fragment]
        if words:
            f.status, f.expected, f.diagnosis = "unchecked", None, None
            said = "named as the form the text rejects" if _CONTRAST.search(words) else \
                "stated under a hypothesis of the text"
            f.message = f"{said} (\"{words}…\"), which the checker cannot apply; in general: {f.message}"
