r"""The document's own model, learned as it is read: what each symbol means *there*.

A symbol means what the document says it means. Reading in order, the document's prose and
declarations give symbols meanings (``$V$ is the vocabulary size`` makes $V$ a size, not the values;
``in layer $\ell$`` makes $\ell$ an index, not the logits); size statements (``d_\text{model} = 512``)
give the document's own sizes; and the prose records how its model deviates from the reference one
(an encoder without a causal mask, post-LN, sinusoidal positions ...). The phrases are data
(``data/meanings.yaml``, ``data/deviations.yaml``), not code.

The checker then reads a symbol through the notation profile only where the document has not given it
another meaning (:meth:`DocumentModel.profile`), and compares a claim with the reference model only
where the document's own verified definitions tie its symbols to the reference quantities (anchoring,
in :mod:`symtf.check.checker`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .data import load


_PROSE_CAP = 240  # characters of prose read on either side of a symbol: bounded work per fragment


@dataclass(frozen=True)
class Meaning:
    """What the document says one symbol is (``key`` as written: ``V``, ``d_model``, ``\\ell``)."""

    key: str
    kind: str  # size | index | other
    what: str
    line: int
    size: str | None = None  # the reference size (a key of the profile's ``sizes``) for kind "size"


@dataclass(frozen=True)
class Deviation:
    """A way the document's model differs from the reference one, stated at ``line``."""

    id: str
    line: int
    note: str
    evidence: str


@dataclass
class DocumentModel:
    """Symbols' meanings, the document's sizes, its deviations and the models it names."""

    meanings: dict[str, Meaning] = field(default_factory=dict)
    sizes: dict[str, tuple[float, int]] = field(default_factory=dict)  # size key -> (value, line)
    deviations: list[Deviation] = field(default_factory=list)
    mask_written: int | None = None  # line where the document first writes a causal mask (softmax*, −∞, M)
    convention: str = ""
    anchored: set[str] = field(default_factory=set)
    matrices: set[str] = field(default_factory=set)  # letters the document treats as vectors or matrices

    def deviation(self, dev_id: str) -> Deviation | None:
        return next((d for d in self.deviations if d.id == dev_id), None)

    def profile(self, base: dict) -> dict:
        """``base`` without the symbols this document gives another meaning (a size, a count ...), and with the
        sizes it names. An index meaning changes nothing: an index letter may name a quantity elsewhere (the
        post's ℓ is a layer index in one place and the logits in another)."""
        sizes = dict(base["sizes"])
        taken = {k for k, m in self.meanings.items() if m.kind != "index"}
        for key, m in self.meanings.items():
            if m.kind == "index":
                continue
            if m.kind == "size" and m.size:
                sizes[key] = m.size
            elif key in sizes and (m.kind != "size" or sizes[key] != m.size):
                del sizes[key]
        params = {k: v for k, v in base["params"].items() if k not in taken}
        acts = {kind: {k: v for k, v in table.items() if k.split("[")[0].split("_")[0].split("^")[0] not in taken
                       and k not in taken}
                for kind, table in base["activations"].items()}
        return {**base, "sizes": sizes, "params": params, "activations": acts}

    def renamed_sizes(self, usual: dict) -> dict:
        """Size letter → the line where the prose gives it a size other than its ``usual`` one in the profile
        (``d_model`` called "the dimensionality of the projected subspaces": the head size)."""
        return {key: m.line for key, m in self.meanings.items()
                if m.kind == "size" and m.size and usual.get(key, m.size) != m.size}

    def explain(self) -> dict:
        """What was learned, for ``--explain-model`` and the JSON report."""
        return {
            "convention": self.convention,
            "symbols": [{"symbol": m.key, "kind": m.kind, "meaning": m.what, "line": m.line,
                         **({"size": m.size} if m.size else {})} for m in self.meanings.values()],
            "sizes": [{"size": k, "value": _plain(v), "line": line} for k, (v, line) in self.sizes.items()],
            "deviations": [{"id": d.id, "line": d.line, "message": d.note, "evidence": d.evidence}
                           for d in self.deviations],
            "causal_mask_written": self.mask_written,
            "anchored": sorted(self.anchored),
        }


def _plain(v: float):
    return int(v) if float(v).is_integer() else v


