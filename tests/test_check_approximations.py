"""Published approximations of an activation written with ≈ (symtf.check.approximations): a real post (scanned, not in
a set) wrote ``\\text{GELU}(x) \\approx x \\cdot \\sigma(1.702x)``, which was a mismatch ("the two sides differ")."""
from symtf.check.approximations import judge
from symtf.check.checker import check_text
from symtf.check.macros import simplify
from symtf.check.normalize import clean
from symtf.check.parse import parse


def _sides(latex: str):
    exprs = parse(clean(simplify(latex)))[1]
    return exprs[0], exprs[1]


def test_the_two_published_approximations_of_gelu_hold_within_their_accuracy():
    for written in (r"\text{GELU}(x) \approx x \cdot \sigma(1.702x)",
                    r"\text{GELU}(x) \approx 0.5x\left(1 + \tanh\left(\sqrt{2/\pi}(x + 0.044715x^3)\right)\right)"):
        verdict = judge(*_sides(written), "≈")
        assert verdict is not None and verdict.status == "verified", written
    found = [f for f in check_text("Fast: $$\\text{GELU}(x) \\approx x \\cdot \\sigma(1.702x)$$\n") if f.kind == "claim"]
    assert [f.status for f in found] == ["verified"] and "numeric evidence" in found[0].message


def test_a_farther_formula_an_equation_or_two_letters_are_left_to_the_other_judges():
    assert judge(*_sides(r"\text{GELU}(x) \approx x \cdot \sigma(x)"), "≈") is None  # SiLU: 0.19 away at most
    assert judge(*_sides(r"\text{GELU}(x) \approx x \cdot \sigma(1.5x)"), "≈") is None  # 0.05 away
    assert judge(*_sides(r"\text{GELU}(x) = x \cdot \sigma(1.702x)"), "=") is None
    assert judge(*_sides(r"\text{GELU}(x) \approx y \cdot \sigma(1.702x)"), "≈") is None
