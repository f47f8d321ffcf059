"""The later held-out sets (tests/heldout2 to tests/heldout55; see each SOURCES.md): real documents by other authors
whose expectations were written and committed before the checker was ever run on them. Each of heldout2 to heldout8
was measured once unseen (its first run, recorded in its SOURCES.md) and then used for fixes: heldout7 and heldout8 in
the same session that built them, heldout2 to heldout6 in theirs or the next, so no figure of theirs after the first
run is a held-out measure (their assertions stay). tests/heldout9 was the unseen measure at the end of the session
that built it (its first run found a false "verified", which was then fixed), so it too is used now; a new unseen
measure needs a new set. tests/heldout10 was measured once on that session's final checker and then used too.
tests/heldout11 and tests/heldout12 were each measured once unseen in the session that built them and then used;
tests/heldout13 was that session's unseen measure of its final checker, and was used in the next, which measured
tests/heldout14 and tests/heldout15 each once unseen and then used them too; tests/heldout16, tests/heldout17 and
tests/heldout18 were built in the session after: heldout16 was measured once unseen at its start and heldout17 once
midway, each then used; heldout18 was measured once, on that session's final checker (its unseen measure).
tests/heldout19 and tests/heldout20 (built in the session after) had their expectations committed before any
checker run; heldout19 holds row-convention blog posts only (no column-convention post with a licence file was
found), so it is not in the both-conventions test. tests/heldout21 (blog posts and tutorials) and tests/heldout22
(course notes, book chapters and course notebooks), built side by side in the session after, also had their
expectations committed before any checker run, each with at least three documents in each convention.
tests/heldout23 (study and course notes, a deliberate search for column-convention documents) likewise had its
expectations committed before any checker run, with four documents in each convention.
tests/heldout24 (notes, tutorials and book chapters, a deliberate search for column-convention documents) likewise had
its expectations committed before any checker run, with five row and three column documents.
tests/heldout25 (notes, blog posts, framework documentation and book chapters, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, with three row and three column documents.
tests/heldout26 (book chapters, a blog post and course slides) likewise had its expectations committed before any checker
run, but holds only four documents from three repositories (three row, one column), short of the eight-document target:
it is asserted as the others are except for its size (``SHORT``), and kept for a later session to extend.
tests/heldout27 (course chapters, study notes and paper-reading notes, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, with nine documents from five repositories
(five row, three column, one mixed).
tests/heldout28 (blog posts, interview notes, book chapters and study notes) likewise had its expectations committed
before any checker run, with nine documents from five repositories (four row, two column, one mixed, two with no
matrix-vector convention), so it is not in the both-conventions test.
tests/heldout29 (tutorial chapters and a study note, a deliberate search for column-convention documents) likewise
had its expectations committed before any checker run, but holds only three documents from two repositories (one row,
two column), short of the eight-document target: it is asserted as the others are except for its size (``SHORT``),
like heldout26.
tests/heldout30 (course lecture notes, course long reads and blog posts, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, with nine documents from five repositories
(four row, three column, two mixed).
tests/heldout31 (course notes, study notes and a knowledge-base chapter, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, but holds only four documents from three
repositories (one row, two column, one none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout32 (course notebooks, tutorials and paper-reading notes, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, but holds only seven documents from five
repositories (three row, two column, two none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout33 (framework and kernel documentation, tutorial chapters and project notes, a deliberate search for
column-convention documents) likewise had its expectations committed before any checker run, with nine documents from
seven repositories but only one in the column convention (seven row, one column, one none), so it is not in the
both-conventions test.
tests/heldout34 (project documentation, a kernel note and a saved model write-up, a deliberate search for
column-convention documents) likewise had its expectations committed before any checker run, but holds only five
documents from four repositories (two row, one column, two none), so it is ``SHORT`` like heldout26 and not in the
both-conventions test.
tests/heldout35 (knowledge-base chapters, library documentation, study notes and a notebook, a deliberate search for
column-convention documents) likewise had its expectations committed before any checker run, with nine documents from
five repositories (five row, three column, one mixed).
tests/heldout36 (course notes, a study-guide chapter and blog posts, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, but holds only four documents from three
repositories (three row, one column), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout37 (a tutorial notebook, blog posts and Chinese study and interview notes, a deliberate search for
column-convention documents) likewise had its expectations committed before any checker run, with eight documents from six
repositories but none in the column convention (seven row, one mixed), so it is not in the both-conventions test.
tests/heldout38 (university lecture slides and lecture notebooks, a deliberate search for column-convention documents)
likewise had its expectations committed before any checker run, but holds only four documents from two repositories
(one row, two column, one mixed), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout39 (a book chapter notebook, paper-reading notes and a survey note, a deliberate search for column-convention
documents) likewise had its expectations committed before any checker run, but holds only five documents from three
repositories (three row, one column, one mixed), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout40 (university lecture notes and study notes, a deliberate search for column-convention documents)
likewise had its expectations committed before any checker run, but holds only three documents from two repositories
(two column, one none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout41 (a company research blog's two posts on DeepSeek's multi-head latent attention and two LMU Munich
seminar books' chapters, a deliberate search for column-convention documents) likewise had its expectations committed
before any checker run, but holds only five documents from three repositories (four column, one mixed), so it is
``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout42 (library documentation on the mathematics of LLM reinforcement-learning losses and off-policy
correction, a pipeline-parallelism tutorial chapter and a ring sliding-window-attention note) likewise had its
expectations committed before any checker run, with eight documents from seven repositories but none written in a
matrix-vector convention (eight none), so it is not in the both-conventions test.
tests/heldout43 (a FlashAttention notebook, two transformer-from-scratch notebooks, a study notebook and two chapters of
RNN and seq2seq-attention study notes, found among repositories that earlier searches fetched but never recorded) likewise
had its expectations committed before any checker run, but holds only six documents from four repositories (two row, one
column, one mixed, two none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout44 (two Chinese study notes on self-attention and FlashAttention and two chapters of Chinese interview notes
on attention and model architectures, a deliberate search for column-convention documents) likewise had its expectations
committed before any checker run, but holds only four documents from three repositories (two row, one column, one
mixed), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout45 (two chapters of a personal handbook's Seq2Seq-attention notes in column vectors and a Jupyter Book
chapter on the Transformer, a deliberate search for column-convention documents) likewise had its expectations committed
before any checker run, but holds only three documents from two repositories (one row, two column), so it is ``SHORT``
like heldout26 and not in the both-conventions test.
tests/heldout46 (a student-written course-handbook chapter on the formulation of the transformer and an economist's
lecture notes on transformers in column vectors, both kept byte-identical under a .md name) likewise had its expectations
committed before any checker run, but holds only two documents from two repositories (one column, one mixed), so it is
``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout47 (LaTeX sources, read as .tex: two parts of a practitioner's notes on Transformer architecture and
inference in index notation, a book chapter on Transformers as Bayesian networks in column vectors, and two Chinese
machine-translation textbook chapters on the Transformer and its structural improvements, plus a Chinese course handout,
found through LaTeX file paths) likewise had its expectations committed before any checker run, but holds only six
documents from four repositories (five row, one column), so it is ``SHORT`` like heldout26 and not in the
both-conventions test.
tests/heldout48 (LaTeX sources, read as .tex: a course summary's chapter on deep learning for NLP with attention,
transformers, BPE and positional encodings, an open textbook's chapter on transformer architectures and LLMs in the
row-processing view, and a reader's notes on an LLM survey with RoPE, positional biases and LoRA in column vectors)
likewise had its expectations committed before any checker run, but holds only three documents from three repositories
(one row, one column, one mixed), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout49 (Jupyter notebooks found through notebook file paths: two Hungarian teaching notebooks on attention
variants (MHA, MQA, GQA, MLA with KV-cache sizes) and on context-length extension (RoPE, position interpolation, YaRN),
and an English Jupyter Book chapter on attention and Transformers in the row convention) likewise had its expectations
committed before any checker run, but holds only three documents from two repositories (one row, one mixed, one
none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout50 (Markdown lecture slides of a university deep-learning course, found through course repositories: a
lecture on seq2seq, attention, subwords and the Transformer in the row convention, and a lecture on RoBERTa, large
language models with rotary position embeddings in column vectors, ViT and reinforcement learning) likewise had its
expectations committed before any checker run, but holds only two documents from one repository (one row, one
column), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout51 (course participants' Markdown answers to Stanford CS336's resource-accounting problems, found
through the course's assignment repositories, each under the starter repository's MIT licence: Transformer LM parameter,
FLOP and AdamW-memory accounting at GPT-2 sizes, FSDP/tensor-parallel communication accounting and a DDP bucketing
model; plus a Chinese tutorial on LLM inference limits with Qwen1.5 parameter, KV-cache and latency tables) likewise had
its expectations committed before any checker run, with eight documents from seven repositories but none in the column
convention (two row, two mixed, four none), so it is not in the both-conventions test.
tests/heldout52 (course participants' Markdown answers to Stanford CS336's accounting problems and a systems
write-up, each under the starter repository's MIT licence, and a CS224N student's MIT-licensed study notes on RNNs,
self-attention and the Transformer with his answers to the attention-exploration question) likewise had its
expectations committed before any checker run, but holds only six documents from five repositories (two row, one
column, two mixed, one none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout54 (course lecture notes under CC BY 4.0 from a Korean instructor's NLP course books, the Transformer
introduction and a long-context/efficient-attention week, an MIT-licensed open course notebook on attention and the
Transformer, and the Transformer chapters of a deep-learning and a generative-AI course's LaTeX notes) likewise had
its expectations committed before any checker run, but holds only five documents from four repositories (two row,
one mixed, two none), so it is ``SHORT`` like heldout26 and not in the both-conventions test.
tests/heldout55 (one course participant's Markdown answers to Stanford CS336 assignment 1, under the starter
repository's MIT licence: GPT-2 parameter and forward-FLOP tables, AdamW memory and training time) likewise had its
expectations committed before any checker run, but holds only one document from one repository (no convention), as
the search for licensed, unused student write-ups ran out of time, so it is ``SHORT``.

Asserted, and nothing more: the expectations are well-formed (every listed fragment is on its line, sources,
commits and licences recorded, no document, slug or repository shared with an earlier set; heldout4 to heldout18
also hold documents in both conventions), and no listed mistake's own claim is verified (a false "verified"
is the worst bug). A mistake stated in words (``kind: prose``, e.g.
heldout2's bentrevett line 385, "scaled by $d_k$") has no LaTeX claim of its own; a correct display
next to it (bentrevett line 383, the right formula two lines above) is not that mistake's claim. The figures (false
mismatches per 500 fragments, mistakes found, decided share) are printed by
``python benchmarks/corpus.py --dir tests/heldout8``; the first run's figures are in each set's SOURCES.md.
"""
import re
from collections import Counter

