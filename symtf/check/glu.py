r"""A gated linear unit gated with another unit's function: ``\mathrm{SwiGLU}(x) = \sigma(xW_1) \odot xW_3`` with σ the
sigmoid (the prose says so) is GLU, not SwiGLU, whose gate is Swish (SiLU), x·σ(x).

Which gate belongs to which name is data (``glu_gates`` in ``data/meanings.yaml``, Shazeer 2020). A formula is judged
when its left side names a unit (``\mathrm{SwiGLU}(x)``, ``\mathrm{FFN}_{\mathrm{SwiGLU}}(x)``) and its right side
multiplies, entry by entry, a function of a known gate by the rest; a σ is a gate only where the document's prose
calls σ the sigmoid (many writers use σ for any activation).
"""
from __future__ import annotations

import re

from .compare import walk
from .data import load

_SIGMA_IS_SIGMOID = re.compile(r"\\sigma\s*\$?\s*(?:[:：,-]|is|=|denotes|stands for|为|是)?[^.$\n]{0,30}\bsigmoid", re.I)


def sigma_is_sigmoid(blocks) -> bool:
    """Does a block of the document's prose say that σ is the sigmoid ("$\\sigma$: sigmoid function")?"""
    return any(_SIGMA_IS_SIGMOID.search(text[:20000]) for _, text in blocks)


def _named_unit(node) -> str | None:
    """The unit a left side names: ``\\mathrm{SwiGLU}(x)`` or ``\\mathrm{FFN}_{\\mathrm{SwiGLU}}(x)``, else None."""
    units = load("meanings.yaml")["glu_gates"]
    if node[0] == "call" and node[1] in units:
        return node[1]
    if node[0] == "mul" and node[1][0] == "sym" and node[1][2]:
        label = re.sub(r"\\text\{|\\mathrm\{|[{}]", "", node[1][2])
        return label if label in units else None
    return None


def _gate(node, sigmoid_sigma: bool) -> str | None:
    """The gate a call applies (sigmoid, relu, gelu, swish), or None."""
    if node[0] != "call":
        return None
    if node[1] == "sigma":
        return "sigmoid" if sigmoid_sigma else None
    names = load("meanings.yaml")["gate_names"]
    return next((gate for gate, written in names.items() if node[1] in written), None)


def slip(exprs, sigmoid_sigma: bool) -> tuple[str, str, str] | None:
    """(the unit named, the gate written, the unit's own gate) where a two-sided ``exprs`` names a unit and gates
    its entrywise product with another unit's function; None otherwise."""
    if len(exprs) != 2 or exprs[0] is None or exprs[1] is None:
        return None
    unit = _named_unit(exprs[0])
    if unit is None:
        return None
    own = load("meanings.yaml")["glu_gates"][unit]
    for n in walk([exprs[1]]):
        if n[0] == "mul" and n[3] == "⊙":
            gates = [g for g in (_gate(n[1], sigmoid_sigma), _gate(n[2], sigmoid_sigma)) if g is not None]
            if gates and own not in gates:
                return unit, gates[0], own
    return None


_SHOWN = {"sigmoid": "the sigmoid σ", "relu": "ReLU", "gelu": "GELU", "swish": "Swish (SiLU, x·σ(x))"}


def message(found) -> str:
    unit, written, own = found
    named = {gate: name for name, gate in load("meanings.yaml")["glu_gates"].items()}
    return (f"{unit} gates with {_SHOWN[own]} (Shazeer 2020); the gate written is {_SHOWN[written]}, which makes "
            f"this {named.get(written, 'another unit')}, not {unit}")
