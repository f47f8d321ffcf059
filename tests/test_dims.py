import doctest
from dataclasses import replace
from math import prod

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sympy import Add, expand

import symtf.dims
from symtf.dims import (
    CONFIGS,
    LATEX,
    SIZES,
    H,
    check_config,
    d_head,
    d_mlp,
    d_model,
    n_ctx,
    n_layers,
    n_vocab,
    param_breakdown,
    param_count_formula,
    parse_published,
)

GPT2_SMALL = CONFIGS["gpt2-small"]


def gpt2_state_dict_shapes(*, V, T, d, h, dh, m, L, tied=True):
    """Independent reference: the weight shapes of a GPT-2 checkpoint, in HuggingFace's layout
    (Conv1D weights are stored (in, out); c_attn holds W_Q, W_K, W_V side by side)."""
    shapes = {"wte.weight": (V, d), "wpe.weight": (T, d)}
    for i in range(L):
        p = f"h.{i}."
        shapes |= {
            p + "ln_1.weight": (d,), p + "ln_1.bias": (d,),
            p + "attn.c_attn.weight": (d, 3 * h * dh), p + "attn.c_attn.bias": (3 * h * dh,),
            p + "attn.c_proj.weight": (h * dh, d), p + "attn.c_proj.bias": (d,),
            p + "ln_2.weight": (d,), p + "ln_2.bias": (d,),
            p + "mlp.c_fc.weight": (d, m), p + "mlp.c_fc.bias": (m,),
            p + "mlp.c_proj.weight": (m, d), p + "mlp.c_proj.bias": (d,),
        }
    shapes |= {"ln_f.weight": (d,), "ln_f.bias": (d,)}
    if not tied:
        shapes["lm_head.weight"] = (V, d)
    return shapes


def test_gpt2_small_exact_count():
    assert GPT2_SMALL.param_count() == 124_439_808


@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_config_matches_its_published_figure(key):
    cfg = CONFIGS[key]
    assert cfg.matches_published(), (cfg.name, cfg.param_count(), cfg.published_total)


@pytest.mark.parametrize(
    "key, exact",
    [
        ("gpt2-small", 124_439_808),
        ("gpt2-medium", 354_823_168),
        ("gpt2-large", 774_030_080),
        ("gpt2-xl", 1_557_611_200),
        ("gpt3-175b", 174_604_259_328),
    ],
)
def test_exact_counts_agree_with_the_state_dict_reference(key, exact):
    cfg = CONFIGS[key]
    if key.startswith("gpt2"):  # GPT-3's 96 layers of reference dicts would be slow for nothing
        shapes = gpt2_state_dict_shapes(V=cfg.n_vocab, T=cfg.n_ctx, d=cfg.d_model, h=cfg.n_heads,
                                        dh=cfg.d_head, m=cfg.d_mlp, L=cfg.n_layers)
        assert sum(prod(s) for s in shapes.values()) == exact
    assert cfg.param_count() == exact


@given(
    V=st.integers(1, 60), T=st.integers(1, 30), h=st.integers(1, 6), dh=st.integers(1, 9),
    m=st.integers(1, 40), L=st.integers(1, 4), tied=st.booleans(),
)
def test_formula_matches_state_dict_reference_for_any_sizes(V, T, h, dh, m, L, tied):
    d = h * dh
    shapes = gpt2_state_dict_shapes(V=V, T=T, d=d, h=h, dh=dh, m=m, L=L, tied=tied)
    sizes = {n_vocab: V, n_ctx: T, d_model: d, H: h, d_head: dh, d_mlp: m, n_layers: L}
    assert param_count_formula(tied=tied).subs(sizes) == sum(prod(s) for s in shapes.values())


def test_untied_gpt2_small_does_not_match_124M():
    untied = replace(GPT2_SMALL, tied_unembed=False)
    # untied adds W_U: n_vocab·d_model = 50257·768
    assert untied.param_count() == 124_439_808 + 50257 * 768
    assert not untied.matches_published()


