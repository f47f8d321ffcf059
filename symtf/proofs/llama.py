r"""``llama-param-counts``: the LLaMA-style parameter formula against its shapes and LLaMA-2's released totals.

* :func:`symtf.llama.llama_param_formula` equals the sum of the parameter shapes of
  :data:`symtf.llama.PARAMETERS` (RMSNorm gains, SwiGLU's three matrices, $H$ query and
  $H_\text{kv}$ key/value heads, no biases, untied $W_U$), symbolically.
* At LLaMA-2 7B, 13B and 70B it gives the exact totals of the released checkpoints.
* Each configuration's key figures are consistent: $d_\text{head} H = d_\text{model}$, $H_\text{kv}$
  divides $H$, and $d_\text{mlp}$ is what the SwiGLU rounding rule gives.
"""
from __future__ import annotations

from sympy import expand

from ..llama import LLAMA2, count_from_shapes, llama_param_formula, swiglu_hidden
from .claim import Method, NumericCheck, Result, proved, refuted

STATEMENT = (r"N = 2 n_\text{vocab} d_\text{model} + n_\text{layers}\left(2 d_\text{model} H d_\text{head} + "
             r"2 d_\text{model} H_\text{kv} d_\text{head} + 3 d_\text{model} d_\text{mlp} + 2 d_\text{model}\right) "
             r"+ d_\text{model}")
ASSUMPTIONS = ("RMSNorm (gain only), SwiGLU MLP, GQA with H_kv key/value heads, no biases, untied unembedding, RoPE",)


def config_problems(cfg) -> list[str]:
    """What is inconsistent in one configuration (empty when nothing is)."""
    problems = []
    if cfg.d_head * cfg.n_heads != cfg.d_model:
        problems.append(f"d_head·H = {cfg.d_head}·{cfg.n_heads} is not d_model = {cfg.d_model}")
    if cfg.n_heads % cfg.n_kv_heads:
        problems.append(f"H_kv = {cfg.n_kv_heads} does not divide H = {cfg.n_heads}")
    rule = swiglu_hidden(cfg.d_model, cfg.multiple_of, cfg.ffn_dim_multiplier)
    if rule != cfg.d_mlp:
        problems.append(f"SwiGLU rule gives d_mlp = {rule}, config says {cfg.d_mlp}")
    return problems


def prove_llama_params(formula=None, configs=tuple(LLAMA2)) -> Result:
    r"""$N$ = the sum of the parameter shapes (symbolic), = each released total, with consistent key figures."""
    formula = llama_param_formula() if formula is None else formula
    diff = expand(formula - count_from_shapes())
    if diff != 0:
        return refuted({"formula - shapes": str(diff)}, "the formula disagrees with the parameter shapes",
                       Method.SYMBOLIC, ["symbolic"])
    rows = {}
    for key in configs:
        cfg = LLAMA2[key]
        count = int(formula.subs(cfg.sizes()))
        rows[key] = {"count": count, "published": cfg.published_total, "nominal": cfg.nominal}
        if count != cfg.published_total:
            return refuted(rows[key], f"{cfg.name}: {count:,} is not the released {cfg.published_total:,}",
                           Method.CONCRETE, [key])
        problems = config_problems(cfg)
        if problems:
            return refuted({"config": key, "problems": problems}, "inconsistent key figures", Method.CONCRETE, [key])
    return proved(Method.SYMBOLIC, ["symbolic", *configs],
                  "formula = sum of the parameter shapes for symbolic sizes; the released totals reproduced exactly; "
                  "d_head H = d_model, H_kv | H and the SwiGLU rounding rule hold in every configuration",
                  totals=rows)


def numeric() -> NumericCheck:
    """Independent arithmetic: LLaMA-2 7B counted by hand, matrix by matrix."""
    d, vocab, layers, mlp = 4096, 32000, 32, 11008
    attention = 4 * d * d  # W_Q, W_K, W_V, W_O: 32 heads of 128, no GQA at 7B
    per_layer = attention + 3 * d * mlp + 2 * d
    total = 2 * vocab * d + layers * per_layer + d
    got = LLAMA2["llama2-7b"].param_count()
    return NumericCheck(total == got, float(abs(total - got)), 1, f"hand count {total:,} vs formula {got:,}")
