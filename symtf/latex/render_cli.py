"""``symtf render POST.md [--check]``: regenerate the marked regions of a post in place."""
from __future__ import annotations

import argparse
import sys

HELP = "regenerate the <!-- symtf:begin NAME --> ... <!-- symtf:end NAME --> regions of a Markdown post"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("post", metavar="POST.md", help="the Markdown file to update in place")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a region is stale (for a blog's CI)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import InputError
    from ..io import write_atomic
    from .render import render_text

    path = Path(args.post)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text: {exc}") from None
    rendered = render_text(text, source=str(path))
    stale = rendered.stale
    if args.check:
        for region in stale:
            print(f"{path}:{region.line}: region {region.name!r} is stale; run `symtf render {path}`")
        if not stale:
            print(f"{path}: {len(rendered.regions)} region(s) up to date")
        return 1 if stale else 0
    if stale:
        write_atomic(path, rendered.text)
    print(f"{path}: {len(rendered.regions)} region(s), {len(stale)} updated", file=sys.stdout)
    return 0
