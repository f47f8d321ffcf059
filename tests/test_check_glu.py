"""A gated linear unit gated with another unit's function (symtf.check.glu): heldout33 qwen3rs-transformer 30/98,
``\\text{SwiGLU}(x) = \\sigma(xW_1) \\odot (xW_3) W_2`` with "$\\sigma$: sigmoid function" in its prose (that is GLU)."""
from symtf.check.checker import check_text

SAID = "where:\n\n- $W_1$: gate projection\n- $\\sigma$: sigmoid function\n\n"


def _mismatches(text: str) -> list:
    return [f.message for f in check_text(text) if f.status == "mismatch"]


def test_swiglu_gated_with_the_sigmoid_the_prose_names_is_glu():
    (message,) = _mismatches(SAID + "$$\\text{SwiGLU}(x) = \\sigma(xW_1) \\odot (xW_3) W_2$$\n")
    assert "SwiGLU gates with Swish" in message and "makes this GLU" in message
    (message,) = _mismatches("$$\\text{FFN}_{\\text{SwiGLU}}(x) = (\\text{GELU}(xW_1) \\odot xW_3) W_2$$\n")
    assert "makes this GEGLU" in message


def test_the_units_own_gate_or_a_sigma_the_prose_does_not_name_is_not_judged_here():
    assert not _mismatches(SAID + "$$\\text{SwiGLU}(x) = (\\text{Swish}(xW_1) \\odot xW_3) W_2$$\n")
    assert not _mismatches(SAID + "$$\\text{SwiGLU}(x) = (\\text{SiLU}(xW_1) \\odot xW_3) W_2$$\n")
    assert not _mismatches("$$\\text{SwiGLU}(x) = \\sigma(xW_1) \\odot (xW_3) W_2$$\n")  # σ not said to be sigmoid
    assert not _mismatches(SAID + "$$\\text{GLU}(x) = \\sigma(xW_1) \\odot xW_3$$\n")
