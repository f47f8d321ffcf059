r"""The docs pages, as Markdown generated from a report (:func:`symtf.report.run.build_report`) and the model.

Math is written for the site's KaTeX (pymdownx.arithmatex, generic mode): ``$…$`` inline and
``$$`` on lines of their own for display. Inside a table cell a ``|`` in LaTeX would split the
cell, so it becomes ``\vert``. Text that is not math (messages, reasons) is escaped or put in
code spans, so a user's odd fragment can never break a page.

:func:`generate_pages` returns ``{file name: Markdown}``; :func:`write_pages` writes them (and
``report.json``) to a directory; the mkdocs hook :mod:`symtf.report.site` adds them to the site.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from symtf.io import write_atomic

#: The generated pages: file name → title (the order of the site's navigation).
GENERATED = {
    "tables.md": "The model's tables",
    "claims.md": "Claims",
    "check.md": "Check findings",
    "conventions.md": "Conventions",
    "derivations.md": "Derivations",
    "figures.md": "Figures",
    "cli.md": "CLI reference",
}

REPO_ROOT = Path(__file__).resolve().parents[2]

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~])")


def text(s: str) -> str:
    """Plain text for a Markdown page: every Markdown special character escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(s).split()))


def code(s: str) -> str:
    """An inline code span that survives any backticks inside ``s``."""
    s = " ".join(str(s).split())
    fence = "`" * (max((len(m) for m in re.findall(r"`+", s)), default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}" if s else ""


def cell_code(s: str) -> str:
    return code(s)  # Python-Markdown's tables leave a | inside a code span alone


def inline_math(latex: str) -> str:
    """``$…$``; a Kramdown cell holding several formulas (``a$$, &nbsp; $$b``) stays several."""
    return "$" + " ".join(latex.split()).replace("|", r"\vert ").replace("$$", "$") + "$"


def display_math(latex: str) -> str:
    return "$$\n" + latex.strip() + "\n$$"


def _row(cells) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header, rows) -> list[str]:
    return [_row(header), _row(["---"] * len(header)), *(_row(r) for r in rows)]


# --------------------------------------------------------------------------- tables


def tables_page(report: dict) -> str:
    from symtf.dims import param_count_formula
    from symtf.latex.printer import latex
    from symtf.latex.tables import key_figures_markdown

    out = ["# The model's tables", "",
           "Generated from `symtf.model` (column vectors, as in the post); `symtf tables` prints the "
           "same tables as Kramdown for a post. The hook column gives the TransformerLens name of "
           "each activation, where one exists.", ""]
    for t in report["tables"]:
        out += [f"## {text(t['title'])}", "", f"Table id: `{t['id']}`", ""]
        rows = [[text(r["name"]), inline_math(r["latex"]), inline_math(r["shape"])] for r in t["rows"]]
        header = list(t["header"])
        if any(r.get("hook") for r in t["rows"]):
            header.append("TransformerLens hook")
            rows = [row + [code(r["hook"]) if r.get("hook") else "–"] for row, r in zip(rows, t["rows"])]
        out += _table(header, rows)
        out.append("")
    figures = key_figures_markdown()
    figures = re.sub(r"\$\$(.+?)\$\$", lambda m: inline_math(m.group(1)), figures)
    out += ["## Key figures of named configurations", "",
            "From `symtf.dims.CONFIGS`; `symtf configs` checks each total against its published figure.", "",
            figures, "",
            "The total comes from the parameter formula of the full model, for $n_\\text{layers}$ layers:", "",
            display_math(r"N = " + latex(param_count_formula())), ""]
    return "\n".join(out)


# --------------------------------------------------------------------------- claims


def _sizes(sizes) -> str:
    if not sizes:
        return "–"
    parts = []
    for s in sizes:
        if isinstance(s, dict):
            parts.append(code(", ".join(f"{k}={v}" for k, v in s.items())))
        else:
            parts.append(text(s))
    return "; ".join(parts)


