r"""The post's claims, by fixed id (the report and the bars read these ids)."""
from __future__ import annotations

from . import (
    attention,
    causality,
    embedding,
    heads,
    layernorm,
    llama,
    mlp,
    params,
    rmsnorm,
    rope,
    softmax,
    variance,
)
from .claim import Claim, Status

CLAIMS: dict[str, Claim] = {c.id: c for c in (
    Claim("concat-wo", heads.STATEMENT, heads.prove_concat, heads.ASSUMPTIONS, heads.numeric,
          section="multiple-heads"),
    Claim("variance-sqrt-dhead", variance.STATEMENT, variance.prove_variance, variance.ASSUMPTIONS,
          variance.monte_carlo, section="one-layer-simplified"),
    Claim("softmax-simplex", r"\text{softmax}(x)_j \in (0, 1),\ \sum_{j=1}^{n} \text{softmax}(x)_j = 1",
          softmax.prove_simplex, ("x real", "n >= 2 for the open interval (n = 1 gives the entry 1)"),
          softmax.numeric_simplex, section="attention-matrix"),
    Claim("softmax-shift", r"\text{softmax}(x + c\mathbf{1}) = \text{softmax}(x)", softmax.prove_shift,
          ("x real, c real", "symbolic length n"), softmax.numeric_shift, section="attention-matrix"),
    Claim("softmax-neg-inf-padding",
          r"\lim_{P \to -\infty} \text{softmax}([x, P, \dots, P]) = [\text{softmax}(x), 0, \dots, 0],\ "
          r"|\text{softmax}([x, -M])_j - \text{softmax}(x)_j| \le p\, e^{-M - \max_k x_k}",
          softmax.prove_padding, ("x real, symbolic length", "p padded entries", "M > 0"),
          softmax.numeric_padding, section="attention-matrix"),
    Claim("softmax-example", r"\text{softmax}([1, 2]) = [0.269, 0.731]", softmax.prove_example,
          ("to the three decimals printed",), softmax.numeric_example, section="attention-matrix"),
    Claim("result-matrix-form", r"r = v A^\top \iff r_i = \sum_{j \le i} a_{ij} v_j",
          attention.prove_result_matrix_form, ("A = softmax*(S)", "symbolic n, d_head"), attention.numeric_result,
          section="attention-matrix"),
    Claim("convex-combination", r"r_i = \sum_{j=1}^{i} a_{ij} v_j,\ a_{ij} > 0,\ \sum_{j \le i} a_{ij} = 1",
          attention.prove_convex, ("scores real", "symbolic n"), attention.numeric_convex, section="attention-matrix"),
    Claim("simplified-equals-last-column", r"x^{(1)}_n \text{ (simplified)} = \left(x^{(1)}\right)_{:, n} "
          r"\text{ (attention-only, } H = 1)", attention.prove_simplified,
          ("one head, no LayerNorm, no MLP",), attention.numeric_simplified, section="one-layer-simplified"),
    Claim("end-to-end-layer", r"x^{(1)} = x^{(0)} + \sum_{h=1}^{H} W_O^h W_V^h x^{(0)} \text{softmax}^*\left("
          r"\frac{(x^{(0)})^\top (W_Q^h)^\top W_K^h x^{(0)}}{\sqrt{d_\text{head}}}\right)^\top",
          attention.prove_end_to_end, ("no LayerNorm (as the post's formula)",), attention.numeric_end_to_end,
          section="multiple-heads"),
    Claim("causal", r"\partial\, (\text{output})_{:, i} / \partial t_j = 0 \text{ for } j > i",
          causality.prove_causal, ("full one-layer model: LayerNorm, H heads, ReLU MLP",),
          causality.numeric_causal, section="attention-matrix"),
    Claim("permutation-equivariance", r"f(t P) = f(t) P \text{ without } W_\text{pos} \text{ and mask}",
          causality.prove_permutation, ("no positional embedding", "plain softmax in place of softmax*"),
          causality.numeric_permutation, section="attention-matrix"),
    Claim("qk-ov-circuits", r"S^h = \frac{x^\top W_{QK}^h x}{\sqrt{d_\text{head}}},\ W_{QK}^h = (W_Q^h)^\top W_K^h;"
          r"\ \sum_h o^h = \sum_h W_{OV}^h x (A^h)^\top,\ W_{OV}^h = W_O^h W_V^h",
          attention.prove_circuits, ("x = LayerNorm output",), attention.numeric_circuits, section="multiple-heads"),
    Claim("row-column-convention", r"\text{softmax}^*\left(\frac{Q K^\top}{\sqrt{d_\text{head}}}\right) V W_O "
          r"= \left(W_O v A^\top\right)^\top,\ Q = X W_Q,\ X = (x^{(0)})^\top",
          attention.prove_row_column, ("W_row = W^T for every weight",), attention.numeric_row_column,
          section="attention-matrix"),
    Claim("mlp-position-wise", r"W_1 x = [W_1 x_1, \dots, W_1 x_n],\ \text{MLP}(x)_{:, j} = \text{MLP}(x_j)",
          mlp.prove_position_wise, ("symbolic sizes",), mlp.numeric, section="mlp"),
    Claim("layernorm-moments", r"\frac{1}{d_\text{model}} \sum_i \frac{x_i - \mu(x)}{\sigma(x)} = 0,\ "
          r"\frac{1}{d_\text{model}} \sum_i \left(\frac{x_i - \mu(x)}{\sigma(x)}\right)^2 = 1",
          layernorm.prove_moments, ("sigma(x) > 0", "epsilon = 0", "biased variance"), layernorm.numeric_moments,
          section="layernorm"),
    Claim("layernorm-beta-gamma", r"\text{LayerNorm}(x) \text{ has entries with mean } \beta \text{ and "
          r"standard deviation } \gamma", layernorm.prove_beta_gamma,
          ("the post's sentence, for vectors gamma, beta of size d_model",), layernorm.numeric_beta_gamma,
          expected=Status.REFUTED, section="layernorm"),
    Claim("zero-layer-bigram", r"p_{:, n} = \text{softmax}(W_U (W_E t_n + W_{\text{pos}, n}))",
          embedding.prove_bigram, ("zero-layer model",), embedding.numeric, section="zero-layer"),
    Claim("param-counts", r"N = n_\text{vocab} d_\text{model} + n_\text{ctx} d_\text{model} + n_\text{layers}"
          r"(4 d_\text{model} H d_\text{head} + \dots) + 2 d_\text{model}", params.prove_params,
          ("tied unembedding, biases, LayerNorms",), params.numeric, section="appendix"),
    Claim("rmsnorm-layernorm", rmsnorm.STATEMENT, rmsnorm.prove_rmsnorm_layernorm, rmsnorm.ASSUMPTIONS,
          rmsnorm.numeric, section="llama"),
    Claim("llama-param-counts", llama.STATEMENT, llama.prove_llama_params, llama.ASSUMPTIONS, llama.numeric,
          section="llama"),
    Claim("rope-relative", rope.RELATIVE, rope.prove_relative, rope.ASSUMPTIONS, rope.numeric_relative,
          section="rope"),
    Claim("rope-absorption", rope.ABSORPTION, rope.prove_absorption,
          ("the claim some posts make: absorb W_Q^T W_K into one matrix, then apply RoPE",), rope.numeric_absorption,
          expected=Status.REFUTED, section="rope"),
)}
