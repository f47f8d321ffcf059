"""``symtf report [POST.md] [--format text|json] [--out DIR]``: the main job in one command."""
from __future__ import annotations

import argparse

HELP = "check a post (default: the built-in example), prove every claim, print the tables and a summary"

EPILOG = """\
Without POST.md the built-in example post is checked; its mistakes are deliberate, so they are
reported but do not make the exit code 1. Exit codes: 0 all good; 1 a mismatch in POST.md, a claim
not as expected, or a part of the report that could not run (named in the summary); 2 unreadable input.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("post", metavar="POST.md", nargs="?", default=None,
                        help="a Markdown post (Jekyll/Kramdown math); default: the built-in example post")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--out", metavar="DIR", help="also write the docs pages (Markdown) and report.json to DIR")
    parser.add_argument("--timings", action="store_true",
                        help="json and --out: include wall times (left out by default, so two runs write the same bytes)")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from pathlib import Path

    from symtf.errors import InputError

    from .run import run_report, to_text, without_timings

    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        raise InputError(f"--out {args.out}: exists and is not a directory")
    report = run_report(args.post, show_progress=True)
    stable = report if args.timings else without_timings(report)
    if args.out:
        from .pages import write_pages

        written = write_pages(stable, args.out)
        print(f"symtf report: wrote {len(written)} files to {args.out}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(stable, indent=2, ensure_ascii=False))
    else:
        print(to_text(report))
    return 0 if report["status"]["ok"] else 1
