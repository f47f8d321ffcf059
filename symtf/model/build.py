r"""Build the post's tables as data, for any ``Variant``.

Each builder lists the rows in the post's order, each row's expression written with earlier
rows' symbols, as the table writes it. Sizes are the symbols of ``symtf.dims``.
"""
from __future__ import annotations

from sympy import Symbol, sqrt
from sympy.matrices.expressions.matexpr import MatrixSymbol

from ..dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from ..ops import (
    GELU, Broadcast, CausalSoftmax, Column, GELUTanh, HeadConcat, HeadMatrixSymbol, HeadSum, LayerNorm,
    LeadingColumns, ReLU, Softmax, WeightedSum,
)
from .records import Activation, Block, Model, Parameter, ParamRow
from .variants import Convention, Heads, Kind, Nonlinearity, Variant

#: The generic attention head $h \in \{1, \dots, H\}$.
h = Symbol("h", integer=True, positive=True)

TL = "blocks.0."  # TransformerLens hook prefix of the (only) layer

NONLINEARITY = {Nonlinearity.RELU: ReLU, Nonlinearity.GELU: GELU, Nonlinearity.GELU_TANH: GELUTanh}


class _Params:
    """The parameters of one variant, created once so that every row shares the same symbols."""

    def __init__(self, variant: Variant, per_head: bool, attention: bool = True):
        self.variant = variant
        self.per_head = per_head
        self._by_key: dict[str, Parameter] = {}
        self.add("W_E", (d_model, n_vocab), "token embedding matrix: column k embeds token k")
        self.add("W_pos", (d_model, n_ctx), "positional embeddings: column i for position i")
        if attention:
            self.attention("")

    def attention(self, layer: str) -> None:
        """The attention parameters of one layer (``layer`` suffixes their symbols' names)."""
        for name, what in (("Q", "query"), ("K", "key"), ("V", "value")):
            self.add(f"W_{name}", (d_head, d_model), f"{what} projection", self.per_head, layer)
        if self.variant.attn_bias:
            for name, what in (("Q", "query"), ("K", "key"), ("V", "value")):
                self.add(f"b_{name}", (d_head,), f"{what} bias", self.per_head, layer)
        self.add("W_O", (d_model, d_head), "output projection back to the residual stream", self.per_head, layer)
        if self.variant.attn_bias:
            self.add("b_O", (d_model,), "attention output bias", layer=layer)

    def add(self, key, shape, description, per_head=False, layer=""):
        rows, cols = (shape[0], 1) if len(shape) == 1 else shape
        name = key + layer
        symbol = HeadMatrixSymbol(name, rows, cols, h) if per_head else MatrixSymbol(name, rows, cols)
        self._by_key[key] = Parameter(key, symbol, tuple(shape), description, per_head, per_layer=bool(layer))
        return symbol

    def __getitem__(self, key) -> MatrixSymbol:
        return self._by_key[key].symbol

    def __contains__(self, key) -> bool:
        return key in self._by_key

    def all(self) -> tuple[Parameter, ...]:
        return tuple(self._by_key.values())

    def unembedding(self):
        if self.variant.tied_unembed:
            return self["W_E"].T
        return self.add("W_U", (n_vocab, d_model), "unembedding matrix: row k scores token k")


def _act(key, name, sym_name, expr, shape, description, hook=None, per_head=False, **flags) -> Activation:
    rows, cols = (shape[0], 1) if len(shape) == 1 else shape
    if expr is not None:  # a symbol's shape is its expression's shape; the table's cell is checked later
        rows, cols = expr.shape
    symbol = HeadMatrixSymbol(sym_name, rows, cols, h) if per_head else MatrixSymbol(sym_name, rows, cols)
    return Activation(key, name, symbol, expr, tuple(shape), description, hook, per_head, **flags)


def _embedding(P: _Params, sym_name: str) -> tuple[Activation, Activation]:
    tokens = _act("tokens", "Input tokens", "t", None, (n_vocab, n), "one-hot tokens, one column per position",
                  columns=True)
    embed = _act("embed", "Embedding", sym_name, P["W_E"] * tokens.symbol + LeadingColumns(P["W_pos"], n),
                 (d_model, n), "token plus positional embedding: the residual stream at layer 0",
                 TL + "hook_resid_pre", columns=True)
    return tokens, embed


