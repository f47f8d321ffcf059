"""Arithmetic outside LaTeX math: code spans and prose (symtf.check.arith), judged with exact rationals."""
from pathlib import Path

import pytest

from symtf.check.arith import arithmetic, chain, runs, tokens
from symtf.check.checker import check_text
from symtf.sources import read

CORPUS = Path(__file__).parent / "corpus"


def judged(text: str) -> list:
    """The arithmetic findings of a one-line Markdown document."""
    return [f for f in check_text(text) if f.basis == "arithmetic"]


def one(text: str):
    found = judged(text)
    assert len(found) == 1, found
    return found[0]


# ------------------------------------------------------------------------------------------------ readers
def test_markdown_reader_exposes_code_spans_and_prose_with_their_lines():
    reading = read("Intro.\n\nWe get `7 * 11 = 77` here\nand 13 * 17 = 221 there, $a = b$.\n")
    assert reading.spans == [(3, "7 * 11 = 77")]
    assert (4, "and 13 * 17 = 221 there, ") in reading.texts
    assert not any("a = b" in t for _, t in reading.texts)  # math is not prose


def test_code_blocks_are_neither_spans_nor_prose():
    reading = read("```\n7 * 11 = 78\n```\n")
    assert reading.spans == [] and not any("78" in t for _, t in reading.texts)
    assert judged("```\n7 * 11 = 78\n```\n") == []


def test_latex_reader_leaves_spans_and_prose_runs_empty():
    reading = read(r"\documentclass{article}\begin{document}We get $7 \cdot 11 = 77$.\end{document}", "latex")
    assert reading.spans == [] and reading.texts == []


# ------------------------------------------------------------------------------------------------ verdicts
def test_a_correct_chain_is_verified_and_a_false_one_is_a_mismatch_with_the_exact_value():
    assert one("We get `7 * 11 * 13 = 1001`.").status == "verified"
    wrong = one("We get `7 * 11 * 13 = 1003`.")
    assert wrong.status == "mismatch" and wrong.rule == "numeric" and wrong.kind == "claim"
    assert wrong.expected == "7 * 11 * 13 = 1001"
    assert wrong.line == 1 and wrong.latex == "7 * 11 * 13 = 1003"


def test_every_link_of_a_chain_is_judged():
    found = judged("So `3 * 17 = 51 = 50 + 2` holds.")
    assert [f.status for f in found] == ["verified", "mismatch"]
    assert found[1].latex == "51 = 50 + 2"


def test_printed_precision_follows_the_scalar_rule():
    assert one("`1 / 3 = 0.33`").status == "verified"  # rounded to the digits shown
    assert one("`2 / 3 = 0.66`").status == "verified"  # cut to the digits shown
    assert one("`1 / 3 = 0.35`").status == "mismatch"
    assert one("`16e6 / (2550 / 3) = 18,823`").status == "verified"  # 18823.53, a whole number printed
    assert one("`56 / 0.002 ~ 28000`").status == "verified"  # 28000 is rounded to thousands
    assert one("`7 * 13 * 1000 = 91000`").status == "verified"


def test_the_expected_value_is_printed_like_the_printed_side():
    assert one("`1234567 / 32 = 38.4k`").expected == "1234567 / 32 = 38.6k"
    assert one("`3 * 1,024 = 3,070`").expected == "3 * 1,024 = 3,072"
    assert one("`1.1e24 / 1.52e25 = 9.2%`").expected == "1.1e24 / 1.52e25 = 7.2%"
    assert one("`17 * 19 = 2.3e4`").expected == "17 * 19 = 3.2e2"


@pytest.mark.parametrize("text, status", [
    ("`1.6e10 / 2 = 8e9`", "verified"),          # e notation
    ("`37.5M * 32 = 1.2e9`", "verified"),        # M suffix
    ("`8k / 2 = 4000`", "verified"),             # k suffix
    ("`1.1T / 11 = 0.1T`", "verified"),          # T suffix
    ("`3 * 1,024 = 3,072`", "verified"),         # thousands separators
    ("`1.1e24 / 1.52e25 = 7.2%`", "verified"),   # percent
    ("so 201/202 = 99.5 % of them", "verified"),
    ("`8192 x 4 = 32768`", "verified"),          # x between numbers
    ("`8192 × 5 = 40960`", "verified"),
    ("`4x4x4 = 64`", "verified"),
    ("`2550^2 = 6502500`", "verified"),          # powers
    ("`2 ** 10 = 1024`", "verified"),
    ("`(2 + 4 + 4) * 13 = 130`", "verified"),    # parentheses
    ("`2 - 7 = -5`", "verified"),                # subtraction, negative result
    ("`2 ^ -1 = 0.5`", "verified"),
])
def test_number_forms(text, status):
    assert one(text).status == status


