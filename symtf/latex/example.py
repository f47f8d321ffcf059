r"""A worked numeric example, every number computed by SymPy from the model's own expressions.

At the post's toy sizes ($n = 3$, $n_\text{vocab} = 10$, $d_\text{model} = 5$,
$d_\text{head} = 2$, $d_\text{mlp} = 10$, one head) each activation row of the full one-layer
table (without LayerNorm) is evaluated in order: its expression, with the sizes made concrete and
every earlier symbol replaced by its value, is multiplied out (:func:`explicit`: SymPy matrix
products and sums, symtf's ops entry by entry through their ``_entry``).

Exactness: rational inputs give rational embeddings, queries, keys and values; the scores carry
$1/\sqrt{d_\text{head}}$ and stay exact algebraic numbers; the attention pattern is exact too,
written with $e^{\cdot}$. From there on the values are transcendental: they are carried as
30-significant-digit floats (the exact pattern evaluated once), and every decimal shown is the
value rounded once, half to even, to ``precision`` places (never a rounded value rounded again).
Float inputs (an npz of floats) are carried as 30-digit floats throughout.
"""
from __future__ import annotations

import json
import random
import re
import zipfile
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from pathlib import Path

from sympy import Float, ImmutableMatrix, Integer, Rational, S, exp, latex as sympy_latex
from sympy.matrices.expressions.matadd import MatAdd
from sympy.matrices.expressions.matexpr import MatrixSymbol

from ..dims import H, d_head, d_mlp, d_model, n, n_ctx, n_vocab
from ..errors import InputError
from ..inputs import MAX_MAGNITUDE, exact_number
from ..model import Model, Variant, build, h
from ..model.exact import Env, explicit
from ..ops import HeadSum, LeadingColumns
from ..text.tokenizer import Tokens, one_hot
from .printer import PostLatexPrinter, latex

#: The post's toy sizes.
TOY = {n: 3, n_vocab: 10, d_model: 5, d_head: 2, d_mlp: 10}

ATTENTION_STEPS = ("embed", "q", "k", "v", "scores", "pattern", "result", "head_out", "resid_mid")
MLP_STEPS = ("mlp_hidden", "mlp_out", "resid_post", "logits", "probs")
ATTENTION_WEIGHTS = ("W_E", "W_pos", "W_Q", "W_K", "W_V", "W_O")
MLP_WEIGHTS = ("W_1", "b_1", "W_2", "b_2", "W_U")
_DIGITS = 30  # significant digits carried once values are transcendental
_CHOICES = (Integer(-1), Rational(-1, 2), Integer(0), Rational(1, 2), Integer(1))
_EXACT_DISPLAY_LIMIT = 2500  # characters: longer exact forms are shown as decimals only


def toy_model() -> Model:
    """The model the example walks through: the full one-layer table without LayerNorm."""
    return build(Variant(layernorm=False))


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Inputs:
    """Token ids (0-based) and weight matrices (SymPy, exact where given exactly), keyed as in a weights file."""

    tokens: tuple[int, ...]
    weights: dict[str, ImmutableMatrix]
    source: str = ""
    text: Tokens | None = None  # the tokenized text the ids come from, when they do

    @property
    def sizes(self) -> dict:
        W_E, W_Q = self.weights["W_E"], self.weights["W_Q"]
        sizes = {n: len(self.tokens), n_vocab: W_E.shape[1], d_model: W_E.shape[0], d_head: W_Q.shape[0],
                 H: 1, n_ctx: self.weights["W_pos"].shape[1]}
        if "W_1" in self.weights:
            sizes[d_mlp] = self.weights["W_1"].shape[0]
        return sizes


def random_inputs(seed: int = 0, sizes: dict | None = None, mlp: bool = True, text: Tokens | None = None) -> Inputs:
    r"""Weights drawn from $\{-1, -\tfrac12, 0, \tfrac12, 1\}$ and distinct tokens, reproducibly from ``seed``;
    with ``text``, its token ids instead ($n$ and $n_\text{vocab}$ from the text and its tokenizer)."""
    sizes = {**TOY, **(sizes or {})}
    if text is not None:
        sizes.update({n: len(text.ids), n_vocab: text.vocab_size})
    rng = random.Random(seed)

    def draw(rows, cols):
        return ImmutableMatrix(rows, cols, [rng.choice(_CHOICES) for _ in range(rows * cols)])

    N, V, D, Dh, M = (sizes[s] for s in (n, n_vocab, d_model, d_head, d_mlp))
    if text is not None:
        tokens = text.ids
    else:
        tokens = tuple(rng.sample(range(V), N) if N <= V else [rng.randrange(V) for _ in range(N)])
    weights = {"W_E": draw(D, V), "W_pos": draw(D, N), "W_Q": draw(Dh, D), "W_K": draw(Dh, D),
               "W_V": draw(Dh, D), "W_O": draw(D, Dh)}
    if mlp:
        weights.update({"W_1": draw(M, D), "b_1": draw(M, 1), "W_2": draw(D, M), "b_2": draw(D, 1),
                        "W_U": draw(V, D)})
    return Inputs(tokens, weights, f"seed {seed}", text)


