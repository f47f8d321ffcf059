"""Mistakes planted in the corpus's real documents: how many does symtf check find, and is any verified?

For every display or inline equation of each corpus document (tests/corpus), each mutation below is
applied to its first occurrence in that fragment, and the document is checked again. A mutant is *found*
if a new mismatch appears within the fragment's lines; it is *verified* (the worst outcome) if the
mutated fragment's claims are all verified. Mutants that change nothing the checker reads, or that
are equivalent, are not told apart from missed ones: the figure is a floor.

Usage: python benchmarks/corpus_mutants.py [--limit N] [--docs SLUG ...]
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from symtf.check.checker import DocumentChecker

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"

_BRACED = r"(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*"  # text with up to two levels of braces (\mathbf{Q})


def _swap_qk(m: re.Match) -> str:
    """Q and K exchanged everywhere right of the first '=' (W^Q ↔ W^K, QK^T ↔ KQ^T)."""
    head, tail = m.group(1), m.group(2)
    return head + re.sub(r"(?<![A-Za-z\\])[QK](?![a-z])", lambda q: "K" if q.group(0) == "Q" else "Q", tail)


MUTATIONS = {
    "drop the 1/sqrt scale": (re.compile(r"\\frac\{(" + _BRACED + r")\}\{\\sqrt\{[^{}]*\}\}|\s*/\s*\\sqrt\s*\{[^{}]*\}"),
                              lambda m: m.group(1) or ""),
    "swap Q and K": (re.compile(r"^([^=]*=)(.*[QK].*)$", re.S), _swap_qk),
    "drop a transpose": (re.compile(r"\^\s*\{?\s*(\\top|T|\\intercal)\s*\}?"), lambda m: ""),
    "softmax* to softmax": (re.compile(r"\\text\{softmax\}\^\*"), lambda m: r"\text{softmax}"),
    "perturb a number": (re.compile(r"(?<![\d.^_{])(\d{2,})(?![\d.])"), lambda m: str(int(m.group(1)) + 1)),
    "index n to n-1": (re.compile(r"_n(?![a-zA-Z{])"), lambda m: "_{n-1}"),
    "layer 0 to 1": (re.compile(r"\^\{\(0\)\}"), lambda m: "^{(1)}"),
}


def mismatches(text: str) -> set[tuple[int, str]]:
    return {(f.line, f.latex) for f in DocumentChecker(text).run() if f.status == "mismatch"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=40, help="mutants per document and mutation, at most")
    parser.add_argument("--docs", nargs="*", default=None)
    args = parser.parse_args()
    totals = {"mutants": 0, "found": 0, "verified": 0}
    per_kind: dict[str, list[int]] = {k: [0, 0] for k in MUTATIONS}
    for md in sorted(CORPUS.glob("*.md")):
        if md.name == "SOURCES.md" or (args.docs and md.stem not in args.docs):
            continue
        text = md.read_text(encoding="utf-8")
        base = mismatches(text)
        doc = DocumentChecker(text)
        doc.run()
        found = total = 0
        for name, (pattern, repl) in MUTATIONS.items():
            done = 0
            for frag in doc.frags:
                if done >= args.limit or "=" not in frag.latex:
                    continue
                m = pattern.search(frag.latex)
                if not m:
                    continue
                new_latex = frag.latex[:m.start()] + repl(m) + frag.latex[m.end():]
                if new_latex == frag.latex or frag.latex not in text:
                    continue
                start = text.index(frag.latex)
                mutated = text[:start] + new_latex + text[start + len(frag.latex):]
                lines = range(frag.line, frag.line + frag.latex.count("\n") + 1)
                new = {(ln, lx) for ln, lx in mismatches(mutated) - base if ln in lines}
                done += 1
                total += 1
                per_kind[name][1] += 1
                if new:
                    found += 1
                    per_kind[name][0] += 1
                else:
                    again = [f for f in DocumentChecker(mutated).run() if f.line in lines and f.kind == "claim"]
                    if again and all(f.status == "verified" for f in again):
                        totals["verified"] += 1
                        print(f"  VERIFIED mutant {md.stem}:{frag.line} {name}: {new_latex[:80]!r}")
        totals["mutants"] += total
        totals["found"] += found
        print(f"{md.stem:40s} mutants {total:4d}  found {found:4d}")
    for name, (hit, n) in per_kind.items():
        print(f"  {name:24s} {hit}/{n}")
    print(f"TOTAL mutants {totals['mutants']}, found {totals['found']} "
          f"({totals['found'] / max(totals['mutants'], 1):.0%}), verified {totals['verified']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
