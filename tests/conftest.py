from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def post_path() -> Path:
    """The post, from the shared material checked out beside this repository (../shared)."""
    path = (Path(__file__).resolve().parents[1] / ".." / "shared" / "post" / "gentle-introduction.md").resolve()
    if not path.is_file():
        pytest.skip("../shared/post/gentle-introduction.md not found beside the checkout")
    return path
