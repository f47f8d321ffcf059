"""``symtf figures [--out DIR]``: write the post's figures as PNG and SVG."""
from __future__ import annotations

import argparse

HELP = "write the post's figures (variance scaling, softmax sharpening, attention pattern) as PNG and SVG"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR", default="docs/figures", help="output directory (default docs/figures)")


def run(args: argparse.Namespace) -> int:
    from .figures import write_figures

    for path in write_figures(args.out):
        print(path)
    return 0
