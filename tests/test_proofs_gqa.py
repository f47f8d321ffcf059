"""gqa-mha: GQA = MHA with K/V repeated over each group (symbolic G, s); K/V repeated over the wrong axis refuted."""
from sympy import Integer, floor

from symtf.proofs.claim import Method, Status
from symtf.proofs.gqa import G, induction, interleave, prove_gqa, s, tile


def test_gqa_is_mha_with_repeat_interleaved_kv():
    # Testing: Σ_c Σ_j o((c-1)s + j, c) = Σ_h o(h, ⌊(h-1)/s⌋ + 1), G and s symbolic; MQA is G = 1
    r = prove_gqa()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC and "MQA, G = 1" in r.reason


def test_kv_tiled_over_the_wrong_axis_is_refuted():
    # torch's .repeat tiles [k1, k2, k1, k2, ...]: query head h reads K/V head ((h-1) mod G) + 1
    r = prove_gqa(tile)
    assert r.status is Status.REFUTED and r.counterexample["numeric_gap"] > 1e-6


def test_off_by_one_group_is_not_proved():
    shifted = lambda hq: floor(hq / s) + 1  # ⌊h/s⌋ + 1: the last member of each group jumps ahead
    ok, why = induction(shifted)
    assert not ok and "base case" in why
    assert prove_gqa(shifted).status is Status.REFUTED


def test_interleave_and_tile_agree_only_when_one_of_them_is_trivial():
    heads = range(1, 7)
    assert [int(interleave(Integer(c)).subs(s, 3)) for c in heads] == [1, 1, 1, 2, 2, 2]
    assert [int(tile(Integer(c)).subs(G, 2)) for c in heads] == [1, 2, 1, 2, 1, 2]