def claims_page(report: dict) -> str:
    claims = report["claims"]
    out = ["# Claims", "",
           "Each identity of the post, proved from the model's own definitions by `symtf.proofs`. "
           "A result is **proved** (method *symbolic*: for symbolic sizes; *concrete*: exactly, entry "
           "by entry, at the listed sizes), **refuted** (with a counterexample) or **unknown** (with "
           "the reason). The numeric check on random instances is evidence, never the proof.", ""]
    if "unavailable" in claims:
        return "\n".join(out + [f"!!! warning \"Not available\"\n    {text(claims['unavailable'])}", ""])
    s = claims["summary"]
    out += [f"{s['as_expected']} of {s['total']} claims came out as expected: {s['proved']} proved, "
            f"{s['refuted']} refuted, {s['unknown']} unknown.", ""]
    rows = [[f"[{code(r['id'])}](#{_anchor(r['id'])})", r["result"], r["method"] or "–",
             "yes" if r.get("as_expected") else "**no**"] for r in claims["claims"]]
    out += _table(["Claim", "Result", "Method", "As expected"], rows) + [""]
    for r in claims["claims"]:
        out += [f"## {r['id']}", "", display_math(r["statement"]), ""]
        if r.get("assumptions"):
            out += ["**Assumptions**", ""] + [f"- {text(a)}" for a in r["assumptions"]] + [""]
        expected = "" if r["expected"] == "proved" else f" (expected: {r['expected']})"
        out += ["**Outcome**", "", f"- **Result**: {r['result']}{expected}",
                f"- **Method**: {r['method'] or '–'}",
                f"- **Sizes**: {_sizes(r.get('sizes'))}"]
        if "seconds" in r:  # only with --timings: a page kept in git changes when a result does
            out.append(f"- **Time**: {r['seconds']:.3f} s")
        check = r.get("numeric_check")
        if check:
            err = "" if check.get("max_error") is None else f", max error {check['max_error']:.3g}"
            verdict = "passed" if check["passed"] else "FAILED"
            detail = f" — {text(check['detail'])}" if check.get("detail") else ""
            out.append(f"- **Numeric check** (evidence): {verdict}, {check['trials']} trials{err}{detail}")
        if r.get("reason"):
            out.append(f"- **Reason**: {text(r['reason'])}")
        if r.get("counterexample") not in (None, "", [], {}):
            out += ["- **Counterexample**:", "", "    ```", *("    " + line for line in
                    json.dumps(r["counterexample"], indent=1, ensure_ascii=False).splitlines()[:40]), "    ```"]
        out.append("")
    return "\n".join(out)


