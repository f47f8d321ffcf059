r"""Small, sound decision steps shared by the provers.

Each step either establishes a fact or says it could not: ``is_zero`` returns ``True`` only when
the difference reduces to $0$ exactly, and ``None`` (undecided) otherwise, never ``False``
(SymPy's ``equals`` has answered ``False`` for equal sums). A difference is called non-zero only
through :func:`numeric_gap` on a concrete instance.
"""
from __future__ import annotations

import random

from sympy import (
    Abs,
    Float,
    Function,
    ImmutableMatrix,
    S,
    Sum,
    Symbol,
    exp,
    expand,
    fraction,
    sympify,
    together,
)
from sympy.matrices.expressions.matexpr import MatrixElement

#: $e^u$ as an uninterpreted function: an identity that holds with ``expF`` in place of ``exp``
#: holds for every function, so for ``exp`` too (the converse is not claimed).
expF = Function("expF")


def opaque_exp(e):
    r"""Replace every $e^u$ by ``expF(expand(u))``: equal exponents become the same atom."""
    return e.replace(lambda x: isinstance(x, exp), lambda x: expF(expand(x.args[0])))


def is_zero(d) -> bool | None:
    """``True`` if ``d`` reduces to 0 exactly (expansion, then rational normal form); else ``None``."""
    d = sympify(d)
    if d == 0:
        return True
    for form in (lambda x: x, opaque_exp):
        e = form(d)
        if e == 0:
            return True
        e = expand(e)
        if e == 0:
            return True
        num, _ = fraction(together(e))
        if expand(num) == 0:
            return True
    return None


def sum_index_canon(e):
    """Rename bound summation indices by nesting depth so that equal sums compare equal."""

    def walk(x, depth):
        if isinstance(x, Sum):
            fn = x.function
            limits = []
            for k, (var, lo, hi) in enumerate(x.limits):
                new = Symbol(f"_j{depth + k}", integer=True)
                fn = fn.xreplace({var: new})
                limits.append((new, walk(lo, depth), walk(hi, depth)))
            return Sum(walk(fn, depth + len(x.limits)), *limits)
        if not x.args:
            return x
        return x.func(*[walk(a, depth) for a in x.args])

    return walk(sympify(e), 0)


def numeric_gap(left, right, seed: int = 0, digits: int = 30):
    """``|left - right|`` at one random real point of all free symbols and matrix entries."""
    rng = random.Random(seed)
    d = sympify(left) - sympify(right)
    atoms = set(d.atoms(MatrixElement)) | {s for s in d.free_symbols if not isinstance(s, MatrixElement)}
    point = {a: Float(rng.uniform(-1, 1), digits) for a in atoms}
    return Abs(d.xreplace(point)).evalf(digits)


def compare_matrices(L: ImmutableMatrix, R: ImmutableMatrix):
    """``(True, None)`` if every entry of ``L - R`` is exactly 0, else ``(None, (i, j))`` (first undecided)."""
    if L.shape != R.shape:
        return None, ("shape", L.shape, R.shape)
    for i in range(L.rows):
        for j in range(L.cols):
            if L[i, j] == R[i, j]:
                continue
            if not is_zero(L[i, j] - R[i, j]):
                return None, (i, j)
    return True, None


def max_abs_diff(L: ImmutableMatrix, R: ImmutableMatrix) -> float:
    if L.shape != R.shape:
        return float("inf")
    return max((float(Abs((L[i, j] - R[i, j]).evalf())) for i in range(L.rows) for j in range(L.cols)), default=0.0)


def pull_constants(e):
    r"""$\sum_k c\, f(k) = c \sum_k f(k)$ for factors $c$ free of $k$ (finite sums), everywhere in ``e``."""

    def rule(s):
        if not isinstance(s, Sum):
            return s
        bound = {lim[0] for lim in s.limits}
        out, inner = S.One, S.One
        for f in expand(s.function).as_ordered_factors() if not s.function.is_Add else [s.function]:
            if f.free_symbols & bound:
                inner *= f
            else:
                out *= f
        return out * Sum(inner, *s.limits)

    return sympify(e).replace(lambda x: isinstance(x, Sum), rule)


def _holds_on_range(cond, var, lo, hi):
    """``True``/``False`` if ``cond`` (``var <= X`` or ``var >= X``) holds/fails for every var in lo..hi."""
    from sympy import Ge, Le

    if isinstance(cond, (Le, Ge)):
        small, big = (cond.lhs, cond.rhs) if isinstance(cond, Le) else (cond.rhs, cond.lhs)
        if small == var and var not in big.free_symbols:  # var <= X
            if (expand(hi - big)).is_nonpositive:
                return True
            if (expand(lo - big)).is_positive:
                return False
    return None


def rewrite_sums(e, rule):
    r"""Apply ``rule(s, var, lo, hi)`` to every one-index $\sum_{var=lo}^{hi}$ in ``e`` (others are kept)."""

    def one(s):
        if not isinstance(s, Sum) or len(s.limits) != 1:
            return s
        return rule(s, *s.limits[0])

    return sympify(e).replace(lambda x: isinstance(x, Sum), one)


def resolve_piecewise(e):
    r"""Inside $\sum_{j=a}^{b}$, a ``Piecewise`` whose first condition is decided on all of $a..b$ is replaced by its branch."""
    from sympy import Piecewise

    def rule(s, var, lo, hi):
        def pick(p):
            (val, cond), rest = p.args[0], p.args[1:]
            verdict = _holds_on_range(cond, var, lo, hi)
            if verdict is True:
                return val
            if verdict is False and len(rest) == 1 and rest[0][1] == S.true:
                return rest[0][0]
            return p

        return Sum(s.function.replace(lambda x: isinstance(x, Piecewise), pick), *s.limits)

    return rewrite_sums(e, rule)


def split_sum(s, at):
    r"""$\sum_{j=a}^{b} f = \sum_{j=a}^{c} f + \sum_{j=c+1}^{b} f$ (for $a - 1 \le c \le b$)."""
    (var, lo, hi), = s.limits
    return Sum(s.function, (var, lo, at)), Sum(s.function, (var, at + 1, hi))


def matrix_identity(left, right) -> bool | None:
    """``True`` if both matrix expressions have the same canonical form (``doit``: flattened products, transposes pushed in)."""
    L, R = left.doit(), right.doit()
    if L == R:
        return True
    try:
        if (L - R).doit().is_ZeroMatrix:
            return True
    except (TypeError, ValueError, AttributeError):  # SymPy could not subtract these: undecided
        return None
    return None


def sum_linear(e):
    r"""Linearity of finite sums, everywhere: $\sum (f + g) = \sum f + \sum g$, constants out, $\sum_{a}^{b} c = (b - a + 1) c$."""

    def rule(s, var, lo, hi):
        total = S.Zero
        for term in expand(s.function, deep=False, mul=True, power_base=False, power_exp=False, log=False,
                           multinomial=False).as_ordered_terms():
            const, inner = S.One, S.One
            for f in term.as_ordered_factors():
                if var in f.free_symbols:
                    inner *= f
                else:
                    const *= f
            total += const * ((hi - lo + 1) if inner == 1 else Sum(inner, (var, lo, hi)))
        return total

    return rewrite_sums(e, rule)