@lru_cache(maxsize=1)
@lru_cache(maxsize=1)
def _data() -> tuple:
    meanings = load("meanings.yaml")
    deviations = load("deviations.yaml")
    phrases = [(re.compile(r"^(?:" + p["phrase"] + r")\b"), re.compile(r"\b(?:" + p["phrase"] + r")\s*$"), p)
               for p in meanings["phrases"]]
    index_nouns = re.compile(r"\b(?:" + meanings["index_nouns"] + r")s?\s*$")
    devs = [(re.compile(d["phrase"]), d) for d in deviations["deviations"]]
    return phrases, index_nouns, devs


_AFTER = re.compile(r"^\s*(?:[:：]\s*|[,:]?\s*(?:\(\s*|[—–]\s*|--?\s+|"  # a colon, (, a dash, or a verb opens it
                    r"(?:is|denotes|represents|stands for|refers to|will be|be|are|as|for|is called|"
                    r"(?:which|that) (?:is|denotes|represents)|representing|denoting|standing for)\s+|"
                    r"(?=(?:attention |transformer |decoder |encoder )?(?:heads|layers)\b)))"
                    r"(?:the|a|an|our|its|their)?\s*(?P<phrase>[^.;:$()]{0,80})")
_BEFORE = re.compile(r"(?:the|a|an|our|its|their|with|of)\s+(?P<phrase>[^.;:$()]{0,80}?)\s*[,(]?\s*$")


def _plain_prose(text: str) -> str:
    return re.sub(r"[*_`]", "", text[:_PROSE_CAP]).lower()


def about_the_model(text: str) -> bool:
    """Does ``text`` (a paragraph, a heading) speak of the model (``model_words`` in ``data/meanings.yaml``)?"""
    return _model_words().search(_plain_prose(text)) is not None


def speaks_of(blocks, words: str) -> bool:
    """Does the prose of ``blocks`` ((line, text) pairs) use one of the ``words`` of ``data/meanings.yaml``
    (``kernel_words``, ``descent_words``), case ignored?"""
    pattern = words_of(words)
    return any(pattern.search(text) for _, text in blocks)


@lru_cache(maxsize=16)
def words_of(key: str) -> re.Pattern:
    """The words ``key`` of ``data/meanings.yaml`` (``single_head_words``, ``unscaled_attention`` …), case ignored."""
    return re.compile(load("meanings.yaml")[key], re.I)


@lru_cache(maxsize=1)
def _model_words():
    words = load("meanings.yaml")["model_words"]
    return re.compile(r"\b(?:" + words + r")\b")


def meaning_from_prose(key: str, line: int, before: str, after: str) -> Meaning | None:
    """The meaning the prose right around a lone symbol gives it, if any (see ``data/meanings.yaml``)."""
    phrases, index_nouns, _ = _data()
    after_text, before_text = _plain_prose(after), _plain_prose(before[-_PROSE_CAP:])
    m = _AFTER.match(after_text)
    b = _BEFORE.search(before_text)
    said_before = re.search(r"\b(is|are|denotes|represents)\b", before_text) or re.match(r"\s*(?:[—–]|--?\s)", before_text)
    if b and said_before:
        b = None  # "$V$ is the vocabulary size, $D$ …", "$h$ — number of heads, $d_{ff}$": the previous symbol's
    for text, pick in ((m.group("phrase") if m else None, 0), (b.group("phrase") if b else None, 1)):
        if text is None:
            continue
        for at_start, at_end, entry in phrases:
            hit = at_start.match(text) if pick == 0 else at_end.search(text)
            if hit:
                return Meaning(key, entry["kind"], entry.get("what") or f"the {hit.group(0).strip()}", line,
                               entry.get("size"))
    if re.fullmatch(r"[a-z]|\\ell", key) and index_nouns.search(before_text):
        return Meaning(key, "index", "an index (" + index_nouns.search(before_text).group(0).strip() + ")", line)
    return None


def deviations_in(text: str, line: int) -> list[Deviation]:
    """The deviations a piece of prose states (one per id)."""
    _, _, devs = _data()
    low = _plain_prose(text) if len(text) <= _PROSE_CAP else re.sub(r"[*_`]", "", text).lower()
    out = []
    for pattern, entry in devs:
        m = pattern.search(low)
        if m:
            out.append(Deviation(entry["id"], line, entry["note"], m.group(0)))
    return out