def _anchor(ident: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", ident.lower()).strip("-")


# --------------------------------------------------------------------------- check findings


def check_page(report: dict) -> str:
    post = report["post"]
    what = "the built-in example post (`symtf/report/example_post.md`), whose mistakes are deliberate" \
        if post["builtin"] else code(post["file"])
    out = ["# Check findings", "",
           f"`symtf check` run on {what}. Each math fragment is verified, a mismatch (with the "
           "expected form), unparsed or unchecked (with the reason); lints flag one quantity "
           "written two ways.", ""]
    if "unavailable" in post:
        return "\n".join(out + [f"!!! warning \"Not available\"\n    {text(post['unavailable'])}", ""])
    s = post["summary"]
    out += [", ".join(f"**{v}** {k}" for k, v in s.items()) + ".", ""]
    mismatches = [f for f in post["findings"] if f["status"] == "mismatch"]
    if mismatches:
        out += ["## Mismatches", ""]
        for f in mismatches:
            out += [f"**Line {f['line']}** ({f['rule']}): {text(f['message'])}", "",
                    f"- written: {inline_math(f['latex'])}"]
            if f.get("expected"):
                out.append(f"- expected: {inline_math(f['expected'])}")
            out.append("")
        out += ["## Every finding", ""]
    order = {"mismatch": 0, "lint": 1, "unparsed": 2, "unchecked": 3, "verified": 4}
    findings = sorted(post["findings"], key=lambda f: (order.get(f["status"], 5), f["line"]))
    rows = [[str(f["line"]), f["status"], f["rule"], cell_code(f["latex"]), text(f["message"]),
             cell_code(f["expected"]) if f.get("expected") else ""] for f in findings]
    out += _table(["Line", "Status", "Rule", "Fragment", "Message", "Expected"], rows) + [""]
    return "\n".join(out)


# --------------------------------------------------------------------------- conventions


def conventions_page(report: dict, root: Path = REPO_ROOT) -> str:
    from symtf.latex.printer import latex, latex_shape
    from symtf.model import Convention, Variant, build

    column = build(Variant())
    row = {a.key: a for a in build(Variant(convention=Convention.ROW)).activations}
    gpt2 = {a.key: a.hook for a in build("gpt2").activations}
    out = ["# Conventions", "",
           "The post writes every token as a **column**: $x$ is $d_\\text{model} \\times n$ and a weight "
           "acts on the left ($q = W_Q x$). PyTorch, TransformerLens and most papers put one token per "
           "**row** ($X$ is $n \\times d_\\text{model}$, $Q = X W_Q$). symtf builds both from one model; "
           "the row form is the transpose, except the score and pattern matrices, whose row $i$ is "
           "query $i$ in both. The table below is generated from `symtf.model` (full one-layer model).", "",
           ]
    rows = []
    for a in column.activations:
        r = row.get(a.key)
        hook = a.hook or gpt2.get(a.key)
        rows.append([text(a.name), inline_math(latex(a.symbol)), inline_math(latex_shape(a.shape)),
                     inline_math(latex(r.symbol)) if r else "–", inline_math(latex_shape(r.shape)) if r else "–",
                     code(hook) if hook else "–"])
    out += _table(["Activation", "Column (post)", "Shape", "Row", "Shape", "TransformerLens hook"], rows) + [""]
    extra = [k for k in gpt2 if k not in {a.key for a in column.activations}]
    if extra:
        out += ["GPT-2 adds " + ", ".join(f"{code(k)} ({code(gpt2[k])})" if gpt2[k] else code(k) for k in extra)
                + " (symtf's `gpt2` variant).", ""]
    out += ["## What the post's simplified model leaves out of GPT-2", ""]
    if (root / "docs" / "gpt2-differences.md").is_file():
        out += ["The post's tables leave out GPT-2's attention biases, the final LayerNorm, the LayerNorm "
                "epsilon, the tanh GELU and the tied unembedding, among others; "
                "[GPT-2 differences](gpt2-differences.md) lists each one and the `gpt2` variant that has it.", ""]
    else:
        out += ["The `gpt2` variant (`symtf.model.build(\"gpt2\")`) adds attention biases, the final "
                "LayerNorm, the LayerNorm epsilon, the tanh GELU and the tied unembedding.", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------- derivations, figures


def percent_cells(source: str) -> list[tuple[str, str]]:
    """A jupytext percent script as ``[(kind, text)]``: kind ``markdown`` (comment marks stripped) or ``code``."""
    cells: list[tuple[str, list[str]]] = []
    lines = source.splitlines()
    if lines and lines[0].strip() == "# ---":  # the jupytext header
        end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "# ---"), 0)
        lines = lines[end + 1:]
    for line in lines:
        if line.startswith("# %%"):
            cells.append(("markdown" if "[markdown]" in line else "code", []))
        elif cells:
            kind, body = cells[-1]
            body.append((line[2:] if line.startswith("# ") else line.lstrip("#")) if kind == "markdown" else line)
    return [(kind, "\n".join(body).strip("\n")) for kind, body in cells if "\n".join(body).strip()]


