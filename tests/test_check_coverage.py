r"""The checker reads the constructs real documents use (tests/corpus), and reading them decides nothing rashly.

Each test takes fragments as the corpus documents write them (the document and line are named) and asserts
(a) what the reading grammar makes of them (symtf.check.macros → normalize → parse), and (b) where the new
reading could be judged, that it is not a false mismatch or a false "verified": an opaque ∂-name, a norm, a
piecewise value, a set, a slice or a relation the checker does not judge (∈, ≪, →) is parsed and left unchecked.
"""
from pathlib import Path

import pytest

from symtf.check.checker import check_text
from symtf.check.macros import SEPARATOR, document_macros, simplify
from symtf.check.normalize import statements
from symtf.check.parse import ParseError, parse
from symtf.check.unparse import unparse

CORPUS = Path(__file__).parent / "corpus"


def read(latex: str, macros: dict | None = None) -> list:
    """Every statement of a fragment as the checker reads it: (text, parsed chain)."""
    out = []
    for piece in simplify(latex, macros).split(SEPARATOR):
        if piece.strip():
            out += [(st.text, parse(st.text)) for st in statements(piece)]
    return out


def only(latex: str, macros: dict | None = None):
    """The one statement's chain of a fragment."""
    got = read(latex, macros)
    assert len(got) == 1, got
    return got[0][1]


def findings_at(doc: str, line: int) -> list:
    return [f for f in check_text(doc) if f.line == line]


def statuses(doc: str) -> set:
    return {f.status for f in check_text(doc)}


def corpus_line(name: str, line: int) -> str:
    return (CORPUS / name).read_text(encoding="utf-8").splitlines()[line - 1]


# ---------------------------------------------------------------- fonts without braces, document macros
def test_bold_without_braces_is_the_letter():
    # iclr24-understanding-icl.md lines 193-240 define \mba ... \mbZ as \boldsymbol a ... ; line 656 uses \mbW^K
    macros = document_macros(r"\def\mbW{\boldsymbol W}\def\mbx{\boldsymbol x}\newcommand{\mbq}{\mathbf q}")
    assert only(r"\mbW^K = \mbW^Q", macros) == ("chain", [("sym", "W", None, "K"), ("sym", "W", None, "Q")], ["="])
    assert only(r"{\mbx}_j", macros)[1][0] == ("sym", "x", "j", None)
    assert only(r"\mbq_i", macros)[1][0] == ("sym", "q", "i", None)
    for written in (r"\bm x", r"\vec x", r"\mathbf x", r"\boldsymbol{x}"):
        assert only(written)[1][0] == ("sym", "x", None, None), written
    assert only(r"\bm\theta")[1][0] == ("sym", r"\theta", None, None)
    # a bold digit is the all-ones vector, never the number: left unread
    with pytest.raises(ParseError):
        read(r"\boldsymbol 1")


def test_an_entrywise_product_takes_the_juxtaposed_factors_after_it_as_one_operand():
    # M \odot QK^T is M ⊙ (QK^T), not (M ⊙ Q) K^T; the left operand ends at the operator as before
    assert only(r"M \odot QK^T")[1][0] == ("mul", ("sym", "M", None, None),
                                           ("mul", ("sym", "Q", None, None), ("T", ("sym", "K", None, None)), "*"), "⊙")
    assert only(r"QK^T \odot M")[1][0][1] == ("mul", ("sym", "Q", None, None), ("T", ("sym", "K", None, None)), "*")
    assert only(r"a \odot b c \cdot d")[1][0][3] == "·"  # the next written operator ends the operand


def test_an_otimes_the_document_says_is_entrywise_is_read_as_the_entrywise_product():
    for said in (r"Here, $\otimes$ stands for the elementwise product.", "其中 $\\otimes$ 是逐位对应相乘。",
                 r"where $\otimes$ denotes the Hadamard product"):
        assert only(r"a \otimes b", document_macros(said))[1][0] == ("mul", ("sym", "a", None, None),
                                                                     ("sym", "b", None, None), "⊙"), said
    for said in (r"$\odot$ is the elementwise product and $\otimes$ the Kronecker product.",
                 r"$\otimes$ is the outer product. Elementwise products are written $\odot$.", ""):
        assert only(r"a \otimes b", document_macros(said))[1][0][0] == "call", said