# ------------------------------------------------------------------------------------------------ units
def test_units_are_symbols_that_must_agree():
    assert one("`3 days * 7 = 21 days`").status == "verified"
    assert one("`2 days * 3 = 7 days`").status == "mismatch"
    assert one("`2 days * 3 = 143 hours`").expected == "2 days * 3 = 144 hours"  # converted to the printed unit
    assert one("`2 days * 3 = 144 hours`").status == "verified"
    assert one("`(2 + 4 + 4) * 13e9 ~ 130GB`").status == "verified"  # a unitless side read in bytes
    assert one("`8,192 x 5,120 x 2 bytes = 80MB`").status == "verified"  # binary megabytes (80 MiB exactly)
    assert one("`1.2e9 params / 32 chips = 37.5M`").status == "verified"
    assert one("`1882 / 8 = 235 tokens / sec / chip`").status == "verified"
    mixed = one("`5 GB + 3 s = 8`")
    assert mixed.status == "unchecked" and "units" in mixed.message
    other = one("`5 GB * 3 = 15 s`")
    assert other.status == "unchecked" and "different units" in other.message


def test_rounded_inputs_make_a_near_miss_unchecked_not_a_mismatch():
    near = one("`8k * 4.5e14 = 3.8e18`")  # 8k may be 8192, 4.5e14 may be 4.59e14
    assert near.status == "unchecked" and "8k" in near.message
    assert one("`8000 * 45 = 3.8e5`").status == "unchecked"  # 8000 is rounded to thousands
    assert one("`8192 * 45 = 3.8e5`").status == "mismatch"  # whole numbers printed in full are exact
    assert one("`0.5 * 0.8 = 0.45`").status == "unchecked"  # 0.5 may be 0.55 cut, 0.8 may be 0.84 rounded
    assert one("`0.5 * 0.8 = 0.7`").status == "mismatch"  # beyond anything the inputs may stand for
    assert one("`128K * 2 = 262144`").status == "unchecked"  # K may be 1024
    assert one("`128K * 2 = 280,123`").status == "mismatch"
    assert one("`70e9 * 2B = 140GB`").status == "verified"  # 2B: two bytes here (read so beside GB), not two billion
    assert one("`70e9 * 2B = 150GB`").status == "unchecked"  # neither reading of B holds: not judged


# ------------------------------------------------------------------------------------------------ not arithmetic
@pytest.mark.parametrize("text", [
    "`x = 5 * 2`",            # a definition in code
    "`BT=16e16`",             # letters: not printed numbers
    "`y = 3 * 2 = 7`",
    "version 1.2.3 = 4 * 1",  # a version
    "pages 1-2 = 3 * 1",      # a range
    "on 2024-01-02 = 5 * 1",  # a date
    "a ratio 1:2 = 3 * 1",    # a ratio
    "`5 apples * 2 = 11`",    # an unknown word
    "`1,2 * 3 = 3.6`",        # not a thousands separator
    "`1.5M = 1,500,000`",     # printed numbers only: a conversion, not a computation
])
def test_what_is_not_arithmetic_is_left_alone(text):
    assert judged(text) == []


def test_a_side_cut_by_a_word_is_dropped():
    assert judged("so B * 2 = 10 here") == []
    assert judged("so x = 5 * 2 = 10 here")[0].status == "verified"  # 5 * 2 = 10 stands on its own
    assert judged("an 8x speedup, a 4x4 slice, 3x faster") == []
    assert [f.latex for f in judged("so 2 * 3 = 6 x faster")] == ["2 * 3 = 6"]
    assert one("as shown (7 * 3 = 22).").status == "mismatch"


