"""Model variants as data: which table, which options. Variants are parameters, never copies."""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from sympy import Rational


class Kind(Enum):
    ZERO = "zero"  # softmax(W_U (W_E t + W_pos))
    SIMPLIFIED = "simplified"  # one layer, one head, attention only, last token only
    FULL = "full"  # one layer, H heads, every token, MLP


class Nonlinearity(Enum):
    RELU = "relu"
    GELU = "gelu"  # exact x·Φ(x)
    GELU_TANH = "gelu_tanh"  # GPT-2's approximation


class Heads(Enum):
    ADDITIVE = "additive"  # x1 = x0 + Σ_h W_O^h r^h  (Transformer Circuits, the post)
    CONCAT = "concat"  # x1 = x0 + W_O R, W_O = [W_O^{h_1} | ... | W_O^{h_H}]  (implementations)


class Convention(Enum):
    COLUMN = "column"  # the post: x is d_model × n, q = W_Q x
    ROW = "row"  # PyTorch, TransformerLens, most papers: X is n × d_model, Q = X W_Q


@dataclass(frozen=True)
class Variant:
    """Options of a model. ``Variant.preset(name)`` gives the named ones (``symtf eval --variant``)."""

    kind: Kind = Kind.FULL
    layernorm: bool = True
    nonlinearity: Nonlinearity = Nonlinearity.RELU
    heads: Heads = Heads.ADDITIVE
    convention: Convention = Convention.COLUMN
    attn_bias: bool = False  # b_Q, b_K, b_V per head and b_O
    final_layernorm: bool = False
    ln_eps: Rational = Rational(0)
    tied_unembed: bool = False  # W_U = W_E^T
    layers: int = 1  # L blocks (Kind.FULL); the post's tables have one

    def with_(self, **changes) -> "Variant":
        return replace(self, **changes)

    @staticmethod
    def preset(name: str) -> "Variant":
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown variant {name!r}; known: {', '.join(PRESETS)}") from None


PRESETS: dict[str, Variant] = {
    "zero": Variant(kind=Kind.ZERO, layernorm=False),
    "simplified": Variant(kind=Kind.SIMPLIFIED, layernorm=False),
    "full": Variant(),
    "full-no-ln": Variant(layernorm=False),
    "gpt2": Variant(
        nonlinearity=Nonlinearity.GELU_TANH,
        attn_bias=True,
        final_layernorm=True,
        ln_eps=Rational(1, 100000),
        tied_unembed=True,
    ),
}