def test_bare_bold_membership_is_a_shape_claim():
    # d2l-attention-scoring-functions.md line 301
    doc = "Queries $\\mathbf Q\\in\\mathbb R^{n\\times d}$ and keys $\\mathbf K\\in\\mathbb R^{m\\times d}$.\n"
    found = check_text(doc)
    assert {f.rule for f in found if "in" in f.latex} == {"shape"}
    assert "unparsed" not in {f.status for f in found}


# ---------------------------------------------------------------- derivatives
def test_partial_fraction_is_one_opaque_name():
    # incml-transformer-gpt.md lines 166-167 (the chain rule, with \mathbf{z}_t)
    chain = only(r"\frac{\partial F}{\partial a_{it} } = \frac{\partial F}{\partial \mathbf{z}_t } "
                 r"\frac{\partial \mathbf{z}_t}{ \partial a_{it}}")
    left, right = chain[1]
    assert left == ("sym", r"\frac{\partial F}{\partial a_{it}}", None, None)
    assert right[0] == "mul" and right[1][1] == r"\frac{\partial F}{\partial z_t}" and \
        right[2][1] == r"\frac{\partial z_t}{\partial a_{it}}"
    assert unparse(chain).startswith(r"\frac{\partial F}{\partial a_{it}} = ")
    assert only(r"\frac{\partial^2 L}{\partial x_i \partial x_j}")[1][0][0] == "sym"
    # the slash form: ∂L/∂A is one name, and a chain of them is a product of names
    chain = only(r"\partial L/\partial A = \partial L/\partial B \cdot \partial B/\partial A")
    assert chain[1][0] == ("sym", r"\partial L/\partial A", None, None)
    assert chain[1][1] == ("mul", ("sym", r"\partial L/\partial B", None, None),
                           ("sym", r"\partial B/\partial A", None, None), "·")


@pytest.mark.parametrize("claim", [
    r"\frac{\partial L}{\partial A} = \frac{\partial L}{\partial B} \frac{\partial B}{\partial A}",
    r"\partial L/\partial A = \partial L/\partial B \cdot \partial B/\partial A",
    r"\frac{\partial L}{\partial Q} = \frac{\partial L}{\partial A} K",
    r"\frac{\partial L}{\partial W_Q} = X^\top \frac{\partial L}{\partial Q}",
])
def test_a_derivative_is_never_a_quotient_nor_a_reference_quantity(claim):
    # a chain rule would "verify" by cancelling ∂B if ∂-names were quotients; matrix chain rules need transposes
    doc = f"Let $Q = X W_Q$ and $A = Q K^\\top$.\n\n$$\n{claim}\n$$\n"
    at = [f for f in findings_at(doc, 4) if f.kind == "claim"]
    assert at and {f.status for f in at} == {"unchecked"}, [(f.status, f.message) for f in at]


# ---------------------------------------------------------------- norms, fractions, unicode
def test_norms_and_absolute_values_are_calls():
    # d2l-attention-scoring-functions.md line 57
    chain = only(r"a(\mathbf{q}, \mathbf{k}_i) = -\frac{1}{2} \|\mathbf{q} - \mathbf{k}_i\|^2  = \mathbf{q}^\top "
                 r"\mathbf{k}_i -\frac{1}{2} \|\mathbf{k}_i\|^2  -\frac{1}{2} \|\mathbf{q}\|^2")
    norms = [n for n in _walk(chain) if n[0] == "call" and n[1] == "norm"]
    assert len(norms) == 3
    assert only(r"\lVert x \rVert_2")[1][0] == ("idx", ("call", "norm", False, [("sym", "x", None, None)]), "2")
    assert only(r"\left\| x \right\|")[1][0] == ("call", "norm", False, [("sym", "x", None, None)])
    # omniverse-gpt-notations.md line 57, scalingbook-inference.md line 625
    assert only(r"|\mathcal{V}|")[1][0][:2] == ("call", "abs")
    assert only(r"\frac{T_{min} \cdot |X|}{2}")[1][0][1][2] == ("call", "abs", False, [("sym", "X", None, None)])
    doc = "$$\na(q, k_i) = -\\frac{1}{2} \\|q - k_i\\|^2 = q^\\top k_i -\\frac{1}{2} \\|k_i\\|^2 -\\frac{1}{2} \\|q\\|^2\n$$\n"
    assert not {"mismatch", "verified", "unparsed"} & statuses(doc)


