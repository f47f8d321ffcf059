"""softmax claims: simplex, shift invariance, −∞ padding and its −M bound, the [1, 2] example."""
import math

import numpy as np
from sympy import exp

from symtf.ops import Softmax
from symtf.ops.base import sum_over
from symtf.proofs.claim import Method, Status
from symtf.proofs.softmax import (
    prove_example,
    prove_padding,
    prove_shift,
    prove_simplex,
)


class DropsLast(Softmax):
    """A wrong softmax: normalises by all entries but the last."""

    def _entry(self, i, j, **kw):
        X = self.arg
        return exp(X._entry(i, j)) / sum_over(lambda k: exp(X._entry(k, j)), X.shape[0] - 1)


def test_simplex_symbolic():
    r = prove_simplex()
    assert r.status is Status.PROVED and r.method is Method.SYMBOLIC


def test_wrong_normaliser_is_not_proved():
    assert prove_simplex(DropsLast).status is not Status.PROVED


def test_shift_and_a_scaling_is_refuted():
    assert prove_shift().status is Status.PROVED
    assert prove_shift(lambda X, c: 2 * X).status is Status.REFUTED


def test_padding_limit_and_bound():
    r = prove_padding()
    assert r.status is Status.PROVED and "limit" in r.details and "bound" in r.details
    # independent numpy check of the bound p e^{-(M + max x)}
    x = np.array([0.3, -1.2, 2.0])
    base = np.exp(x) / np.exp(x).sum()
    for M in (3.0, 10.0):
        z = np.append(x, [-M, -M])
        padded = np.exp(z) / np.exp(z).sum()
        assert np.abs(padded[:3] - base).max() <= 2 * math.exp(-M - x.max())


def test_example_to_printed_precision():
    assert prove_example().status is Status.PROVED
    assert prove_example(printed=("0.268", "0.732")).status is Status.REFUTED
    a = np.exp([1.0, 2.0]) / np.exp([1.0, 2.0]).sum()
    assert np.round(a, 3).tolist() == [0.269, 0.731]
