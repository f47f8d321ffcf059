r"""The post's LaTeX for every symbol the model creates, keyed by the symbol's name.

Symbol names are short identifiers (``x0_ln``, ``W_pos``, ``ln1_g``) so that distinct objects stay
distinct; this table says how the post writes each (``x^{(0)}_\text{LN}``, ``W_\text{pos}``,
``\gamma``). Per-head symbols get their head superscript from the printer ($W_Q^h$).
"""
from __future__ import annotations

COLUMN: dict[str, str] = {
    # inputs and embeddings
    "t": "t",
    "x": "x",
    "x0": "x^{(0)}",
    "x0_ln": r"x^{(0)}_\text{LN}",
    # attention
    "q": "q",
    "k": "k",
    "v": "v",
    "q_n": "q_n",
    "s": "s",
    "a": "a",
    "S": "S",
    "A": "A",
    "r": "r",
    "r_n": "r_n",
    "o": "o",
    "o_n": "o_n",
    "attn": "o",
    "x1": "x^{(1)}",
    "x1_n": "x^{(1)}_n",
    "x1_ln": r"x^{(1)}_\text{LN}",
    # MLP and output
    "z_pre": r"z_\text{pre}",
    "z": "z",
    "m": "m",
    "x2": "x^{(2)}",
    "x2_ln": r"x^{(2)}_\text{LN}",
    "logits": r"\ell",
    "logits_next": r"\ell_{n+1}",
    "p": "p",
    "p_next": "p_{n+1}",
    # parameters
    "W_E": "W_E",
    "W_pos": r"W_\text{pos}",
    "W_Q": "W_Q",
    "W_K": "W_K",
    "W_V": "W_V",
    "W_O": "W_O",
    "b_Q": "b_Q",
    "b_K": "b_K",
    "b_V": "b_V",
    "b_O": "b_O",
    "W_1": "W_1",
    "b_1": "b_1",
    "W_2": "W_2",
    "b_2": "b_2",
    "W_U": "W_U",
    "ln1_g": r"\gamma",
    "ln1_b": r"\beta",
    "ln2_g": r"\gamma",
    "ln2_b": r"\beta",
    "lnf_g": r"\gamma",
    "lnf_b": r"\beta",
}

# The row-vector convention's names (one token per row); parameters keep their names.
ROW: dict[str, str] = {
    "t": "T",
    "x0": "X^{(0)}",
    "x0_ln": r"X^{(0)}_\text{LN}",
    "q": "Q",
    "k": "K",
    "v": "V",
    "r": "Z",
    "o": "O",
    "attn": "O",
    "x1": "X^{(1)}",
    "x1_ln": r"X^{(1)}_\text{LN}",
    "z_pre": r"Z_\text{pre}",
    "z": r"Z_\text{MLP}",
    "m": "M",
    "x2": "X^{(2)}",
    "x2_ln": r"X^{(2)}_\text{LN}",
    "logits": "L",
    "p": "P",
}

ROW_SUFFIX = "_row"


def latex_name(name: str) -> str | None:
    """The post's LaTeX for a symbol name, or None if the model did not create it."""
    if name.endswith(ROW_SUFFIX):
        base = name[: -len(ROW_SUFFIX)]
        return ROW.get(base, COLUMN.get(base))
    return COLUMN.get(name)
