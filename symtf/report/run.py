r"""The report: one post checked against the model, every claim proved, the model's tables.

:func:`build_report` gathers the three parts into one plain ``dict`` (the JSON of
``symtf report --format json``); :func:`to_text` prints it for a reader, and
:mod:`symtf.report.pages` turns it into the docs pages. Each part comes from its own package's
public function (``symtf.check.checker.check_text``, the claims registry of ``symtf.proofs``,
``symtf.latex.tables.table``). A part that cannot run is reported as unavailable, with the
reason; it is never filled in.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from symtf.check.checker import check_text
from symtf.check.report import summary
from symtf.proofs.claim import without_timings as claim_without_timings
from symtf.proofs.registry import CLAIMS

from .progress import Progress, RichProgress

EXAMPLE_POST = Path(__file__).with_name("example_post.md")


class Unavailable(Exception):
    """A part of the report could not run; the message says why."""


@contextmanager
def _timed(seconds: dict, key: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds[key] = round(time.perf_counter() - start, 3)


# --------------------------------------------------------------------------- the three parts


def read_post(path: str | Path) -> str:
    """The text of a post, tagged with its format (a :class:`symtf.sources.Source`: a ``.tex`` or
    ``.ipynb`` post is read as such); unreadable input raises :class:`symtf.errors.InputError` naming the file."""
    from symtf.inputs import read_text_input
    from symtf.sources import Source, format_for

    text = read_text_input(path)
    return Source(text, format_for(path, text) or "markdown", str(path))


def check_post(text: str) -> dict:
    """``{"summary", "findings"}`` from the checker, or :class:`Unavailable` with the reason."""
    try:
        findings = check_text(text)
    except Exception as exc:
        raise Unavailable(f"checker failed: {type(exc).__name__}: {exc}") from exc
    keys = ("line", "latex", "status", "rule", "message", "expected")
    rows = [{k: getattr(f, k, None) for k in keys} for f in findings]
    return {"summary": summary(findings), "findings": rows}


def prove_claims(claims: list, progress: Progress) -> list[dict]:
    """Every claim proved once (``Claim.prove`` never raises), as the registry's JSON records."""
    records = []
    progress.start("proving claims", total=len(claims))
    for claim in claims:
        progress.describe(f"proving {claim.id}")
        result = claim.prove()
        records.append(claim.report(result))
        progress.advance()
    progress.done()
    return records


def claim_summary(records: list[dict]) -> dict:
    counts = {s: sum(1 for r in records if r["result"] == s) for s in ("proved", "refuted", "unknown")}
    counts["total"] = len(records)
    counts["as_expected"] = sum(1 for r in records if r.get("as_expected"))
    return counts


def model_tables() -> list[dict]:
    """The post's tables from the model: id, title, header and rows (name, latex, shape, hook)."""
    from symtf.latex.tables import TABLE_IDS, table

    out = []
    for table_id in TABLE_IDS:
        t = table(table_id)
        out.append({"id": t.id, "title": t.title, "header": list(t.header),
                    "rows": [dict(name=r.name, latex=r.latex, shape=r.shape, hook=r.hook) for r in t.rows]})
    return out


# --------------------------------------------------------------------------- the report


def build_report(post: str | Path | None = None, progress: Progress | None = None, claims=None) -> dict:
    """Check ``post`` (default: the built-in example post), prove ``claims`` (default: every claim of
    ``symtf.proofs.registry.CLAIMS``), collect the tables."""
    progress = progress or Progress()
    seconds: dict[str, float] = {}
    builtin = post is None
    path = EXAMPLE_POST if builtin else Path(post)
    text = read_post(path)  # unreadable input stops here, before any slow step

    with _timed(seconds, "tables"):
        progress.start("building the model's tables")
        tables = model_tables()
        progress.done()

    post_part: dict[str, Any] = {"file": str(path) if not builtin else "example_post.md (built in)",
                                 "builtin": builtin}
    with _timed(seconds, "check"):
        progress.start(f"checking {path.name}")
        try:
            post_part.update(check_post(text))
        except Unavailable as exc:
            post_part["unavailable"] = str(exc)
        progress.done()

    claims_part: dict[str, Any] = {}
    with _timed(seconds, "claims"):
        claims = list(CLAIMS.values() if claims is None else claims)
        if not claims:
            claims_part["unavailable"] = "claims unavailable: no claims to prove"
        else:
            records = prove_claims(claims, progress)
            claims_part.update(summary=claim_summary(records), claims=records)

    return {"post": post_part, "claims": claims_part, "tables": tables, "seconds": seconds,
            "status": status(post_part, claims_part)}


def without_timings(report: dict) -> dict:
    """``report`` less every wall time (its ``seconds`` and each claim's): the part that is the same
    from run to run, for ``--format json`` and ``--out`` unless ``--timings`` asks for the times."""
    out = {k: v for k, v in report.items() if k != "seconds"}
    if "claims" in report.get("claims", {}):
        out["claims"] = {**report["claims"], "claims": [claim_without_timings(r) for r in report["claims"]["claims"]]}
    return out


