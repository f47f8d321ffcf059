"""Findings and their text / JSON reports."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass

STATUSES = ("verified", "mismatch", "unparsed", "unchecked", "lint")
RULES = ("definition", "chain", "shape", "numeric", "figures", "notation")


@dataclass
class Finding:
    line: int
    latex: str
    status: str
    rule: str
    message: str
    expected: str | None = None
    fragment: int = -1  # index of the fragment in the document (not reported)

    def __post_init__(self):
        if self.status not in STATUSES or self.rule not in RULES:
            raise ValueError(f"status must be one of {STATUSES} and rule one of {RULES}; got {self.status!r}, "
                             f"{self.rule!r}")


def summary(findings: list[Finding]) -> dict:
    return {s: sum(1 for f in findings if f.status == s) for s in STATUSES}


def summary_line(file: str, findings: list[Finding]) -> str:
    counts = summary(findings)
    return f"{file}: " + ", ".join(f"{counts[s]} {s}" for s in STATUSES)


def to_text(file: str, findings: list[Finding], verbose: bool = True) -> str:
    lines = []
    for f in findings:
        if not verbose and f.status == "verified":
            continue
        lines.append(f"{file}:{f.line}: {f.status.upper()}: [{f.rule}] {f.message} — ${f.latex}$")
        if f.status == "mismatch" and f.expected:
            lines.append(f"    expected: {f.expected}")
    lines.append(summary_line(file, findings))
    return "\n".join(lines)


def to_json(file: str, findings: list[Finding]) -> str:
    keys = ("line", "latex", "status", "rule", "message", "expected")
    rows = [{k: v for k, v in asdict(f).items() if k in keys} for f in findings]
    return json.dumps({"file": file, "summary": summary(findings), "findings": rows}, indent=2, ensure_ascii=False)


def fragment_rate(findings: list[Finding], total: int) -> float:
    """Share of fragments whose every finding is verified or mismatch (lint findings aside)."""
    decided = {}
    for f in findings:
        if f.fragment < 0 or f.status == "lint":
            continue
        decided[f.fragment] = decided.get(f.fragment, True) and f.status in ("verified", "mismatch")
    return sum(decided.values()) / total if total else 1.0
