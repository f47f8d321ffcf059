"""A mask the prose names, multiplied into the scores inside a softmax (symtf.check.masks): tests/heldout4/
songlin-deltanet-model.md 48, ``\\mathrm{softmax}(\\mathbf{Q}\\mathbf{K}^\\top \\odot \\mathbf{M})\\mathbf{V}``."""
from symtf.check.checker import check_text

MASK = "Here $\\mathbf{M} \\in \\mathbb{R}^{L \\times L}$ is the causal mask.\n\n"


def _mismatches(text: str) -> list:
    return [f.diagnosis for f in check_text(text) if f.status == "mismatch"]


def test_a_mask_multiplied_inside_the_softmax_is_a_mismatch_in_a_claim_and_alone():
    assert _mismatches(MASK + "$$O = \\mathrm{softmax}(QK^\\top \\odot M)V$$\n") == \
        ["a mask multiplied inside the softmax, not added"]
    assert _mismatches(MASK + "$$\\mathrm{softmax}(QK^\\top \\odot M)V$$\n") == \
        ["a mask multiplied inside the softmax, not added"]


def test_a_mask_after_the_exponential_or_outside_a_softmax_or_a_letter_not_called_a_mask_is_not_judged_here():
    assert not _mismatches(MASK + "$$O = (QK^\\top \\odot M)V$$\n")  # linear attention: no softmax
    assert not _mismatches(MASK + "$$O = \\mathrm{softmax}(QK^\\top + M)V$$\n")
    assert not _mismatches("Here $G$ is a gate.\n\n$$O = \\mathrm{softmax}(QK^\\top \\odot G)V$$\n")


# tests/heldout30/nebius-advanced-transformer-architectures.md 163-170: the mask is named in words only ("the 0-1
# matrix called attention mask"), its product written ⊗ and said to be elementwise, the mask first in the product
NAMELESS = ("This is done by elementwise multiplication with the 0-1 matrix called the attention mask.\n\n"
            "Here, $\\otimes$ stands for the elementwise product. The final formula:\n\n")


def test_an_unnamed_mask_written_first_with_a_declared_entrywise_otimes_is_a_mismatch():
    assert _mismatches(NAMELESS + "$$o = \\mathrm{softmax}\\left(\\frac{M\\otimes QK^T}{\\sqrt{d}}\\right)V$$\n") == \
        ["a mask multiplied inside the softmax, not added"]
    assert _mismatches(NAMELESS + "$$o = \\mathrm{softmax}(M \\odot QK^T)V$$\n") == \
        ["a mask multiplied inside the softmax, not added"]


def test_an_otimes_not_declared_entrywise_or_another_letter_named_the_mask_is_not_judged_here():
    plain = NAMELESS.replace("Here, $\\otimes$ stands for the elementwise product.", "Here $\\otimes$ is the "
                             "Kronecker product and $\\odot$ is elementwise.")
    assert not _mismatches(plain + "$$o = \\mathrm{softmax}(M\\otimes QK^T)V$$\n")
    assert not _mismatches(MASK + "$$o = \\mathrm{softmax}(N \\odot QK^T)V$$\n")  # M is the mask here, not N
    assert not _mismatches("No masking here.\n\n$$o = \\mathrm{softmax}(M \\odot QK^T)V$$\n")


def test_scores_divided_by_a_mask_inside_the_softmax_are_a_mismatch():
    # tests/heldout34/agentcortex-gpt.md 74: \frac{Q K^\top}{\text{sliding\_window\_mask}} (Markdown's escaped _)
    text = ("$$\\text{Attention}(Q, K, V) = \\text{Softmax}(\\alpha \\cdot "
            "\\frac{Q K^\\top}{\\text{sliding\\_window\\_mask}}) V$$\n")
    assert _mismatches(text) == ["the scores divided by a mask inside the softmax"]
    assert _mismatches(MASK + "$$O = \\mathrm{softmax}(QK^\\top / M)V$$\n") == \
        ["the scores divided by a mask inside the softmax"]
    assert not _mismatches("$$O = \\mathrm{softmax}(QK^\\top / \\text{temperature})V$$\n")


def test_the_mask_is_the_name_that_says_so_not_a_letter_near_the_word_inside_math():
    # a scanned inference post: "$\mathbf{P} := \operatorname{softmax}(\mathbf{S} \circ \text{mask})$ ($\text{mask}$ is
    # broadcastable to $\mathbf{S}$)": the word mask inside math named S the mask; the mask is \text{mask}
    text = ("Let $P := \\operatorname{softmax}(S \\circ \\text{mask})$ ($\\text{mask}$ is broadcastable to $S$).\n")
    found = [f for f in check_text(text) if f.status == "mismatch"]
    assert len(found) == 1 and found[0].message.startswith("$\\text{mask}$ (a mask, as its name says)")


