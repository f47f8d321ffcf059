"""llama-param-counts: the formula, its shapes and LLaMA-2's released totals; wrong formulas rejected."""
import doctest
from dataclasses import replace

from sympy import expand

import symtf.llama
from symtf.dims import H, d_head, d_model, n_layers, n_vocab
from symtf.llama import H_kv, LLAMA2, llama_param_formula, swiglu_hidden
from symtf.proofs.claim import Status
from symtf.proofs.llama import config_problems, prove_llama_params


def test_doctests():
    assert doctest.testmod(symtf.llama).failed == 0


def test_formula_reproduces_the_released_totals():
    r = prove_llama_params()
    assert r.status is Status.PROVED
    assert {k: v["count"] for k, v in r.details["totals"].items()} == {
        "llama2-7b": 6_738_415_616, "llama2-13b": 13_015_864_320, "llama2-70b": 68_976_648_192}


def test_tied_unembedding_formula_is_refuted():
    tied = llama_param_formula() - n_vocab * d_model
    assert prove_llama_params(tied).status is Status.REFUTED


def test_mha_in_place_of_gqa_is_refuted_at_70b():
    # K and V with H heads instead of H_kv: agrees with the shapes only where H_kv = H (7B, 13B)
    mha = llama_param_formula().xreplace({H_kv: H})
    assert expand(mha - llama_param_formula() - 2 * n_layers * d_model * d_head * (H - H_kv)) == 0
    r = prove_llama_params(mha)
    assert r.status is Status.REFUTED


def test_swiglu_rule_and_inconsistent_configs():
    assert [swiglu_hidden(c.d_model, c.multiple_of, c.ffn_dim_multiplier) for c in LLAMA2.values()] == [
        11008, 13824, 28672]
    assert swiglu_hidden(4096, 256) != 4 * 4096  # not GPT's 4 d_model
    bad = replace(LLAMA2["llama2-70b"], n_kv_heads=7, d_mlp=28000)
    problems = config_problems(bad)
    assert any("does not divide" in p for p in problems) and any("SwiGLU rule gives d_mlp = 28672" in p for p in problems)
