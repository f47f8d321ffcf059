"""Reading time of each format's reader at N and 4N copies of a unit of input; prints the ratio
(linear: about 4; the script fails past 6). Includes the inputs that make naive delimiter scans
quadratic: many unclosed ``\\(``, unclosed shortcodes, ``\\[`` lines that never close.

Usage: python benchmarks/sources.py [--n N] [--repeat R]. Best of R runs, the two sizes taking turns.
"""
from __future__ import annotations

import argparse
import json
import time

from symtf.sources import read

NOTEBOOK_CELL = {"cell_type": "markdown", "metadata": {}, "source": ["## A\n", "Text $a = b$ and\n", "$$c$$\n"]}
CASES = {
    "markdown": ("markdown", lambda n: "## A\n\nText $a = b$ and \\(c\\), $$d$$.\n\n$$\ne = f\n$$\n\n" * n),
    "myst": ("myst", lambda n: "## A\n\n{math}`a` and $b$\n\n```{math}\n:label: x\nc = d\n```\n\n" * n),
    "quarto": ("quarto", lambda n: "## A\n\n$a$ text\n\n$$\nb = c\n$$ {#eq-x}\n\n" * n),
    "notebook": ("notebook", lambda n: json.dumps({"cells": [NOTEBOOK_CELL] * n, "metadata": {}, "nbformat": 4,
                                                    "nbformat_minor": 4}, indent=1)),
    "latex": ("latex", lambda n: "\\section{A}\nText $a = b$ and \\[ c \\]\n\\begin{equation}\nd\n\\end{equation}\n\n" * n),
    "html blocks": ("markdown", lambda n: "<div>\nText $a$ and \\(b\\)\n</div>\n\n" * n),
    "unclosed \\(": ("markdown", lambda n: "a \\( b " * (20 * n)),
    "unclosed shortcode": ("markdown", lambda n: "{{< katex >}} x " * (20 * n)),
    "unclosed {{": ("markdown", lambda n: "{{ x " * (20 * n)),
    "unclosed \\[ lines": ("markdown", lambda n: "\\[ x\n" * (20 * n)),
}


def seconds(text: str, fmt: str) -> float:
    start = time.perf_counter()
    read(text, fmt)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    worst = 0.0
    for name, (fmt, make) in CASES.items():
        small, large = make(args.n), make(4 * args.n)
        a, b = [], []
        for _ in range(args.repeat):
            a.append(seconds(small, fmt))
            b.append(seconds(large, fmt))
        ratio = min(b) / min(a)
        worst = max(worst, ratio)
        print(f"{name:20s} {len(small):>9,} chars {min(a):7.3f} s   4x: {min(b):7.3f} s   ratio {ratio:4.1f}")
    print(f"worst ratio {worst:.1f} (linear: 4; limit 6)")
    return 0 if worst <= 6 else 1


if __name__ == "__main__":
    raise SystemExit(main())
