"""Findings written for CI: SARIF 2.1.0 (code scanning, editors) and GitHub workflow commands.

Built from :class:`symtf.check.report.Finding` objects of several files. A finding's ``kind``
(claim or mention) and ``diagnosis`` are written where the checker gives them. Levels: a mismatch
is an error, a lint finding a warning, an unparsed fragment a note; verified and unchecked
findings are not problems and are left out of both formats (the text and JSON reports keep them).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"mismatch": "error", "lint": "warning", "unparsed": "note"}
_GITHUB = {"error": "error", "warning": "warning", "note": "notice"}
#: What each rule checks (SARIF's ``shortDescription``); a rule not listed is described by its name.
RULES = {
    "definition": "an equation against the definitions of the document and of the reference model",
    "chain": "each link of a chain of equalities",
    "shape": "a stated shape against the shapes the definitions give",
    "numeric": "printed numbers recomputed from the values they come from",
    "figures": "parameter counts and sizes against published configurations",
    "notation": "notation written two ways in one document",
}


@dataclass
class FileReport:
    """The findings of one checked file; ``where`` maps a line to a finer location (a notebook's
    "cell 3, line 2")."""

    path: str
    findings: list
    where: dict[int, str] = field(default_factory=dict)


def _problems(reports: list[FileReport]):
    """``(report, finding, level)`` for each finding that is a problem (a level of :data:`LEVELS`)."""
    for report in reports:
        for f in report.findings:
            if f.status in LEVELS:
                yield report, f, LEVELS[f.status]


def _text(finding, where: str = "") -> str:
    parts = [finding.message.rstrip(".") + "."]
    diagnosis = getattr(finding, "diagnosis", None)
    if diagnosis:
        parts.append(f"Diagnosis: {diagnosis}.")
    if finding.expected:
        parts.append(f"Expected: {finding.expected} ;")
    parts.append(f"fragment: ${' '.join(finding.latex.split())}$")
    if where:
        parts.append(f"({where})")
    return " ".join(parts)


def _uri(path: str) -> str:
    p = Path(path)
    try:
        p = p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return p.resolve().as_uri()
    return quote(p.as_posix())


def to_sarif(reports: list[FileReport], version: str) -> str:
    """One SARIF 2.1.0 log with one run of symtf: a result per problem finding."""
    rule_ids: list[str] = []
    results = []
    for report, f, level in _problems(reports):
        if f.rule not in rule_ids:
            rule_ids.append(f.rule)
        where = report.where.get(f.line, "")
        props = {"status": f.status, "latex": f.latex, "kind": getattr(f, "kind", None),
                 "expected": f.expected, "diagnosis": getattr(f, "diagnosis", None), "where": where or None}
        results.append({
            "ruleId": f.rule,
            "ruleIndex": rule_ids.index(f.rule),
            "level": level,
            "message": {"text": _text(f, where)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(report.path)},
                "region": {"startLine": max(1, int(f.line))},
            }}],
            "properties": {k: v for k, v in props.items() if v is not None},
        })
    rules = [{"id": r, "name": r, "shortDescription": {"text": RULES.get(r, r)}} for r in rule_ids]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "symtf", "version": version,
                                "informationUri": "https://pypi.org/project/symtf/", "rules": rules}},
            "artifacts": [{"location": {"uri": _uri(r.path)}} for r in reports],
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _escape(value: str, prop: bool = False) -> str:
    """GitHub's escaping of a workflow command's message (and, ``prop``, of a property value)."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def to_github(reports: list[FileReport]) -> str:
    """``::error file=…,line=…,title=…::message`` per problem finding (GitHub shows them on the
    pull request's diff), and one plain summary line per file."""
    from .report import summary_line

    lines = []
    for report in reports:
        for _, f, level in _problems([report]):
            title = f"symtf {f.status} [{f.rule}]"
            lines.append(f"::{_GITHUB[level]} file={_escape(report.path, True)},line={max(1, int(f.line))},"
                         f"title={_escape(title, True)}::{_escape(_text(f, report.where.get(f.line, '')))}")
        lines.append(summary_line(report.path, report.findings))
    return "\n".join(lines)