def test_runs_are_bounded_and_linear():
    long = "1 * " * 5000 + "1 = 1"
    assert arithmetic([], [], [(1, long)], [(1, long)]) == []  # past the token cap: not read
    toks = tokens("((((((((((((((((((1))))))))))))))))))) = 1")
    assert chain(toks) is None  # nested too deep
    assert runs("x" * 100_000) == []
    assert runs("(" * 10_000 + "1 = 1" + ")" * 10_000) == []  # a run past the cap is not trimmed token by token


# ------------------------------------------------------------------------------------------------ the corpus
def _corpus_line(name: str, line: int, fragment: str) -> str:
    text = (CORPUS / name).read_text(encoding="utf-8")
    assert fragment in text.splitlines()[line - 1]
    return text


@pytest.mark.parametrize("name, line, fragment, status, expected", [
    ("scalingbook-training.md", 465, "4096 * 2 * 2550^2 / (8192 * 4) = 1.6e10", "mismatch",
     "4096 * 2 * 2550^2 / (8192 * 4) = 1.6e6"),  # a listed mistake, in an HTML caption's prose
    ("scalingbook-applied-training.md", 155, "44 days * 8960 / 171 = 1752 days", "mismatch",
     "44 days * 8960 / 171 = 2305 days"),  # a listed mistake, in a code span
    ("scalingbook-training.md", 642, "8.5e9 + 4.2e9 + 0.39e9 = 13.1e9", "verified", None),  # the sum is right
    ("scalingbook-transformers.md", 372, "2 * 37e9 * 14.8e12 = 1.1e24", "verified", None),  # (2ND, not 6ND)
    ("scalingbook-training.md", 273, "16e6 / (2550 / 3) = 18,823", "verified", None),
    ("scalingbook-training.md", 650, "(2 + 4 + 4) * 13e9 ~ 130GB", "verified", None),
    ("scalingbook-training.md", 560, "8k * 4.5e14 = 3.8e18", "unchecked", None),
    ("scalingbook-applied-inference.md", 111, "162e3 * 32,768 = 5.3GB / sequence", "verified", None),
])
def test_corpus_chains(name, line, fragment, status, expected):
    text = _corpus_line(name, line, fragment)
    at = [f for f in check_text(text) if f.basis == "arithmetic" and f.line == line and f.latex == fragment]
    assert [(f.status, f.expected) for f in at] == [(status, expected)]


def test_a_code_span_that_is_code_in_the_corpus_is_left_alone():
    text = _corpus_line("scalingbook-training.md", 650, "since `BT=16e16`")
    assert not [f for f in check_text(text) if f.basis == "arithmetic" and "BT" in f.latex]


# ------------------------------------------------------------------------------------------------ a / bc
def _claim(latex: str):
    found = [f for f in check_text(f"Here ${latex}$ holds.\n") if f.kind == "claim" and f.rule == "numeric"]
    assert len(found) == 1, found
    return found[0]


def test_a_division_by_a_juxtaposed_product_is_read_as_writers_mean_it():
    # 2BDF / DF = 2B: read 2BDF / (DF), not (2BDF / D) F
    found = _claim("2BDF / DF = 2B")
    assert found.status == "verified" and "juxtaposition binding tighter" in found.message
    assert _claim("x / 2y = x / (2y)").status == "verified"
    assert _claim(r"d_\text{model} / 3 h = d_\text{model} / (3h)").status == "verified"


def test_only_the_left_to_right_reading_holding_is_unchecked():
    found = _claim("2BDF / DF = 2BF^2")  # true only as (2BDF / D) F
    assert found.status == "unchecked" and "left to right" in found.message
    assert _claim("35 / 5 7 = 49").status == "unchecked"  # (35/5)·7 = 49, 35/(5·7) = 1


def test_neither_reading_holding_keeps_the_scalar_rule():
    assert _claim("35 / 5 7 = 11").status == "mismatch"  # numbers: 49 and 1 are both not 11
    assert _claim("2BDF / DF = 3B").status == "unchecked"  # letters: a symbolic difference is never a mismatch


