"""The torch import every cross-check shares: required where CI sets SYMTF_REQUIRE_CROSSCHECK, else skipped."""
from __future__ import annotations

import os

import pytest


def require(name: str):
    """``import name``, or skip the calling module with the reason (fail instead when CI requires it)."""
    if os.environ.get("SYMTF_REQUIRE_CROSSCHECK"):  # CI installs the extra: a missing torch is a failure there
        import importlib

        return importlib.import_module(name)
    return pytest.importorskip(name, reason=f"{name} not installed: pip install -e '.[crosscheck]'")
