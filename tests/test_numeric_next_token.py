"""`symtf eval --checkpoint DIR --text`: the checkpoint's tokenizer, the model, the top-k next tokens.

The reference is Hugging Face end to end: ``PreTrainedTokenizerFast`` reads the same directory,
``GPT2LMHeadModel`` runs it, ``torch.softmax`` and ``topk`` rank the last position. Every model is
built from a config with random weights and saved to a temporary directory; nothing is downloaded.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

pytest.importorskip("tokenizers", reason="the tokenizers library (the text or test extra) is not installed")

from symtf.cli import main  # noqa: E402
from symtf.numeric.next_token import top_next  # noqa: E402
from symtf.numeric.random_gpt2 import write_random_gpt2  # noqa: E402
from symtf.text import train_bpe  # noqa: E402

TEXT = "The Empire State Building is in New"
CORPUS = ("The Empire State Building is in New York. New York is a city in the state of New York. "
          "The state of New Jersey is next to it. ") * 2
VOCAB = 263  # prime: 256 bytes + 7 merges


def _hf():
    if os.environ.get("SYMTF_REQUIRE_CROSSCHECK"):  # CI installs the extra: a missing torch is a failure there
        import torch
        import transformers
    else:
        torch = pytest.importorskip("torch", reason="torch not installed: pip install -e '.[crosscheck]'")
        transformers = pytest.importorskip("transformers",
                                           reason="transformers not installed: pip install -e '.[crosscheck]'")
    return torch, transformers


def hf_top(directory, text, k):
    """Tokenize with transformers' tokenizer, run transformers' GPT-2 in float64, rank the last position."""
    torch, transformers = _hf()
    tokenizer = transformers.PreTrainedTokenizerFast.from_pretrained(str(directory))
    model = transformers.GPT2LMHeadModel.from_pretrained(str(directory), dtype=torch.float64).eval()
    ids = tokenizer(text)["input_ids"]
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0, -1]
    probs = torch.softmax(logits, dim=-1)
    values, order = probs.topk(k)
    return ids, order.tolist(), values.tolist(), [tokenizer.decode([i]) for i in order.tolist()]


@pytest.fixture(scope="module")
def hf_checkpoint(tmp_path_factory):
    """A random 3-layer GPT2LMHeadModel and a BPE trained on CORPUS, saved in one directory by transformers."""
    torch, transformers = _hf()
    directory = tmp_path_factory.mktemp("gpt2-random")
    trained = train_bpe([CORPUS], VOCAB)
    assert trained.get_vocab_size() == VOCAB
    config = transformers.GPT2Config(vocab_size=VOCAB, n_positions=37, n_embd=10, n_head=2, n_inner=11, n_layer=3,
                                     bos_token_id=0, eos_token_id=0)
    torch.manual_seed(5)
    model = transformers.GPT2LMHeadModel(config).to(torch.float64).eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.normal_(0.0, 0.4)
            if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
                p.add_(1.0)
    model.save_pretrained(directory)
    transformers.PreTrainedTokenizerFast(tokenizer_object=trained).save_pretrained(directory)
    return directory


@pytest.mark.crosscheck
def test_text_gives_what_tokenizing_and_running_by_hand_gives(hf_checkpoint, capsys):
    assert main(["eval", "--checkpoint", str(hf_checkpoint), "--text", TEXT, "--top", "7", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ids, order, probs, texts = hf_top(hf_checkpoint, TEXT, 7)
    assert [t["id"] for t in out["tokens"]] == ids
    assert "".join(t["text"] for t in out["tokens"]) == TEXT
    assert [g["id"] for g in out["next"]] == order
    np.testing.assert_allclose([g["probability"] for g in out["next"]], probs, rtol=1e-10, atol=0)
    assert [g["text"] for g in out["next"]] == texts
    assert [g["rank"] for g in out["next"]] == list(range(1, 8))


@pytest.mark.crosscheck
def test_text_output_names_the_last_token_and_the_ranking(hf_checkpoint, capsys):
    assert main(["eval", "--checkpoint", str(hf_checkpoint), "--text", TEXT]) == 0
    out = capsys.readouterr().out.splitlines()
    ids, order, probs, _ = hf_top(hf_checkpoint, TEXT, 5)
    assert out[1] == f"text {TEXT!r}: {len(ids)} tokens {ids}"
    assert out[2] == "top 5 next tokens after ' New':"
    ranked = [line.split() for line in out[4:]]
    assert [int(r[1]) for r in ranked] == order
    assert [float(r[-2]) for r in ranked] == pytest.approx(probs, rel=1e-5)


@pytest.mark.crosscheck
def test_the_docs_writer_saves_what_transformers_reads(tmp_path, capsys):
    """write_random_gpt2 (no torch) writes a directory HF loads and ranks exactly as symtf does."""
    write_random_gpt2(tmp_path, train_bpe([CORPUS], VOCAB), d_model=14, heads=2, d_mlp=13, n_ctx=31, n_layers=2,
                      seed=3)
    assert main(["eval", "--checkpoint", str(tmp_path), "--text", TEXT, "--top", "5", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ids, order, probs, _ = hf_top(tmp_path, TEXT, 5)
    assert [t["id"] for t in out["tokens"]] == ids
    assert [g["id"] for g in out["next"]] == order
    np.testing.assert_allclose([g["probability"] for g in out["next"]], probs, rtol=1e-10, atol=0)


# --------------------------------------------------------------------------- without torch


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    directory = tmp_path_factory.mktemp("written")
    write_random_gpt2(directory, train_bpe([CORPUS], VOCAB), d_model=10, heads=2, d_mlp=11, n_ctx=13, n_layers=2)
    return directory


def test_top_next_ranks_by_probability_then_id():
    probs = np.array([0.1, 0.3, 0.05, 0.3, 0.25])
    logits = np.log(probs)
    guesses = top_next(probs, logits, 3)
    assert [(g.rank, g.id) for g in guesses] == [(1, 1), (2, 3), (3, 4)]  # the tie 0.3/0.3: smaller id first
    assert guesses[0].probability == 0.3 and guesses[0].logit == pytest.approx(np.log(0.3))
    assert len(top_next(probs, logits, 99)) == 5


def test_top_with_token_ids_matches_a_sort_of_the_probabilities(written, capsys):
    assert main(["eval", "--checkpoint", str(written), "--tokens", "3,1,4,1,5", "--top", "4", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert main(["eval", "--checkpoint", str(written), "--tokens", "3,1,4,1,5", "--format", "json"]) == 0
    probs = np.array(json.loads(capsys.readouterr().out)["activations"]["probs"]["values"])[:, -1]
    assert [g["id"] for g in out["next"]] == list(np.argsort(-probs, kind="stable")[:4])
    assert out["tokens"] == [3, 1, 4, 1, 5]
    tokenizer = train_bpe([CORPUS], VOCAB)  # the checkpoint's own tokenizer names the ids
    assert [g["token"] for g in out["next"]] == [tokenizer.id_to_token(g["id"]) for g in out["next"]]


def test_top_with_token_ids_and_no_tokenizer_shows_ids_only(written, tmp_path, capsys):
    for name in ("config.json", "model.safetensors"):
        (tmp_path / name).write_bytes((written / name).read_bytes())
    assert main(["eval", "--checkpoint", str(tmp_path), "--tokens", "3,1,4", "--top", "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(g["token"], g["text"]) for g in out["next"]] == [(None, None), (None, None)]
    line = _one_error_line(capsys, ["eval", "--checkpoint", str(tmp_path), "--tokens", "3,1,4", "--top", "2",
                                    "--tokenizer", str(tmp_path)])
    assert f"{tmp_path}: no tokenizer in this directory" in line


def _one_error_line(capsys, argv) -> str:
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in lines[0], lines
    return lines[0]


def test_bad_text_inputs_are_one_clear_line(written, tmp_path, capsys):
    ck = str(written)
    assert "empty text: nothing to tokenize" in _one_error_line(capsys, ["eval", "--checkpoint", ck, "--text", " "])
    assert "--text needs a tokenizer: --checkpoint DIR (its own) or --tokenizer DIR" in _one_error_line(
        capsys, ["eval", "--random", "--text", "hi"])
    assert "--top must be at least 1, got 0" in _one_error_line(
        capsys, ["eval", "--checkpoint", ck, "--text", "New", "--top", "0"])
    line = _one_error_line(capsys, ["eval", "--checkpoint", ck, "--text", "New", "--tokenizer", str(tmp_path)])
    assert f"{tmp_path}: no tokenizer in this directory" in line
    long = "New York " * 20
    assert "tokens but W_pos has positions for n_ctx = 13" in _one_error_line(
        capsys, ["eval", "--checkpoint", ck, "--text", long])


def test_a_checkpoint_without_a_tokenizer_is_one_clear_line(written, tmp_path, capsys):
    for name in ("config.json", "model.safetensors"):
        (tmp_path / name).write_bytes((written / name).read_bytes())
    line = _one_error_line(capsys, ["eval", "--checkpoint", str(tmp_path), "--text", "New York"])
    assert f"{tmp_path}: no tokenizer in this directory (expected tokenizer.json, or vocab.json and merges.txt)" in line


def test_a_tokenizer_larger_than_the_model_is_one_clear_line(written, tmp_path, capsys):
    train_bpe([CORPUS], 400).save(str(tmp_path / "tokenizer.json"))
    line = _one_error_line(capsys, ["eval", "--checkpoint", str(written), "--text", "New York ÿ", "--tokenizer",
                                    str(tmp_path)])
    assert f"outside the model's n_vocab = {VOCAB} (the tokenizer does not belong to these weights)" in line


def test_row_convention_ranks_the_same(written, capsys):
    runs = []
    for convention in ("column", "row"):
        assert main(["eval", "--checkpoint", str(written), "--text", "New York is", "--top", "6", "--format", "json",
                     "--convention", convention]) == 0
        runs.append(json.loads(capsys.readouterr().out)["next"])
    assert [g["id"] for g in runs[0]] == [g["id"] for g in runs[1]]
    np.testing.assert_allclose([g["probability"] for g in runs[0]], [g["probability"] for g in runs[1]], rtol=1e-12)


def test_random_weights_with_a_tokenizer_directory(written, capsys):
    argv = ["eval", "--random", "--n-vocab", str(VOCAB), "--n-ctx", "11", "--seed", "2", "--format", "json"]
    assert main([*argv, "--tokenizer", str(written), "--text", "New York", "--top", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    ids = [t["id"] for t in out["tokens"]]
    assert out["variant"] == "full" and ids == train_bpe([CORPUS], VOCAB).encode("New York").ids
    assert main([*argv, "--tokens", ",".join(map(str, ids))]) == 0
    probs = np.array(json.loads(capsys.readouterr().out)["activations"]["probs"]["values"])[:, -1]
    assert [g["id"] for g in out["next"]] == list(np.argsort(-probs, kind="stable")[:3])