def test_fraction_spellings_and_unicode():
    assert only(r"\tfrac{a}{b}") == only(r"\dfrac{a}{b}") == only(r"\frac{a}{b}")
    assert only(r"\frac 1 N x") == only(r"\frac{1}{N} x")  # iclr24-understanding-icl.md line 518
    # iclr25-positional-embedding.md line 98 (√), line 250 (−, θ)
    chain = only(r"\text{Attention}(Q, K) = \text{softmax}(QK^T/√d_{model})")
    assert ("sqrt", ("sym", "d", "model", None)) in list(_walk(chain))
    assert only(r"e^{i(n−m)θ}") == only(r"e^{i(n-m)\theta}")
    assert only("a · b × c") == only(r"a \cdot b \times c")


# ---------------------------------------------------------------- memberships, conditions, shapes
def test_a_chain_ending_in_a_shape_is_the_chain_and_a_shape_claim():
    got = read(r"A = \text{softmax}(QK^\top/\sqrt{d}) \in \mathbb{R}^{n \times n}")
    assert [text for text, _ in got] == [r"A = \text{softmax}(QK^\top/\sqrt{d})", r"A \in \mathbb{R}^{n \times n}"]
    doc = "$$\nA = \\text{softmax}(QK^\\top/\\sqrt{d}) \\in \\mathbb{R}^{n \\times n}\n$$\n"
    assert "shape" in {f.rule for f in findings_at(doc, 2)}


def test_a_tensor_chain_is_not_split_into_matrix_claims():
    # d2l-attention-scoring-functions.md line 251: Q is n × a × b, a batch of matrices, not the reference's Q
    with pytest.raises(ParseError, match="rank 3"):
        read(r"\mathbf{Q} = [\mathbf{Q}_1, \mathbf{Q}_2, \ldots, \mathbf{Q}_n]  \in \mathbb{R}^{n \times a \times b}")


def test_conditions_after_a_definition_are_statements_of_their_own():
    # iclr25-positional-embedding.md line 295 (a wide space), line 347 (\text{where}), incml-transformer-gpt.md 367
    got = read(r"\theta_t = 10000^{-t/(d/2)} \; \; \; \; \; t \in \{0,1, \cdots,d/2\}")
    assert [c[2] for _, c in got] == [["="], ["∈"]]
    assert got[1][1][1][1] == ("call", "set", False, [("num", 0.0, "0"), ("num", 1.0, "1"), ("dots",),
                                                      ("mul", ("sym", "d", None, None), ("num", 2.0, "2"), "/")])
    got = read(r"p_{i,2t} = \sin(i/10000^{2t/d}), t \in \{0, 1, \cdots, d/2\}")
    assert [c[2] for _, c in got] == [["="], ["∈"]]
    got = read(r"A^{(j)}, B^{(j)}, C^{(j)} \in \mathbb{R}^{128 \times 12288} (j=1,2, \dots, 96)")
    assert [text for text, _ in got] == [r"A^{(j)}, B^{(j)}, C^{(j)} \in \mathbb{R}^{128 \times 12288}",
                                         r"j=1,2, \dots, 96"]
    # two shape declarations on one line, separated by a comma (iclr25-positional-embedding.md line 139)
    got = read(r"W_O \in \mathbb{R}^{hd_k \times d_{model}} , W_i^Q \in \mathbb{R}^{d_{\text{model}} \times d_k}")
    assert len(got) == 2


