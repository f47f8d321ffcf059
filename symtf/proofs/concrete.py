"""Proving an identity entry by entry at concrete sizes, refuting it on a numeric instance."""
from __future__ import annotations

from collections.abc import Callable

from sympy import Integer

from .algebra import compare_matrices, max_abs_diff
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .explicit import Env, explicit

#: ``pair(sizes, env) -> (left, right)``: both sides as explicit matrices, leaves from ``env``.
Pair = Callable[[dict, Env], tuple]

TOLERANCE = 1e-12  # a numeric gap above this, at 30 significant digits, is a real difference


def _named(sizes: dict) -> dict:
    return {str(k): int(v) for k, v in sizes.items()}


def prove_entrywise(pair: Pair, size_sets: list[dict], what: str = "") -> Result:
    """Proved (concrete) if ``left - right`` is exactly 0 in every entry at every size set.

    A random numeric instance is looked at first: a gap there refutes at once (and saves the
    exact comparison of two expressions that differ); no gap proves nothing, so the exact
    entry-by-entry comparison follows.
    """
    for sizes in size_sets:
        gap = max_abs_diff(*pair(sizes, Env(numeric=True, seed=1)))
        if gap > TOLERANCE:
            return refuted({"sizes": _named(sizes), "numeric_gap": gap},
                           f"{what} differs at a random numeric instance", Method.CONCRETE, [_named(sizes)])
        L, R = pair(sizes, Env())
        ok, where = compare_matrices(L, R)
        if not ok:
            return unknown(f"entry {where} did not reduce to 0 at {_named(sizes)}, and no numeric gap was found",
                           [_named(sizes)])
    return proved(Method.CONCRETE, [_named(s) for s in size_sets], what)


def explicit_pair(left, right) -> Pair:
    """Both matrix expressions, sizes substituted, written out with leaves from the env."""

    def pair(sizes, env):
        sized = {k: Integer(v) if isinstance(v, int) else v for k, v in sizes.items()}
        return explicit(left.xreplace(sized), env), explicit(right.xreplace(sized), env)

    return pair


def numeric_pair_check(pair: Pair, size_sets: list[dict], seeds=(11, 12)) -> NumericCheck:
    worst = 0.0
    trials = 0
    for sizes in size_sets:
        for seed in seeds:
            worst = max(worst, max_abs_diff(*pair(sizes, Env(numeric=True, seed=seed, digits=15))))
            trials += 1
    return NumericCheck(worst < 1e-9, worst, trials, "random real instances, 15 digits")
