r"""The docs page "From text to the next token": the post's example run end to end, built at docs time.

The post's example prompt, "The Empire State Building is in New", goes through every step symtf
has: a byte-level BPE trained on a small corpus (``symtf tokens --train``), the one-hot $t$ of the
tables (``symtf example --text``), and a GPT-2 checkpoint directory (a random model written by
:func:`symtf.numeric.random_gpt2.write_random_gpt2`, with that tokenizer) run by
``symtf eval --checkpoint DIR --text``. Each command's output on the page is what the command
printed during the build; the temporary directory's path is shown as ``gpt2-random``.
"""
from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

PROMPT = "The Empire State Building is in New"
#: A few sentences written for this page: enough repeated pairs for the first merges to be words.
CORPUS = (
    "The Empire State Building is in New York. New York is a city in the state of New York, "
    "and the state of New York is next to New Jersey. The building is tall; the city is large. "
    "In New York the state building is not the Empire State Building.\n"
)
CHECKPOINT_SIZES = {"d_model": 16, "heads": 2, "d_mlp": 32, "n_ctx": 32, "n_layers": 2}
VOCAB_SIZE = 300
TOP = 5


def _run(argv: list[str], shown: dict[str, str]) -> str:
    """``symtf ARGV``'s stdout (exit 0 required), with each temporary path replaced by its shown name."""
    from symtf.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    text = out.getvalue()
    for path, name in shown.items():
        text = text.replace(path, name)
    if code != 0:
        raise RuntimeError(f"symtf {' '.join(argv)} exited {code}: {text}")
    return text.rstrip("\n")


def _command(argv: list[str], shown: dict[str, str]) -> str:
    words = []
    for arg in argv:
        for path, name in shown.items():
            arg = arg.replace(path, name)
        words.append(f'"{arg}"' if " " in arg else arg)
    return "symtf " + " ".join(words)


def _block(argv: list[str], shown: dict[str, str]) -> list[str]:
    return ["```text", "$ " + _command(argv, shown), _run(argv, shown), "```", ""]


def text_page(report: dict | None = None) -> str:
    """The page's Markdown (``report`` is unused: the page is built from the package, not a report)."""
    try:
        from symtf.text.tokenizer import require_tokenizers

        require_tokenizers()
    except Exception as exc:  # the page says what is missing instead of failing the whole site
        return f"# From text to the next token\n\nNot built: {exc}.\n"
    from symtf.io import write_atomic
    from symtf.numeric.random_gpt2 import write_random_gpt2
    from symtf.text import train_bpe

    with tempfile.TemporaryDirectory(prefix="symtf-text-page-") as tmp:
        corpus = Path(tmp) / "corpus.txt"
        write_atomic(corpus, CORPUS)  # one way to write a file, even a temporary one
        checkpoint = Path(tmp) / "gpt2-random"
        write_random_gpt2(checkpoint, train_bpe([CORPUS], VOCAB_SIZE), seed=0, **CHECKPOINT_SIZES)
        shown = {str(checkpoint): "gpt2-random", str(corpus): "corpus.txt"}
        train = ["tokens", "--train", str(corpus), "--vocab-size", str(VOCAB_SIZE), PROMPT]
        example = ["example", "--text", "in New York", "--format", "markdown"]
        evaluate = ["eval", "--checkpoint", str(checkpoint), "--text", PROMPT, "--top", str(TOP)]
        merges = _run(train, shown).splitlines()
        tokens_block = ["```text", "$ " + _command(train, shown), *_shorten(merges), "```", ""]
        example_md = _run(example, shown)
        eval_block = _block(evaluate, shown)
    t_only = _t_only(example_md)
    d = CHECKPOINT_SIZES
    return "\n".join([
        "# From text to the next token", "",
        "The post's model starts from tokens $t_1, \\dots, t_n$ and ends with $p_n$, a probability for "
        f"every possible next token. Its example prompt is `{PROMPT}`. This page runs that prompt "
        "through symtf end to end; every output below was printed by the command above it while this "
        "site was built.", "",
        "## 1. Byte-pair encoding", "",
        "A tokenizer splits text into words (a leading space belongs to the word after it, written `Ġ`), "
        "starts from single bytes, and repeatedly merges the most frequent adjacent pair into a new "
        "token; the merges, in the order learned, are the tokenizer. `symtf tokens --train` does this "
        f"with Hugging Face's `tokenizers` library on a {len(CORPUS.split())}-word corpus "
        f"({VOCAB_SIZE - 256} merges on top of the 256 bytes) and tokenizes the prompt:", "",
        *tokens_block,
        "## 2. The one-hot matrix $t$", "",
        "The tables' input is $t = [t_1, \\dots, t_n]$, $n_\\text{vocab} \\times n$, one column per token. "
        "`symtf example --text` trains a toy BPE on the text itself (so $n_\\text{vocab}$ stays small "
        "enough to print), builds $t$ from the ids, and carries it through the worked example; its first "
        "line is $t$:", "",
        "```text", "$ " + _command(example, shown), "```", "",
        *t_only,
        "## 3. A checkpoint directory, run on the prompt", "",
        "`symtf eval --checkpoint DIR --text` tokenizes with the directory's own tokenizer, runs the model "
        "(every layer, from the lambdified tables) and ranks $p_n$. The directory here is written during "
        f"the build: a GPT-2 with {d['n_layers']} layers, $d_\\text{{model}} = {d['d_model']}$, "
        f"$H = {d['heads']}$, random weights (seed 0), and the tokenizer of step 1, saved as "
        "`config.json`, `model.safetensors` and `tokenizer.json`, as `transformers`' `save_pretrained` "
        "would. Its weights are random, so its guesses are noise:", "",
        *eval_block,
        "The post expects a trained model to give `\" York\"` nearly all the probability. To see that, "
        "point `--checkpoint` at a real GPT-2 directory on disk (for example one saved with "
        "`GPT2LMHeadModel.save_pretrained` and its tokenizer): `symtf eval --checkpoint path/to/gpt2 "
        f'--text "{PROMPT}"`. symtf downloads nothing, so this page cannot show that run.', "",
    ])


def _shorten(lines: list[str], head: int = 12) -> list[str]:
    """The merges listing cut after ``head`` merges (the count line says how many there are)."""
    merge_lines = [k for k, line in enumerate(lines) if line.lstrip()[:1].isdigit() and ". " in line]
    if len(merge_lines) <= head:
        return lines
    cut_from, cut_to = merge_lines[head], merge_lines[-1]
    return lines[:cut_from] + [f"  ... ({cut_to - cut_from + 1} more merges)"] + lines[cut_to + 1:]


def _t_only(example_md: str) -> list[str]:
    """The example's token listing and its first line ($t$) as a display formula of its own."""
    head, _, math = example_md.partition("$$\n")
    listing = head.split("The columns of $t$, in order:", 1)[-1].strip()
    t_line = next(line for line in math.splitlines() if line.startswith("t &= "))
    return [listing, "", "$$", "\\begin{aligned}", t_line.split(" &&")[0], "\\end{aligned}", "$$", ""]

