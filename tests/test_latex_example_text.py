"""`symtf example --text`: the worked example's one-hot t comes from real text, checked by hand.

The token ids are re-derived with the tokenizers library directly; t is read back from the printed
LaTeX; every step is compared with the hand-written numpy forward pass of test_latex_example.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tokenizers", reason="the tokenizers library (the text or test extra) is not installed")

from symtf.cli import main
from symtf.latex.example import evaluate, text_inputs
from tests.test_latex_example import as_float, bmatrices, numpy_reference, step_blocks

POST = "The Empire State Building is in New"


def _library_bpe(text: str):
    """A BPE trained on ``text`` with the library's own classes, as symtf's toy tokenizer should be."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator([text], trainers.BpeTrainer(vocab_size=100_000, show_progress=False))
    return tok


@pytest.fixture(scope="module")
def post_example():
    inputs = text_inputs(POST, seed=3, mlp=True)
    return inputs, evaluate(inputs, mlp=True, precision=3)


def test_tokens_are_the_words_of_the_text(post_example):
    inputs, _ = post_example
    assert [t.text for t in inputs.text.tokens] == ["The", " Empire", " State", " Building", " is", " in", " New"]
    library = _library_bpe(POST)
    assert list(inputs.tokens) == library.encode(POST).ids
    assert inputs.text.vocab_size == library.get_vocab_size()


def test_t_in_the_latex_is_the_one_hot_of_the_ids(post_example):
    inputs, example = post_example
    latex = example.latex()
    assert latex.splitlines()[0].startswith("% tokens of 'The Empire State Building is in New': 'The' = ")
    assert "t" in step_blocks(latex.split("\n", 1)[1])
    (t,) = bmatrices(next(line for line in latex.splitlines() if line.startswith("t &= ")))
    vocab, count = inputs.text.vocab_size, len(inputs.tokens)
    assert (len(t), len(t[0])) == (vocab, count) == (inputs.sizes[_sym("n_vocab")], 7)
    for j, token_id in enumerate(inputs.tokens):
        assert [row[j] for row in t] == ["1" if i == token_id else "0" for i in range(vocab)]
    assert r"t &= [t_1, \dots, t_7]" in latex


def _sym(name):
    from symtf import dims

    return getattr(dims, name)


def test_every_step_matches_the_numpy_forward_pass_on_the_texts_tokens(post_example):
    inputs, example = post_example
    ref = numpy_reference(list(inputs.tokens), inputs.weights)
    for step in example.steps:
        np.testing.assert_allclose(as_float(step.value), ref[step.key], rtol=1e-12, atol=1e-12, err_msg=step.key)


def test_a_saved_tokenizer_directory(tmp_path, capsys):
    library = _library_bpe("the cat sat on the mat")
    library.save(str(tmp_path / "tokenizer.json"))
    assert main(["example", "--text", "the mat sat", "--tokenizer", str(tmp_path), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    ids = library.encode("the mat sat").ids
    assert f"tokens of 'the mat sat': 'the' = {ids[0]}, ' mat' = {ids[1]}, ' sat' = {ids[2]}" in out
    assert f"tokenized by {tmp_path}" in out


def test_the_latex_renders_in_katex(post_example):
    from tests.katex import render_all

    _, example = post_example
    (result,) = render_all([(example.latex(), True)])
    assert result.ok and not result.warnings, (result.error, result.warnings)


def _one_error_line(capsys, argv) -> str:
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in lines[0], lines
    return lines[0]


@pytest.mark.parametrize("argv, message", [
    (["example", "--text", "  "], "empty text: nothing to tokenize"),
    (["example", "--text", "one two three four five six seven eight nine ten eleven twelve thirteen"],
     "the text has 13 tokens; the worked example takes at most 12"),
    (["example", "--text", POST, "--vocab-size", "25"], "the text has "),
    (["example", "--vocab-size", "30"], "--tokenizer and --vocab-size apply only with --text"),
    (["example", "--text", "x", "--weights", "w.json"], "--text gives the tokens and --weights gives tokens too"),
])
def test_bad_text_input_is_one_clear_line(argv, message, capsys):
    assert message in _one_error_line(capsys, argv)


def test_a_real_sized_vocabulary_is_refused(tmp_path, capsys):
    from symtf.text import train_bpe

    # 256 bytes + every merge "the cat" has: t+h, th+e, Ġ+c, Ġc+a, Ġca+t
    train_bpe(["the cat"], 300).save(str(tmp_path / "tokenizer.json"))
    line = _one_error_line(capsys, ["example", "--text", "the cat", "--tokenizer", str(tmp_path)])
    assert "the tokenizer has n_vocab = 261; the worked example prints t and W_E" in line


def test_unknown_character_for_the_tokenizer(tmp_path, capsys):
    _library_bpe("the cat").save(str(tmp_path / "tokenizer.json"))
    line = _one_error_line(capsys, ["example", "--text", "the dog", "--tokenizer", str(tmp_path)])
    assert "cannot tokenize 'd' (character 5 of the text): not in the tokenizer's alphabet" in line
