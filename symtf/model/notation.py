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

# A stacked model's generic layer ℓ (symbols named with LAYER_SUFFIX). The residual stream keeps the
# post's and Transformer Circuits' numbering, one step per sublayer: block ℓ reads x^{(2ℓ-2)} and
# writes x^{(2ℓ-1)} and x^{(2ℓ)}. Per-head symbols get ^{h,ℓ} from the printer (W_Q^{h,ℓ}, q^{h,ℓ});
# the others carry ℓ as a superscript, and the block's two LayerNorms are told apart by a subscript.
LAYER_SUFFIX = "_l"

LAYER: dict[str, str] = {
    "x0": r"x^{(2\ell-2)}",
    "x0_ln": r"x^{(2\ell-2)}_\text{LN}",
    "attn": r"o^{\ell}",
    "x1": r"x^{(2\ell-1)}",
    "x1_ln": r"x^{(2\ell-1)}_\text{LN}",
    "z": r"z^{\ell}",
    "m": r"m^{\ell}",
    "x2": r"x^{(2\ell)}",
    "b_O": r"b_O^{\ell}",
    "W_1": r"W_1^{\ell}",
    "b_1": r"b_1^{\ell}",
    "W_2": r"W_2^{\ell}",
    "b_2": r"b_2^{\ell}",
    "ln1_g": r"\gamma_1^{\ell}",
    "ln1_b": r"\beta_1^{\ell}",
    "ln2_g": r"\gamma_2^{\ell}",
    "ln2_b": r"\beta_2^{\ell}",
}

ROW_LAYER: dict[str, str] = {
    "x0": r"X^{(2\ell-2)}",
    "x0_ln": r"X^{(2\ell-2)}_\text{LN}",
    "attn": r"O^{\ell}",
    "x1": r"X^{(2\ell-1)}",
    "x1_ln": r"X^{(2\ell-1)}_\text{LN}",
    "z": r"Z_\text{MLP}^{\ell}",
    "m": r"M^{\ell}",
    "x2": r"X^{(2\ell)}",
}

# The stream the unembedding reads after the last block, x^{(2 n_layers)}, and its LayerNorm.
COLUMN.update({"xL": r"x^{(2 n_\text{layers})}", "xL_ln": r"x^{(2 n_\text{layers})}_\text{LN}"})
ROW.update({"xL": r"X^{(2 n_\text{layers})}", "xL_ln": r"X^{(2 n_\text{layers})}_\text{LN}"})


def split_name(name: str) -> tuple[str, bool, bool]:
    """``(base, row, layered)``: a symbol name without its row-convention and generic-layer suffixes."""
    row = name.endswith(ROW_SUFFIX)
    if row:
        name = name[: -len(ROW_SUFFIX)]
    layered = name.endswith(LAYER_SUFFIX) and name[: -len(LAYER_SUFFIX)] in COLUMN
    if layered:
        name = name[: -len(LAYER_SUFFIX)]
    return name, row, layered


def latex_name(name: str, head: bool = False) -> str | None:
    r"""The post's LaTeX for a symbol name, or None if the model did not create it.

    ``head``: the symbol is per head, and the printer adds the superscript ($h$, or $h,\ell$ in a
    generic layer); the name then maps to its bare letter.
    """
    base, row, layered = split_name(name)
    tables = []
    if layered and not head:
        tables += [ROW_LAYER, LAYER] if row else [LAYER]
    tables += [ROW, COLUMN] if row else [COLUMN]
    for table in tables:
        if base in table:
            return table[base]
    return None
