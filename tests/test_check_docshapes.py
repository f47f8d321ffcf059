"""The document's own matrices: shapes from its own declarations, in reading order (symtf.check.docshapes)."""
import pytest

from symtf.check.checker import check_text

DECLARED = (
    "# Attention with our own letters\n\n"
    r"Let $X \in \mathbb{R}^{N \times D_x}$, $W_k \in \mathbb{R}^{D_x \times D_k}$, "
    r"$W_v \in \mathbb{R}^{D_x \times D_v}$ and $P \in \mathbb{R}^{M \times D_k}$." "\n\n"
    r"The keys are $C = X W_k$ and the values $E = X W_v$." "\n\n"
)


def _only(text, latex):
    return [f for f in check_text(DECLARED + text) if f.latex == latex]


def test_a_stated_shape_follows_from_the_declarations():
    # P C^T: (M × D_k)(D_k × N) = M × N, C's shape from its definition C = X W_k
    (f,) = _only(r"So $P C^\top \in \mathbb{R}^{M \times N}$.", r"P C^\top \in \mathbb{R}^{M \times N}")
    assert f.status == "verified" and "declarations" in f.message


@pytest.mark.parametrize("text, latex, why", [
    (r"Then $P C \in \mathbb{R}^{M \times N}$.", r"P C \in \mathbb{R}^{M \times N}", "inner sizes differ"),
    (r"Then $P C^\top \in \mathbb{R}^{N \times M}$.", r"P C^\top \in \mathbb{R}^{N \times M}", "not the stated"),
    (r"Then $E W_k$ is used.", r"E W_k", "inner sizes differ"),  # D_v against D_x
    (r"Then $G = X W_k + X W_v$.", r"G = X W_k + X W_v", "a sum of"),  # D_k against D_v
])
def test_a_contradiction_with_the_declarations_is_a_mismatch(text, latex, why):
    (f,) = [f for f in _only(text, latex) if f.rule == "shape"]
    assert f.status == "mismatch" and why in f.message and f.kind == "claim"


def test_a_declaration_holds_from_its_line_on():
    # Y is used before it is declared (a later instance with numbers): nothing is judged by it
    text = (r"First $Y W_k$ is formed." "\n\n" r"For GPT-3, $Y \in \mathbb{R}^{12288 \times 2048}$." "\n")
    assert not [f for f in check_text(DECLARED + text) if f.status == "mismatch"]


def test_undeclared_letters_are_left_to_the_other_judges():
    findings = _only(r"And $Z C^\top$ too.", r"Z C^\top")
    assert findings and all(f.status != "mismatch" for f in findings)


def test_query_and_key_widths_named_apart_are_not_a_misfit():
    """``Q \\in R^{n×d_q}``, ``K \\in R^{n×d_k}``: Q K^T needs d_q = d_k, which documents leave implicit
    (data: ``implicitly_equal_sizes``); Q V^T with d_v is still a misfit."""
    from symtf.check.checker import DocumentChecker

    text = ("# A\n\nLet $Q \\in \\mathbb{R}^{n \\times d_q}$ and $K \\in \\mathbb{R}^{n \\times d_k}$, "
            "$V \\in \\mathbb{R}^{n \\times d_v}$.\n\n$$\\alpha = QK^T$$\n\n$$\\beta = QV^T$$\n")
    found = {f.line: f.status for f in DocumentChecker(text).run() if f.kind == "claim" and f.line in (5, 7)}
    assert found[5] != "mismatch" and found[7] == "mismatch"