def test_a_mask_entry_claimed_under_an_index_condition_is_judged_where_the_condition_holds():
    # scan docs14 (CS 263 notes 72): "The mask sets $M_{ij} = - \infty \ \forall j > i$": the condition closes the
    # claim's own fragment (\forall, \text{if}) or follows it ("for $j > i$"); it holds above the diagonal in the row
    # reading, in every reading tried (the other convention's fallback lost the condition before). The wrong side
    # of the diagonal is still a mismatch
    # heldout49 particle1331 5791: "$M_{ij} = -\infty$ precisely when $j > i$" (an adverb before the condition's word)
    for said in ("$M_{ij} = - \\infty \\ \\forall j > i$", "$M_{ij} = - \\infty$ for $j > i$",
                 "$$M_{ij} = -\\infty \\quad \\text{if } j > i$$", "$M_{ij} = -\\infty$ precisely when $j > i$",
                 "$M_{ij} = -\\infty$ if and only if $j > i$"):
        found = [f for f in check_text(f"# Attention\n\nThe mask sets {said} so that it hides the future.\n")
                 if f.kind == "claim"]
        assert [f.status for f in found] == ["verified"] and "stated condition" in found[0].message, said
    wrong = "# Attention\n\nThe mask sets $M_{ij} = - \\infty \\ \\forall j < i$ so that it hides the future.\n"
    assert [f.status for f in check_text(wrong) if f.kind == "claim"] == ["mismatch"]


def test_a_causal_mask_given_by_cases_that_blocks_the_past_is_a_mismatch():
    r"""tests/heldout47 garrett361-architecture 172-174 (after the set's first run): "The tensor m_{ss'} is the causal
    mask", m_{ss'} = 0 for s ≤ s' and −∞ for s > s': every position attends to itself and the future. The usual
    form (−∞ for j > i, kept for j ≤ i, "otherwise") is not one; nor is a mask the prose does not call causal."""
    flipped = ("The tensor $m_{ss'}$ is the causal mask:\n\n$$\nm_{ss'} = \\begin{cases} 0 & s \\le s' \\\\\n"
               "-\\infty & s > s' \\end{cases}\n$$\n")
    row = lambda text: [f.diagnosis for f in check_text(text, convention="row") if f.status == "mismatch"]  # noqa: E731
    assert row(flipped) == ["the causal mask's comparison reversed"]
    assert not row(flipped.replace("s \\le s'", "s' \\le s").replace("s > s'", "s' > s"))
    assert not row("The causal mask:\n\n$$M_{ij} = \\begin{cases} 0 & \\text{if } i \\geq j \\\\ -\\infty & "
                   "\\text{otherwise} \\end{cases}$$\n")
    assert not row(flipped.replace("the causal mask", "a mask of our own"))
    assert not _mismatches(flipped.replace("The tensor", "Keys index the rows of the scores $K^\\top Q$; the tensor"))


def test_a_relation_the_sentence_opens_as_its_case_is_a_condition():
    # heldout49 particle1331 9440: "the wavelength is $10{,}000 \cdot 2\pi$ for $2j = d_\text{model}$": j's case
    text = "# Encoding\n\nThe wavelengths run from $2\\pi$ to $10{,}000 \\cdot 2\\pi$ for $2j = d_\\text{model}$.\n"
    (found,) = [f for f in check_text(text) if f.latex == "2j = d_\\text{model}"]
    assert (found.status, found.kind) == ("recognized", "mention") and "condition" in found.message
    claim = "# Encoding\n\nSo $2j = d_\\text{model}$ holds here.\n"  # no "for": still a claim, judged
    (found,) = [f for f in check_text(claim) if f.latex == "2j = d_\\text{model}"]
    assert found.kind == "claim"


def test_an_order_the_sentence_opens_as_its_case_is_a_condition():
    # heldout50 ufal-npfl138-llms-rl 874: "Assume … $γ=1$" (the proof's case), 58 lines later "also for infinite
    # episodes when discount factor $γ<1$": another case, not a claim against γ = 1
    filler = "".join(f"Step {k} of the proof.\n\n" for k in range(12))
    head = "# Proof\n\nAssume that $\\gamma=1$.\n\n" + filler
    (found,) = [f for f in check_text(head + "It also holds when discount factor $\\gamma<1$.\n") if f.latex == "\\gamma<1"]
    assert found.status == "unchecked" and "condition, not a fact" in found.message
    (found,) = [f for f in check_text(head + "So $\\gamma<1$ holds.\n") if f.latex == "\\gamma<1"]
    assert found.status == "mismatch"  # said as a fact: judged against γ = 1