def zero_layer(variant: Variant) -> Model:
    r"""$p = \text{softmax}(W_U (W_E t + W_\text{pos}))$: embedding, then straight to the unembedding."""
    P = _Params(variant, per_head=False)
    tokens, embed = _embedding(P, "x0")
    x = embed.symbol
    if variant.final_layernorm:
        raise ValueError("the zero-layer model has no final LayerNorm in the post")
    logits = _act("logits", "Logits", "logits", P.unembedding() * x, (n_vocab, n), "scores for each next token")
    probs = _act("probs", "Probabilities", "p", Softmax(logits.symbol, 0), (n_vocab, n),
                 "next-token distribution for each position (columns sum to 1)")
    keep = ("W_E", "W_pos", "W_U")
    params = tuple(p for p in P.all() if p.key in keep)
    rows = tuple(ParamRow(layer, (key,)) for layer, key in
                 (("Embedding", "W_E"), ("Embedding", "W_pos"), ("Unembedding", "W_U")) if key in P)
    return Model("zero-layer", "Zero-layer Transformer", variant, (tokens, embed, logits, probs), params, rows,
                 "params-zero-layer")


def simplified_one_layer(variant: Variant) -> Model:
    r"""The post's first one-layer table: one head, attention only, only the last token $x_n$ updated."""
    P = _Params(variant, per_head=False)
    tokens, embed = _embedding(P, "x")
    x = embed.symbol
    x_n = Column(x, n)
    q = _act("q", "Query", "q_n", P["W_Q"] * x_n, (d_head, 1), "query of the last token", TL + "attn.hook_q")
    k = _act("k", "Keys", "k", P["W_K"] * x, (d_head, n), "a key per token", TL + "attn.hook_k", columns=True)
    v = _act("v", "Values", "v", P["W_V"] * x, (d_head, n), "a value per token", TL + "attn.hook_v", columns=True)
    s = _act("scores", "Attention scores", "s", q.symbol.T * k.symbol / sqrt(d_head), (n,),
             "compatibility of the last query with each key", TL + "attn.hook_attn_scores")
    a = _act("pattern", "Attention weights", "a", Softmax(s.symbol, 1), (n,),
             "weights over the tokens, summing to 1", TL + "attn.hook_pattern")
    r = _act("result", "Attention result", "r_n", WeightedSum(v.symbol, a.symbol), (d_head, 1),
             "weighted average of the values", TL + "attn.hook_z")
    o = _act("head_out", "Attention output", "o_n", P["W_O"] * r.symbol, (d_model, 1),
             "the result written back into the residual stream", TL + "attn.hook_result")
    x1 = _act("resid_mid", "Updated last-token embedding", "x1_n", x_n + o.symbol, (d_model, 1),
              "residual connection: last token plus attention output", TL + "hook_resid_mid")
    logits = _act("logits", "Next-token logits", "logits_next", P.unembedding() * x1.symbol, (n_vocab, 1),
                  "scores for the token after the last")
    probs = _act("probs", "Next-token probabilities", "p_next", Softmax(logits.symbol, 0), (n_vocab, 1),
                 "the model's distribution over the next token")
    rows = tuple(ParamRow("", keys) for keys in
                 (("W_E",), ("W_pos",), ("W_Q", "W_K", "W_V"), ("W_O",), ("W_U",)) if keys[0] in P)
    acts = (tokens, embed, q, k, v, s, a, r, o, x1, logits, probs)
    return Model("simplified-one-layer", "Simplified one-layer, attention-only Transformer (last token)",
                 variant, acts, P.all(), rows, "params-simplified")


LAYER = "_l"  # name suffix of the symbols of the generic layer ℓ (symtf.model.notation prints the ℓ)
_TL_BLOCK = "blocks.{l}."  # TransformerLens hook prefix of block ℓ (0-based l = ℓ - 1)


