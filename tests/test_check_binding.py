r"""A document's own letter tied to a reference activation by its definition (symtf/check/binding.py).

The documents below are written the way course notes write attention (their own index letters, a
letter the reference does not have); each test asserts what the checker concludes about one line.
"""
from __future__ import annotations

from symtf.check.checker import DocumentChecker
from symtf.check.compare import rename


def _at(text: str, line: int, convention: str = "column"):
    return [f for f in DocumentChecker(text, convention=convention).run() if f.line == line and f.kind == "claim"]


SCORES = r"""# Attention

The queries and keys are $\mathbf{q}_i$ and $\mathbf{k}_j$.

$$c_{it} = \frac{\mathbf{q}_i^\top \mathbf{k}_t}{\sqrt{d_k}}$$

Text between the two.

$$c_{it} = {}$$
"""


def _doc(second: str) -> str:
    return SCORES.replace("{}", second)


def test_definition_binds_to_the_scores_in_the_documents_letters():
    (f,) = _at(_doc(r"\frac{\mathbf{q}_i^\top \mathbf{k}_t}{\sqrt{d_k}}"), 5)
    assert f.status == "verified" and f.rule == "definition"
    assert "S_{it}" in f.message and "for every i, t" in f.message


def test_a_restatement_that_agrees_is_verified_too():
    (f,) = _at(_doc(r"\frac{\mathbf{q}_i^\top \mathbf{k}_t}{\sqrt{d_k}}"), 9)
    assert f.status == "verified"


def test_a_later_definition_without_the_scale_contradicts_the_first():
    (f,) = _at(_doc(r"\mathbf{q}_i^\top \mathbf{k}_t"), 9)
    assert f.status == "mismatch" and f.diagnosis == "missing 1/√d_head scale"
    assert "line 5" in f.message and f.expected == r"c_{it} = q_i^\top k_t / \sqrt{d_k}"


def test_an_unscaled_definition_before_the_scaled_one_is_not_a_mismatch():
    text = SCORES.replace(r"\frac{\mathbf{q}_i^\top \mathbf{k}_t}{\sqrt{d_k}}", r"\mathbf{q}_i^\top \mathbf{k}_t").replace(
        "{}", r"\frac{\mathbf{q}_i^\top \mathbf{k}_t}{\sqrt{d_k}}")
    (f,) = _at(text, 5)
    assert f.status == "unchecked" and "later" in f.message


def test_swapped_query_and_key_contradict_the_first_definition():
    (f,) = _at(_doc(r"\frac{\mathbf{k}_i^\top \mathbf{q}_t}{\sqrt{d_k}}"), 9)
    assert f.status == "mismatch"


def test_a_definition_far_from_any_activation_binds_nothing_and_is_not_judged():
    (f,) = _at(_doc(r"\mathbf{q}_i^\top \mathbf{q}_t + 1"), 9)
    assert f.status == "unchecked"


def test_the_reference_letter_with_the_documents_own_index_letters_is_judged():
    text = "# Attention\n\n$$s_{mt} = \\frac{\\mathbf{q}_m^\\top \\mathbf{k}_t}{\\sqrt{d_k}}$$\n"
    (f,) = _at(text, 3)
    assert f.status == "verified"
    swapped = text.replace("q}_m^\\top \\mathbf{k}_t", "k}_m^\\top \\mathbf{q}_t")
    (g,) = _at(swapped, 3)
    assert g.status == "mismatch" and g.diagnosis.startswith("W_Q and W_K (or Q and K) swapped")
    assert "s_{mt}" in g.expected and "q_m" in g.expected  # the expected form in the document's letters


def test_a_new_reading_without_a_diagnosis_stays_unchecked():
    text = "# Attention\n\n$$s_{mt} = \\frac{\\mathbf{q}_m^\\top \\mathbf{k}_t}{d_k}$$\n"
    (f,) = _at(text, 3)
    assert f.status == "unchecked"


def test_rename_leaves_naming_subscripts_alone():
    tree = ("mul", ("sym", "W", "K", None), ("sym", "x", "t", None), "*")
    assert rename(tree, {"t": "j", "K": "Z"}) == ("mul", ("sym", "W", "K", None), ("sym", "x", "j", None), "*")


def test_the_convention_is_read_from_the_formulas_structure():
    """Each corpus document's convention was written down by reading it (tests/corpus/*.yaml); the
    detection must agree on the documents whose formulas show it (measured: 11 of 12, d2l-transformer
    shows none of the signals and is decided by its letters)."""
    import pathlib

    import yaml

    from symtf.check.checker import choose_profiles
    from symtf.check.macros import document_macros
    from symtf.sources import read

    corpus = pathlib.Path(__file__).parent / "corpus"
    right = total = 0
    for spec in sorted(corpus.glob("*.yaml")):
        want = yaml.safe_load(spec.read_text(encoding="utf-8")).get("convention")
        if want not in ("row", "column"):
            continue
        text = spec.with_suffix(".md").read_text(encoding="utf-8")
        got = choose_profiles(read(text).fragments, "auto", None, document_macros(text))[0]["convention"]
        total += 1
        right += got == want
    assert total >= 12 and right >= total - 1


