"""The pre-commit hooks of .pre-commit-hooks.yaml, run as a blog would run them: `pre-commit try-repo`
installs symtf from this repository into its own virtualenv (dependencies from PyPI) and runs the
hook on a temporary git repository with one post that has a mistake and one that does not."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GOOD = "# Attention\n\nThe queries are $$q = W_Q x^{(0)}$$ and the keys $$k = W_K x^{(0)}$$.\n"
BAD = "# Attention\n\nThe scores are\n\n$$\nS = q^\\top k \\sqrt{d_\\text{head}}\n$$\n"


def _needs(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is not on PATH; the pre-commit hook test needs it")


@pytest.fixture(scope="module")
def blog(tmp_path_factory):
    _needs("git")
    pytest.importorskip("pre_commit", reason="pre-commit comes with the [test] extra")
    if subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("this checkout is not a git repository: pre-commit needs one to install the hooks from")
    root = tmp_path_factory.mktemp("blog")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "_posts").mkdir()
    (root / "_posts" / "good.md").write_text(GOOD, encoding="utf-8")
    (root / "_posts" / "bad.md").write_text(BAD, encoding="utf-8")
    (root / "notes.txt").write_text(BAD, encoding="utf-8")  # not a document type: the hook skips it
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    return root


def _try_repo(blog: Path, hook: str, *files: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO), hook, "--files", *files],
                          cwd=blog, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow  # each try-repo builds a virtualenv and installs symtf into it (1–2 min)
def test_symtf_check_hook_fails_on_a_mistake_and_passes_without(blog):
    bad = _try_repo(blog, "symtf-check", "_posts/bad.md", "notes.txt")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "symtf check" in bad.stdout and "Failed" in bad.stdout
    assert "_posts/bad.md:6: MISMATCH: [definition]" in bad.stdout
    assert "notes.txt" not in bad.stdout.split("Failed", 1)[1]
    good = _try_repo(blog, "symtf-check", "_posts/good.md", "notes.txt")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout


def _docs_config() -> str:
    """The first YAML block of docs/ci.md's pre-commit section: the copy-paste configuration."""
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    section = text[text.index("## pre-commit"):]
    return section[section.index("```yaml\n") + 8: section.index("```", section.index("```yaml\n") + 8)]


@pytest.mark.parametrize("post, code", [("bad.md", 1), ("good.md", 0)])
def test_docs_local_hook_as_written(blog, post, code):
    """docs/ci.md's `repo: local` configuration, copied as written, with symtf on PATH."""
    (blog / ".pre-commit-config.yaml").write_text(_docs_config(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PRE_COMMIT_HOME"] = str(blog.parent / "pre-commit-home")
    run = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--files", f"_posts/{post}", "notes.txt"],
                         cwd=blog, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == code, run.stdout + run.stderr
    assert ("Failed" if code else "Passed") in run.stdout