@pytest.mark.parametrize("latex, rel", [
    (r"h \in \mathcal{H}", "∈"), (r"d \ll D", "≪"), (r"S \gg T", "≫"), (r"L^{\prime} \to L", "→"),
    (r"b \in \{1, \dots, \mathcal{B}\}", "∈"), (r"h: \mathcal X \rightarrow \mathcal Y", ":"),
])
def test_relations_the_checker_reads_and_never_judges(latex, rel):
    assert rel in only(latex)[2]
    doc = f"The sizes $d_\\text{{model}} = 768$ and ${latex}$.\n"
    assert not {"mismatch", "verified"} & {f.status for f in check_text(doc) if f.latex.strip() != "d_\\text{model} = 768"}


# ---------------------------------------------------------------- separators, braces, environments
def test_underbrace_keeps_its_body_and_arrows_separate_statements():
    # iclr25-absorb-pruning.md lines 173-175 (underbrace with a shape label and slices)
    chain = only(r"\underbrace{U_{QK}^h [:, :r] \, S_{QK}^h [:r, :r]}_{\tilde{U}^h \in \mathbb{R}^{D \times r}}")
    assert chain[1][0][0] == "mul" and chain[1][0][1] == ("idx", ("sym", "U", "QK", "h"), "[:,:r]")
    # scalingbook-applied-inference.md line 155
    for arrow in (r"\leftrightarrow", r"\Leftrightarrow", r"\Longleftrightarrow", r"\implies", r"\Rightarrow"):
        assert len(read(rf"a = b {arrow} c = d")) == 2, arrow
    # scalingbook-applied-inference.md line 132: an underbrace three braces deep
    text = read(r"T = \underbrace{\frac{\text{Batch Size} \times \text{KV}}{\text{Bandwidth}}}_{\text{Attention}} + 1")
    assert text[0][0] == r"T = \frac{\text{Batch Size} \times \text{KV}}{\text{Bandwidth}} + 1"


def test_piecewise_rows_and_cases_values():
    # iclr25-positional-embedding.md lines 158-162: \left\{ \begin{array}{ll} … \end{array}\right.
    frag = "\\left\\{\n\\begin{array}{ll}\n p_{i,2t} =  \\sin(i/10000^{2t/d}) &  \\\\\n" \
           " p_{i,2t+1} = \\cos(i/10000^{2t/d}) \\\\\n\\end{array}\\right."
    got = statements(simplify(frag))
    assert [st.text for st in got] == [r"p_{i,2t} = \sin(i/10000^{2t/d})", r"p_{i,2t+1} = \cos(i/10000^{2t/d})"]
    assert [st.line_offset for st in got] == [2, 3]
    # omniverse-gpt-notations.md line 210: a value by cases is one opaque value, never one of its branches
    chain = only("o_{t, j} = \\begin{cases}\n1 & \\text{if } j = y_t \\\\\n0 & \\text{otherwise}\n\\end{cases}")
    assert chain[1][1] == ("call", "cases", False, [("num", 1.0, "1"), ("num", 0.0, "0")])
    doc = "$$\no = \\begin{cases} 1 & \\text{if } j = y \\\\ 0 & \\text{otherwise} \\end{cases}\n$$\n\n$$\no = 0\n$$\n"
    assert "mismatch" not in statuses(doc)
    # iclr24-understanding-icl.md line 656: an array with @{} column specs is a matrix
    chain = only("W^K = \\left(\\begin{array}{@{}c c@{}}\n I_D & 0 \\\\\n 0 & 0\n\\end{array}\\right)")
    assert chain[1][1][0] == "matrix" and len(chain[1][1][1]) == 2


def test_weights_set_equal_are_a_modelling_choice():
    # iclr24-understanding-icl.md line 656: W^K = W^Q (shared weights), not a contradiction of the reference
    doc = "$$\nW^K = W^Q = \\left(\\begin{array}{cc} I & 0 \\\\ 0 & 0 \\end{array}\\right)\n$$\n"
    assert "mismatch" not in statuses(doc)


