"""``symtf eval``: run a variant's forward pass on a weights file (or random weights) and print every activation."""
from __future__ import annotations

import argparse

from symtf.model.variants import PRESETS

HELP = "evaluate every activation of a model variant on weights and tokens"

VARIANTS = tuple(PRESETS)
SIZE_FLAGS = ("n_vocab", "d_model", "d_head", "d_mlp", "H", "n_ctx")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", choices=VARIANTS, help="model variant (default: full; a checkpoint sets its own)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--weights", metavar="W.npz", help="npz weights file in the post's column-vector shapes")
    source.add_argument("--random", action="store_true", help="use random weights (see --seed and the size flags)")
    source.add_argument("--checkpoint", metavar="DIR",
                        help="Hugging Face GPT-2 directory (config.json + model.safetensors or pytorch_model.bin)")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--tokens", help="comma-separated token ids, e.g. 3,1,4")
    given.add_argument("--text", help="text, tokenized with --tokenizer DIR or the --checkpoint directory's tokenizer")
    parser.add_argument("--tokenizer", metavar="DIR", help="tokenizer directory for --text and --top (default: --checkpoint)")
    parser.add_argument("--top", type=int, metavar="K",
                        help="print the K likeliest next tokens instead of the activations (default 5 with --text)")
    parser.add_argument("--out", metavar="ACTS.npz",
                        help="also write every activation to this npz file, keyed by TransformerLens hook names "
                             "(blocks.{l}.hook_resid_pre ...) plus logits and probs, in the --convention's layout")
    parser.add_argument("--convention", choices=("column", "row"), default="column",
                        help="column: the post's vectors (tokens as columns); row: tokens as rows")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--dtype", choices=("float64", "float32", "bfloat16"), default="float64",
                        help="bfloat16 with --backend torch only")
    parser.add_argument("--backend", choices=("numpy", "torch"), default="numpy",
                        help="numpy, or torch (rows printed with the torch printer; needs the crosscheck extra)")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda / cuda:N with --backend torch")
    parser.add_argument("--seed", type=int, default=0, help="seed of --random")
    for name in SIZE_FLAGS:
        flag = "--" + name.replace("_", "-") if name != "H" else "--heads"
        parser.add_argument(flag, dest=name, type=int, metavar="N", help=f"{name} for --random")


def _parse_tokens(text: str) -> list[int]:
    from symtf.errors import InputError

    items = text.replace(" ", "").split(",")
    if items == [""]:
        raise InputError("--tokens: no token ids given")
    if "" in items:
        raise InputError(f"--tokens: an empty item in {text!r} (item {items.index('') + 1}); "
                         "expected comma-separated integers like 3,1,4")
    try:
        return [int(t) for t in items]
    except ValueError:
        raise InputError(f"--tokens: expected comma-separated integers like 3,1,4, got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    import json
    import os

    import numpy as np

    from symtf.errors import InputError
    from symtf.numeric.backends import Backend, to_numpy
    from symtf.numeric.compile import compile_forward
    from symtf.numeric.weights import load_weights, random_weights, write_npz

    backend = Backend.of(args.backend, args.device, args.dtype)  # a bad combination fails before any work
    dtype = backend.numpy_dtype
    tokenizer = prompt = None
    tokenizer_dir = args.tokenizer or args.checkpoint
    if args.text is not None and tokenizer_dir is None:
        raise InputError("--text needs a tokenizer: --checkpoint DIR (its own) or --tokenizer DIR")
    tokens = _parse_tokens(args.tokens) if args.text is None else None
    if args.out and os.path.isdir(args.out):
        raise InputError(f"--out {args.out}: is a directory; give the npz file to write, e.g. "
                         f"{os.path.join(args.out, 'acts.npz')}")
    sizes = {name: getattr(args, name) for name in SIZE_FLAGS if getattr(args, name) is not None}
    if sizes and not args.random:
        raise InputError("size flags only apply with --random (a weights file or checkpoint fixes the sizes)")
    from symtf.model import Convention, Variant, build
    from symtf.numeric.hooks import by_hook

    variant = args.variant or "full"
    if args.checkpoint:
        from symtf.numeric.checkpoint import load_checkpoint

        if args.variant:
            raise InputError("--variant does not apply with --checkpoint (its config.json sets the variant)")
        ckpt = load_checkpoint(args.checkpoint)
        variant, weights = ckpt.variant, ckpt.params
        args.variant = f"gpt2 ({ckpt.layers} layers, {args.checkpoint})"
    if isinstance(variant, str):
        variant = Variant.preset(variant)
    # built once; a weights file is read against it too unless it is in the row convention
    model = build(variant.with_(convention=Convention(args.convention)))
    file_model = model if args.convention == "column" else variant
    if args.random:
        weights = random_weights(file_model, sizes, args.seed)
    elif args.weights:
        weights = load_weights(args.weights, file_model, dtype)
    if args.text is not None:
        from symtf.numeric.next_token import prompt as tokenize_prompt

        tokenizer, prompt = tokenize_prompt(args.text, tokenizer_dir, weights["W_E"].shape[-1])
        tokens = list(prompt.ids)
    elif args.top is not None and tokenizer_dir is not None:
        from symtf.numeric.next_token import optional_tokenizer

        tokenizer = optional_tokenizer(args.tokenizer, args.checkpoint)
    source = args.weights or args.checkpoint or "--random weights"
    hint = "; try --dtype float64" if args.dtype != "float64" else ""
    f = compile_forward(model, args.dtype, backend=args.backend, device=args.device)
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
            acts = {k: to_numpy(v) for k, v in f(weights, tokens).items()}
    except FloatingPointError as exc:  # numpy's "overflow encountered in ...": one clear line, no warning
        raise InputError(f"{source}: the forward pass in {args.dtype} failed: {exc} (largest value "
                         f"±{np.finfo(dtype).max:.1e}){hint}") from None
    overflow = next((k for k, v in acts.items() if not np.isfinite(v).all()), None)
    if overflow is not None:
        raise InputError(f"{source}: activation {overflow!r} is not finite in {args.dtype}{hint}")
    hooked = by_hook(model, acts) if args.out else {}
    if args.out:
        write_npz(args.out, hooked)
    if prompt is not None or args.top is not None:
        from symtf.numeric.next_token import print_prediction

        return print_prediction(args, acts, tokens, prompt, tokenizer)
    if args.format == "json":
        print(json.dumps({
            "variant": args.variant,
            "tokens": tokens,
            "dtype": args.dtype,
            "activations": {
                k: {"symbol": model[k.split(".")[0]].symbol.name, "per_head": model[k.split(".")[0]].per_head,
                    "shape": list(v.shape),
                    "values": v.tolist()}
                for k, v in acts.items()
            },
        }))
        return 0
    print(f"{model.title}; tokens {tokens}; {args.dtype}")
    width = max(len(k) for k in acts)
    for k, v in acts.items():
        a = model[k.split(".")[0]]  # a stacked model's block rows are "q.1" ... "q.L"
        head = " (head axis first)" if a.per_head else ""
        flat = v.ravel()
        sample = ", ".join(f"{x:.6g}" for x in flat[:4]) + (", ..." if flat.size > 4 else "")
        print(f"{k:<{width}}  {a.symbol.name:<12} {str(v.shape):<14}{head}  [{sample}]")
    if args.out:
        print(f"wrote {len(hooked)} arrays (TransformerLens hook names, {args.convention} convention) to {args.out}")
    return 0
