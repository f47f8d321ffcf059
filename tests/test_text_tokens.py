"""`symtf tokens` and :mod:`symtf.text`: byte-level BPE trained with the tokenizers library, checked by hand.

The reference here is written independently of the library: GPT-2's word split for text made of
letters and single spaces (a space starts the next word, written ``Ġ``), pair counts over those
words with a ``Counter``, and the merge applied by hand.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("tokenizers", reason="the tokenizers library (the text or test extra) is not installed")

from symtf.cli import main
from symtf.errors import InputError
from symtf.text import encode, load_tokenizer, merges, one_hot, train_bpe

CORPUS = ("the cat sat on the mat the cat ate the rat and the rat sat on the hat "
          "then the fat cat sat on the flat mat")


def words(text: str) -> list[list[str]]:
    """GPT-2's pre-tokenization for letters and single spaces, each word as a list of one-letter symbols."""
    parts = text.split(" ")
    return [list(w) for w in parts[:1]] + [["Ġ", *w] for w in parts[1:]]


def pair_counts(symbols: list[list[str]]) -> Counter:
    counts: Counter = Counter()
    for word in symbols:
        counts.update(zip(word, word[1:]))
    return counts


def apply_merge(symbols: list[list[str]], pair: tuple[str, str]) -> list[list[str]]:
    out = []
    for word in symbols:
        merged, k = [], 0
        while k < len(word):
            if k + 1 < len(word) and (word[k], word[k + 1]) == pair:
                merged.append(word[k] + word[k + 1])
                k += 2
            else:
                merged.append(word[k])
                k += 1
        out.append(merged)
    return out


def test_first_merge_is_the_most_frequent_pair_counted_by_hand():
    counts = pair_counts(words(CORPUS))
    # ('a','t'): cat ×3, sat ×3, mat ×2, rat ×2, hat, fat, flat, ate = 14; ('t','h'): "the" ×8 and "then" = 9
    assert counts[("a", "t")] == 14 and counts[("t", "h")] == 9
    assert counts.most_common(2)[1][1] < 14  # the most frequent pair, with no tie
    learned = merges(train_bpe([CORPUS], 256 + 1))
    assert learned == [("a", "t")]


def test_every_early_merge_is_a_most_frequent_pair():
    learned = merges(train_bpe([CORPUS], 256 + 12))
    assert len(learned) == 12
    symbols = words(CORPUS)
    for k, pair in enumerate(learned):
        counts = pair_counts(symbols)
        best = max(counts.values())
        assert counts[pair] == best, f"merge {k + 1} {pair} has count {counts[pair]}, the most frequent has {best}"
        symbols = apply_merge(symbols, pair)
    # the tokens after the merges are the hand-merged words, in order
    tokenizer = train_bpe([CORPUS], 256 + 12)
    assert [t.token for t in encode(tokenizer, CORPUS).tokens] == [s for w in symbols for s in w]


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=40).filter(lambda s: s.strip()))
def test_byte_level_bpe_round_trips_any_text(text):
    # decode ∘ encode = identity: every byte is in the alphabet
    tokenizer = _trained()
    ids = encode(tokenizer, text).ids
    assert tokenizer.decode(list(ids)) == text


def test_round_trip_on_the_posts_sentence_and_unicode():
    tokenizer = _trained()
    for text in ("The Empire State Building is in New", "Zürich ✓ naïve — 東京", "  two  spaces\n"):
        tokens = encode(tokenizer, text)
        assert tokenizer.decode(list(tokens.ids)) == text
        assert all(0 <= i < tokens.vocab_size for i in tokens.ids)


_CACHE: dict = {}


def _trained():
    if "tok" not in _CACHE:
        _CACHE["tok"] = train_bpe([CORPUS], 256 + 20)
    return _CACHE["tok"]


def test_one_hot_is_n_vocab_by_n():
    t = one_hot([4, 0, 6, 4, 2], 7)  # n = 5, n_vocab = 7: a swapped axis cannot pass
    assert t.shape == (7, 5)
    for j, i in enumerate([4, 0, 6, 4, 2]):
        assert [t[r, j] for r in range(7)] == [1 if r == i else 0 for r in range(7)]
    with pytest.raises(InputError, match=r"token id\(s\) \[7\] outside 0..6"):
        one_hot([7], 7)


# --------------------------------------------------------------------------- tokenizer directories


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """One trained tokenizer saved both ways: tokenizer.json, and GPT-2's vocab.json + merges.txt."""
    tokenizer = train_bpe([CORPUS], 256 + 20)
    as_json = tmp_path_factory.mktemp("json")
    tokenizer.save(str(as_json / "tokenizer.json"))
    as_gpt2 = tmp_path_factory.mktemp("gpt2")
    tokenizer.model.save(str(as_gpt2))
    return tokenizer, as_json, as_gpt2


