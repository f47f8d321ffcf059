"""`symtf render`: the post's tables regenerated between markers; only the post's mistakes change."""
from __future__ import annotations

import re

import pytest

from symtf.cli import main
from symtf.errors import InputError
from symtf.latex.render import RenderError, fragment, producers, render_text

# Where the post's tables are, told apart by their header row (the two activation tables share
# one header: the first is the simplified model's).
HEADERS = (
    ("| Activation Name", "simplified-one-layer"),
    ("| Parameter Name", "params-simplified"),
    ("| Activation Name", "full-one-layer"),
    ("| Layer ", "params-full"),
    ("| Parameter ", "key-figures"),
)

# (region, body row, column) -> (post's cell, symtf's cell, why the post is wrong); cells whitespace-normalised
PINNED = {
    ("simplified-one-layer", 11, 1): (
        r"$$p_{n+1}=\text{softmax}(\ell_n)$$", r"$$p_{n+1}=\text{softmax}(\ell_{n+1})$$",
        "the next-token probabilities are the softmax of the next-token logits ℓ_{n+1} defined one row up"),
    ("params-simplified", 1, 1): (
        r"$$d_\text{model}\times n$$", r"$$d_\text{model}\times n_\text{ctx}$$",
        "W_pos has a column per position of the context window (n_ctx); an input of n ≤ n_ctx tokens uses the first n"),
    ("params-full", 1, 2): (
        r"$$d_\text{model}\times n$$", r"$$d_\text{model}\times n_\text{ctx}$$",
        "same as params-simplified: W_pos is d_model × n_ctx"),
    ("key-figures", 6, 1): ("5025", "50257", "GPT-2's vocabulary is 50,257 tokens (the post's own text says so)"),
    ("key-figures", 7, 2): ("2048", "1024", "GPT-2 XL's context (n_ctx) is 1024, like every GPT-2 size"),
}
# symtf emits no DeepSeek V3 column: a mixture-of-experts model is not a Config it can count, so the
# column is not an error in the post but a column symtf does not generate (the test checks only that).
DROPPED_COLUMN = "DeepSeek V3 (2024)"


def mark_tables(text: str) -> str:
    """The post with every table between symtf markers."""
    lines = text.split("\n")
    wanted = list(HEADERS)
    out, i = [], 0
    while i < len(lines):
        if wanted and lines[i].startswith(wanted[0][0]) and lines[i + 1].startswith("|--"):
            name = wanted.pop(0)[1]
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            out += [f"<!-- symtf:begin {name} -->", *lines[i:j], f"<!-- symtf:end {name} -->"]
            i = j
        else:
            out.append(lines[i])
            i += 1
    assert not wanted, f"tables not found in the post: {wanted}"
    return "\n".join(out)


def regions(text: str) -> dict[str, list[str]]:
    found = dict(re.findall(r"<!-- symtf:begin (\S+) -->\n(.*?)\n<!-- symtf:end \1 -->", text, flags=re.S))
    return {name: body.split("\n") for name, body in found.items()}


def outside(text: str) -> str:
    return re.sub(r"(<!-- symtf:begin (\S+) -->\n).*?(\n<!-- symtf:end \2 -->)", r"\1\3", text, flags=re.S)


def normalise(cell: str) -> str:
    """Whitespace is layout: collapse it, and drop it around operators, brackets and commands."""
    cell = re.sub(r"\s+", " ", cell.strip())
    cell = re.sub(r" ?([=+,\[\]()|&{}^_]) ?", r"\1", cell)
    return re.sub(r" ?\\times ?", r"\\times ", cell)


def cells(lines: list[str]) -> list[list[str]]:
    rows = [[normalise(c) for c in line.strip().strip("|").split("|")] for line in lines]
    return [rows[0]] + rows[2:]  # header and body; the |---| rule is layout


@pytest.fixture(scope="module")
def rendered(post_path):
    original = mark_tables(post_path.read_text(encoding="utf-8"))
    return original, render_text(original, source="post.md")


def test_post_changes_only_where_the_post_is_wrong(rendered):
    original, result = rendered
    old, new = regions(original), regions(result.text)
    assert set(old) == set(new) == {name for _, name in HEADERS}
    differences = {}
    for name in old:
        before, after = cells(old[name]), cells(new[name])
        if name == "key-figures":  # the one column symtf does not generate
            assert before[0][-1] == normalise(DROPPED_COLUMN) and len(before[0]) == len(after[0]) + 1
            before = [row[:-1] for row in before]
        assert len(before) == len(after), name
        assert before[0] == after[0], (name, before[0], after[0])
        for r, (b, a) in enumerate(zip(before[1:], after[1:])):
            assert len(b) == len(a), (name, r, b, a)
            for c, (x, y) in enumerate(zip(b, a)):
                if x != y:
                    differences[(name, r, c)] = (x, y)
    assert differences == {key: (normalise(old_cell), normalise(new_cell)) for key, (old_cell, new_cell, _) in PINNED.items()}


def test_bytes_outside_the_markers_are_untouched_and_render_is_idempotent(rendered):
    original, result = rendered
    assert outside(result.text) == outside(original)
    again = render_text(result.text)
    assert again.text == result.text and not again.stale
    assert {r.name for r in result.stale} == {name for _, name in HEADERS}


def test_cli_check_then_render_then_check(tmp_path, post_path, capsys):
    post = tmp_path / "post.md"
    post.write_text(mark_tables(post_path.read_text(encoding="utf-8")), encoding="utf-8")
    before = post.read_bytes()
    assert main(["render", str(post), "--check"]) == 1
    assert post.read_bytes() == before  # --check writes nothing
    out = capsys.readouterr().out
    assert "region 'simplified-one-layer' is stale" in out and f"{post}:" in out
    assert main(["render", str(post)]) == 0
    after = post.read_bytes()
    assert after != before
    assert main(["render", str(post), "--check"]) == 0
    assert main(["render", str(post)]) == 0
    assert post.read_bytes() == after