def test_a_printed_fraction_before_letters_is_a_coefficient():
    found = _claim("1/2 B F^2 = B F^2 / 2")  # (1/2) B F^2, as in 1/2 m v^2
    assert found.status == "verified" and "juxtaposition" not in found.message


def test_an_explicit_product_after_a_division_is_read_as_written():
    found = _claim(r"a / b \cdot c = ac / b")
    assert found.status == "verified" and "juxtaposition" not in found.message
    assert _claim(r"35 / 5 \cdot 7 = 49").status == "verified"


# ------------------------------------------------------------------------------------------------ LaTeX math
def test_latex_number_times_number_with_labels_is_a_product():
    # 7 (T) × 11 (K) × 2 (bytes): labels after an explicit space, not factors; before, "a shape (×) is not a value"
    assert one(r"Memory: $7\ (T) \times 11\ (K) \times 2\ (\text{bytes}) = 154\ \text{bytes}$.").status == "verified"
    wrong = one(r"Memory: $$7\ (T) \times 11\ (K) \times 2\ (\text{bytes}) = 156\ \text{bytes}.$$")
    assert wrong.status == "mismatch" and wrong.expected == "7 * 11 * 2 = 154 bytes"


def test_a_parenthesised_letter_without_an_explicit_space_is_a_factor():
    found = [f for f in check_text(r"Then $3 (n) \times 2 = 24$ for our n." + "\n") if f.basis == "arithmetic"]
    assert found == []  # 3n × 2: not printed numbers only


def test_latex_already_decided_by_the_checker_is_not_judged_twice():
    found = [f for f in check_text(r"So $52\text{e}12 \cdot 2 = 104\text{e}12$." + "\n") if f.kind == "claim"]
    assert [f.status for f in found] == ["verified"]


@pytest.mark.parametrize("name, line, fragment", [
    ("scalingbook-inference.md", 285,
     r"8192\ (T) \times 40\ (K) \times 128\ (H) \times 40\ (L) \times 2\ (\text{bytes})"),
    ("scalingbook-transformers.md", 282, r"2 \cdot 8192 \cdot 64 \cdot 8192 = 8\text{GiB}"),
])
def test_corpus_latex_chains_of_printed_numbers(name, line, fragment):
    text = _corpus_line(name, line, fragment)
    at = [f for f in check_text(text) if f.line == line and f.latex.startswith(fragment)]
    assert [(f.status, f.basis) for f in at] == [("verified", "arithmetic")]


def test_notebook_spans_and_prose_are_at_their_file_lines():
    import json

    from symtf.sources import Source

    source = ["# T\n", "\n", "So `7 * 13 = 91`\n", "and 3 * 5 = 16."]
    cells = [{"cell_type": "markdown", "metadata": {}, "source": source},
             {"cell_type": "code", "metadata": {}, "source": "`2 * 2 = 5`", "outputs": [], "execution_count": None}]
    text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}, indent=1)
    lines = text.splitlines()
    reading = read(text, "notebook")
    assert [t for _, t in reading.spans] == ["7 * 13 = 91"]  # a code cell is not prose
    assert "7 * 13 = 91" in lines[reading.spans[0][0] - 1]
    found = [f for f in check_text(Source(text, "notebook")) if f.basis == "arithmetic"]
    assert [(f.status, f.latex) for f in found] == [("verified", "7 * 13 = 91"), ("mismatch", "3 * 5 = 16")]
    assert [f.latex in lines[f.line - 1] for f in found] == [True, True]


def test_a_definition_divided_by_a_juxtaposed_product_is_read_as_writers_mean_it():
    found = [f for f in check_text("Let $T = 6BDF / DF$.\n\nThen $T / B = 6$.\n") if f.line == 3]
    assert [f.status for f in found] == ["verified"]  # T = 6B, not 6BF^2


def test_a_unit_after_a_power_is_the_powers_not_its_exponents():
    """``6 \\times 10^{10} \\text{tokens}`` is (6 · 10^10) tokens: the unit was read into the exponent (10^(10 tokens)),
    which only an accident of the unit check let pass."""
    f = one("Total: `20 * 3 * 10^(9) = 6 * 10^(10) tokens` here.")
    assert f.status == "verified" and "10**(10*tokens)" not in f.message
    assert one("Total: `20 * 3 * 10^(9) = 6 * 10^(11) tokens` here.").status == "mismatch"


