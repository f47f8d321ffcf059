"""Shape claims judged against the reference model (symtf.check.shape_claims): a leading batch axis
(``X \\in \\mathbb{R}^{B \\times T \\times D}``) set aside only where the document calls that letter the batch size,
and a declaration under a formula of the other convention."""
import pytest

from symtf.check.checker import check_text

SIZES = (r"Here $B$ is the batch size, $T$ is the sequence length, $D$ is the model dimension and $V$ is the "
         "vocabulary size.\n\n")


def _shape_finding(text, latex):
    (found,) = [f for f in check_text(text) if f.latex == latex and f.rule == "shape"]
    return found


def test_a_batch_axis_named_by_the_prose_is_set_aside():
    f = _shape_finding(SIZES + r"The input is $X \in \mathbb{R}^{B \times T \times D}$." "\n",
                       r"X \in \mathbb{R}^{B \times T \times D}")
    assert f.status == "verified" and "batch size" in f.message and "n \\times d_\\text{model}" in f.message


def test_a_wrong_axis_after_the_batch_axis_is_not_verified():
    f = _shape_finding(SIZES + r"The input is $X \in \mathbb{R}^{B \times T \times V}$." "\n",
                       r"X \in \mathbb{R}^{B \times T \times V}")
    assert f.status != "verified"


def test_without_the_prose_the_letter_is_no_size():
    text = r"Here $T$ is the sequence length and $D$ is the model dimension." "\n\n" \
           r"The input is $X \in \mathbb{R}^{B \times T \times D}$." "\n"
    f = _shape_finding(text, r"X \in \mathbb{R}^{B \times T \times D}")
    assert f.status == "unchecked" and "B is not a size" in f.message


@pytest.mark.parametrize("latex, why", [
    (r"W_E \in \mathbb{R}^{B \times V \times D}", "parameter"),  # a weight is shared by the batch
    (r"Q \in \mathbb{R}^{B \times H \times T \times D}", "every head"),  # the head axis is the document's layout
])
def test_batch_axes_the_reference_cannot_judge(latex, why):
    text = SIZES + r"There are $H$ attention heads." "\n\n" f"We have ${latex}$.\n"
    f = _shape_finding(text, latex)
    assert f.status == "unchecked" and why in f.message


def test_a_declaration_under_a_formula_of_the_other_convention_is_not_a_transposed_shape():
    # scan docs31 (a Hungarian notebook: column-convention attention, then the feed-forward layer in the row one):
    # FFN(x) = max(0, x W_1 + b_1) W_2 + b_2 multiplies W_2 from the right, after a parenthesis
    text = ("# Attention\n\nLet $h_t \\in \\mathbb{R}^d$. Then $q_t = W^Q h_t$, $k_t = W^K h_t$ and $v_t = W^V h_t$ with "
            "$W^Q, W^K, W^V \\in \\mathbb{R}^{d_k \\times d}$, and the scores are $k_s^\\top q_t$."
            "\n\n# Feed-forward\n\n$$\n\\operatorname{FFN}(x) = \\max\\left(0, x W_1 + b_1\\right) W_2 + b_2\n$$\n\n"
            "where $W_2 \\in \\mathbb{R}^{d_{ff} \\times d}$ is a weight.\n")
    (f,) = [f for f in check_text(text) if f.latex == r"W_2 \in \mathbb{R}^{d_{ff} \times d}"]
    assert f.status == "unchecked" and "other side" in f.message


def test_a_number_in_scientific_notation_is_no_shape():
    # heldout30 (a table of FLOPs: | 256 | 1.89 \times 10^{11} | …): a number, not a shape missing its subject
    (f,) = check_text("| t | FLOPs |\n| --- | --- |\n| 256 | $1.89 \\times 10^{11}$ |\n")[-1:]
    assert (f.status, f.kind) == ("recognized", "mention") and "scientific notation" in f.message
    (g,) = [f for f in check_text("The scores are $n \\times n$.\n") if f.rule == "shape"]
    assert "scientific" not in g.message  # a product of letters is still read as a shape
