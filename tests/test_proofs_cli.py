"""`symtf prove`: JSON shape, exit codes, the expected refutation said plainly."""
import json

import pytest

from symtf.cli import main
from symtf.proofs import CLAIMS
from symtf.proofs.claim import Claim, Status, unknown

IDS = ["concat-wo", "variance-sqrt-dhead", "softmax-simplex", "softmax-shift", "softmax-neg-inf-padding",
       "softmax-example", "result-matrix-form", "convex-combination", "simplified-equals-last-column",
       "end-to-end-layer", "causal", "permutation-equivariance", "qk-ov-circuits", "row-column-convention",
       "mlp-position-wise", "layernorm-moments", "layernorm-beta-gamma", "zero-layer-bigram", "param-counts"]
IDS += ["rmsnorm-layernorm", "llama-param-counts", "rope-relative", "rope-absorption",
        "path-expansion-1l", "path-expansion-2l", "gqa-mha", "kv-cache", "mla-absorption"]  # beyond the post (docs/beyond/)


def test_registry_has_the_fixed_ids():
    assert list(CLAIMS) == IDS


def test_json_shape(capsys):
    code = main(["prove", "softmax-example", "layernorm-beta-gamma", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    first = out["claims"][0]
    assert {"id", "statement", "result", "method", "sizes", "numeric_check"} <= set(first)
    assert [c["result"] for c in out["claims"]] == ["proved", "refuted"]
    assert out["claims"][1]["expected"] == "refuted"


@pytest.mark.slow
def test_json_is_the_same_bytes_twice_unless_timings_are_asked_for(capsys):
    outputs = []
    for _ in range(2):
        main(["prove", "--format", "json"])
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and '"seconds"' not in outputs[0]
    main(["prove", "softmax-example", "--format", "json", "--timings"])
    assert json.loads(capsys.readouterr().out)["claims"][0]["seconds"] >= 0


def test_text_says_the_refutation_is_expected(capsys):
    assert main(["prove", "layernorm-beta-gamma"]) == 0
    assert "does not hold in general" in capsys.readouterr().out


def test_unknown_id_exits_2(capsys):
    assert main(["prove", "no-such-claim"]) == 2
    assert "unknown claim id" in capsys.readouterr().err


def test_a_claim_that_is_not_proved_exits_1(monkeypatch, capsys):
    failing = Claim("concat-wo", "x", lambda: unknown("cannot"))
    monkeypatch.setitem(CLAIMS, "concat-wo", failing)
    assert main(["prove", "concat-wo"]) == 1
    assert "EXPECTED PROVED" in capsys.readouterr().out


def test_a_crashing_prover_is_unknown():
    def boom():
        raise RuntimeError("no")

    assert Claim("x", "x", boom).prove().status is Status.UNKNOWN


def test_statements_render_in_katex():
    from tests.katex import render_all

    rendered = render_all([c.statement for c in CLAIMS.values()])
    assert [r.latex for r in rendered if not r.ok] == []