#: The example multiplies out every entry exactly: a text of more tokens, or a vocabulary larger
#: than this, makes matrices too big to print and too slow to carry exactly.
MAX_TEXT_TOKENS = 12
MAX_TEXT_VOCAB = 120


def text_inputs(text: str, seed: int = 0, mlp: bool = True, tokenizer: str | Path | None = None,
                vocab_size: int | None = None) -> Inputs:
    r"""$t = [t_1, \dots, t_n]$ from ``text``: tokenized with the tokenizer directory ``tokenizer``, or
    with a toy byte-level BPE trained on ``text`` itself (its own characters as the alphabet, merges
    up to ``vocab_size``; by default until every word is one token); random weights from ``seed``."""
    from ..text import encode, load_tokenizer, train_bpe

    if tokenizer is not None and vocab_size is not None:
        raise InputError("--vocab-size sizes the toy tokenizer trained on the text; it does not apply with --tokenizer")
    if not text.strip():
        raise InputError("empty text: nothing to tokenize")
    tok = load_tokenizer(tokenizer) if tokenizer is not None else train_bpe([text], vocab_size, alphabet="text")
    tokens = encode(tok, text)
    if len(tokens.ids) > MAX_TEXT_TOKENS:
        raise InputError(f"the text has {len(tokens.ids)} tokens; the worked example takes at most {MAX_TEXT_TOKENS} "
                         "(a shorter text, or a larger --vocab-size)")
    if tokens.vocab_size > MAX_TEXT_VOCAB:
        raise InputError(f"the tokenizer has n_vocab = {tokens.vocab_size}; the worked example prints t and W_E, "
                         f"so it takes a toy vocabulary of at most {MAX_TEXT_VOCAB}")
    by = str(tokenizer) if tokenizer is not None else "a toy BPE trained on it"
    return replace(random_inputs(seed, mlp=mlp, text=tokens), source=f"seed {seed}; t from the text, tokenized by {by}")


def _matrix(value, key: str, source: str) -> ImmutableMatrix:
    rows = value if isinstance(value, list) else None
    if rows is None:
        raise InputError(f"{source}: {key} must be a list of rows (or a list of numbers for a vector)")
    if all(not isinstance(r, list) for r in rows):  # a vector: one column
        rows = [[r] for r in rows]
    if not rows or any(not isinstance(r, list) or len(r) != len(rows[0]) for r in rows):
        raise InputError(f"{source}: {key} must be a non-empty rectangular list of rows")
    return ImmutableMatrix([[exact_number(x, f"{source}: {key}[{i}][{j}]") for j, x in enumerate(r)]
                            for i, r in enumerate(rows)])


def _index(at: tuple) -> str:
    return "".join(f"[{i}]" for i in at)


def _from_npz(path: Path) -> dict:
    """Tokens and weights from an npz file; integers stay exact, floats become 30-digit Floats, all bounded."""
    import numpy as np

    out = {}
    with np.load(path, allow_pickle=False) as data:
        for key in data.files:
            array = data[key]
            if key == "tokens":
                if not np.issubdtype(array.dtype, np.integer):
                    raise InputError(f"{path}: 'tokens' must be an integer array, got dtype {array.dtype}")
                out[key] = [int(t) for t in array.ravel()]
                continue
            if array.ndim == 1:
                array = array[:, None]
            if array.ndim != 2:
                raise InputError(f"{path}: {key} must be 1- or 2-dimensional, got shape {array.shape}")
            integer = np.issubdtype(array.dtype, np.integer)
            if not (integer or np.issubdtype(array.dtype, np.floating)):
                raise InputError(f"{path}: {key} has dtype {array.dtype}, expected real numbers")
            if not integer and not np.isfinite(array).all():
                bad = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
                raise InputError(f"{path}: {key}{_index(bad)} is {array[bad]}, not a finite number")
            if array.size and np.abs(array).max() > MAX_MAGNITUDE:
                bad = tuple(int(i) for i in np.argwhere(np.abs(array) > MAX_MAGNITUDE)[0])
                raise InputError(f"{path}: {key}{_index(bad)} = {array[bad]:g} is larger than {MAX_MAGNITUDE:.0e} "
                                 "in magnitude")
            make = (lambda x: Integer(int(x))) if integer else (lambda x: Float(repr(float(x)), _DIGITS))
            out[key] = ImmutableMatrix(array.shape[0], array.shape[1], [make(x) for x in array.ravel()])
    return out


