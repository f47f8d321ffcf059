"""Mutation harness: break correct equations of the post and check that symtf check notices.

Each mutation is applied to every correct fragment it changes (first occurrence), and the
mutant is checked in the fragment's own place (same section, table row and neighbours).
A mutant is *detected* if some finding is a mismatch; it must never be verified (every
finding verified). Equivalent mutants are avoided by construction (e.g. a causal sum's
bound i → n is a true identity, so bounds move to n − 1 / H − 1 / start at 2).
"""
import re
from dataclasses import replace

import pytest

from symtf.check.checker import DocumentChecker
from symtf.check.figures import check_figures

_QK = ("W_Q", "W_K")


def _swap_qk(s):
    return s.replace("W_Q", "\0").replace("W_K", "W_Q").replace("\0", "W_K")


def _sub_first(pattern, repl):
    return lambda s: re.sub(pattern, repl, s, count=1)


def _perturb_decimal(s):
    m = re.search(r"\d\.(\d)(\d+)", s)
    if not m:
        return s
    digit = (int(m.group(1)) + 1) % 10
    return s[:m.start(1)] + str(digit) + s[m.end(1):]


MUTATIONS = {
    "swap W_Q/W_K": _swap_qk,
    "drop sqrt(d_head)": _sub_first(r"\s*/\s*\\sqrt\{d_\\text\{head\}\}", ""),
    "misplace sqrt(d_head)": _sub_first(r"\\sqrt\{d_\\text\{head\}\}", r"\\sqrt{d_\\text{model}}"),
    "drop a transpose": _sub_first(r"\^\\top", ""),
    "layer 0 -> 1": _sub_first(r"\^\{\(0\)\}", "^{(1)}"),
    "layer 1 -> 2": _sub_first(r"\^\{\(1\)\}", "^{(2)}"),
    "index n -> n-1": _sub_first(r"_n(?![a-zA-Z{])", "_{n-1}"),
    "index n+1 -> n+2": _sub_first(r"_\{n\+1\}", "_{n+2}"),
    "index i -> i+1": _sub_first(r"_i(?![a-zA-Z{])", "_{i+1}"),
    "softmax* -> softmax": _sub_first(r"\\text\{softmax\}\^\*", r"\\text{softmax}"),
    "sum upper bound -1": _sub_first(r"(\\sum_\{\w=1\}\^)\{?([nH])\}?", r"\1{\2-1}"),
    "sum starts at 2": _sub_first(r"\\sum_\{(\w)=1\}", r"\\sum_{\1=2}"),
    "shape d_head <-> d_model": lambda s: s.replace("d_\\text{head}", "\0").replace(
        "d_\\text{model}", "d_\\text{head}").replace("\0", "d_\\text{model}"),
    "shape n -> n_ctx": _sub_first(r"\\times n(?![_a-zA-Z])", r"\\times n_\\text{ctx}"),
    "perturb a number": _perturb_decimal,
    "perturb a size": _sub_first(r"= 768\b", "= 769"),
}


@pytest.fixture(scope="module")
def post(post_path):
    doc = DocumentChecker(post_path.read_text(encoding="utf-8"))
    findings = doc.run()
    by_fragment = {}
    for f in findings:
        by_fragment.setdefault(f.fragment, []).append(f)
    correct = [i for i, fs in by_fragment.items() if i >= 0 and all(f.status == "verified" for f in fs)
               and any(f.rule != "notation" and ("=" in f.latex or "\\approx" in f.latex or f.rule == "shape"
                                                 and "\\times" in f.latex) for f in fs)]
    return doc, correct


def mutants(doc, correct):
    for i in correct:
        source = doc.frags[i].latex
        for name, mutate in MUTATIONS.items():
            mutated = mutate(source)
            if mutated != source:
                yield name, i, mutated


def test_mutation_detection_rate(post):
    doc, correct = post
    total, detected, verified, missed = 0, 0, [], []
    for name, i, mutated in mutants(doc, correct):
        findings = doc.recheck(i, mutated)
        total += 1
        if any(f.status == "mismatch" for f in findings):
            detected += 1
        else:
            missed.append((name, doc.frags[i].line, mutated, [(f.status, f.message) for f in findings]))
        if findings and all(f.status == "verified" for f in findings):
            verified.append((name, doc.frags[i].line, mutated))
    # perturb the key-figure table's numbers too
    for table in doc.tables:
        if not table.header or "GPT" not in " ".join(table.header):
            continue
        for r, (line, cells) in enumerate(table.rows):
            for c in range(1, len(cells)):
                if "DeepSeek" in table.header[c] or cells[c] in ("5025", "2048") and "XL" in table.header[c] + cells[c]:
                    continue
                last = r"(\d)" if re.search(r"[MBK]$", cells[c]) else r"(\d)(?=\D*$)"  # totals: the leading digit
                bumped = re.sub(last, lambda m: str((int(m.group(1)) + 1) % 10), cells[c], count=1)
                rows = list(table.rows)
                rows[r] = (line, cells[:c] + [bumped] + cells[c + 1:])
                before = {(f.line, f.latex) for f in check_figures(table) if f.status == "mismatch"}
                after = [f for f in check_figures(replace(table, rows=rows))
                         if f.status == "mismatch" and (f.line, f.latex) not in before]
                total += 1
                detected += bool(after)
                if not after:
                    missed.append(("figure", line, bumped, []))
    rate = detected / total
    print(f"\nmutation detection: {detected}/{total} = {rate:.1%}")
    for m in missed:
        print("  undetected:", m)
    assert total >= 60
    assert not verified, verified
    assert rate >= 0.99  # the target (measured 201/202)