import pytest

from tests._corpus_util import KINDS, TESTS, corpus, findings, listed_line, repo_of, spec_of

# each set, and the sets it must not share a document, slug or repository with
LAST = 55  # heldout2 … heldout55
# sets built side by side: heldout19 was kept apart from heldout20 (merged first) and heldout21 from heldout22, while
# heldout20 was built before heldout19 was merged
ALSO = {"heldout19": ("heldout20",), "heldout21": ("heldout22",)}
NOT_YET = {"heldout20": ("heldout19",)}


def _excluded(k: int) -> tuple:
    """The sets none of whose documents ``heldout{k}`` may hold: every set measured before it, as its helper saw them."""
    name = f"heldout{k}"
    earlier = ("corpus", "heldout") + tuple(f"heldout{i}" for i in range(2, k))
    return tuple(s for s in earlier if s not in NOT_YET.get(name, ())) + ALSO.get(name, ())


SETS = {f"heldout{k}": _excluded(k) for k in range(2, LAST + 1)}
# sets short of eight documents from five repositories: (documents, repositories)
SHORT = {"heldout26": (4, 3), "heldout29": (3, 2), "heldout31": (4, 3), "heldout32": (7, 5), "heldout34": (5, 4),
         "heldout36": (4, 3), "heldout38": (4, 2),
         "heldout39": (5, 3), "heldout40": (3, 2), "heldout41": (5, 3),
         "heldout43": (6, 4), "heldout44": (4, 3), "heldout45": (3, 2),
         "heldout46": (2, 2), "heldout47": (6, 4), "heldout48": (3, 3),
         "heldout49": (3, 2), "heldout50": (2, 1), "heldout52": (6, 5), "heldout53": (4, 4),
         "heldout54": (5, 4), "heldout55": (1, 1)}
