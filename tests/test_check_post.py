"""symtf check on the post: every real mistake found, nothing correct flagged, ≥ 90 % decided."""
import json

import pytest

from symtf.check.checker import DocumentChecker
from symtf.check.report import decided_share, summary
from symtf.cli import main


@pytest.fixture(scope="module")
def checked(post_path):
    doc = DocumentChecker(post_path.read_text(encoding="utf-8"))
    return doc, doc.run()


def _at(findings, line, status=None):
    return [f for f in findings if f.line == line and (status is None or f.status == status)]


def test_zero_layer_adds_whole_positional_matrix_to_a_vector(checked):
    (f,) = _at(checked[1], 158, "mismatch")
    assert f.rule == "shape" and "W_{\\text{pos}}" in f.message and "d_\\text{model} × 1" in f.message
    assert f.expected.endswith(r"(W_E t_n + (W_{\text{pos}})_{n}))")  # the n-th positional column


def test_query_with_layer_and_token_swapped(checked):
    (f,) = _at(checked[1], 212, "mismatch")
    assert "swapped" in f.message and f.latex == r"q_n = W_Q x^{(n)}_0"
    assert f.expected == r"q_n = W_Q x_n^{(0)}"


def test_scalar_weight_set_equal_to_a_vector(checked):
    (f,) = _at(checked[1], 218, "mismatch")
    assert "a scalar set equal to a vector" in f.message
    assert f.expected == r"a = \text{softmax}([s_1, \dots, s_n])"


def test_probabilities_from_the_wrong_logits(checked):
    (f,) = _at(checked[1], 252, "mismatch")
    assert r"\ell_n" in f.message and f.expected == r"p_{n+1} = \text{softmax}(\ell_{n+1})"


def test_vocabulary_size_written_two_ways(checked):
    lints = [f for f in checked[1] if f.status == "lint"]
    assert {f.line for f in lints} == {145}
    assert all("n_\\text{vocab}" in f.message for f in lints)
    assert {f.latex for f in lints} == {r"d_{\text{vocab}}", r"d_\text{vocab} \times d_\text{model}"}


def test_key_figures_table(checked):
    findings = checked[1]
    (vocab,) = _at(findings, 492, "mismatch")
    assert vocab.latex == "5025" and vocab.expected == "50257" and "GPT-2 Small" in vocab.message
    (ctx,) = _at(findings, 493, "mismatch")
    assert ctx.latex == "2048" and ctx.expected == "1024" and "GPT-2 XL" in ctx.message
    # DeepSeek-V3: checked against its published configuration (not the GPT parameter formula); the
    # post's d_head = 56 is d_model/H, which multi-head latent attention does not follow (heads of 128 / 192)
    deepseek = [f for f in findings if "DeepSeek" in f.message]
    assert len(deepseek) == 8
    (d_head,) = [f for f in deepseek if f.status != "verified"]
    assert d_head.line == 490 and d_head.latex == "56" and d_head.status == "mismatch"
    assert "multi-head latent attention" in d_head.message and "128" in d_head.expected and "192" in d_head.expected
    total = next(f for f in deepseek if f.latex == "671B")
    assert "published" in total.message and "formula does not apply" in total.message
    gpt3 = [f for f in findings if f.rule == "figures" and "GPT-3" in f.message]
    assert gpt3 and all(f.status == "verified" for f in gpt3)


def test_positional_matrix_declared_with_input_length(checked):
    # the post declares W_pos as d_model × n every time: its own simplification (a note), not a contradiction
    for line in (135, 258, 473):
        (f,) = [f for f in _at(checked[1], line) if f.rule == "shape" and "W_pos" in f.message]
        assert f.status == "unchecked" and "every time (lines 135, 258, 473)" in f.message and "n_ctx" in f.message


def test_exactly_the_real_mistakes_are_mismatches(checked):
    lines = sorted(f.line for f in checked[1] if f.status == "mismatch")
    assert lines == [158, 212, 218, 252, 490, 492, 493]


def test_a_mismatch_names_the_edit_that_reconciles_it(checked):
    (f,) = _at(checked[1], 252, "mismatch")
    assert f.diagnosis == "an index off by one (right side)"


@pytest.mark.parametrize("line, latex", [
    (344, r"r = vA^\top"),
    (373, None),  # the end-to-end formula with softmax*
    (365, None),  # W_O R = [W_O^{h_1} | … ] [r^{h_1}; …] = Σ_i W_O^{h_i} r^{h_i}
    (312, None),  # the score matrix with −∞ above the diagonal
    (303, None),  # softmax([1, 2]) ≈ [0.269, 0.731]
    (382, r"\text{GELU}(x) = x \cdot \Phi(x)"),
    (424, None),  # LayerNorm
])
def test_correct_fragments_are_verified(checked, line, latex):
    found = [f for f in _at(checked[1], line) if latex is None or f.latex == latex]
    assert found and all(f.status == ("verified" if f.kind == "claim" else "recognized") for f in found), found
    assert any(f.kind == "claim" for f in found), found


def test_the_row_convention_intro_is_a_recognized_mention(checked):
    (f,) = [f for f in _at(checked[1], 22) if f.latex == r"\text{softmax}(QK^\top / \sqrt d)"]
    assert f.kind == "mention" and f.status == "recognized" and "row convention" in f.message


def test_non_equations_are_unchecked_with_a_reason(checked):
    king = [f for f in _at(checked[1], 129) if "king" in f.latex]
    assert king and all(f.status == "unchecked" and "not a symbol" in f.message for f in king)
    (tokens,) = _at(checked[1], 43)
    assert tokens.kind == "mention" and tokens.status == "recognized" and "model quantities" in tokens.message


def test_ninety_percent_of_claims_decided(checked):
    doc, findings = checked
    assert len(doc.frags) > 250
    assert decided_share(findings) >= 0.90
    assert summary(findings)["unparsed"] == 0


def test_mentions_are_never_verified(checked):
    assert all(f.status != "verified" for f in checked[1] if f.kind == "mention")
    claims = [f for f in checked[1] if f.kind == "claim"]
    mentions = [f for f in checked[1] if f.kind == "mention"]
    assert len(claims) > 150 and len(mentions) > 100


def test_cli_text_json_and_exit_codes(post_path, capsys, tmp_path):
    assert main(["check", str(post_path), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"file", "summary", "findings", "model"}
    assert {"verified", "mismatch", "recognized", "unparsed", "unchecked", "lint", "claims", "mentions"} == \
        set(data["summary"])
    assert all(set(f) == {"line", "latex", "status", "rule", "message", "expected", "kind", "diagnosis"}
               for f in data["findings"])
    assert data["summary"]["mismatch"] == 7 and data["summary"]["claims"]["mismatch"] == 7
    assert data["model"]["convention"] == "column" and "W_Q" in data["model"]["anchored"]
    assert main(["check", str(post_path), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{post_path}:212: MISMATCH: ") for line in out)
    assert any(line.strip().startswith("expected: q_n = W_Q") for line in out)
    assert "7 mismatch" in out[-1] and "mentions" in out[-1] and out[-1].endswith("2 lint")
    assert main(["check", str(tmp_path / "missing.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing.md" in err[0] and "no such file" in err[0]
