"""Time ``symtf check`` on the post against ``python -c "import sympy"``; prints the ratio (target ≤ 3×).

Usage: python benchmarks/check.py [POST.md] [--repeat N]. Each measurement is a fresh process,
best of N, so both sides pay their imports.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_POST = Path(__file__).resolve().parents[1] / ".." / "shared" / "post" / "gentle-introduction.md"


def best_of(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("post", nargs="?", default=str(DEFAULT_POST.resolve()))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sympy = best_of([sys.executable, "-c", "import sympy"], args.repeat)
    check = best_of([sys.executable, "-m", "symtf", "check", args.post, "--format", "json"], args.repeat)
    ratio = check / sympy
    print(f"import sympy: {sympy:.2f} s; symtf check: {check:.2f} s; ratio {ratio:.2f} (target ≤ 3)")
    return 0 if ratio <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
