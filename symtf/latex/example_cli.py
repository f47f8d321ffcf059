"""``symtf example``: a worked numeric walk-through of one attention layer (and the MLP) as LaTeX."""
from __future__ import annotations

import argparse

HELP = "a worked numeric example at the post's toy sizes (or your weights), as align* LaTeX"


def configure(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--seed", type=int, default=0, help="random weights at the toy sizes from this seed (default 0)")
    source.add_argument("--weights", metavar="FILE",
                        help="tokens and weights (.yaml, .json or .npz; fractions allowed as strings like \"1/3\")")
    parser.add_argument("--text", metavar="TEXT", help="the tokens of TEXT as t (random weights from --seed)")
    parser.add_argument("--tokenizer", metavar="DIR",
                        help="tokenize --text with this tokenizer directory (default: a toy BPE trained on the text)")
    parser.add_argument("--vocab-size", type=int, metavar="N",
                        help="size of the toy BPE (default: merge until every word of the text is one token)")
    parser.add_argument("--precision", type=int, default=3, metavar="P", help="decimal places shown (default 3)")
    parser.add_argument("--mlp", action="store_true", help="continue through the MLP to logits and probabilities")
    parser.add_argument("--format", choices=("latex", "markdown"), default="latex")


def run(args: argparse.Namespace) -> int:
    from .example import worked_example

    example = worked_example(seed=args.seed, weights=args.weights, mlp=args.mlp, precision=args.precision,
                             text=args.text, tokenizer=args.tokenizer, vocab_size=args.vocab_size)
    print(example.latex() if args.format == "latex" else example.markdown())
    return 0