def load_inputs(path: str | Path) -> Inputs:
    """Tokens and weights from a YAML, JSON or npz file (keys ``tokens``, ``W_E``, ``W_pos``, ``W_Q`` ...)."""
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".npz":
            raw = _from_npz(path)
        else:
            text = path.read_text(encoding="utf-8")
            if suffix in (".yaml", ".yml"):
                import yaml

                raw = yaml.safe_load(text)
            elif suffix == ".json":
                raw = json.loads(text)
            else:
                raise InputError(f"{path}: weights must be .yaml, .yml, .json or .npz")
    except InputError:
        raise
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, EOFError, zipfile.BadZipFile) as exc:  # JSONDecodeError, numpy's bad-file errors
        raise InputError(f"{path}: unreadable weights file: {exc}") from None
    except Exception as exc:  # yaml.YAMLError has no common base with the above
        if type(exc).__module__.startswith("yaml"):
            raise InputError(f"{path}: invalid YAML: {exc}") from None
        raise
    if not isinstance(raw, dict):
        raise InputError(f"{path}: expected a mapping of names to arrays")
    if "tokens" not in raw:
        raise InputError(f"{path}: missing 'tokens' (a list of 0-based token ids)")
    tokens = raw.pop("tokens")
    if not isinstance(tokens, list) or not tokens or any(isinstance(t, bool) or not isinstance(t, int) for t in tokens):
        raise InputError(f"{path}: 'tokens' must be a non-empty list of integer token ids")
    known = set(ATTENTION_WEIGHTS + MLP_WEIGHTS)
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InputError(f"{path}: unknown key(s) {', '.join(unknown)}; expected tokens, {', '.join(sorted(known))}")
    missing = [k for k in ATTENTION_WEIGHTS if k not in raw]
    if missing:
        raise InputError(f"{path}: missing weight(s) {', '.join(missing)}")
    weights = {k: v if isinstance(v, ImmutableMatrix) else _matrix(v, k, str(path)) for k, v in raw.items()}
    inputs = Inputs(tuple(tokens), weights, str(path))
    vocab = inputs.sizes[n_vocab]
    bad = [t for t in tokens if not 0 <= t < vocab]
    if bad:
        raise InputError(f"{path}: token id(s) {bad} outside 0..{vocab - 1} (n_vocab = {vocab}, from W_E)")
    return inputs


# --------------------------------------------------------------------------- evaluation


def _is_exact(value: ImmutableMatrix) -> bool:
    return not any(entry.has(Float) for entry in value)


def _is_algebraic(value: ImmutableMatrix) -> bool:
    return not any(entry.has(exp) for entry in value)


def _concrete(model: Model, key: str, sizes: dict):
    """Row ``key``'s symbol and expression at concrete sizes and head 1, head sums written out."""
    a = model[key]
    expr, symbol = a.expr.subs(sizes), a.symbol.subs(sizes)
    expr = expr.replace(lambda e: isinstance(e, HeadSum),
                        lambda e: MatAdd(*[e.at(c) for c in range(1, int(e.count) + 1)]))
    return symbol.xreplace({h: 1}), expr.xreplace({h: 1})


def _parameter_symbols(model: Model, sizes: dict) -> dict[str, MatrixSymbol]:
    return {p.key: p.symbol.subs(sizes).xreplace({h: 1}) for p in model.parameters}


@dataclass(frozen=True)
class Step:
    key: str
    symbol: MatrixSymbol  # at concrete sizes, head 1
    expr: object  # the row's expression at concrete sizes (symbols of earlier rows and parameters)
    value: ImmutableMatrix  # exact when the inputs are exact (see module docstring)
    definition: object = None  # the row as the table writes it (symbolic sizes), head 1


