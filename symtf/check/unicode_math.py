r"""Mathematics typed as Unicode characters, written as the LaTeX the parser reads.

``√d``, ``d×d``, ``θ``: a table of the characters with a LaTeX command of their own. ``n²``, ``Wᵀ``, ``x₁``,
``𝔼``, ``ℝ``, ``𝑓``, ``，``: the Unicode database's own decompositions (``<super>``, ``<sub>``, ``<font>``,
``<wide>``), so a superscript run becomes ``^{…}``, a double-struck letter ``\mathbb{…}``, a styled or full-width
character its plain letter. ``x̄``: a combining accent becomes the accent's command on the letter before it.
Anything else is left as typed (the parser then names it).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# characters with a LaTeX command of their own: √d, a·b, d×d, −1, θ, ∑, ≝ (a definition)
_TABLE = {"√": r"\sqrt ", "·": r"\cdot ", "⋅": r"\cdot ", "×": r"\times ", "−": "-", "–": "-", "≤": r"\le ",
          "≥": r"\ge ", "≠": r"\ne ", "≈": r"\approx ", "∈": r"\in ", "→": r"\to ", "∞": r"\infty ",
          "∂": r"\partial ", "⊙": r"\odot ", "⊤": r"\top ", "…": r"\dots ", "ℓ": r"\ell ",
          "α": r"\alpha ", "β": r"\beta ", "γ": r"\gamma ", "δ": r"\delta ", "ε": r"\epsilon ", "η": r"\eta ",
          "θ": r"\theta ", "λ": r"\lambda ", "μ": r"\mu ", "π": r"\pi ", "σ": r"\sigma ", "τ": r"\tau ",
          "φ": r"\phi ", "ω": r"\omega ", "Σ": r"\Sigma ", "Δ": r"\Delta ", "Θ": r"\Theta ",
          "ϵ": r"\epsilon ", "ϕ": r"\phi ", "ζ": r"\zeta ", "κ": r"\kappa ", "ν": r"\nu ", "ξ": r"\xi ",
          "ρ": r"\rho ", "χ": r"\chi ", "ψ": r"\psi ", "Φ": r"\Phi ", "Ψ": r"\Psi ", "Ω": r"\Omega ",
          "Λ": r"\Lambda ", "Π": r"\Pi ", "∑": r"\sum ", "∏": r"\prod ", "∇": r"\nabla ", "≪": r"\ll ",
          "≫": r"\gg ", "∝": r"\propto ", "⊗": r"\otimes ", "∘": r"\circ ", "⟨": r"\langle ", "⟩": r"\rangle ",
          "‖": r"\| ", "∗": "*", "′": "'", "″": "''", "≝": ":=", "≜": ":=", "≔": ":=", "、": ",", "∼": r"\sim "}
_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0305": r"\bar", "\u20d7": r"\vec"}
_SCRIPT = {"<super>": "^", "<sub>": "_"}
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@lru_cache(maxsize=512)
def _decomposed(ch: str) -> tuple[str, str]:
    r"""``(tag, text)``: ``("^", "2")`` for ``²``, ``("", r"\mathbb{E}")`` for ``𝔼``, ``("", "f")`` for ``𝑓``;
    ``("", ch)`` where the database gives the character no such form."""
    if ch in _TABLE:
        return "", _TABLE[ch]
    parts = unicodedata.decomposition(ch).split()
    if len(parts) < 2 or parts[0] not in ("<super>", "<sub>", "<font>", "<wide>"):
        return "", ch
    plain = "".join(chr(int(p, 16)) for p in parts[1:])
    plain = "".join(_TABLE.get(c, c) for c in plain).strip()  # ⁻ is U+2212, 𝜅 is κ: their own commands
    if parts[0] in _SCRIPT:
        return _SCRIPT[parts[0]], plain
    if "DOUBLE-STRUCK" in unicodedata.name(ch, "") and plain.isalpha():
        return "", rf"\mathbb{{{plain}}}"
    return "", plain


def latex_of_unicode(text: str) -> str:
    r"""``n²`` → ``n^{2}``, ``Wᵀ`` → ``W^{T}``, ``x₁₀`` → ``x_{10}``, ``𝔼`` → ``\mathbb{E}``, ``√d`` → ``\sqrt d``,
    ``x̄`` → ``\bar{x}``: the Unicode characters of a fragment as LaTeX; ASCII text is returned as it is."""
    if not _NON_ASCII.search(text):
        return text
    out: list[str] = []
    script, run = "", ""
    for ch in text:
        if ch in _ACCENTS and out and not script and len(out[-1]) == 1 and out[-1].isalnum():
            out[-1] = f"{_ACCENTS[ch]}{{{out[-1]}}}"
            continue
        tag, plain = _decomposed(ch) if ord(ch) > 127 else ("", ch)
        if tag and tag == script:
            run += plain
            continue
        if script:
            out.append(f"{script}{{{run}}}")
        script, run = tag, plain if tag else ""
        if not tag:
            out.append(plain)
    if script:
        out.append(f"{script}{{{run}}}")
    return "".join(out)
