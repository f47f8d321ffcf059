"""``symtf prove [IDS...] [--format text|json]``: prove the post's claims, three-valued."""
from __future__ import annotations

import argparse
import json

HELP = "prove the post's identities (proved / refuted / unknown, with numeric evidence)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ids", nargs="*", metavar="ID", help="claim ids (default: all)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--no-numeric", action="store_true", help="skip the numeric cross-checks")
    parser.add_argument("--timings", action="store_true",
                        help="json format: include each claim's seconds (left out by default so runs compare equal)")


def run(args: argparse.Namespace) -> int:
    from symtf.errors import InputError

    from .claim import without_timings
    from .registry import CLAIMS

    unknown_ids = [i for i in args.ids if i not in CLAIMS]
    if unknown_ids:
        raise InputError(f"unknown claim id(s) {', '.join(unknown_ids)}; known: {', '.join(CLAIMS)}")
    claims = [CLAIMS[i] for i in (args.ids or CLAIMS)]
    records, failed = [], []
    for claim in claims:
        result = claim.prove(numeric=not args.no_numeric)
        record = claim.report(result)
        records.append(record)
        if not record["as_expected"]:
            failed.append(claim.id)
        if args.format == "text":
            print(_line(record))
    if args.format == "json":
        print(json.dumps({"claims": records if args.timings else [without_timings(r) for r in records]}, indent=2))
    else:
        total = sum(r["seconds"] for r in records)
        print(f"{len(records)} claims, {len(records) - len(failed)} as expected, {total:.2f} s proving"
              + (f"; NOT as expected: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def _line(r: dict) -> str:
    status = r["result"].upper()
    method = f" ({r['method']})" if r["method"] else ""
    note = ""
    if r["expected"] == "refuted" and r["result"] == "refuted":
        note = "  [expected: the statement does not hold in general]"
    elif not r["as_expected"]:
        note = f"  [EXPECTED {r['expected'].upper()}]"
    check = r["numeric_check"]
    evidence = "" if check is None else (f"; numeric check {'passed' if check['passed'] else 'FAILED'}"
                                          f" (max error {check['max_error']:.1e})" if check["max_error"] is not None
                                          else f"; numeric check {'passed' if check['passed'] else 'FAILED'}")
    sizes = ", ".join(s if isinstance(s, str) else "{" + ", ".join(f"{k}={v}" for k, v in s.items()) + "}"
                      for s in r["sizes"]) if r["sizes"] else "-"
    lines = [f"{r['id']:<30} {status}{method}{note}  [{r['seconds']:.2f} s; sizes: {sizes}{evidence}]"]
    if r["result"] != "proved":
        lines.append(f"    {r['reason']}")
        if r["counterexample"] is not None:
            lines.append(f"    counterexample: {r['counterexample']}")
    return "\n".join(lines)
