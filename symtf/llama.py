r"""LLaMA-style models: sizes, the SwiGLU hidden-size rule, parameters, and LLaMA-2's published configurations.

A LLaMA-style decoder differs from GPT-2 in its parts, not its shape: RMSNorm (a gain, no shift)
in place of LayerNorm, rotary position embeddings (no $W_\text{pos}$), a SwiGLU MLP with three
matrices, grouped-query attention ($H_\text{kv}$ key/value heads shared by $H$ query heads), no
biases anywhere, and an unembedding $W_U$ of its own (untied).

========  ==================  ==========================================
symbol    LaTeX               Hugging Face ``LlamaConfig``
========  ==================  ==========================================
d_model   $d_\text{model}$    hidden_size
H         $H$                 num_attention_heads
H_kv      $H_\text{kv}$       num_key_value_heads
d_head    $d_\text{head}$     head_dim (hidden_size / num_attention_heads)
d_mlp     $d_\text{mlp}$      intermediate_size (SwiGLU hidden size)
n_layers  $n_\text{layers}$   num_hidden_layers
n_vocab   $n_\text{vocab}$    vocab_size
========  ==================  ==========================================
"""
from __future__ import annotations

from dataclasses import dataclass

from sympy import Add, Expr, Integer, Mul, Symbol

from .dims import H, d_head, d_mlp, d_model, n_layers, n_vocab

H_kv = Symbol("H_kv", integer=True, positive=True)

#: The parameters of a LLaMA-style decoder: name → (shape, once per layer?). Shapes are the
#: post's column convention (``W_Q`` is $H d_\text{head} \times d_\text{model}$).
PARAMETERS: dict[str, tuple[tuple[Expr, Expr], bool]] = {
    "W_E": ((d_model, n_vocab), False),  # token embedding
    "W_Q": ((H * d_head, d_model), True),  # H query heads
    "W_K": ((H_kv * d_head, d_model), True),  # H_kv key heads (GQA)
    "W_V": ((H_kv * d_head, d_model), True),  # H_kv value heads
    "W_O": ((d_model, H * d_head), True),
    "W_gate": ((d_mlp, d_model), True),  # SwiGLU: W_down (SiLU(W_gate x) ⊙ W_up x)
    "W_up": ((d_mlp, d_model), True),
    "W_down": ((d_model, d_mlp), True),
    "g_attn": ((d_model, Integer(1)), True),  # RMSNorm gain before attention
    "g_mlp": ((d_model, Integer(1)), True),  # RMSNorm gain before the MLP
    "g_final": ((d_model, Integer(1)), False),
    "W_U": ((n_vocab, d_model), False),  # untied unembedding
}


def llama_param_formula() -> Expr:
    r"""$N = 2 n_\text{vocab} d_\text{model} + n_\text{layers}\big(2 d_\text{model} H d_\text{head} + 2 d_\text{model} H_\text{kv} d_\text{head} + 3 d_\text{model} d_\text{mlp} + 2 d_\text{model}\big) + d_\text{model}$.

    Embedding and untied unembedding; per layer $W_Q, W_O$ ($H$ heads), $W_K, W_V$
    ($H_\text{kv}$ heads), the three SwiGLU matrices and two RMSNorm gains; the final RMSNorm
    gain. No biases, no positional parameters (RoPE has none).

    >>> llama_param_formula().subs(LLAMA2["llama2-7b"].sizes())
    6738415616
    """
    per_layer = 2 * d_model * H * d_head + 2 * d_model * H_kv * d_head + 3 * d_model * d_mlp + 2 * d_model
    return 2 * n_vocab * d_model + n_layers * per_layer + d_model


def count_from_shapes() -> Expr:
    r"""$\sum$ over :data:`PARAMETERS` of rows × columns, × $n_\text{layers}$ for per-layer ones."""
    return Add(*(Mul(*shape) * (n_layers if per_layer else 1) for shape, per_layer in PARAMETERS.values()))


def swiglu_hidden(d: int, multiple_of: int, multiplier: float | None = None) -> int:
    r"""$d_\text{mlp} = \text{multiple\_of} \cdot \lceil m \lfloor \tfrac{2}{3} 4 d \rfloor / \text{multiple\_of} \rceil$: LLaMA's SwiGLU size.

    SwiGLU has three matrices instead of two, so LLaMA takes $\tfrac23$ of GPT's $4 d_\text{model}$
    (same parameter count), scales it by ``ffn_dim_multiplier`` $m$ where given, and rounds up
    to a multiple of ``multiple_of`` (Meta's ``llama/model.py``, ``FeedForward``).

    >>> swiglu_hidden(4096, 256)
    11008
    """
    hidden = int(2 * (4 * d) / 3)
    if multiplier is not None:
        hidden = int(multiplier * hidden)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


@dataclass(frozen=True)
class LlamaConfig:
    r"""One LLaMA-style model: sizes (Hugging Face ``config.json``), SwiGLU rule (Meta ``params.json``), published total."""

    name: str
    n_vocab: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    d_mlp: int
    n_layers: int
    multiple_of: int
    ffn_dim_multiplier: float | None
    published_total: int  # exact parameter count of the released checkpoint
    nominal: str  # the name the paper gives the model
    source: str

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def sizes(self) -> dict[Symbol, int]:
        r"""$\{d_\text{model} \mapsto \dots, H_\text{kv} \mapsto \text{n\_kv\_heads}, \dots\}$ for :func:`~sympy.Expr.subs`."""
        return {n_vocab: self.n_vocab, d_model: self.d_model, H: self.n_heads, H_kv: self.n_kv_heads,
                d_head: self.d_head, d_mlp: self.d_mlp, n_layers: self.n_layers}

    def param_count(self) -> int:
        return int(llama_param_formula().subs(self.sizes()))


_SOURCE = ("Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat Models (Table 1; GQA for 70B); "
           "sizes from the released config.json of meta-llama/Llama-2-{size}-hf, SwiGLU rounding from Meta's "
           "params.json and llama/model.py; total = parameters in the released checkpoint "
           "(safetensors metadata, shown as {shown} params on the Hugging Face model page)")


def _llama2(size, d, heads, kv, mlp, layers, multiple_of, multiplier, total, shown) -> LlamaConfig:
    return LlamaConfig(f"Llama 2 {size.upper()}", 32000, d, heads, kv, mlp, layers, multiple_of, multiplier, total,
                       size.upper(), _SOURCE.format(size=size, shown=shown))


#: LLaMA-2's released sizes. The paper names them 7B, 13B and 70B; the exact totals are what the
#: checkpoints hold (70B holds 68.98B: its name is nominal, not a rounding).
LLAMA2: dict[str, LlamaConfig] = {
    "llama2-7b": _llama2("7b", 4096, 32, 32, 11008, 32, 256, None, 6_738_415_616, "6.74B"),
    "llama2-13b": _llama2("13b", 5120, 40, 40, 13824, 40, 256, None, 13_015_864_320, "13.0B"),
    "llama2-70b": _llama2("70b", 8192, 64, 8, 28672, 80, 4096, 1.3, 68_976_648_192, "69.0B"),
}
