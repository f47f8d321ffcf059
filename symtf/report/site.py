"""mkdocs hook (``hooks:`` in mkdocs.yml): the generated pages and the vendored KaTeX.

- ``on_config``: adds "GPT-2 differences" to the navigation when docs/gpt2-differences.md exists.
- ``on_files``: adds the pages of :mod:`symtf.report.pages`, generated from a report, the page of
  :mod:`symtf.report.text_page` (the post's example on a random checkpoint written then), and KaTeX's
  dist files (fetched from the npm registry at build time by :mod:`symtf.report.katex`, no CDN)
  under assets/katex/.

The report is read from the JSON file named by ``SYMTF_REPORT_JSON`` (what ``symtf report --out
DIR`` writes as DIR/report.json) when it is set, and built afresh otherwise.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from symtf.report.katex import FILES as KATEX_FILES

def katex_dist() -> Path:
    from symtf.report.katex import KatexError, katex_dist as find

    try:
        return find()
    except KatexError as exc:
        raise PluginError(str(exc)) from None


def load_report() -> dict:
    path = os.environ.get("SYMTF_REPORT_JSON")
    if path:
        try:
            return json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PluginError(f"SYMTF_REPORT_JSON={path}: {exc}") from exc
    from symtf.report.run import build_report

    return build_report()


def on_config(config, **kwargs):
    if (Path(config["docs_dir"]) / "gpt2-differences.md").is_file():
        nav = config["nav"] or []
        if not any(isinstance(item, dict) and "gpt2-differences.md" in item.values() for item in nav):
            at = next((i + 1 for i, item in enumerate(nav) if isinstance(item, dict) and "conventions.md" in item.values()), len(nav))
            nav.insert(at, {"GPT-2 differences": "gpt2-differences.md"})
            config["nav"] = nav
    return config


def on_files(files, config, **kwargs):
    from symtf.report.pages import generate_pages
    from symtf.report.text_page import text_page

    site_only = {"text.md": text_page()}  # runs symtf on a checkpoint it writes: the site's, not `report --out`'s
    for name, page in {**generate_pages(load_report()), **site_only}.items():
        existing = files.get_file_from_path(name)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, name, content=page))
    dist = katex_dist()
    assets = [dist / name for name in KATEX_FILES] + sorted(p for p in (dist / "fonts").iterdir() if p.is_file())
    for path in assets:
        files.append(File.generated(config, f"assets/katex/{path.relative_to(dist).as_posix()}", abs_src_path=str(path)))
    return files