# ---------------------------------------------------------------- function names and operators
@pytest.mark.parametrize("latex, name", [
    (r"\operatorname{Re}[\bar{q_n} \bar{k_m}^T]", "Re"),              # iclr25-positional-embedding.md line 303
    (r"\text{Re}[q_n k^*_m]", "Re"),
    (r"\mathbb{E}\left[\ell\left(f(P_C), h\right) \right]", r"\mathbb{E}"),  # iclr24-understanding-icl.md 361
    (r"\mathbb{P} (x ; \Theta)", r"\mathbb{P}"),                         # omniverse-gpt-notations.md line 905
    (r"\max_j x_j", r"\max_{j}"), (r"\min(a, b)", "min"), (r"\arg\max_i p_i", r"\argmax_{i}"),
    (r"\underset{\theta \in \Theta}{\text{argmax}} L", r"argmax_{\theta\in\Theta}"),  # omniverse line 954
    (r"\exp(x)", "exp"), (r"\log n", "log"), (r"\sin(iw_k)", "sin"), (r"\cos m\theta_1", "cos"),
    (r"\tanh(x)", "tanh"), (r"\prod_{n=1}^N p_n", r"\prod_{n=1}^{N}"),
])
def test_functions_written_as_commands_are_calls(latex, name):
    node = only(latex)[1][0]
    assert node[0] == "call" and node[1] == name, node


def test_a_function_without_parentheses_takes_the_juxtaposed_factors():
    # iclr25-positional-embedding.md line 281: \cos m\theta_1 is cos(m θ_1), never cos(m) θ_1
    assert only(r"\cos m\theta_1")[1][0] == ("call", "cos", False, [("mul", ("sym", "m", None, None),
                                                                         ("sym", r"\theta", "1", None), "*")])
    assert only(r"\sin x + \cos y")[1][0][0] == "add"


def test_subscripted_operators_are_never_evaluated_as_the_plain_function():
    # \max(a, b) is the maximum; \max_j x_j over an index is named with it, so nothing evaluates it
    doc = "Let $x = [1, 2]$.\n\n$$\n\\max_j x_j = 7\n$$\n\n$$\n\\sin(x) = 7\n$$\n"
    assert not {"mismatch", "verified"} & {f.status for f in check_text(doc) if f.line > 2}


# ---------------------------------------------------------------- indices, slices, numbers
def test_commas_and_slices_in_indices_are_opaque():
    assert only(r"\text{head}_{\ell, h}")[1][0] == ("sym", r"\text{head}", r"\ell,h", None)
    assert only(r"W_K^{[:, h, :]}")[1][0] == ("sym", "W", "K", "[:,h,:]")
    # iclr25-rope-long-term-decay.md line 83
    assert only(r"W_Qx[2i:2i+1]")[1][0][2] == ("idx", ("sym", "x", None, None), "[2i:2i+1]")
    assert unparse(only(r"U[:, :r]")) == "U[:,:r]"
    doc = "Let $U = XW_Q$.\n\n$$\nU[:, :r] = U[:, :r]\n$$\n"
    assert not {"mismatch", "verified"} & {f.status for f in findings_at(doc, 4)}


def test_thousands_separators_after_a_relation_and_grouped_e_notation():
    # scalingbook-training.md lines 427 (F=32,768) and 562 (3.8e18 / 5e13 = 76,000)
    assert only(r"F=32,768")[1][1] == ("num", 32768.0, "32768")
    assert only(r"x_{1,100} = [1,000]")[1][1][0] == "list"  # an index pair and a list stay as they are
    doc = "$$\nC / W = 3.8e18 / 5e13 = 76,000\n$$\n"
    assert "mismatch" not in statuses(doc)
    assert "verified" in {f.status for f in check_text(doc)}
    assert only(r"16e3 \cdot 2") == only(r"{16 \cdot 10^{3}} \cdot 2")


def test_a_statement_in_braces_and_sets_without_backslashes():
    assert only(r"{2BD + 2DF + 2BF \approx 2DF}")[2] == ["≈"]  # scalingbook-inference.md line 153
    assert only(r"\{ x_1, x_2, \dots, x_T \}")[1][0][:2] == ("call", "set")  # incml-transformer-gpt.md line 12
    assert only(r"{x_1, \dots, x_t}")[1][0][:2] == ("call", "set")  # incml-transformer-gpt.md line 407


