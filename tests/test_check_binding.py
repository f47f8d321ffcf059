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
    wrong = text.replace("\\frac{\\mathbf{q}_m^\\top \\mathbf{k}_t}{\\sqrt{d_k}}", "\\frac{\\mathbf{q}_m^\\top \\mathbf{k}_t}{d_k}")
    (g,) = _at(wrong, 3)
    assert g.status == "mismatch" and g.expected is None or "s_{mt}" in (g.expected or "")


def test_rename_leaves_naming_subscripts_alone():
    tree = ("mul", ("sym", "W", "K", None), ("sym", "x", "t", None), "*")
    assert rename(tree, {"t": "j", "K": "Z"}) == ("mul", ("sym", "W", "K", None), ("sym", "x", "j", None), "*")
