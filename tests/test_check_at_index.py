"""A member of a family the document defines, at a printed index (symtf.check.at_index): θ_i = 10000^{-2i/d} with
d = 64, then θ_{15} ≈ 0.0133."""
import pytest

from symtf.check.checker import check_text

FAMILY = r"RoPE rotates by $\theta_i = 10000^{-2i/d}$ where $d = 64$ is the head dimension." "\n\n"


def _about(text, latex):
    (found,) = [f for f in check_text(text) if f.latex == latex]
    return found


@pytest.mark.parametrize("claim, status", [
    (r"\theta_{15} = 0.0133", "verified"),  # 10000^{-30/64} = 0.013335…
    (r"\theta_{15} \approx 0.013", "verified"),
    (r"\theta_{0} = 1", "verified"),
    (r"\theta_{15} = 0.0233", "mismatch"),  # a digit off
    (r"\theta_{31} = 0.0133", "mismatch"),  # another member's value
])
def test_the_family_at_a_printed_index(claim, status):
    f = _about(FAMILY + f"So ${claim}$.\n", claim)
    assert f.status == status and r"\theta_i" in f.message


def test_a_section_constant_is_used():
    text = (r"Let $d = 64$ be the head dimension." "\n\n" r"With $b = 10^6$ the frequencies are "
            r"$\omega_k = b^{-2k/d}$, so $\omega_{15} \approx 0.0015$." "\n")
    f = _about(text, r"\omega_{15} \approx 0.0015")
    assert f.status == "verified" and "0.00153993" in f.message


def test_a_family_without_values_is_not_judged():
    text = r"RoPE rotates by $\theta_i = 10000^{-2i/d}$." "\n\n" r"So $\theta_{15} = 0.0233$." "\n"
    assert _about(text, r"\theta_{15} = 0.0233").status == "unchecked"


def test_a_member_in_another_section_is_not_a_mismatch():
    text = "# Frequencies\n\n" + FAMILY + "# A small example\n\nWith two pairs, $\\theta_{1} = 0.01$.\n"
    f = _about(text, r"\theta_{1} = 0.01")
    assert f.status == "unchecked" and "another section" in f.message
