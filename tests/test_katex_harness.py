"""The KaTeX harness itself: it must render good LaTeX and report bad LaTeX, never pass all."""

from tests.katex import render_all


def test_valid_and_invalid_fragments_are_told_apart():
    good, bad, display = render_all([r"W_Q x^{(0)}_n", r"\frac{1}{", (r"d_\text{model} \times n", True)])

    assert good.ok and good.error is None
    assert not bad.ok
    assert "KaTeX parse error" in bad.error and "end of input" in bad.error
    assert display.ok and display.display


def test_unknown_macro_is_an_error_not_a_red_glyph():
    # throwOnError: true, so KaTeX raises instead of rendering the macro name in red
    (result,) = render_all([r"\notamacro{x}"])
    assert not result.ok
    assert r"\notamacro" in result.error


def test_strict_mode_complaints_are_reported_as_warnings():
    (result,) = render_all(["é"])
    assert result.ok
    assert any("unicodeTextInMathMode" in w for w in result.warnings)


def test_empty_list_renders_nothing():
    assert render_all([]) == []