def _block(P: _Params, acts: list, x_in, layer: str, hook: str):
    r"""Append block rows (LayerNorm, $H$ heads, MLP) acting on the residual stream ``x_in``; return its output.

    ``layer`` suffixes the names of the block's own symbols ("" in the one-layer model, ``"_l"`` for
    the generic layer $\ell$) and ``hook`` prefixes their TransformerLens hook names.
    """
    variant = P.variant

    def layernorm(key, sym_name, x, tag):
        if not variant.layernorm:
            return x
        g = P.add(f"{tag}_g", (d_model,), f"LayerNorm scale ({tag})", layer=layer)
        b = P.add(f"{tag}_b", (d_model,), f"LayerNorm shift ({tag})", layer=layer)
        act = _act(key, "LayerNorm", sym_name + layer, LayerNorm(x, g, b, variant.ln_eps), (d_model, n),
                   "each token's vector normalised to mean 0, variance 1, then scaled and shifted",
                   hook + f"{tag}.hook_normalized")
        acts.append(act)
        return act.symbol

    def plus_bias(expr, key):
        return expr + Broadcast(P[key], n) if key in P else expr

    P.attention(layer)
    x_ln = layernorm("ln1", "x0_ln", x_in, "ln1")
    qkv = []
    for key, name, W, b in (("q", "Queries", "W_Q", "b_Q"), ("k", "Keys", "W_K", "b_K"), ("v", "Values", "W_V", "b_V")):
        act = _act(key, name, key + layer, plus_bias(P[W] * x_ln, b), (d_head, n),
                   f"{name.lower()} of every token, per head", hook + f"attn.hook_{key}", per_head=True)
        acts.append(act)
        qkv.append(act.symbol)
    q, k, v = qkv
    S = _act("scores", "Attention scores", "S" + layer, q.T * k / sqrt(d_head), (n, n),
             "row i: query i against every key", hook + "attn.hook_attn_scores", per_head=True, token_columns=False)
    A = _act("pattern", "Attention weights", "A" + layer, CausalSoftmax(S.symbol), (n, n),
             "row i: softmax over keys 1..i, zero above the diagonal", hook + "attn.hook_pattern", per_head=True,
             token_columns=False)
    r = _act("result", "Attention result", "r" + layer, v * A.symbol.T, (d_head, n),
             "column i: weighted average of values 1..i", hook + "attn.hook_z", per_head=True)
    acts += [S, A, r]
    if variant.heads is Heads.ADDITIVE:
        o = _act("head_out", "Attention output", "o" + layer, P["W_O"] * r.symbol, (d_model, n),
                 "each head's result written into the residual stream", hook + "attn.hook_result", per_head=True)
        acts.append(o)
        attn = HeadSum(o.symbol, h, H)
    else:
        W_O = HeadConcat(P["W_O"], h, H, axis=1)  # d_model × H d_head
        R = HeadConcat(r.symbol, h, H, axis=0)  # H d_head × n
        o = _act("attn_out", "Attention output", "attn" + layer, W_O * R, (d_model, n),
                 "all heads at once: W_O R with W_O = [W_O^{h_1} | ... | W_O^{h_H}]", hook + "hook_attn_out")
        acts.append(o)
        attn = o.symbol
    x1 = _act("resid_mid", "Post-attention embeddings", "x1" + layer, plus_bias(x_in + attn, "b_O"), (d_model, n),
              "residual stream after attention", hook + "hook_resid_mid")
    acts.append(x1)
    x1_ln = layernorm("ln2", "x1_ln", x1.symbol, "ln2")
    W_1 = P.add("W_1", (d_mlp, d_model), "MLP input weights", layer=layer)
    b_1 = P.add("b_1", (d_mlp,), "MLP input bias", layer=layer)
    W_2 = P.add("W_2", (d_model, d_mlp), "MLP output weights", layer=layer)
    b_2 = P.add("b_2", (d_model,), "MLP output bias", layer=layer)
    act_name = {Nonlinearity.RELU: "ReLU", Nonlinearity.GELU: "GELU", Nonlinearity.GELU_TANH: "GELU (tanh)"}
    z = _act("mlp_hidden", "MLP hidden layer", "z" + layer,
             NONLINEARITY[variant.nonlinearity](W_1 * x1_ln + Broadcast(b_1, n)), (d_mlp, n),
             f"{act_name[variant.nonlinearity]} of the MLP's first projection, token by token", hook + "mlp.hook_post")
    m = _act("mlp_out", "MLP output", "m" + layer, W_2 * z.symbol + Broadcast(b_2, n), (d_model, n),
             "the MLP's contribution to the residual stream", hook + "hook_mlp_out")
    x2 = _act("resid_post", "Post-MLP embeddings", "x2" + layer, x1.symbol + m.symbol, (d_model, n),
              "residual stream after the block", hook + "hook_resid_post")
    acts += [z, m, x2]
    return x2.symbol


def _unembed(P: _Params, acts: list, x, final_name: str):
    """Append the final LayerNorm (if any), the logits and the probabilities of the residual stream ``x``."""
    variant = P.variant
    if variant.final_layernorm:
        g = P.add("lnf_g", (d_model,), "LayerNorm scale (lnf)")
        b = P.add("lnf_b", (d_model,), "LayerNorm shift (lnf)")
        lnf = _act("lnf", "LayerNorm", final_name, LayerNorm(x, g, b, variant.ln_eps), (d_model, n),
                   "each token's vector normalised to mean 0, variance 1, then scaled and shifted",
                   "ln_final.hook_normalized")
        acts.append(lnf)
        x = lnf.symbol
    logits = _act("logits", "Logits", "logits", P.unembedding() * x, (n_vocab, n),
                  "column i: scores for the token after position i")
    probs = _act("probs", "Probabilities", "p", Softmax(logits.symbol, 0), (n_vocab, n),
                 "column i: distribution over the token after position i")
    acts += [logits, probs]