def test_thirteen_heads_is_flagged():
    wrong = replace(GPT2_SMALL, n_heads=13)
    assert check_config(wrong) == ["GPT-2 Small: d_head·H = 64·13 = 832, expected d_model = 768"]
    assert not wrong.matches_published()


def test_check_config_reports_non_positive_sizes():
    (problem,) = check_config(replace(GPT2_SMALL, n_layers=0))
    assert problem == "GPT-2 Small: n_layers must be a positive integer; got 0"


def test_d_mlp_convention_is_only_reported_on_request():
    odd = replace(GPT2_SMALL, d_mlp=2048)
    assert check_config(odd) == []
    assert check_config(odd, conventions=True) == [
        "GPT-2 Small: d_mlp = 2048, the usual 4·d_model is 3072 (convention only)"
    ]


@pytest.mark.parametrize("key", sorted(CONFIGS))
def test_heads_split_the_residual_stream(key):
    cfg = CONFIGS[key]
    # d_head · H = d_model
    assert cfg.d_head * cfg.n_heads == cfg.d_model
    assert check_config(cfg, conventions=True) == []


@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("biases", [True, False])
@pytest.mark.parametrize("layernorm", [True, False])
@pytest.mark.parametrize("final_layernorm", [True, False])
def test_breakdown_sums_to_formula(tied, biases, layernorm, final_layernorm):
    flags = dict(tied=tied, biases=biases, layernorm=layernorm, final_layernorm=final_layernorm)
    # N = Σ_k N_k
    assert expand(Add(*param_breakdown(**flags).values()) - param_count_formula(**flags)) == 0


def test_formula_in_closed_form():
    # N = n_vocab d_model + n_ctx d_model
    #     + n_layers (4 d_model H d_head + 3 H d_head + 2 d_model d_mlp + d_mlp + 6 d_model) + 2 d_model
    closed = (n_vocab * d_model + n_ctx * d_model
              + n_layers * (4 * d_model * H * d_head + 3 * H * d_head + 2 * d_model * d_mlp + d_mlp + 6 * d_model)
              + 2 * d_model)
    assert expand(param_count_formula() - closed) == 0
    assert expand(param_count_formula(tied=False) - closed) == n_vocab * d_model


def test_switching_terms_off_removes_them():
    assert set(param_breakdown(biases=False, layernorm=False, final_layernorm=False)) == {
        "embedding", "positional", "attention_weights", "mlp_weights",
    }


def test_size_symbols():
    assert [s.name for s in SIZES] == ["n", "n_vocab", "d_model", "d_head", "d_mlp", "H", "n_layers", "n_ctx"]
    for s in SIZES:
        assert s.is_integer and s.is_positive, s
    assert set(LATEX) == set(SIZES)
    assert LATEX[d_model] == r"d_\text{model}"


def test_sizes_leave_sequence_length_free():
    sizes = GPT2_SMALL.sizes()
    assert sizes[H] == 12
    assert symtf.dims.n not in sizes


@pytest.mark.parametrize(
    "text, value, unit", [("124M", "124", 10**6), ("1.5B", "1.5", 10**9), ("175B", "175", 10**9)]
)
def test_parse_published(text, value, unit):
    parsed_value, parsed_unit = parse_published(text)
    assert str(parsed_value) == value and parsed_unit == unit


def test_precision_follows_the_published_string():
    # 1,557,611,200 is 1558M, and 1.6B rounded or 1.5B cut; never 1.4B, 1.7B, 1557M or 1.56B
    xl = CONFIGS["gpt2-xl"]
    for figure in ("1558M", "1557M", "1.6B", "1.5B", "1.55B"):
        assert replace(xl, published_total=figure).matches_published(), figure
    for figure in ("1.4B", "1.7B", "1556M", "1559M", "1.54B", "1.57B", "3B"):
        assert not replace(xl, published_total=figure).matches_published(), figure


def test_malformed_published_figure_raises():
    with pytest.raises(ValueError, match=r"must look like '124M' or '1\.5B'.*got '124 million'"):
        parse_published("124 million")


def test_doctests():
    result = doctest.testmod(symtf.dims)
    assert result.attempted > 0
    assert result.failed == 0
