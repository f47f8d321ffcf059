"""``symtf check PATH...``: verify every equation of documents against the model.

Files and directories (walked for Markdown, MyST, Quarto, notebooks and LaTeX); one report and
summary per file, a total when there are several. Exit 1 if any file has a mismatch, 2 if any
input could not be read (the others are still checked).
"""
from __future__ import annotations

import argparse
import sys

HELP = "check every equation of Markdown, MyST, Quarto, notebook and LaTeX documents against the model"
FORMATS = ("text", "json", "sarif", "github")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a document (.md, .qmd, .ipynb, .tex; any other file is read as Markdown) or a "
                             "directory, walked for those")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="leave out paths matching GLOB (matched from the right: '*.ipynb', 'drafts/*'); "
                             "repeatable")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), json, sarif (SARIF 2.1.0 for code scanning) or github "
                             "(workflow annotations on the pull request)")
    parser.add_argument("--convention", choices=("column", "row", "auto"), default="auto",
                        help="column vectors as in the post, row vectors as in most papers, or detect")
    parser.add_argument("--profile", metavar="FILE", help="a notation profile (JSON or TOML) extending column/row")
    parser.add_argument("--quiet", action="store_true", help="text format: leave out verified findings")
    parser.add_argument("--explain-model", action="store_true",
                        help="print what was learned of each document's model (symbols, sizes, deviations) and stop")


def _read(path) -> tuple[object, str | None]:
    """(the Source, None) or (None, the one-line error) for the file at ``path``."""
    from symtf.errors import SymtfError
    from symtf.inputs import read_text_input
    from symtf.sources import Source, format_for

    try:
        text = read_text_input(path)
    except (SymtfError, OSError) as exc:
        return None, str(exc)
    return Source(text, format_for(path, text) or "markdown", str(path)), None


def run(args: argparse.Namespace) -> int:
    from symtf import __version__
    from symtf.errors import InputError
    from symtf.sources.files import collect

    import json

    from .checker import check_document
    from .notation import load_profile
    from .output import FileReport, to_github, to_sarif
    from .report import explain_text, summary_line

    profile = load_profile(args.profile) if args.profile else None
    files = list(collect(args.paths, args.exclude))
    if not files:
        named = args.paths[0]
        raise InputError(f"{named}: is a directory with no document symtf reads (.md, .qmd, .ipynb, .tex)"
                         if len(args.paths) == 1 else f"{' '.join(args.paths)}: no document to check")
    reports: list[FileReport] = []
    models: dict[str, dict] = {}
    unusable = 0
    for path in files:
        source, error = _read(path)
        if source is not None:
            try:
                findings, model = check_document(source, args.convention, profile)
            except ValueError as exc:  # a notebook that is not one (nbformat's errors are ValueErrors)
                source, error = None, f"{path}: not a valid {source.fmt} file: {str(exc).splitlines()[0]}"
        if source is None:
            print(f"symtf check: error: {error}", file=sys.stderr)
            unusable += 1
            continue
        if args.explain_model:
            print(json.dumps({"file": str(path), "model": model}, indent=2, ensure_ascii=False)
                  if args.format == "json" else explain_text(str(path), model))
            continue
        reports.append(FileReport(str(path), findings, _where(source)))
        models[str(path)] = model
        if args.format == "text":
            print(_text(reports[-1], verbose=not args.quiet, model=model))
    if args.format == "json":
        print(_json(reports, models))
    elif args.format == "sarif":
        print(to_sarif(reports, __version__))
    elif args.format == "github":
        print(to_github(reports))
    everything = [f for r in reports for f in r.findings]
    if args.format == "text" and len(files) > 1:
        print(summary_line(f"total ({len(reports)} files{f', {unusable} unreadable' if unusable else ''})",
                           everything))
    if unusable:
        return 2
    return 1 if any(f.status == "mismatch" for f in everything) else 0


def _where(source) -> dict[int, str]:
    """Line → a finer location, for formats that have one (a notebook's cells)."""
    from symtf.sources import read

    return read(source).where if source.fmt == "notebook" else {}


def _text(report, verbose: bool, model: dict | None = None) -> str:
    from .report import to_text

    text = to_text(report.path, report.findings, verbose=verbose, model=model)
    if not report.where:
        return text
    lines = []
    for line in text.split("\n"):  # "file:LINE: ..." gains the cell it is in
        head, _, rest = line.partition(": ")
        file, _, number = head.rpartition(":")
        if file == report.path and number.isdigit() and int(number) in report.where:
            line = f"{head}: ({report.where[int(number)]}) {rest}"
        lines.append(line)
    return "\n".join(lines)


def _json(reports, models: dict) -> str:
    """One file: the report's own object (as before); several: ``{"files": [...], "summary": {...}}``."""
    import json

    from .report import summary, to_json

    objects = []
    for report in reports:
        data = json.loads(to_json(report.path, report.findings, models.get(report.path)))
        for row in data["findings"]:
            if row.get("line") in report.where:
                row["where"] = report.where[row["line"]]
        objects.append(data)
    if len(objects) == 1:
        return json.dumps(objects[0], indent=2, ensure_ascii=False)
    total = summary([f for r in reports for f in r.findings])
    return json.dumps({"files": objects, "summary": total}, indent=2, ensure_ascii=False)