SPECS = [(name, path) for name in SETS for path in sorted((TESTS / name).glob("*.yaml"))]
IDS = [f"{name}-{path.stem}" for name, path in SPECS]


def _repos(folder: str) -> set:
    return {repo_of(spec_of(p)["source"]) for p in (TESTS / folder).glob("*.yaml")}


@pytest.mark.parametrize("name", SETS)
def test_eight_documents_from_several_repositories_none_seen_before(name):
    folder = TESTS / name
    specs = sorted(folder.glob("*.yaml"))
    least_documents, least_repos = SHORT.get(name, (8, 3 if name == "heldout2" else 5))
    assert len(specs) >= least_documents
    sources = (folder / "SOURCES.md").read_text(encoding="utf-8")
    repos = Counter()
    for path in specs:
        data = spec_of(path)
        assert (folder / data["file"]).is_file() and data["licence"] and re.fullmatch(r"[0-9a-f]{40}", data["commit"])
        assert path.stem in sources and data["convention"] in ("row", "column", "mixed", "none")
        assert data["commit"] in data["source"]
        repos[repo_of(data["source"])] += 1
    assert len(repos) >= least_repos and max(repos.values()) <= 2, repos
    earlier = SETS[name]
    assert not {p.stem for p in specs} & {p.stem for d in earlier for p in (TESTS / d).glob("*.yaml")}
    assert not set(repos) & set().union(*(_repos(d) for d in earlier)), set(repos)
    assert len(list((folder / "LICENSES").iterdir())) >= len(repos)


