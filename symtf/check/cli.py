"""``symtf check POST.md``: verify every equation of a Markdown post against the model."""
from __future__ import annotations

import argparse

HELP = "check every equation of a Markdown post against the model"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("post", metavar="POST.md", help="Markdown file (Jekyll/Kramdown math)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--convention", choices=("column", "row", "auto"), default="auto",
                        help="column vectors as in the post, row vectors as in most papers, or detect")
    parser.add_argument("--profile", metavar="FILE", help="a notation profile (JSON or TOML) extending column/row")
    parser.add_argument("--quiet", action="store_true", help="text format: leave out verified findings")


def run(args: argparse.Namespace) -> int:
    from symtf.inputs import read_text_input

    from .checker import check_text
    from .notation import load_profile
    from .report import to_json, to_text

    text = read_text_input(args.post)  # one clear line and exit 2 for a missing, binary or empty file
    profile = load_profile(args.profile) if args.profile else None
    findings = check_text(text, args.convention, profile)
    if args.format == "json":
        print(to_json(args.post, findings))
    else:
        print(to_text(args.post, findings, verbose=not args.quiet))
    return 1 if any(f.status == "mismatch" for f in findings) else 0