def _script_title(path: Path) -> str:
    for kind, body in percent_cells(path.read_text(encoding="utf-8", errors="replace")):
        m = re.match(r"#+\s*(.+)", body) if kind == "markdown" else None
        if m:
            return m.group(1).strip()
    return path.stem


def derivations_page(report: dict, root: Path = REPO_ROOT) -> str:
    scripts = sorted((root / "derivations").glob("*.py")) if (root / "derivations").is_dir() else []
    out = ["# Derivations", "",
           "One [jupytext](https://jupytext.readthedocs.io/) percent script per section of the post, in "
           "`derivations/`: a Markdown cell with the math above the code that derives it. Each runs on "
           "its own (`python derivations/NAME.py`) and prints its steps as LaTeX; the tests run them all.", ""]
    if not scripts:
        return "\n".join(out + ["No derivation scripts are in this checkout yet.", ""])
    out += _table(["Script", "Section"], [[code(f"derivations/{p.name}"), f"[{text(_script_title(p))}](#{_anchor(p.stem)})"]
                                          for p in scripts]) + [""]
    for p in scripts:
        out += [f"## derivations/{p.name} {{#{_anchor(p.stem)}}}", ""]
        for kind, body in percent_cells(p.read_text(encoding="utf-8", errors="replace")):
            if kind == "markdown":  # the script's own headings sit one level below the page's
                out += [re.sub(r"^(#+)", r"##\1", line) for line in body.splitlines()] + [""]
            else:
                out += ["```python", body, "```", ""]
    return "\n".join(out)


def figure_files(root: Path = REPO_ROOT) -> list[Path]:
    folder = root / "docs" / "figures"
    if not folder.is_dir():
        return []
    svg = sorted(folder.glob("*.svg"))
    return svg or sorted(folder.glob("*.png"))


def figures_page(report: dict, root: Path = REPO_ROOT) -> str:
    out = ["# Figures", "", "Drawn from the model by `symtf figures --out docs/figures` (PNG and SVG).", ""]
    files = figure_files(root)
    if not files:
        return "\n".join(out + ["No figures in `docs/figures` yet.", ""])
    for p in files:
        title = p.stem.replace("-", " ").capitalize()
        out += [f"## {text(title)}", "", f"![{text(title)}](figures/{p.name})", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------- CLI reference


def cli_page(report: dict) -> str:
    import argparse

    from symtf.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal: fix it for a stable page
    try:
        parser = build_parser()
        out = ["# CLI reference", "", "Generated from the `symtf` argument parser.", "",
               "```text", parser.format_help().rstrip(), "```", ""]
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for name, child in sub.choices.items():
            out += [f"## symtf {name}", "", "```text", child.format_help().rstrip(), "```", ""]
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    out += ["Exit codes: 0 all good, 1 a finding (a mismatch, a refuted claim), 2 bad usage or unreadable input.", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------- all pages

_BUILDERS = {
    "tables.md": tables_page,
    "claims.md": claims_page,
    "check.md": check_page,
    "conventions.md": conventions_page,
    "derivations.md": derivations_page,
    "figures.md": figures_page,
    "cli.md": cli_page,
}


def generate_pages(report: dict) -> dict[str, str]:
    """``{file name: Markdown}`` for every generated page, in navigation order."""
    return {name: _BUILDERS[name](report) for name in GENERATED}


def write_pages(report: dict, out_dir: str | os.PathLike) -> list[Path]:
    """Write the generated pages, ``report.json`` and the figures they show into ``out_dir``."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        from symtf.errors import InputError

        raise InputError(f"--out {out_dir}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, page in generate_pages(report).items():
        written.append(write_atomic(out / name, page))
    written.append(write_atomic(out / "report.json", json.dumps(report, indent=2, ensure_ascii=False)))
    figures = figure_files()
    if figures:
        (out / "figures").mkdir(exist_ok=True)
        for p in figures:
            written.append(write_atomic(out / "figures" / p.name, p.read_bytes()))
    return written