def test_bytes_written_b_beside_gigabytes_and_a_letter_set_to_a_chain_of_numbers():
    """heldout18 meko1-kv-cache 9: ``2 \\times 32{,}768 \\times … \\times 2 \\text{B} \\approx 10.7 \\text{GB}`` (B, bytes:
    read as billions it fails, and was "a shape (×) is not a value"); ``D = 20 \\times 3 \\times 10^9 = 6 \\times
    10^{10}`` (hemanth's Chinchilla tokens): the definition stands and the arithmetic after it is judged."""
    kv = "# KV\n\nThe cache takes $2 \\times 32{,}768 \\times 80 \\times 8 \\times 128 \\times 2 \\text{B} \\approx 10.7 \\text{GB}$ here.\n"
    (f,) = judged(kv)
    assert f.status == "verified" and "B read as bytes" in f.message
    wrong = [g.status for g in check_text(kv.replace("10.7", "12.7")) if g.kind == "claim"]
    assert wrong == ["unchecked"]  # billions or bytes: neither reading holds, not judged
    text = "# Tokens\n\n$$D_{\\text{opt}} = 20 \\times 3 \\times 10^{9} = 6 \\times 10^{10} \\text{tokens}$$\n"
    found = [g for g in check_text(text) if g.kind == "claim"]
    assert [(g.rule, g.status) for g in found] == [("definition", "unchecked"), ("numeric", "verified")]
    wrong = [g.status for g in check_text(text.replace("10^{10}", "10^{11}")) if g.kind == "claim"]
    assert wrong == ["unchecked", "mismatch"]


def test_a_sum_that_only_floating_point_rounding_makes_equal_is_not_decided():
    # a floating-point caveat: 10^{20} + (-10^{20} + 1) computes to 10^{20} - 10^{20} in doubles; exactly it is 1
    found = _claim(r"10^{20} + (-10^{20} + 1) = 10^{20} - 10^{20}")
    assert found.status == "unchecked" and "floating-point" in found.message
    assert _claim(r"10^{3} + (-10^{3} + 1) = 10^{3} - 10^{3}").status == "mismatch"  # far above double rounding


@pytest.mark.parametrize("text, latex", [
    ("- $\\Psi = 7 \\times 10^9$ parameters\n- Base memory: $16\\Psi = 112$ GB\n", "16\\Psi = 112"),
    ("- $\\Psi = 13 \\times 10^9$ parameters\n\n| Gradients | $2\\Psi/32 = 0.81$ GB |\n|---|---|\n", "2\\Psi/32 = 0.81"),
    ("Then $T_g = \\frac{400 \\times 10^6}{100 \\times 10^9} = 4$ ms.\n", "\\frac{400 \\times 10^{6}}{100 \\times 10^{9}} = 4"),
    ("**Example**: 7B parameters in fp16 = $7 \\times 10^9 \\times 2$ = 14 GB\n", "7 \\times 10^9 \\times 2 = 14"),
])
def test_a_printed_side_in_the_unit_written_after_it_is_read_in_that_unit(text, latex):
    # found by a scan of a distributed-training book: memory in GB and times in ms after the math, the computed
    # side in bytes or seconds; the same claims with a wrong printed value stay mismatches
    found = [f for f in check_text(text) if f.latex == latex]
    assert [f.status for f in found] == ["verified"] and "with the printed side in" in found[0].message
    wrong = [f for f in check_text(text.replace("= 112", "= 120").replace("0.81", "0.91").replace("= 4$", "= 5$")
                                   .replace("= 14 GB", "= 15 GB")) if f.status == "mismatch"]
    assert len(wrong) == 1