def test_conditional_and_parameter_arguments_stop_evaluation():
    chain = only(r"\mathbb{P}(x_{t-k}, x_{t} | x_{1}, x_{2}, \dots, x_{t-k-1} ; \Theta)")  # omniverse line 924
    assert [a[1] for a in chain[1][0][3] if a[0] == "call"] == ["given", "parameters"]
    assert unparse(chain) == r"\mathbb{P}(x_{t-k}, x_t | x_1, x_2, \dots, x_{t-k-1}; \Theta)"
    doc = "Let $x = [1, 2]$.\n\n$$\n\\text{softmax}(x | y) = \\text{softmax}(x)\n$$\n"
    assert not {"mismatch", "verified"} & {f.status for f in findings_at(doc, 4)}


def test_the_corpus_lines_quoted_here_are_as_quoted():
    assert r"\frac{\partial F}{\partial a_{it} }" in corpus_line("incml-transformer-gpt.md", 166)
    assert r"\|\mathbf{q} - \mathbf{k}_i\|^2" in corpus_line("d2l-attention-scoring-functions.md", 57)
    assert r"t \in \{0,1, \cdots,d/2\}" in corpus_line("iclr25-positional-embedding.md", 295)
    assert r"\operatorname{Re}" in corpus_line("iclr25-positional-embedding.md", 303)
    assert "76,000" in corpus_line("scalingbook-training.md", 562)


def _walk(node):
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple) and item and isinstance(item[0], str):
            yield item
            stack.extend(c for c in item[1:] if isinstance(c, (tuple, list)))
        elif isinstance(item, (tuple, list)):
            stack.extend(item)


def test_definitions_dots_and_plain_tex_spellings():
    # iclr25-positional-embedding.md line 152, omniverse-gpt-notations.md lines 278, 334, 696, 2104
    assert only(r"x^{\prime}_i := x_i + p_i") == only(r"x^{\prime}_i = x_i + p_i")
    assert only(r"S_t \triangleq S_{t-1}") == only(r"S_t \coloneqq S_{t-1}") == only(r"S_t = S_{t-1}")
    assert only(r"i=1,...,m") == only(r"i=1,\dots,m")
    assert only(r"A \in M_{mn}(\Bbb F)") == only(r"A \in M_{mn}(\mathbb{F})")
    assert only(r"B \xrightarrow[]{\text{transpose}} C")[2] == ["→"]
    assert only(r"Y_{b,t,:} \in {0, 1}^{1 \times V}")[1][1][2] == \
        ("mul", ("num", 1.0, "1"), ("sym", "V", None, None), "×")  # an exponent read as written
    # a matrix given by its entries is no entry of it (A = (a_{ij}) is never A = a_{ij})
    assert only(r"A=(a_{ij})")[1][1] == ("call", "entries", False, [("sym", "a", "ij", None)])
    # a statement in parentheses (incml-transformer-gpt.md line 84) is the statement
    assert only(r"(\mathcal{A} \in \mathbb{R}^{T \times T})")[2] == ["∈"]
    assert only(r"(a, b)")[1][0][0] == "tuple"


def test_quotients_print_as_they_were_read():
    chain = only(r"C / W = 3.8e18 / 5e13 = 76,000")
    assert unparse(chain) == r"C / W = 3.8 \cdot 10^{18} / (5 \cdot 10^{13}) = 76000"
    assert parse(unparse(chain)) == chain


def test_a_relation_inside_an_argument_is_an_event():
    # iclr24-understanding-icl.md line 385, iclr25-rope-long-term-decay.md line 83
    chain = only(r"\mathbb{P} \left[ \mathcal{L}( f_C) - \mathcal{L}( f_\infty) \leq \epsilon \right] \geq 1 - \delta")
    assert chain[2] == ["≥"] and chain[1][0][3][0][1] == "relation ≤"
    chain = only(r"\text{POCP} = \frac{2}{d}\sum_i^{\frac{d}{2}}\textbf{I}(\cos(W_Qx[2i:2i+1], W_Ky[2i:2i+1]) < 0)")
    assert "relation <" in {n[1] for n in _walk(chain) if n[0] == "call"}
    assert parse(unparse(chain)) == chain


