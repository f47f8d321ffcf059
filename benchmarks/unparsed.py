"""How much of the corpus (tests/corpus/*.md) the checker cannot read: findings with status "unparsed",
grouped by the parse error's message (numbers, quoted fragments and positions folded), most frequent first.

Usage: python benchmarks/unparsed.py [--examples N] [--doc SLUG]. A claim left unparsed can never be judged,
so this is the list to work down when widening the reading grammar (symtf/check/parse.py, normalize.py, macros.py).
"""
from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict
from pathlib import Path

from symtf.check.checker import DocumentChecker

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"


def reason(message: str) -> str:
    """The parse error with its fragment and positions folded: one group per kind of failure."""
    message = re.sub(r"^cannot parse: ", "", message)
    message = re.sub(r" in '.*'$| in \".*\"$", "", message, flags=re.S)
    return re.sub(r"at position \d+", "at position …", message)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=2, help="fragments shown per reason")
    parser.add_argument("--doc", default="", help="only documents whose name contains this")
    args = parser.parse_args()
    counts, examples, per_doc = Counter(), defaultdict(list), Counter()
    for path in sorted(CORPUS.glob("*.md")):
        if args.doc not in path.stem or path.stem == "SOURCES":
            continue
        for f in DocumentChecker(path.read_text(encoding="utf-8")).run():
            if f.status != "unparsed":
                continue
            why = reason(f.message)
            counts[why] += 1
            per_doc[path.stem] += 1
            if len(examples[why]) < args.examples:
                examples[why].append(f"{path.stem}:{f.line}: {f.latex[:100]}")
    for why, n in counts.most_common():
        print(f"{n:4d}  {why}")
        for ex in examples[why]:
            print(f"        {ex}")
    print("per document:", ", ".join(f"{k} {v}" for k, v in per_doc.most_common()))
    print(f"TOTAL unparsed {sum(counts.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