def test_a_power_of_ten_with_a_negative_exponent_keeps_its_printed_digits():
    # found by a scan of a reduced-precision chapter: 2^{-14} ≈ 6 × 10^{-5} (6.10e-5 to one significant digit) and
    # 2^{-14} ≈ 6.1 × 10^{-5} hold to their digits; 2^{-10} ≈ 10^{-3} is within the unit of a bare power of ten,
    # not a mismatch; a wrong mantissa still is one
    found = {f.latex: f.status for f in check_text(
        "So $2^{-14} \\approx 6 \\times 10^{-5}$, $2^{-14} \\approx 6.1 \\times 10^{-5}$ and $2^{-10} \\approx 10^{-3}$, "
        "but $2^{-14} \\approx 8 \\times 10^{-5}$.\n") if f.kind == "claim"}
    assert found["2^{-14} \\approx 6 \\times 10^{-5}"] == "verified"
    assert found["2^{-14} \\approx 6.1 \\times 10^{-5}"] == "verified"
    assert found["2^{-10} \\approx 10^{-3}"] != "mismatch"
    assert found["2^{-14} \\approx 8 \\times 10^{-5}"] == "mismatch"


def test_ratios_of_printed_numbers_are_judged_by_proportion():
    # found by a scan of a d2l chapter: the four paths' channels 64:128:32:32 = 2:4:1:1 (once "32 = 2", a mismatch)
    found = {f.latex: f for f in check_text("ratio $64:128:32:32=2:4:1:1$ and $3:4 = 6:9$.\n") if f.kind == "claim"}
    assert found["64:128:32:32=2:4:1:1"].status == "verified"
    assert found["3:4 = 6:9"].status == "mismatch" and "not in proportion" in found["3:4 = 6:9"].message
    assert len(found) == 2


def test_a_power_of_e_approximated_to_a_whole_number_keeps_the_printed_digits():
    # found by a scan of softmax notes: e^{11} ≈ 59874 (59874.14) holds to its last digit, and it is arithmetic on
    # printed numbers, not a draw of the model's weights; e^{0.3} = 1 is still no "holds to half a unit"
    found = {f.latex: f for f in check_text("Here $e^{11} \\approx 59874$, $e^{11} \\approx 59875$, "
                                            "$e^{11} \\approx 60500$ and $e^{0.3} = 1$.\n")}
    assert found["e^{11} \\approx 59874"].status == "verified" and "printed" in found["e^{11} \\approx 59874"].message
    # within one unit of its last digit but neither rounded nor cut: not decided, as for any printed arithmetic
    assert found["e^{11} \\approx 59875"].status == "unchecked"
    assert found["e^{11} \\approx 60500"].status == "mismatch"
    assert found["e^{0.3} = 1"].status != "verified"


def test_a_divisor_written_as_a_product_after_the_slash():
    # a scanned note: 8*20*20*2/5*5=256, the writer's divisor 5*5; left to right it is 6400. A value neither reading
    # gives is still a mismatch.
    found = {f.latex: f for f in check_text("Here $8 \\cdot 20 / 5 \\cdot 5 = 6.4$ and $8 \\cdot 20 / 5 \\cdot 5 = 7$.\n")
             if f.kind == "claim"}
    assert found["8 \\cdot 20 / 5 \\cdot 5 = 6.4"].status == "unchecked"
    assert "divisor" in found["8 \\cdot 20 / 5 \\cdot 5 = 6.4"].message
    assert found["8 \\cdot 20 / 5 \\cdot 5 = 7"].status == "mismatch"


def test_an_input_the_document_printed_earlier_as_a_result_may_be_rounded():
    # a scanned assignment: "4,513 GFLOPs/seq × 1,024 = 4,621 TFLOPs" (exactly 4,621.3), then "2 × 4,621 = 9,243
    # TFLOPs": 4,621 is the document's rounded result, and 2 × 4,621.3 = 9,242.6 rounds to 9,243; a miss beyond
    # that rounding is still a mismatch, and a number not printed before as a result is taken as written
    before = "- Forward: $4{,}513 \\text{ GFLOPs/seq} \\times 1{,}024 = 4{,}621$ TFLOPs\n"
    assert all(f.status != "mismatch" for f in check_text(before + "- Backward: $2 \\times 4{,}621 = 9{,}243$ TFLOPs\n"))
    assert "mismatch" in [f.status for f in check_text(before + "- Backward: $2 \\times 4{,}621 = 9{,}253$ TFLOPs\n")]
    assert "mismatch" in [f.status for f in check_text("- Backward: $2 \\times 4{,}621 = 9{,}243$ TFLOPs\n")]
    exact = "- Width: $512 / 8 = 64$ GB\n- Then $2 \\times 64 = 129$ GB\n"  # 64 an exact result: taken as written
    assert "mismatch" in [f.status for f in check_text(exact)]