@dataclass
class WorkedExample:
    """The steps of one example, and their LaTeX."""

    inputs: Inputs
    steps: list[Step]
    values: dict  # symbol -> value used downstream (floats once transcendental)
    precision: int = 3
    mlp: bool = False
    symbols: dict = field(default_factory=dict)  # weights-file key -> parameter symbol

    def value(self, key: str) -> ImmutableMatrix:
        for step in self.steps:
            if step.key == key:
                return step.value
        raise KeyError(key)

    def decimals(self, key: str) -> list[list[str]]:
        value = self.value(key)
        return [[decimal(value[i, j], self.precision) for j in range(value.shape[1])] for i in range(value.shape[0])]

    # ---- LaTeX ---------------------------------------------------------------------------------
    def latex(self) -> str:
        """The ``align*`` LaTeX, after a ``%`` comment naming the token of each column of $t$ when there is a text."""
        comment = f"% {self.token_line()}\n" if self.inputs.text is not None else ""
        return comment + self._align()

    def _align(self) -> str:
        printer = _ValuePrinter(self.values, self.precision)
        t_sym = toy_model()["tokens"].symbol.subs(self.inputs.sizes)
        ids = ", ".join(str(t) for t in self.inputs.tokens)
        count = len(self.inputs.tokens)
        last = str(count) if count < 10 else f"{{{count}}}"
        lines = [rf"t &= [t_1, \dots, t_{last}] = {printer.doprint(t_sym)} "
                 rf"&& \text{{token ids }} {ids}"]
        for step in self.steps:
            lines += printer.step_lines(step)
        body = " \\\\\n".join(lines)
        return f"\\begin{{align*}}\n{body}\n\\end{{align*}}"

    def token_line(self) -> str:
        """Which token each column of $t$ is: ``'The' = 39, ' Empire' = 45, ...`` (empty without a text)."""
        if self.inputs.text is None:
            return ""
        pairs = ", ".join(f"{t.text!r} = {t.id}" for t in self.inputs.text.tokens)
        return f"tokens of {self.inputs.text.text!r}: {pairs}"

    def markdown(self) -> str:
        sizes = self.inputs.sizes
        described = ", ".join(f"${latex(s)} = {sizes[s]}$" for s in (n, n_vocab, d_model, d_head, d_mlp, H)
                              if s in sizes and (s != d_mlp or self.mlp))
        exact = all(_is_exact(w) for w in self.inputs.weights.values())
        values = "the exact values" if exact else "the values (float inputs, carried to 30 digits)"
        head = f"Worked example ({self.inputs.source}): {described}; decimals are {values} rounded to {self.precision} places."
        if self.inputs.text is not None:
            line = self.token_line()
            fence = "`" * max(3, 1 + max((len(run) for run in re.findall("`+", line)), default=0))
            head += f"\n\nThe columns of $t$, in order:\n\n{fence}text\n{line}\n{fence}"
        return f"{head}\n\n$$\n{self._align()}\n$$"


def evaluate(inputs: Inputs, mlp: bool = False, precision: int = 3) -> WorkedExample:
    """Evaluate the toy model's rows in order at ``inputs``; see the module docstring for exactness."""
    if not 0 <= precision <= 15:
        raise InputError(f"precision must be between 0 and 15 decimal places, got {precision}")
    model = toy_model()
    sizes = inputs.sizes
    if mlp:
        missing = [k for k in MLP_WEIGHTS if k not in inputs.weights]
        if missing:
            raise InputError(f"--mlp needs the weight(s) {', '.join(missing)} in {inputs.source}")
    symbols = _parameter_symbols(model, sizes)
    values: dict = {}
    for key, matrix in inputs.weights.items():
        expected = symbols[key].shape
        if matrix.shape != expected:
            shape = " × ".join(str(s) for s in model.parameter(key).shape)
            raise InputError(f"{inputs.source}: {key} must be {expected[0]}×{expected[1]} ({shape}); "
                             f"got {matrix.shape[0]}×{matrix.shape[1]}")
        values[symbols[key]] = matrix
    if sizes[n] > sizes[n_ctx]:
        raise InputError(f"{inputs.source}: {sizes[n]} tokens but W_pos has only {sizes[n_ctx]} positions")
    t_sym = model["tokens"].symbol.subs(sizes)
    values[t_sym] = one_hot(inputs.tokens, sizes[n_vocab])
    steps = []
    for key in ATTENTION_STEPS + (MLP_STEPS if mlp else ()):
        symbol, expr = _concrete(model, key, sizes)
        value = explicit(expr.xreplace(values), Env(strict=True))  # a symbol left without a value is a bug
        row = model[key]
        head = {h: 1} if row.per_head else {}
        steps.append(Step(key, symbol, expr, value, (row.symbol.xreplace(head), row.expr.xreplace(head))))
        if not _is_exact(value) or not _is_algebraic(value):
            value = value.evalf(_DIGITS)  # carry transcendental and float values as 30-digit floats from here
        values[symbol] = value
    return WorkedExample(inputs, steps, values, precision, mlp, symbols)


