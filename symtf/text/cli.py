"""``symtf tokens``: the token ids of a text under a tokenizer directory, or a BPE trained on a file."""
from __future__ import annotations

import argparse

HELP = "tokenize text (a tokenizer directory, or a byte-level BPE trained on a file) and print ids and merges"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", nargs="?", metavar="TEXT", help="the text to tokenize (optional with --train)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--tokenizer", metavar="DIR",
                        help="a Hugging Face tokenizer: a directory with tokenizer.json, or GPT-2's vocab.json and "
                             "merges.txt (default: plain bytes, no merges)")
    source.add_argument("--train", metavar="FILE", help="train a byte-level BPE on this text file and print its merges")
    parser.add_argument("--vocab-size", type=int, metavar="N", help="vocabulary size of --train (alphabet plus merges)")
    parser.add_argument("--alphabet", choices=("bytes", "text"), default="bytes",
                        help="--train starts from all 256 bytes (default) or from the file's characters only")
    parser.add_argument("--save", metavar="DIR", help="write the trained tokenizer to DIR/tokenizer.json")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    import json

    from symtf.errors import InputError
    from symtf.text.bpe import merges, save_tokenizer, train_bpe
    from symtf.text.tokenizer import encode, load_tokenizer

    if args.train is None:
        for flag, value in (("--vocab-size", args.vocab_size), ("--save", args.save)):
            if value is not None:
                raise InputError(f"{flag} only applies with --train FILE")
        if args.text is None:
            raise InputError("give TEXT to tokenize (or --train FILE to train a tokenizer)")
    learned = None
    if args.train is not None:
        from symtf.inputs import read_text_input

        if args.vocab_size is None:
            raise InputError("--train needs --vocab-size N (the alphabet plus the merges to learn)")
        tokenizer = train_bpe([read_text_input(args.train)], args.vocab_size, args.alphabet)
        learned = merges(tokenizer)
        source = f"byte-level BPE trained on {args.train} ({args.alphabet} alphabet)"
    elif args.tokenizer is not None:
        tokenizer = load_tokenizer(args.tokenizer)
        source = args.tokenizer
    else:
        tokenizer = train_bpe([], None, "bytes")
        source = "plain bytes (no merges; --tokenizer DIR or --train FILE for a BPE)"
    tokens = encode(tokenizer, args.text) if args.text is not None else None
    saved = save_tokenizer(tokenizer, args.save) if args.save else None
    vocab = tokenizer.get_vocab_size(with_added_tokens=True)

    if args.format == "json":
        out = {"tokenizer": source, "n_vocab": vocab}
        if learned is not None:
            out["merges"] = [list(m) for m in learned]
        if tokens is not None:
            out["text"] = tokens.text
            out["tokens"] = [{"id": t.id, "token": t.token, "text": t.text} for t in tokens.tokens]
        if saved is not None:
            out["saved"] = str(saved)
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print(f"tokenizer: {source}; n_vocab = {vocab}")
    if learned is not None:
        print(f"{len(learned)} merges, in the order learned:")
        width = len(str(len(learned)))
        for k, (a, b) in enumerate(learned, 1):
            print(f"  {k:>{width}}. {a!r} + {b!r} -> {a + b!r}")
    if tokens is not None:
        print(f"{len(tokens.tokens)} tokens of {_clip(tokens.text)!r}:")
        rows = [("id", "token", "text")] + [(str(t.id), repr(t.token), repr(t.text)) for t in tokens.tokens]
        widths = [max(len(r[c]) for r in rows) for c in range(3)]
        for r in rows:
            print(f"  {r[0]:>{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]}")
    if saved is not None:
        print(f"wrote {saved}")
    return 0


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