def test_a_product_of_one_heads_weight_and_every_heads_is_not_a_misfit():
    # a chain ending in a shape is now read as a chain, so its link is judged by the document's declarations: a
    # per-head W^V against an all-heads W^O (inner d_v and h d_v) is the usual shorthand, not a contradiction
    doc = ("Let $W^V \\in \\mathbb{R}^{d \\times d_v}$ and $W^O \\in \\mathbb{R}^{h d_v \\times d}$.\n\n"
           "$$W^{OV} = W^V W^O \\in \\mathbb{R}^{d \\times d}$$\n")
    assert "mismatch" not in statuses(doc)
    # sizes that are no multiple of each other still do not fit
    doc = ("Let $A \\in \\mathbb{R}^{n \\times d_k}$ and $B \\in \\mathbb{R}^{n \\times d_k}$.\n\n"
           "$$C = A B \\in \\mathbb{R}^{n \\times d_k}$$\n")
    assert "mismatch" in statuses(doc)


def test_a_model_function_word_before_a_relation_and_tables_with_arrows():
    # scalingbook-training.md line 324: \textnormal{T} & \approx \max(…) — T names a quantity here, not T(·)
    assert only(r"\textnormal{T} \approx \max \left(\frac{4 \cdot B}{Y \cdot C}, \frac{2 B}{W}\right)")[2] == ["≈"]
    # scalingbook-training.md line 583: a table whose cells are maps In[B, D] … \rightarrow Out[B, D]
    chain = only(r"\begin{array}{cc} \text{DP} & \text{In}[B_X, D] \cdot_D W_\text{in}[D, F] \rightarrow "
                 r"\text{Out}[B_X, F] \end{array}")
    assert chain[1][0][0] == "matrix" and chain[1][0][1][0][1][1] == "relation →"
    # iclr24-understanding-icl.md line 927: \mathrm{lin, te} is one name
    assert only(r"\mathcal{L}_\mathrm{lin, te}(w) = 0")[1][0][1][2] == "lin, te"


def test_splitting_off_conditions_and_wrappers_is_bounded():
    # a few trailing conditions are split off; a run of thousands is not (the work stays linear in the text)
    assert len(statements("a = b " + "(i=1)" * 3000)) == 5
    assert clean_wrapped("(" * 3000 + "a=b" + ")" * 3000).count("(") == 2996


def clean_wrapped(text: str) -> str:
    from symtf.check.normalize import clean
    return clean(text)


def test_inner_products_floors_and_the_all_ones_vector():
    assert only(r"\left\langle q_i, k_j \right\rangle / \sqrt{d}")[1][0][1] == \
        ("call", "inner", False, [("sym", "q", "i", None), ("sym", "k", "j", None)])
    assert only(r"\lfloor n/2 \rfloor")[1][0][:2] == ("call", "floor")
    assert only(r"\lceil n/2 \rceil")[1][0][:2] == ("call", "ceil")
    # \mathbf{1} is the all-ones vector: 1^T 1 is a matrix of ones, never the number 1
    assert only(r"\mathbf{1}^\top \mathbf{1}")[1][0] == ("mul", ("T", ("sym", r"\text{bold 1}", None, None)),
                                                        ("sym", r"\text{bold 1}", None, None), "*")
    assert "verified" not in statuses("$$\n\\mathbf{1}^\\top \\mathbf{1} = 1\n$$\n")
    assert only(r"\mathrm{2}")[1][0] == ("num", 2.0, "2")


@pytest.mark.parametrize("text", ["x{xx}", r"W_O (W_V x)", r"x (y \times z)", r"a / (b c)", r"d \times 3 d"])
def test_a_product_on_the_right_prints_in_parentheses(text):
    # found by tests/test_check_extract.py's round trip: x (x x) printed as x x x read back as (x x) x
    tree = parse(text)
    assert parse(unparse(tree)) == tree
