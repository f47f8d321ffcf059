r"""``param-counts``: the symbolic parameter formula against the model and the published totals.

* The formula $N$ of ``symtf.dims.param_count_formula`` with $n_\text{layers} = 1$ equals the count
  of the GPT-2 variant's own parameter list (each per-head matrix counted $H$ times), symbolically.
* At GPT-2 Small, GPT-2 XL and GPT-3 175B it reproduces the published totals at their precision.
* Each configuration's key figures are consistent: $d_\text{head} H = d_\text{model}$, and
  $d_\text{mlp} = 4 d_\text{model}$ (the convention these models use).
"""
from __future__ import annotations

from sympy import Integer, Mul, expand

from ..dims import (
    CONFIGS,
    H,
    check_config,
    n_layers,
    param_count_formula,
)
from ..model import build
from .claim import Method, NumericCheck, Result, proved, refuted

PUBLISHED = ("gpt2-small", "gpt2-xl", "gpt3-175b")


def model_count(variant="gpt2"):
    """$\\sum$ over the model's parameters of rows × columns, × $H$ for per-head ones."""
    model = build(variant)
    total = Integer(0)
    for p in model.parameters:
        size = Mul(*p.shape)
        total += size * H if p.per_head else size
    return total


def prove_params(formula=None, configs=PUBLISHED) -> Result:
    formula = param_count_formula(tied=True) if formula is None else formula
    diff = expand(formula.subs(n_layers, 1) - model_count("gpt2"))
    if diff != 0:
        return refuted({"formula - model count (one layer)": str(diff)},
                       "the formula disagrees with the model's parameter list", Method.SYMBOLIC, ["symbolic"])
    rows = {}
    for key in configs:
        cfg = CONFIGS[key]
        count = int(formula.subs(cfg.sizes()))
        ok = cfg.matches_published() and count == cfg.param_count()
        rows[key] = {"count": count, "published": cfg.published_total, "matches": ok}
        if not ok:
            return refuted(rows[key], f"{cfg.name}: {count:,} does not give {cfg.published_total}", Method.CONCRETE,
                           [key])
    for key, cfg in CONFIGS.items():
        problems = check_config(cfg, conventions=True)
        if problems:
            return refuted({"config": key, "problems": problems}, "inconsistent key figures", Method.CONCRETE, [key])
    return proved(Method.SYMBOLIC, ["symbolic", *configs],
                  "formula = the model's own parameter count for symbolic sizes; published totals reproduced; "
                  "d_head H = d_model and d_mlp = 4 d_model in every configuration", totals=rows)


def numeric() -> NumericCheck:
    """Independent arithmetic: GPT-2 Small counted by hand from its shapes."""
    d, v, ctx, layers, mlp = 768, 50257, 1024, 12, 3072
    per_layer = 4 * d * d + 4 * d + 2 * d * mlp + mlp + d + 4 * d
    total = v * d + ctx * d + layers * per_layer + 2 * d
    got = CONFIGS["gpt2-small"].param_count()
    return NumericCheck(total == got, float(abs(total - got)), 1, f"hand count {total:,} vs formula {got:,}")