def _param_rows(P: _Params, final: bool = True) -> tuple[ParamRow, ...]:
    layout = [("Embedding", ("W_E",)), ("Embedding", ("W_pos",))]
    tags = ("ln1", "ln2", "lnf") if final else ("ln1", "ln2")
    norms = tuple(f"{t}_{v}" for t in tags for v in ("g", "b") if f"{t}_g" in P)
    layout += [("LayerNorm", norms)] if norms else []  # one row, as the post: every LayerNorm has a γ and a β
    layout += [("Attention Head", ("W_Q", "W_K", "W_V")), ("Attention Head", ("b_Q", "b_K", "b_V")),
               ("Attention Head", ("W_O",)), ("Attention", ("b_O",)),
               ("MLP", ("W_1", "b_1")), ("MLP", ("W_2", "b_2")), ("Unembedding", ("W_U",))]
    if not final:
        layout = [row for row in layout if row[0] not in ("Embedding", "Unembedding")]
    return tuple(ParamRow(layer, keys) for layer, keys in layout if keys[0] in P)


def full_one_layer(variant: Variant) -> Model:
    r"""The post's full one-layer table: LayerNorm, $H$ heads on every token, a ReLU (or GELU) MLP."""
    P = _Params(variant, per_head=True, attention=False)
    tokens, embed = _embedding(P, "x0")
    acts = [tokens, embed]
    relations = {d_model: H * d_head} if variant.heads is Heads.CONCAT else {}
    x2 = _block(P, acts, embed.symbol, "", TL)
    _unembed(P, acts, x2, "x2_ln")
    return Model("full-one-layer", "Full one-layer Transformer", variant, tuple(acts), P.all(), _param_rows(P),
                 "params-full", relations)


def stacked(variant: Variant) -> Model:
    r"""$L$ blocks: $x^{(2\ell-1)} = x^{(2\ell-2)} + \sum_h o^{h,\ell}$, $x^{(2\ell)} = x^{(2\ell-1)} + m^\ell$.

    The residual stream is numbered as in the post and in "A Mathematical Framework for
    Transformer Circuits": $x^{(0)}$ is the embedding, and each sublayer adds to it, so block
    $\ell$ reads $x^{(2\ell-2)}$, writes $x^{(2\ell-1)}$ after its attention and $x^{(2\ell)}$ after
    its MLP (for $L = 1$: the post's $x^{(0)}, x^{(1)}, x^{(2)}$). Block rows are written once, for
    the generic layer $\ell$ (symbols named with the suffix ``_l``; per-layer parameters
    $W_Q^{h,\ell}$, $W_1^\ell$, $\gamma_1^\ell$ ...) and ``model.block`` says which rows repeat and
    which symbols carry the stream in and out; the final rows read $x^{(2L)}$.
    """
    if variant.layers < 1:
        raise ValueError(f"a model has at least one layer, got layers={variant.layers}")
    P = _Params(variant, per_head=True, attention=False)
    tokens, embed = _embedding(P, "x0")
    acts = [tokens, embed]
    relations = {d_model: H * d_head} if variant.heads is Heads.CONCAT else {}
    x_in = MatrixSymbol("x0" + LAYER, d_model, n)  # x^{(2ℓ-2)}: x^{(0)} for ℓ = 1, else block ℓ-1's output
    first = len(acts)
    x_out = _block(P, acts, x_in, LAYER, _TL_BLOCK)
    keys = tuple(a.key for a in acts[first:])
    x_final = MatrixSymbol("xL", d_model, n)  # x^{(2L)}
    _unembed(P, acts, x_final, "xL_ln")
    block = Block(keys, x_in, x_out, x_final, variant.layers)
    return Model(f"{variant.layers}-layer", f"Transformer with {variant.layers} layers", variant, tuple(acts), P.all(), _param_rows(P),
                 "params-block", relations, block)


BUILDERS = {Kind.ZERO: zero_layer, Kind.SIMPLIFIED: simplified_one_layer, Kind.FULL: full_one_layer}


def _builder(variant: Variant):
    if variant.layers == 1:
        return BUILDERS[variant.kind]
    if variant.kind is not Kind.FULL:
        raise ValueError(f"only the full model has several layers; the {variant.kind.value} model has one "
                         f"(got layers={variant.layers})")
    return stacked


def build(variant: Variant | str = Variant()) -> Model:
    """The model of ``variant`` (a ``Variant`` or a preset name: zero, simplified, full, full-no-ln, gpt2)."""
    if isinstance(variant, str):
        variant = Variant.preset(variant)
    model = _builder(variant)(variant.with_(convention=Convention.COLUMN))
    if variant.convention is Convention.ROW:
        from .row import to_row

        model = to_row(model)
    return model