def test_column_signals_win_over_capital_letters():
    from symtf.check.checker import convention_votes
    from symtf.sources import read

    text = r"$$\mathbf{Q} = \mathbf{W}^Q \mathbf{X}$$ and $$\mathbf{Z} = \mathbf{V}\,\mathrm{softmax}(\mathbf{K}^\top \mathbf{Q})$$"
    row, col = convention_votes(read(text).fragments)
    assert col > row
    text = r"$$Q = X W^Q$$ and $$Z = \mathrm{softmax}(Q K^\top / \sqrt{d_k}) V$$"
    row, col = convention_votes(read(text).fragments)
    assert row > col


NOTES = r"""# Self-attention

We introduce three parameter matrices $\mathbf{A}, \mathbf{B}, \mathbf{C} \in \mathbb{R}^{h \times d}$ that
transform each input $\mathbf{x}_i$ into a query, a key and a value vector:

$$\mathbf{q}_i = \mathbf{A}\mathbf{x}_i, \quad \mathbf{k}_i = \mathbf{B}\mathbf{x}_i, \quad \mathbf{v}_i = \mathbf{C}\mathbf{x}_i$$

Combined as matrix multiplications:

$$\mathbf{K} = \mathbf{B}\mathbf{X}$$

$$c_{it} = \frac{\mathbf{q}_i^\top \mathbf{k}_t}{\sqrt{h}}$$
"""


def test_the_documents_weight_letters_are_read_as_the_models_weights():
    text = NOTES
    (f, g, h) = _at(text, 6)
    assert [x.status for x in (f, g, h)] == ["verified"] * 3
    assert "$A$ as $W_Q$" in f.message and "$B$ as $W_K$" in g.message and "$C$ as $W_V$" in h.message
    (k,) = _at(text, 10)  # B is tied now, so X may be given the model's input
    assert k.status == "verified" and "x^{(0)}" in k.message
    (c,) = _at(text, 12)  # h read as the head size, the only size that makes c the scores
    assert c.status == "verified" and "d_{\\text{head}}" in c.message


def test_a_wrong_weight_is_not_bound_and_not_called_verified():
    wrong = NOTES.replace(r"\mathbf{k}_i = \mathbf{B}\mathbf{x}_i", r"\mathbf{k}_i = \mathbf{B}^\top\mathbf{x}_i")
    (_, g, _) = _at(wrong, 6)
    assert g.status != "verified"


def test_letters_of_a_linear_algebra_primer_are_not_given_model_meanings():
    text = ("# Matrix multiplication primer\n\nTake $A \\in \\mathbb{R}^{m \\times n}$ and $B \\in \\mathbb{R}^{n \\times p}$."
            "\n\nOne entry of the product $C = AB$ is a sum over $k$.\n")
    claims = _at(text, 5, convention="row")
    assert claims and all(f.status == "unchecked" for f in claims)


def test_an_index_letter_only_on_the_right_is_given_a_free_model_letter():
    text = "# Attention\n\n$$\\mathbf{z}_t = \\sum_{j=1}^{t} a_{tj} \\mathbf{v}_j$$\n"
    (f,) = _at(text, 3)
    assert f.status == "verified" and "for every t" in f.message


def test_a_letter_known_in_the_other_convention_binds_only_to_its_meaning_there():
    text = ("# Self-attention\n\nThe weights $W^Q, W^K$ apply to the embeddings $E$ of the tokens:\n\n$$K = W^Q E$$\n\n"
            "Recall the keys of the attention: $$K = W^K E$$\n")
    (wrong,) = _at(text, 5)
    (right,) = _at(text, 7)
    assert right.status == "verified" and "$k$" in right.message
    assert wrong.status == "mismatch" and wrong.diagnosis.startswith("W_Q and W_K")


def test_a_spelled_out_softmax_is_read_without_the_causal_mask_where_the_document_has_none():
    text = SCORES.replace("Text between the two.\n\n$$c_{it} = {}$$\n",
                          "The weights:\n\n$$a_{it} = \\frac{e^{c_{it}}}{\\sum_{j=1}^{T} e^{c_{ij}}}$$\n")
    (f,) = _at(text, 9)
    assert f.status == "verified" and "without the causal mask" in f.message
    other = text.replace("e^{c_{ij}}}$$", "e^{c_{ji}}}$$")  # normalised over the queries: not the model's pattern
    (g,) = _at(other, 9)
    assert g.status != "verified"
