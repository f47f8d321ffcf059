"""Each derivations/ script runs with plain python and prints LaTeX steps."""
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[1] / "derivations").glob("*.py"))
SECTIONS = {"zero_layer", "one_layer_simplified", "attention_matrix", "multiple_heads", "mlp", "layernorm",
            "appendix_figures"}
FAMILIES = {"llama", "rope", "path_expansion", "inference"}
EXPECTED_REFUTATIONS = {"layernorm", "rope"}  # layernorm-beta-gamma, rope-absorption  # beyond the post: one script per family of claims (docs/beyond/)


def test_one_script_per_section():
    assert {p.stem for p in SCRIPTS} == SECTIONS | FAMILIES


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_script_runs_and_prints_latex(script):
    text = script.read_text()
    assert text.count("# %% [markdown]") >= 1 and "\n# %%\n" in text  # jupytext percent cells
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "\\" in done.stdout  # LaTeX commands were printed
    assert "refuted" not in done.stdout or script.stem in EXPECTED_REFUTATIONS
    assert "unknown" not in done.stdout
