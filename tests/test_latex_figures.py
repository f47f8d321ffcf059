"""`symtf figures`: one command writes every figure as PNG and SVG; the data behind them is right."""
from __future__ import annotations

import numpy as np
import pytest

from symtf.cli import main
from symtf.latex.figures import FIGURE_IDS, monte_carlo_variance, pattern_figure, term_variance


@pytest.mark.slow
def test_one_command_writes_every_figure(tmp_path, capsys):
    out = tmp_path / "figs"
    assert main(["figures", "--out", str(out)]) == 0
    written = capsys.readouterr().out.split()
    expected = sorted(str(out / f"{name}.{ext}") for name in FIGURE_IDS for ext in ("png", "svg"))
    assert sorted(written) == expected
    for name in FIGURE_IDS:
        png, svg = (out / f"{name}.png").read_bytes(), (out / f"{name}.svg").read_text()
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20_000, name
        assert "<svg" in svg and "</svg>" in svg, name


def test_variance_line_and_monte_carlo_agree():
    # Var(q_1 k_1) = E[q^2] E[k^2] = 1, so Var(q^T k) = d_head and Var(q^T k / sqrt(d_head)) = 1
    assert term_variance() == 1
    mc = monte_carlo_variance(d_heads=(1, 4, 64), samples=20000, seed=3)
    for d, (unscaled, scaled) in mc.items():
        assert abs(unscaled / d - 1) < 0.06 and abs(scaled - 1) < 0.06, (d, unscaled, scaled)


def test_pattern_heatmap_shows_the_worked_examples_pattern():
    from symtf.latex.example import named_example

    fig = pattern_figure("example-toy")
    shown = fig.axes[0].images[0].get_array()
    A = np.array(named_example("example-toy").value("pattern").evalf(20).tolist(), dtype=float)
    lower = ~np.triu(np.ones_like(A, dtype=bool), k=1)
    np.testing.assert_allclose(shown.data[lower], A[lower], rtol=1e-12)
    assert shown.mask[~lower].all()  # the masked upper triangle is not coloured
    np.testing.assert_allclose(A.sum(axis=1), 1.0, rtol=1e-12)
