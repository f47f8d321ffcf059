"""One run of the main job per test session, shared by tests/test_report*.py and tests/test_docs_site.py.

``main_job()`` runs ``symtf report --format json --out DIR`` in a subprocess (stdin and stderr not
terminals, as in CI) and keeps its exit code, output, wall time and the pages it wrote.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class MainJob:
    returncode: int
    report: dict
    stderr: str
    seconds: float
    out: Path
    stdout: str


def run_main_job(out: Path) -> subprocess.CompletedProcess:
    """``symtf report --format json --out OUT`` as CI runs it."""
    return subprocess.run(
        [sys.executable, "-m", "symtf", "report", "--format", "json", "--out", str(out)],
        capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=300,
    )


@lru_cache(maxsize=1)
def main_job() -> MainJob:
    out = Path(tempfile.mkdtemp(prefix="symtf-report-"))
    start = time.perf_counter()
    proc = run_main_job(out)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise AssertionError(f"symtf report exited {proc.returncode}:\n{proc.stderr}")
    return MainJob(proc.returncode, json.loads(proc.stdout), proc.stderr, seconds, out, proc.stdout)
