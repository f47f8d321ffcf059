"""Adam's moment estimates and bias corrections restated in a document's letters, where it names Adam
(symtf.check.optimizers; Kingma and Ba 2015, Algorithm 1)."""
import pytest

from symtf.check.checker import check_text

ADAM = "# Optimisation\n\nWe train with Adam. Its estimates are\n\n$${}$$\n"


def _finding(latex):
    (found,) = [f for f in check_text(ADAM.format(latex)) if f.line == 5 and f.kind == "claim"]
    return found


@pytest.mark.parametrize("latex", [
    r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t",
    r"v_t \leftarrow \beta_2 v_{t-1} + (1 - \beta_2) g_t^2",
    r"v_t = \beta_2 v_{t-1} + (1-\beta_2) (\nabla_\theta \mathcal{L})^2",
    r"\hat{m}_t = \frac{m_t}{1 - \beta_1^t}",
    r"\hat v_t \leftarrow v_t / (1 - \beta_2^t)",
])
def test_restatements_of_adam_are_verified(latex):
    f = _finding(latex)
    assert f.status == "verified" and "Kingma and Ba" in f.message


@pytest.mark.parametrize("latex, why", [
    (r"v_t = \beta_2 v_{t-1} + (1 - \beta_2) g_t", "squared gradient"),  # the square left out
    (r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t^2", "not its square"),  # the decays' moments swapped
    (r"m_t = (1 - \beta_1) m_{t-1} + \beta_1 g_t", "is kept"),  # the weights swapped
    (r"\hat{m}_t = \frac{m_t}{1 - \beta_1}", "power of the step"),  # the bias correction without β_1^t
])
def test_slips_in_adam_are_mismatches(latex, why):
    f = _finding(latex)
    assert f.status == "mismatch" and why in f.message and f.basis == "published"


def test_without_adam_named_the_letters_are_the_documents():
    text = "# Averages\n\nA moving average:\n\n$$v_t = \\beta_2 v_{t-1} + (1 - \\beta_2) g_t$$\n"
    (f,) = [f for f in check_text(text) if f.latex.startswith("v_t")]
    assert f.status != "mismatch"