def decimal(value, places: int) -> str:
    """``value`` rounded once, half to even, to ``places`` decimals (``-0.000`` written ``0.000``)."""
    value = S(value)
    with localcontext() as ctx:
        ctx.prec = 60
        if value.is_Rational:
            exact = Decimal(int(value.p)) / Decimal(int(value.q))
        else:
            exact = Decimal(str(value.evalf(40)))
        rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    if rounded.is_zero():
        rounded = abs(rounded)
    return f"{rounded:f}"


class _ValuePrinter(PostLatexPrinter):
    r"""Prints a row's expression with each symbol replaced by its value as a ``bmatrix``."""

    def __init__(self, values: dict, precision: int):
        super().__init__({})
        self.values = values
        self.precision = precision
        self.approximate = False  # set when an operand had to be shown as decimals

    def matrix(self, value: ImmutableMatrix, exact: bool) -> str:
        def cell(x):
            return sympy_latex(x) if exact else decimal(x, self.precision)

        rows = " \\\\ ".join(" & ".join(cell(value[i, j]) for j in range(value.shape[1]))
                             for i in range(value.shape[0]))
        return f"\\begin{{bmatrix}} {rows} \\end{{bmatrix}}"

    def operand(self, value: ImmutableMatrix) -> str:
        exact = _is_exact(value)
        self.approximate |= not exact
        return self.matrix(value, exact)

    def _print_MatrixSymbol(self, expr):
        if expr in self.values:
            return self.operand(self.values[expr])
        return super()._print_MatrixSymbol(expr)

    _print_HeadMatrixSymbol = _print_MatrixSymbol

    def _print_Transpose(self, expr):
        if expr.arg in self.values:
            return self.operand(self.values[expr.arg].T)
        return super()._print_Transpose(expr)

    def _print_LeadingColumns(self, expr: LeadingColumns):
        if expr.W in self.values:
            W = self.values[expr.W]
            count = int(expr.count)
            return self.operand(W[:, :count] if expr.axis == 1 else W[:count, :])
        return super()._print_LeadingColumns(expr)

    def step_lines(self, step: Step) -> list[str]:
        definition = PostLatexPrinter({})
        lhs, rhs = step.definition
        lines = [f"{definition.doprint(lhs)} &= {definition.doprint(rhs)}"]
        self.approximate = False
        arithmetic = self.doprint(step.expr)
        relation = "\\approx" if self.approximate else "="
        lines.append(f"&{relation} {arithmetic}")
        value = step.value
        exact_text = self.matrix(value, exact=True) if _is_exact(value) else None
        shown_exact = exact_text is not None and len(exact_text) <= _EXACT_DISPLAY_LIMIT
        if shown_exact:
            lines.append(f"&= {exact_text}")
        if not shown_exact or any(not x.is_Rational for x in value):
            lines.append(f"&\\approx {self.matrix(value, exact=False)}")
        return lines


# --------------------------------------------------------------------------- named examples

EXAMPLES = {
    "example-toy": {"seed": 0, "mlp": False, "precision": 3},
    "example-toy-mlp": {"seed": 0, "mlp": True, "precision": 3},
}
EXAMPLE_IDS = tuple(EXAMPLES)


def worked_example(seed: int | None = 0, weights: str | Path | None = None, mlp: bool = False,
                   precision: int = 3, text: str | None = None, tokenizer: str | Path | None = None,
                   vocab_size: int | None = None) -> WorkedExample:
    """The walk-through for a weights file, or for random weights at the toy sizes from ``seed``
    (with ``text``: its tokens, see :func:`text_inputs`)."""
    if text is not None and weights is not None:
        raise InputError("--text gives the tokens and --weights gives tokens too: use one of them")
    if text is None and (tokenizer is not None or vocab_size is not None):
        raise InputError("--tokenizer and --vocab-size apply only with --text")
    if text is not None:
        inputs = text_inputs(text, seed or 0, mlp, tokenizer, vocab_size)
    else:
        inputs = load_inputs(weights) if weights is not None else random_inputs(seed or 0, mlp=mlp)
    return evaluate(inputs, mlp=mlp, precision=precision)


def named_example(name: str) -> WorkedExample:
    """A worked example by region id (``example-toy``, ``example-toy-mlp``)."""
    if name not in EXAMPLES:
        raise InputError(f"unknown example {name!r}; known: {', '.join(EXAMPLE_IDS)}")
    return worked_example(**EXAMPLES[name])
