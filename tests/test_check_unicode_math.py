r"""Unicode typed for LaTeX (``n²``, ``Wᵀ``, ``𝔼``), sums over a written range (``\sum_{i=1}^{3} i``) and ``\frac12``."""
import pytest
import sympy as sp

from symtf.check.checker import check_text
from symtf.check.parse import parse_expr
from symtf.check.scalar_read import NotScalar, to_sympy
from symtf.check.unicode_math import latex_of_unicode


@pytest.mark.parametrize("typed, latex", [
    ("n²", "n^{2}"), ("x₁₀", "x_{10}"), ("Wᵀx", "W^{T}x"), ("x⁻¹", "x^{-1}"), ("𝔼[x]", r"\mathbb{E}[x]"),
    ("ℝ^{3}", r"\mathbb{R}^{3}"), ("𝑓(x)", "f(x)"), ("a，b", "a,b"), ("x̄", r"\bar{x}"), ("A ≝ 5", "A := 5"),
    ("√d", r"\sqrt d"), ("∑_{i}", r"\sum _{i}"), ("d_\\text{model}", "d_\\text{model}"), ("ℓ", r"\ell "),
])
def test_unicode_characters_become_latex(typed, latex):
    assert latex_of_unicode(typed) == latex


def _statuses(doc):
    return [(f.line, f.status) for f in check_text(doc) if f.kind == "claim"]


def test_a_unicode_square_is_read_as_a_power():
    doc = ("Our model has $d_\\text{model} = 7$.\n\nThe weights hold $4 d_\\text{model}² = 196$ numbers.\n\n"
           "Or $4 d_\\text{model}² = 195$ numbers.\n")
    found = {line: status for line, status in _statuses(doc)}
    assert found[3] == "verified" and found[5] == "mismatch"


@pytest.mark.parametrize("sum_, value", [
    (r"\sum_{i=1}^{4} i^2", 30), (r"\sum_{k=0}^{2} 2^k", 7), (r"\sum_{i=1}^{10^9} i", 500000000500000000),
    (r"\sum_{j=3}^{5} 1", 3),
])
def test_a_sum_over_a_written_range_is_added_exactly(sum_, value):
    assert to_sympy(parse_expr(sum_)) == value


@pytest.mark.parametrize("sum_", [r"\sum_{j=1}^{n} \alpha_{ij}", r"\sum_{i} i", r"\sum_{i=1}^{n} x_i",
                                  r"\sum_{i=1}^{5000} 1/i", r"\sum_{i=1}^{n} i^{20}"])
def test_a_sum_of_entries_or_without_a_closed_form_is_no_scalar(sum_):
    with pytest.raises(NotScalar):
        to_sympy(parse_expr(sum_))


def test_a_numeric_sum_is_judged_not_read_as_a_condition_on_indices():
    doc = ("We add $\\sum_{i=1}^{3} i = 6$ and $\\sum_{i=1}^{5} i = 16$.\n\n"
           "In general $\\sum_{i=1}^{n} i = \\frac{n^2 + n}{2}$.\n")
    assert _statuses(doc) == [(1, "verified"), (1, "mismatch"), (3, "verified")]


@pytest.mark.parametrize("written, value", [(r"\frac12", sp.Rational(1, 2)), (r"\frac1t", 1 / sp.Symbol("t", positive=True)),
                                            (r"\frac123", sp.Rational(3, 2)), (r"\frac 1 2", sp.Rational(1, 2))])
def test_a_frac_of_single_tokens_is_read_as_tex_reads_it(written, value):
    r"""``\frac12`` is ½ in TeX (each argument one token; of digits written together the first): not unparsed."""
    assert to_sympy(parse_expr(written)) == value


def test_a_frac_with_a_decimal_point_among_its_digits_stays_unparsed():
    from symtf.check.parse import ParseError
    with pytest.raises(ParseError):
        parse_expr(r"\frac1.5")
