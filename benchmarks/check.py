"""Time ``symtf check`` on the post against ``python -c "import sympy"``; prints the ratio (target ≤ 3×).

Usage: python benchmarks/check.py [POST.md] [--repeat N]. Each measurement is a fresh process,
best of N taken in turns, so both sides pay their imports and meet the same load.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_POST = Path(__file__).resolve().parents[1] / ".." / "shared" / "post" / "gentle-introduction.md"


def seconds(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def best_of_interleaved(cmds: list[list[str]], repeat: int) -> list[float]:
    """Best of ``repeat`` runs of each command, the commands taking turns so both meet the same load."""
    times = [[] for _ in cmds]
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            times[i].append(seconds(cmd))
    return [min(t) for t in times]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("post", nargs="?", default=str(DEFAULT_POST.resolve()))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sympy, check = best_of_interleaved(
        [[sys.executable, "-c", "import sympy"], [sys.executable, "-m", "symtf", "check", args.post, "--format", "json"]],
        args.repeat)
    ratio = check / sympy
    print(f"import sympy: {sympy:.2f} s; symtf check: {check:.2f} s; ratio {ratio:.2f} (target ≤ 3)")
    return 0 if ratio <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
