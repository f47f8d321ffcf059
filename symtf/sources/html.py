r"""Math inside raw HTML blocks of a Markdown document (``<div>``, ``<details>``, ``<figure>`` …).

Python's own :class:`html.parser.HTMLParser` splits the block into tags and text; the text runs
are read by the Markdown reader's inline parser (so ``$…$`` and ``\(…\)`` are found as in prose),
and MathJax 2's ``<script type="math/tex">`` holds one fragment. Text in ``<code>``, ``<pre>``,
``<script>`` and ``<style>`` is not math.
"""
from __future__ import annotations

from html.parser import HTMLParser

_OPAQUE = ("code", "pre", "script", "style", "kbd", "samp")


class _MathFinder(HTMLParser):
    def __init__(self, reader, reading, line: int):
        super().__init__(convert_charrefs=True)
        self.reader, self.reading, self.first = reader, reading, line
        self.opaque: list[str] = []
        self.tex: bool | None = None  # inside <script type="math/tex[; mode=display]">: display?

    def handle_starttag(self, tag, attrs):
        if tag in _OPAQUE:
            kind = dict(attrs).get("type") or ""
            if tag == "script" and kind.startswith("math/tex"):
                self.tex = "mode=display" in kind.replace(" ", "")
            self.opaque.append(tag)

    def handle_endtag(self, tag):
        if tag in self.opaque:
            while self.opaque and self.opaque.pop() != tag:
                pass
            self.tex = None

    def handle_data(self, data):
        line = self.first + self.getpos()[0] - 1
        if self.tex is not None:
            if data.strip() and self.tex:
                self.reading.display(line, data)
            elif data.strip():
                self.reading.math(line, data)
        elif not self.opaque and data.strip():
            lead = len(data) - len(data.lstrip())
            self.reading.starts_at(line + data[:lead].count("\n"))
            self.reader.inline(data, self.reading, line)


def read_html(source: str, reader, reading, line: int) -> None:
    """The math of an HTML block starting at ``line``, into ``reading``."""
    finder = _MathFinder(reader, reading, line)
    finder.feed(source)
    finder.close()
