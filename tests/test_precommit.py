"""The pre-commit hooks of .pre-commit-hooks.yaml, run as a blog would run them: `pre-commit try-repo`
installs symtf from this repository into its own virtualenv (dependencies from PyPI) and runs the
hooks on a temporary git repository: a post with a mistake and one with a stale generated region (both
hooks fail), then a post with neither (both pass)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symtf.latex.render import fragment

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
    region = "<!-- symtf:begin attention-pattern -->\n{}\n<!-- symtf:end attention-pattern -->\n"
    fresh = region.format(fragment("attention-pattern"))
    (root / "_posts" / "good.md").write_text(GOOD + "\n" + fresh, encoding="utf-8")
    (root / "_posts" / "stale.md").write_text("# Old\n\n" + region.format("old text"), encoding="utf-8")
    (root / "_posts" / "bad.md").write_text(BAD, encoding="utf-8")
    (root / "notes.txt").write_text(BAD, encoding="utf-8")  # not a document type: the hook skips it
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    return root


def _try_repo(blog: Path, *files: str) -> subprocess.CompletedProcess:
    """``pre-commit try-repo`` with every hook of this repository on ``files`` of the blog."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "--files", *files],
                          cwd=blog, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow  # each try-repo builds a virtualenv and installs symtf into it (1–2 min)
def test_hooks_fail_on_a_mistake_and_a_stale_region_and_pass_without(blog):
    """Both hooks of .pre-commit-hooks.yaml in one try-repo per outcome (one install each)."""
    bad = _try_repo(blog, "_posts/bad.md", "_posts/stale.md", "notes.txt")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert bad.stdout.count("Failed") == 2, bad.stdout
    assert "- hook id: symtf-check" in bad.stdout and "- hook id: symtf-render-check" in bad.stdout
    assert "_posts/bad.md:6: MISMATCH: [definition]" in bad.stdout
    assert "_posts/stale.md:3: region 'attention-pattern' is stale" in bad.stdout
    assert "notes.txt" not in bad.stdout  # not a document type: no hook ran on it
    good = _try_repo(blog, "_posts/good.md", "notes.txt")
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.count("Passed") == 2, good.stdout


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
