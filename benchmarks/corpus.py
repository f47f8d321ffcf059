"""symtf check on the corpus of real documents (tests/corpus): per document, claims, share decided,
mismatches (expected / false), mistakes found, the top reasons for unchecked claims, and time.

Usage: python benchmarks/corpus.py [--json]. The expectations (tests/corpus/<slug>.yaml) were written by
reading the documents before the checker was tuned on them; see tests/corpus/SOURCES.md.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import yaml

from symtf.check.checker import check_text

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus"


def findable(mistake: dict) -> bool:
    """A mistake in LaTeX math (not in code, prose or a plain table cell): a realistic target for the checker."""
    return mistake.get("format") in (None, "latex", "latex+prose", "latex+code", "table")


def run_one(yaml_path: Path) -> dict:
    spec = yaml.safe_load(yaml_path.read_text(encoding="utf-8"))
    text = (CORPUS / spec["file"]).read_text(encoding="utf-8")
    start = time.perf_counter()
    findings = check_text(text)
    seconds = time.perf_counter() - start
    mistakes = spec.get("mistakes") or []
    lines = {m["line"] for m in mistakes}
    mismatches = [f for f in findings if f.status == "mismatch"]
    # a finding for a multi-line display is reported at the display's first line: accept up to 12 lines above
    def hits(m):
        return [f for f in mismatches if m["line"] - 12 <= f.line <= m["line"] and
                (f.line == m["line"] or m["fragment"][:12] in f.latex.replace(" ", "") or
                 m["fragment"][:12].replace(" ", "") in f.latex.replace(" ", ""))]
    found = [m for m in mistakes if hits(m)]
    explained = {id(f) for m in mistakes for f in hits(m)}
    false = [f for f in mismatches if id(f) not in explained and f.line not in lines]
    claims = [f for f in findings if f.kind == "claim" and f.status != "lint"]
    decided = sum(f.status in ("verified", "mismatch") for f in claims)
    reasons = Counter(re.sub(r"\$[^$]*\$|\d+(\.\d+)?|\([^)]*\)", "…", f.message)[:70]
                      for f in claims if f.status == "unchecked")
    return {"document": yaml_path.stem, "claims": len(claims), "decided": decided,
            "share": decided / len(claims) if claims else 0.0, "mismatches": len(mismatches),
            "false_mismatches": [(f.line, f.latex[:60], f.message[:100]) for f in false],
            "mistakes": len(mistakes), "findable": sum(findable(m) for m in mistakes),
            "found": [m["line"] for m in found],
            "missed": [(m["line"], m["fragment"][:40]) for m in mistakes if findable(m) and m not in found],
            "unchecked_reasons": reasons.most_common(3), "seconds": seconds,
            "fragments": sum(1 for f in findings)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [run_one(p) for p in sorted(CORPUS.glob("*.yaml"))]
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for r in rows:
        print(f"{r['document']:40s} claims {r['claims']:4d}  decided {r['share']:5.1%}  mismatches {r['mismatches']:2d} "
              f"(false {len(r['false_mismatches'])})  mistakes found {len(r['found'])}/{r['findable']} findable "
              f"({r['mistakes']} listed)  {r['seconds']:.2f} s")
        for line, latex, msg in r["false_mismatches"]:
            print(f"    false mismatch line {line}: {latex} — {msg}")
        for reason, n in r["unchecked_reasons"]:
            print(f"    unchecked ×{n}: {reason}")
    claims = sum(r["claims"] for r in rows)
    decided = sum(r["decided"] for r in rows)
    findings = sum(r["fragments"] for r in rows)
    false = sum(len(r["false_mismatches"]) for r in rows)
    found = sum(len(r["found"]) for r in rows)
    findable_total = sum(r["findable"] for r in rows)
    print(f"TOTAL {len(rows)} documents: {claims} claims, {decided / max(claims, 1):.1%} decided; "
          f"{false} false mismatches in {findings} findings; mistakes found {found}/{findable_total} findable; "
          f"{sum(r['seconds'] for r in rows):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
