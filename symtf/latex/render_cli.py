"""``symtf render FILE... [--check]``: regenerate the marked regions of documents in place.

Markdown and Quarto mark a region with ``<!-- symtf:begin NAME -->`` … ``<!-- symtf:end NAME -->``,
MyST also with ``% symtf:begin NAME``, LaTeX with ``% symtf:begin NAME`` … ``% symtf:end NAME``.
Exit codes: 0 all regions up to date (or written), 1 a stale region with ``--check``, 2 a file that
could not be read or has malformed markers (nothing is written to it; the other files are still done).
"""
from __future__ import annotations

import argparse
import sys

HELP = ("regenerate the symtf:begin NAME ... symtf:end NAME regions of Markdown, MyST, Quarto and LaTeX "
        "documents")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("posts", nargs="+", metavar="FILE",
                        help="a document to update in place (.md, .qmd, .tex; any other file is read as Markdown)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a region is stale (for a blog's CI)")


def _render_one(path, check: bool) -> int:
    from ..inputs import read_text_input
    from ..io import write_atomic
    from ..sources import format_for
    from .render import render_text

    text = read_text_input(path)  # missing, a directory, binary, not UTF-8, empty: one line naming the file
    rendered = render_text(text, source=str(path), fmt=format_for(path, text) or "markdown")
    stale = rendered.stale
    if check:
        for region in stale:
            print(f"{path}:{region.line}: region {region.name!r} is stale; run `symtf render {path}`")
        if not stale:
            print(f"{path}: {len(rendered.regions)} region(s) up to date")
        return 1 if stale else 0
    if stale:
        write_atomic(path, rendered.text)
    print(f"{path}: {len(rendered.regions)} region(s), {len(stale)} updated", file=sys.stdout)
    return 0


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import SymtfError

    if len(args.posts) == 1:  # one file: its error is the command's (one line, exit 2)
        return _render_one(Path(args.posts[0]), args.check)
    codes = []
    for name in args.posts:
        try:
            codes.append(_render_one(Path(name), args.check))
        except (SymtfError, OSError) as exc:
            print(f"symtf render: error: {exc}", file=sys.stderr)
            codes.append(2)
    return max(codes)
