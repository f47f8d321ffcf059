"""Read the post's Kramdown tables (for the tests only): heading row → list of cell lists."""
from __future__ import annotations

from pathlib import Path


def tables(path: Path) -> list[tuple[int, list[str], list[list[str]]]]:
    """Every pipe table as (line of its header, header cells, body rows)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and set(lines[i + 1].strip()) <= set("|-: "):
            header = _cells(lines[i])
            body, j = [], i + 2
            while j < len(lines) and lines[j].startswith("|"):
                body.append(_cells(lines[j]))
                j += 1
            out.append((i + 1, header, body))
            i = j
        else:
            i += 1
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def squash(cell: str) -> str:
    """A cell's LaTeX without the $$ and without spaces, for comparing layouts."""
    return cell.replace("$$", "").replace(" ", "").replace("&nbsp;", "")