def status(post_part: dict, claims_part: dict) -> dict:
    """What the exit code rests on: mismatches in a user's post, claims not as expected, gaps."""
    problems = []
    if "unavailable" in post_part:
        problems.append(post_part["unavailable"])
    elif not post_part["builtin"] and post_part["summary"].get("mismatch", 0):
        problems.append(f"{post_part['summary']['mismatch']} mismatch(es) in {post_part['file']}")
    if "unavailable" in claims_part:
        problems.append(claims_part["unavailable"])
    else:
        s = claims_part["summary"]
        if s["as_expected"] != s["total"]:
            problems.append(f"{s['total'] - s['as_expected']} claim(s) not as expected")
    return {"ok": not problems, "problems": problems}


# --------------------------------------------------------------------------- text


def _fragment(latex: str, width: int = 70) -> str:
    one_line = " ".join(latex.split())
    return one_line if len(one_line) <= width else one_line[: width - 1] + "…"


def to_text(report: dict, tables: bool = True) -> str:
    """The report for a reader: tables, the post's findings, the claims, then a short summary."""
    lines: list[str] = []
    if tables:
        from symtf.latex.tables import TABLE_IDS, render_tables

        lines += ["== The model's tables (column vectors, as in the post)", "", render_tables("markdown", TABLE_IDS).rstrip(), ""]

    post = report["post"]
    lines.append(f"== Post: {post['file']}")
    if "unavailable" in post:
        lines.append(f"  {post['unavailable']}")
    else:
        shown = [f for f in post["findings"] if f["status"] in ("mismatch", "unparsed", "lint")]
        for f in shown:
            lines.append(f"  line {f['line']:>4}  {f['status'].upper():<8} [{f['rule']}] ${_fragment(f['latex'])}$")
            lines.append(f"             {f['message']}")
            if f["status"] == "mismatch" and f.get("expected"):
                lines.append(f"             expected: ${f['expected']}$")
        s = post["summary"]
        lines.append("  " + ", ".join(f"{v} {k}" for k, v in s.items())
                     + ("" if not s.get("unchecked") else " (unchecked: listed with reasons in --format json)"))
    lines.append("")

    claims = report["claims"]
    lines.append("== Claims")
    if "unavailable" in claims:
        lines.append(f"  {claims['unavailable']}")
    else:
        width = max((len(r["id"]) for r in claims["claims"]), default=2)
        for r in claims["claims"]:
            check = r.get("numeric_check")
            numeric = "-" if not check else ("ok" if check["passed"] else "FAILED")
            expected = "" if r.get("as_expected") else f"   NOT AS EXPECTED (expected {r.get('expected')})"
            note = " (expected)" if r["result"] == "refuted" and r.get("as_expected") else ""
            took = f"{r['seconds']:>6.2f} s" if "seconds" in r else f"{'-':>8}"
            lines.append(f"  {r['id']:<{width}}  {r['result'] + note:<18} {r['method'] or '-':<9} "
                         f"{took}  numeric {numeric}{expected}")
            if r["result"] != "proved" and r.get("reason"):
                lines.append(f"  {'':<{width}}  {_fragment(r['reason'], 90)}")
    lines.append("")
    lines += summary_lines(report)
    return "\n".join(lines)


def summary_lines(report: dict) -> list[str]:
    """A few lines: what was checked, proved and emitted, and whether anything needs attention."""
    out = ["== Summary"]
    post = report["post"]
    if "unavailable" in post:
        out.append(f"  post: {post['unavailable']}")
    else:
        s = post["summary"]
        extra = " (the built-in example has deliberate mistakes)" if post["builtin"] and s.get("mismatch") else ""
        out.append(f"  post: {s.get('verified', 0)} claims verified, {s.get('mismatch', 0)} mismatch{extra}, "
                   f"{s.get('recognized', 0)} mentions recognized, "
                   f"{s.get('unparsed', 0) + s.get('unchecked', 0)} not checkable, {s.get('lint', 0)} lint")
    claims = report["claims"]
    if "unavailable" in claims:
        out.append(f"  claims: {claims['unavailable']}")
    else:
        s = claims["summary"]
        out.append(f"  claims: {s['as_expected']} of {s['total']} as expected "
                   f"({s['proved']} proved, {s['refuted']} refuted, {s['unknown']} unknown)")
    rows = sum(len(t["rows"]) for t in report["tables"])
    out.append(f"  tables: {len(report['tables'])} tables, {rows} rows, generated from the model")
    if "seconds" in report:  # a report read back from JSON written without --timings has none
        out.append("  time: " + ", ".join(f"{k} {v:.1f} s" for k, v in report["seconds"].items()))
    st = report["status"]
    out.append("  status: ok" if st["ok"] else "  status: needs attention: " + "; ".join(st["problems"]))
    return out


def run_report(post: str | None = None, show_progress: bool = True,
               make_progress: Callable[[], RichProgress] = RichProgress) -> dict:
    """:func:`build_report` with a progress display on stderr (shown only on a terminal)."""
    if not show_progress:
        return build_report(post)
    with make_progress() as progress:
        return build_report(post, progress)