def test_equation_and_example_regions(tmp_path):
    text = ("intro\n<!-- symtf:begin end-to-end-layer -->\nold\n<!-- symtf:end end-to-end-layer -->\n"
            "middle\n<!-- symtf:begin example-toy -->\n<!-- symtf:end example-toy -->\nend\n")
    result = render_text(text)
    assert result.text.startswith("intro\n<!-- symtf:begin end-to-end-layer -->\n$$\nx^{(1)} = x^{(0)} + \\sum_h")
    assert "\\begin{align*}" in result.text and result.text.endswith("<!-- symtf:end example-toy -->\nend\n")
    assert render_text(result.text).text == result.text


@pytest.mark.parametrize("text, message", [
    ("a\n<!-- symtf:begin no-such-table -->\nx\n<!-- symtf:end no-such-table -->\n",
     r"post.md:2: unknown region 'no-such-table'; known: .*full-one-layer"),
    ("a\nb\n<!-- symtf:begin full-one-layer -->\nx\n", r"post.md:3: symtf:begin full-one-layer is never closed"),
    ("<!-- symtf:end mlp -->\n", r"post.md:1: symtf:end mlp without a symtf:begin"),
    ("<!-- symtf:begin mlp -->\n<!-- symtf:end embedding -->\n", r"post.md:2: symtf:end embedding closes region 'mlp'"),
    ("<!-- symtf:begin mlp -->\n<!-- symtf:begin mlp -->\n<!-- symtf:end mlp -->\n",
     r"post.md:2: symtf:begin mlp inside region 'mlp' opened at line 1"),
])
def test_malformed_markers_are_errors_with_the_line(text, message):
    with pytest.raises(RenderError, match=message):
        render_text(text, source="post.md")


def test_cli_error_writes_nothing_and_exits_2(tmp_path, capsys):
    post = tmp_path / "post.md"
    text = "keep\r\n<!-- symtf:begin zero-layer -->\r\n<!-- symtf:end zero-layer -->\r\n<!-- symtf:begin oops -->\r\n"
    post.write_bytes(text.encode())
    assert main(["render", str(post)]) == 2
    assert post.read_bytes() == text.encode()
    err = capsys.readouterr().err
    assert f"{post}:4: unknown region 'oops'" in err and "never closed" in err
    assert issubclass(RenderError, InputError)


def test_crlf_files_keep_their_line_endings():
    text = "a\r\n<!-- symtf:begin embedding -->\r\n<!-- symtf:end embedding -->\r\nb\r\n"
    result = render_text(text).text
    assert "\n" not in result.replace("\r\n", "")
    assert result == "a\r\n<!-- symtf:begin embedding -->\r\n$$\r\nx^{(0)} = W_E t + W_\\text{pos}\r\n$$\r\n" \
                     "<!-- symtf:end embedding -->\r\nb\r\n"


def test_every_region_name_has_a_fragment():
    names = set(producers())
    assert {"zero-layer", "full-one-layer", "key-figures", "end-to-end-layer", "mlp", "example-toy"} <= names
    assert fragment("key-figures").startswith("| Parameter")


EMBEDDING = "$$\nx^{(0)} = W_E t + W_\\text{pos}\n$$\n"


@pytest.mark.parametrize("code", [
    "```markdown\n<!-- symtf:begin embedding -->\nkeep me\n<!-- symtf:end embedding -->\n```\n",
    "~~~\n<!-- symtf:begin no-such-region -->\n~~~\n",  # not even an error: it is an example in code
    "para\n\n    <!-- symtf:begin embedding -->\n    keep me\n    <!-- symtf:end embedding -->\n",
    "- item\n\n  ```\n  <!-- symtf:end embedding -->\n  ```\n",
])
def test_markers_inside_code_blocks_are_text(code):
    text = f"# How to use symtf\n\n{code}\n<!-- symtf:begin embedding -->\nold\n<!-- symtf:end embedding -->\n"
    result = render_text(text)
    assert result.text == text.replace("\nold\n", "\n" + EMBEDDING)
    assert [(r.name, r.line) for r in result.regions] == [("embedding", text.count("\n", 0, text.index("\nold")) + 1)]


def test_a_byte_order_mark_is_kept_and_does_not_hide_the_first_marker(tmp_path, capsys):
    post = tmp_path / "post.md"
    post.write_bytes("\ufeff<!-- symtf:begin embedding -->\n<!-- symtf:end embedding -->\n".encode())
    assert main(["render", str(post)]) == 0
    assert post.read_bytes() == ("\ufeff<!-- symtf:begin embedding -->\n" + EMBEDDING
                                 + "<!-- symtf:end embedding -->\n").encode()
    assert "1 region(s), 1 updated" in capsys.readouterr().out


def test_each_distinct_region_is_generated_once(monkeypatch):
    from symtf.latex import render

    calls = []
    real = render.fragment
    monkeypatch.setattr(render, "fragment", lambda name: calls.append(name) or real(name))
    text = "<!-- symtf:begin embedding -->\n<!-- symtf:end embedding -->\n" * 200 + \
        "<!-- symtf:begin mlp -->\n<!-- symtf:end mlp -->\n"
    result = render_text(text)
    assert sorted(calls) == ["embedding", "mlp"]
    assert len(result.regions) == 201 and result.text.count(EMBEDDING) == 200