@pytest.mark.parametrize("name", ["heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10",
                                  "heldout11", "heldout12", "heldout13", "heldout14", "heldout15",
                                  "heldout16", "heldout17", "heldout18", "heldout20", "heldout21", "heldout22",
                                  "heldout23", "heldout24", "heldout25", "heldout27", "heldout30", "heldout35"])
def test_documents_in_both_conventions(name):
    """heldout3 had no column-convention document; heldout4 to heldout18 each hold at least three written mainly in
    each convention."""
    conventions = Counter(spec_of(p)["convention"] for p in (TESTS / name).glob("*.yaml"))
    assert conventions["column"] >= 3 and conventions["row"] >= 3, conventions


@pytest.mark.parametrize("name,path", SPECS, ids=IDS)
def test_every_listed_fragment_is_on_its_line(name, path):
    data = spec_of(path)
    for m in data["mistakes"] or []:
        assert m["fragment"] in listed_line(path.parent / data["file"], m["line"]), m
        assert m["kind"] in KINDS and m["why"] and m["confidence"] in ("high", "medium"), m


@pytest.mark.parametrize("name,path", SPECS, ids=IDS)
def test_no_listed_mistake_is_verified(name, path):
    data, found = findings(path)
    # a notation mistake (heldout53 m2l 418: d_k = d_model/h true there, d_k the full width two cells before) is one
    # symbol with two meanings, not a false relation: the relation itself may hold
    verified = [(m["line"], f.line, f.latex) for m in data["mistakes"] or []
                if m["kind"] not in ("prose", "notation") and m.get("format") != "prose"
                for f in found if f.status == "verified" and corpus.at_mistake(f, m) and corpus.own_claim(f, m)
                and not _true_part(f, m, found)]
    assert not verified


def _true_part(finding, mistake, found) -> bool:
    """A finding that checks one part of a listed sentence by arithmetic or a published figure (heldout6
    mseyfi-mqa-gqa 175: "Llama 2 7B uses $H=32$ Query heads and $G=4$ KV heads", where H = 32 is Llama 2 7B's
    published head count and the mistake is G = 4), or one link of a listed chain whose wrong link is reported
    (heldout13 fun-transformer encoder 143, ``d_k=d_v=d_{model}/4=64``: d_k = d_v holds, d_v = d_model/4 is the
    mismatch): a true statement beside the mistake, as tests/test_check_corpus.py allows for arithmetic, not the
    mistake's own claim. So is a link of printed arithmetic that holds (``80,411,200 + 163,027,353,600 =
    163,107,764,800`` where the listed mistake is the formula that led to the sum)."""
    if finding.basis == "arithmetic" and finding.message.startswith("arithmetic holds"):
        return True  # the sum as printed holds, as tests/test_check_corpus.py allows (heldout52 francis2002 116)
    key = corpus.math_key(mistake["fragment"]).replace(" ", "")
    reported = any(f.status == "mismatch" and corpus.at_mistake(f, mistake) for f in found)  # the mistake found
    return finding.basis in ("arithmetic", "published") and len(finding.latex.replace(" ", "")) < len(key) and \
        ("$" in mistake["fragment"] or reported)
