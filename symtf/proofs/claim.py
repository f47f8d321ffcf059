r"""Claims and their three-valued results.

A :class:`Claim` states an identity of the post in LaTeX, lists its assumptions, and proves it
with a prover that returns a :class:`Result`: **proved** (``symbolic``: for symbolic sizes, or
``concrete``: entry by entry at the listed sizes), **refuted** (with a counterexample) or
**unknown** (with the reason). A numeric cross-check on random instances is evidence, kept apart
from the proof in ``numeric_check``.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any


class Status(Enum):
    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


class Method(Enum):
    SYMBOLIC = "symbolic"  # for symbolic sizes
    CONCRETE = "concrete"  # exact, entry by entry, at the listed sizes


@dataclass(frozen=True)
class NumericCheck:
    """Evidence from random instances: never a proof."""

    passed: bool
    max_error: float | None
    trials: int
    detail: str = ""

    def as_dict(self) -> dict:
        error = None if self.max_error is None else float(self.max_error)
        return {"passed": bool(self.passed), "max_error": error, "trials": int(self.trials), "detail": self.detail}


@dataclass(frozen=True)
class Result:
    status: Status
    method: Method | None = None
    sizes: tuple = ()  # "symbolic" or dicts of concrete sizes
    reason: str = ""  # why unknown, or what was shown
    counterexample: Any = None
    seconds: float = 0.0
    numeric_check: NumericCheck | None = None
    details: dict = field(default_factory=dict)

    @property
    def proved(self) -> bool:
        return self.status is Status.PROVED


def proved(method: Method, sizes=("symbolic",), reason: str = "", **details) -> Result:
    return Result(Status.PROVED, method, tuple(sizes), reason, details=details)


def refuted(counterexample, reason: str = "", method: Method | None = None, sizes=(), **details) -> Result:
    return Result(Status.REFUTED, method, tuple(sizes), reason, counterexample, details=details)


def unknown(reason: str, sizes=(), **details) -> Result:
    return Result(Status.UNKNOWN, None, tuple(sizes), reason, details=details)


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


@dataclass(frozen=True)
class Claim:
    """An identity of the post: ``statement`` in the post's LaTeX, proved by ``prover``.

    ``expected`` is what the claim should come out as: ``PROVED`` for the post's identities,
    ``REFUTED`` for a sentence (of the post, or one often written elsewhere) that does not hold in general.
    """

    id: str
    statement: str
    prover: Callable[[], Result]
    assumptions: tuple[str, ...] = ()
    numeric: Callable[[], NumericCheck] | None = None
    expected: Status = Status.PROVED
    section: str = ""

    def prove(self, numeric: bool = True) -> Result:
        start = time.perf_counter()
        try:
            result = self.prover()
        except Exception as exc:  # noqa: BLE001 -- a prover that crashes has proved nothing: unknown
            result = unknown(f"prover raised {type(exc).__name__}: {exc}")
        seconds = time.perf_counter() - start
        check = None
        if numeric and self.numeric is not None:
            try:
                check = self.numeric()
            except Exception as exc:  # noqa: BLE001 -- a crashed check is a failed check
                check = NumericCheck(False, None, 0, f"numeric check raised {type(exc).__name__}: {exc}")
        return replace(result, seconds=seconds, numeric_check=check)

    def as_expected(self, result: Result) -> bool:
        ok = result.status is self.expected
        return bool(ok and (result.numeric_check is None or result.numeric_check.passed))

    def report(self, result: Result) -> dict:
        """The JSON record: id, statement, result, method, sizes, seconds, numeric_check (+ extras)."""
        return {
            "id": self.id,
            "statement": self.statement,
            "result": result.status.value,
            "method": result.method.value if result.method else None,
            "sizes": _jsonable(list(result.sizes)),
            "seconds": round(result.seconds, 4),
            "numeric_check": result.numeric_check.as_dict() if result.numeric_check else None,
            "expected": self.expected.value,
            "as_expected": self.as_expected(result),
            "assumptions": list(self.assumptions),
            "reason": result.reason,
            "counterexample": _jsonable(result.counterexample),
            "details": _jsonable(result.details),
        }


def without_timings(record: dict) -> dict:
    """A claim's JSON record less its wall time (``seconds``): what stays the same from run to run,
    so a report kept in git changes only when a result does (``--timings`` keeps the time)."""
    return {k: v for k, v in record.items() if k != "seconds"}