@pytest.mark.parametrize("kind", ["json", "gpt2"])
def test_cli_reads_both_directory_layouts(saved, kind, capsys):
    tokenizer, as_json, as_gpt2 = saved
    directory = as_json if kind == "json" else as_gpt2
    text = "the cat sat on the flat hat"
    assert main(["tokens", text, "--tokenizer", str(directory), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = tokenizer.encode(text)
    assert [t["id"] for t in out["tokens"]] == expected.ids
    assert [t["token"] for t in out["tokens"]] == expected.tokens
    assert "".join(t["text"] for t in out["tokens"]) == text
    assert out["n_vocab"] == 256 + 20


def test_cli_train_prints_the_merges_in_order(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    assert main(["tokens", "--train", str(corpus), "--vocab-size", "259", "the cat"]) == 0
    out = capsys.readouterr().out
    first = merges(train_bpe([CORPUS], 259))
    assert "3 merges, in the order learned:" in out
    assert f"1. {first[0][0]!r} + {first[0][1]!r} -> {first[0][0] + first[0][1]!r}" in out
    lines = out.splitlines()
    assert [ln.split(". ", 1)[1] for ln in lines if ln.lstrip()[:2] in ("1.", "2.", "3.")] == [
        f"{a!r} + {b!r} -> {a + b!r}" for a, b in first]


def test_plain_bytes_without_a_tokenizer(capsys):
    assert main(["tokens", "hé", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_vocab"] == 256
    assert len(out["tokens"]) == 3  # 'h' and the two UTF-8 bytes of 'é'


def _one_error_line(capsys, argv) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in lines[0], captured.err
    return lines[0]


def test_empty_text_is_one_clear_line(capsys):
    assert "empty text: nothing to tokenize" in _one_error_line(capsys, ["tokens", "   "])


def test_unknown_characters_are_one_clear_line(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    line = _one_error_line(capsys, ["tokens", "--train", str(corpus), "--vocab-size", "40", "--alphabet", "text",
                                    "the cat sat on the zebra"])
    assert "cannot tokenize 'z' (character 20 of the text): not in the tokenizer's alphabet" in line


def test_unknown_word_with_an_unk_token_is_one_clear_line(tmp_path, capsys):
    from tokenizers import Tokenizer, models, pre_tokenizers

    tokenizer = Tokenizer(models.WordLevel({"the": 0, "cat": 1, "[UNK]": 2}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    line = _one_error_line(capsys, ["tokens", "the dog", "--tokenizer", str(tmp_path)])
    assert "cannot tokenize 'dog' (characters 5-7 of the text): not in the tokenizer's vocabulary" in line


def test_directory_without_a_tokenizer_is_one_clear_line(tmp_path, capsys):
    (tmp_path / "vocab.json").write_text("{}", encoding="utf-8")  # merges.txt missing
    line = _one_error_line(capsys, ["tokens", "x", "--tokenizer", str(tmp_path)])
    assert f"{tmp_path}: no tokenizer in this directory (expected tokenizer.json, or vocab.json and merges.txt)" in line
    line = _one_error_line(capsys, ["tokens", "x", "--tokenizer", str(tmp_path / "missing")])
    assert "missing: no such tokenizer directory" in line


def test_corrupt_tokenizer_json_is_one_clear_line(tmp_path, capsys):
    (tmp_path / "tokenizer.json").write_text('{"model": 3', encoding="utf-8")
    line = _one_error_line(capsys, ["tokens", "x", "--tokenizer", str(tmp_path)])
    assert f"{tmp_path / 'tokenizer.json'}: not a readable tokenizer" in line


@pytest.mark.parametrize("argv, message", [
    (["tokens", "x", "--vocab-size", "300"], "--vocab-size only applies with --train FILE"),
    (["tokens", "--train", "FILE"], "--train needs --vocab-size N"),
    (["tokens"], "give TEXT to tokenize"),
])
def test_usage_errors_are_one_clear_line(argv, message, capsys):
    assert message in _one_error_line(capsys, argv)


def test_load_tokenizer_reads_a_file_named_directly(saved):
    tokenizer, as_json, _ = saved
    assert load_tokenizer(as_json / "tokenizer.json").encode("the mat").ids == tokenizer.encode("the mat").ids


def test_save_writes_a_tokenizer_that_reads_back(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    out_dir = tmp_path / "tok"
    out_dir.mkdir()
    (out_dir / "tokenizer.json").write_text("old", encoding="utf-8")  # replaced, never appended to
    assert main(["tokens", "--train", str(corpus), "--vocab-size", "270", "--save", str(out_dir)]) == 0
    assert f"wrote {out_dir / 'tokenizer.json'}" in capsys.readouterr().out
    assert [p.name for p in out_dir.iterdir()] == ["tokenizer.json"]  # no temporary file left
    again = load_tokenizer(out_dir)
    assert merges(again) == merges(train_bpe([CORPUS], 270))
    assert again.encode("the flat cat").ids == train_bpe([CORPUS], 270).encode("the flat cat").ids


def test_save_onto_a_file_is_one_clear_line(tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    line = _one_error_line(capsys, ["tokens", "--train", str(corpus), "--vocab-size", "260", "--save", str(corpus)])
    assert f"{corpus}: exists and is not a directory" in line
    assert corpus.read_text(encoding="utf-8") == CORPUS


def test_without_the_library_one_line_says_how_to_install_it(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "tokenizers", None)  # `import tokenizers` now raises ImportError
    line = _one_error_line(capsys, ["tokens", "New York"])
    assert "needs the tokenizers library: pip install 'symtf[text]'" in line
    line = _one_error_line(capsys, ["example", "--text", "New York"])
    assert "needs the tokenizers library" in line
