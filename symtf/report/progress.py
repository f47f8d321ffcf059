"""Progress of the report's slow steps: a silent default and a ``rich`` display on stderr.

The display is transient and shown only when stderr is a terminal, so piped or CI output stays clean.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Progress:
    """Callbacks the slow steps report to; the default does nothing."""

    def start(self, label: str, total: int | None = None) -> None:  # pragma: no cover - trivial
        pass

    def describe(self, label: str) -> None:  # pragma: no cover - trivial
        pass

    def advance(self) -> None:  # pragma: no cover - trivial
        pass

    def done(self) -> None:  # pragma: no cover - trivial
        pass


class RichProgress(Progress):
    """A ``rich`` progress display on stderr, shown only when stderr is a terminal."""

    def __init__(self, console=None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as Bar

        console = console or Console(stderr=True)
        self._bar = Bar(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        self._task = None

    def __enter__(self) -> "RichProgress":
        self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        self._bar.stop()

    def start(self, label: str, total: int | None = None) -> None:
        if self._task is not None:
            self._bar.remove_task(self._task)
        self._task = self._bar.add_task(label, total=total)
        self._bar.refresh()  # show a new step at once, not at the next tick

    def describe(self, label: str) -> None:
        if self._task is not None:
            self._bar.update(self._task, description=label)
            self._bar.refresh()

    def advance(self) -> None:
        if self._task is not None:
            self._bar.update(self._task, advance=1)

    def done(self) -> None:
        if self._task is not None:
            self._bar.remove_task(self._task)
            self._task = None
