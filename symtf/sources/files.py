"""The files a command is given: files as named, directories walked for the formats symtf reads."""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePath

from .registry import SUFFIXES

#: Directories never walked into: tools' and site generators' own trees, not a writer's sources.
SKIPPED_DIRECTORIES = frozenset({"node_modules", "_site", "_build", "site", "public", "__pycache__", "_freeze"})


def excluded(path: PurePath, patterns: Iterable[str]) -> bool:
    """Whether ``path`` matches one of the glob ``patterns`` (matched from the right, as
    :meth:`pathlib.PurePath.match` does: ``*.ipynb``, ``drafts/*``, ``drafts``)."""
    return any(path.match(p) or any(PurePath(*path.parts[: k + 1]).match(p) for k in range(len(path.parts) - 1))
               for p in patterns)


def collect(paths: Iterable[str], exclude: Iterable[str] = ()) -> Iterator[Path]:
    """The files to check, in order: each named file (whatever its suffix: Markdown unless it says
    otherwise), and under each directory every file with a suffix of :data:`SUFFIXES`, sorted, hidden
    and :data:`SKIPPED_DIRECTORIES` left out. A path that matches an ``exclude`` glob is left out."""
    exclude = tuple(exclude)
    for name in paths:
        root = Path(name)
        if not root.is_dir():
            if not excluded(root, exclude):
                yield root
            continue
        for folder, dirs, files in os.walk(root):
            here = Path(folder)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRECTORIES
                             and not excluded((here / d).relative_to(root), exclude))
            for file in sorted(files):
                path = here / file
                if path.suffix.lower() in SUFFIXES and not file.startswith(".") and \
                        not excluded(path.relative_to(root), exclude):
                    yield path
