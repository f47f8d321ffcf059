"""symtf check on files and directories; SARIF 2.1.0 (validated against the published schema) and
GitHub workflow annotations."""
import json
from pathlib import Path

import pytest

from symtf.check.output import FileReport, to_github, to_sarif
from symtf.check.report import Finding
from symtf.cli import main

jsonschema = pytest.importorskip("jsonschema", reason="the [test] extra provides jsonschema")

DATA = Path(__file__).parent / "data" / "sarif"
FORMATS = Path(__file__).parent / "fixtures" / "formats"
GOOD = "# Attention\n\nThe queries are $$q = W_Q x^{(0)}$$.\n"
BAD = "# Attention\n\n$$\nS = q^\\top k \\sqrt{d_\\text{head}}\n$$\n"


@pytest.fixture(scope="module")
def validator():
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema)


def _findings():
    mismatch = Finding(7, r"S = q^\top k", "mismatch", "definition", "the two sides differ",
                       r"S = q^\top k / \sqrt{d_\text{head}}")
    mismatch.kind, mismatch.diagnosis = "claim", "missing 1/√d_head"  # fields the checker v2 adds
    lint = Finding(9, r"d_{model}", "lint", "notation", r"d_{model} names the same size as d_\text{model}")
    return [mismatch, lint, Finding(3, "q", "verified", "notation", "names a model quantity"),
            Finding(4, r"\frac{a", "unparsed", "definition", "cannot parse")]


def test_sarif_validates_and_locates(validator):
    log = json.loads(to_sarif([FileReport("docs/a b.md", _findings())], "0.0"))
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, errors[0].message
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in results] == [("definition", "error", 7), ("notation", "warning", 9), ("definition", "note", 4)]
    assert results[0]["properties"]["diagnosis"] == "missing 1/√d_head" and results[0]["properties"]["kind"] == "claim"
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "docs/a%20b.md"
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == ["definition", "notation"]


def test_sarif_schema_rejects_a_broken_log(validator):
    log = json.loads(to_sarif([FileReport("a.md", _findings())], "0.0"))
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["results"][1]["message"]
    assert len(list(validator.iter_errors(log))) >= 2  # the vendored schema does check what we write


def test_github_annotations_escape_and_levels():
    out = to_github([FileReport("posts/a,b:c.md", _findings(), {7: "cell 2, line 1"})]).splitlines()
    assert out[0].startswith("::error file=posts/a%2Cb%3Ac.md,line=7,title=symtf mismatch [definition]::")
    assert "Diagnosis: missing 1/√d_head." in out[0] and out[0].endswith("(cell 2, line 1)")
    assert out[1].startswith("::warning file=posts/a%2Cb%3Ac.md,line=9,")
    assert out[2].startswith("::notice ") and len(out) == 4  # verified: no annotation; then the summary
    assert out[3].startswith("posts/a,b:c.md: ")
    multi = Finding(1, "x", "mismatch", "definition", "100% wrong\nsecond line")
    assert to_github([FileReport("a.md", [multi])]).splitlines()[0].endswith("::100%25 wrong%0Asecond line. fragment: $x$")


def test_a_directory_of_mixed_files_in_one_call(capsys, validator):
    assert main(["check", str(FORMATS), "--quiet"]) == 1
    out = capsys.readouterr().out.splitlines()
    names = sorted(p.name for p in FORMATS.iterdir() if p.suffix in (".md", ".qmd", ".ipynb", ".tex"))
    summaries = [line for line in out if line.endswith(" lint") and not line.startswith("total")]
    assert sorted(Path(s.split(": ")[0]).name for s in summaries) == names
    assert out[-1] == (f"total ({len(names)} files): 72 claims (56 verified, 16 mismatch, 0 unchecked, 0 unparsed), "
                       "16 mentions (8 recognized, 8 unchecked, 0 unparsed), 0 lint")
    assert any(line.startswith(f"{FORMATS / 'notebook.ipynb'}:33: (cell 3, line 2) MISMATCH") for line in out)
    assert main(["check", str(FORMATS), "--format", "sarif", "--exclude", "*.ipynb", "--exclude", "paper.tex"]) == 1
    log = json.loads(capsys.readouterr().out)
    assert not list(validator.iter_errors(log))
    uris = {a["location"]["uri"] for a in log["runs"][0]["artifacts"]}
    assert len(uris) == len(names) - 2 and not any(u.endswith((".ipynb", ".tex")) for u in uris)
    assert sum(r["level"] == "error" for r in log["runs"][0]["results"]) == 2 * (len(names) - 2)


def test_exit_codes_and_json(tmp_path, capsys):
    (tmp_path / "good.md").write_text(GOOD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "notes.tex").write_text("\\begin{document}\n$q = W_Q x^{(0)}$\n\\end{document}\n")
    (tmp_path / "sub" / "skip.txt").write_text(BAD)  # not a format symtf reads: not walked into
    assert main(["check", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [Path(f["file"]).name for f in data["files"]] == ["good.md", "notes.tex"]
    assert data["summary"]["verified"] == 2 and data["summary"]["mismatch"] == 0
    (tmp_path / "sub" / "bad.md").write_text(BAD)
    assert main(["check", str(tmp_path)]) == 1
    assert main(["check", str(tmp_path), "--exclude", "sub"]) == 0
    (tmp_path / "broken.ipynb").write_text("{not json")
    capsys.readouterr()
    assert main(["check", str(tmp_path)]) == 2  # an unusable file: exit 2, the others still reported
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [f"symtf check: error: {tmp_path / 'broken.ipynb'}: not a valid notebook "
                                        "file: Notebook does not appear to be JSON: '{not json'"]
    assert "bad.md: " in out and out.strip().splitlines()[-1].startswith("total (3 files, 1 unreadable): ")
    (tmp_path / "empty").mkdir()
    assert main(["check", str(tmp_path / "empty")]) == 2
    assert "is a directory with no document symtf reads" in capsys.readouterr().err