def test_a_result_printed_earlier_on_the_same_line_may_be_rounded_in_a_latex_claim():
    # scan (docs10, twanahc job queues 1747): "\(1/120 = 0.0083\) jobs per second. Five workers give you
    # \(5 \times 0.0083 = 0.0417\)": 5/120 = 0.041667 rounds to 0.0417. The LaTeX reading takes printed numbers as
    # exact (0.0415 against 0.0417), but 0.0083 is the document's own rounded result, printed in an earlier fragment
    # of the same line; without that result, or beyond its rounding, the claim stays a mismatch
    said = "Each worker gives \\(1/120 = 0.0083\\) jobs per second. Five give \\(5 \\times 0.0083 = {}\\) jobs.\n"
    (near,) = [f for f in check_text(said.format("0.0417")) if "5 \\times" in f.latex]
    assert near.status == "unchecked" and "0.0083 may stand for" in near.message
    assert [f.status for f in check_text(said.format("0.0427")) if "5 \\times" in f.latex] == ["mismatch"]
    alone = "Five give \\(5 \\times 0.0083 = 0.0417\\) jobs, one gives \\(1/120 = 0.0083\\).\n"  # printed after it
    assert [f.status for f in check_text(alone) if "5 \\times" in f.latex] == ["mismatch"]
    assert [f.status for f in check_text("We have $0.3 \\times 0.5 = 0.16$.\n")] == ["mismatch"]


def test_a_tilde_between_two_fractions_in_prose_is_a_range():
    # scan docs15 (an interview note 202: "KV Cache 可减少到 GQA 的约 1/4 ~ 1/8", about a quarter to an eighth): a
    # tilde between two printed fractions is a range, not a claim; a tilde before a decimal is still ≈
    assert check_text("The cache shrinks to about 1/4 ~ 1/8 of GQA's.\n") == []
    assert [f.status for f in check_text("So 1/3 ~ 0.33 here.\n")] == ["verified"]
    assert [f.status for f in check_text("So 1/3 ~ 0.43 here.\n")] == ["mismatch"]


def test_a_count_set_equal_to_a_size_in_bytes_may_count_elements_of_two_or_four_bytes():
    # heldout43 sarthak10193 157 (its first run's one false mismatch): "8192*8192=128MB of SMEM", the N × N scores at
    # the 2 bytes per element the notebook states two lines before (2^26 × 2 = 2^27 bytes = 128 MiB): unchecked, with
    # the element size that makes it hold; a size no 2- or 4-byte element explains is still a mismatch
    (f,) = check_text("You would still need 8192*8192=128MB of SMEM space.\n")
    assert f.status == "unchecked" and "elements of 2 bytes" in f.message
    assert [f.status for f in check_text("We need 1024*1024=3MB.\n")] == ["mismatch"]


@pytest.mark.parametrize("line, status", [
    ("Attention: 48 * 4 * 1600 * 1600 * 1024 = 503316480000 FLOPs = 504 GFLOPs", "unchecked"),  # 503.3, not 504
    ("SwiGLU: 48 * 3 * 1600 * 6400 * 1024 = 1,509,949,440,000 FLOPs = 1.6 TFLOPs", "unchecked"),  # 1.51, not 1.6
    ("SwiGLU: 48 * 3 * 1600 * 6400 * 1024 = 1,509,949,440,000 FLOPs = 1.51 TFLOPs", "verified"),
    ("Linear: 2 * 50,257 * 1600 * 16,384 = 2.7 TFLOPs", "unchecked"),  # 2.63: within one unit, neither rounded nor cut
])
def test_a_rescaled_side_keeps_no_rounding_of_its_own_digits(line, status):
    # heldout51 safiullah136 35-36 (two false "verified" at its first run): the trailing zeros of 503316480000 made
    # it "rounded to 10^4", a unit then applied to 503.3 GFLOPs; now the printed side's digits decide
    found = [f for f in check_text(f"Matmuls:\n\n{line}\n") if f.status != "recognized"]
    assert found[-1].status == status, [(f.latex, f.status, f.message) for f in found]
