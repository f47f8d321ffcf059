"""action.yml, the composite GitHub Action: its steps, and its check step run here as the runner would."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
FORMATS = REPO / "tests" / "fixtures" / "formats"


@pytest.fixture(scope="module")
def action():
    return yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def test_composite_action_installs_symtf_from_its_own_checkout(action):
    assert action["runs"]["using"] == "composite"
    steps = action["runs"]["steps"]
    install = next(s for s in steps if s.get("name") == "Install symtf")
    assert install["env"]["SYMTF_SOURCE"] == "${{ github.action_path }}" and "pip install" in install["run"]
    assert all(s.get("shell") == "bash" for s in steps if "run" in s)  # a composite step must name its shell
    assert set(action["inputs"]) == {"paths", "args", "python-version"}


def test_check_step_runs_with_github_annotations(action, tmp_path):
    if shutil.which("bash") is None:
        pytest.fail("bash is not on PATH")
    step = next(s for s in action["runs"]["steps"] if s.get("name") == "symtf check")
    assert "--format github" in step["run"]
    bindir = Path(sys.executable).parent  # the symtf this test suite runs, as the install step leaves it
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
           "SYMTF_PATHS": str(FORMATS), "SYMTF_ARGS": "--exclude *.ipynb --exclude paper.tex"}
    (tmp_path / "a.ipynb").write_text("{}")  # were the glob expanded by the shell, it would name this file
    run = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 1, run.stderr
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 2 * 6  # two mistakes in each of the 6 Markdown-family fixtures
    assert not any("paper.tex" in e or ".ipynb" in e for e in errors)
    assert any(e.startswith(f"::error file={FORMATS / 'quarto.qmd'},line=14,") for e in errors)
