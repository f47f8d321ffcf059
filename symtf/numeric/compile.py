r"""Compile a model's activations to numpy (or PyTorch) functions with ``sympy.lambdify``.

Each activation's own row (``S^h = (q^h)^\top k^h / \sqrt{d_\text{head}}``, written with the
earlier rows' symbols) is lambdified once, with the backend's printer
(:class:`~symtf.numeric.printer.SymtfNumPyPrinter`, or the torch one: :mod:`symtf.numeric.backends`).
Its arguments are the earlier rows, the parameters and the sizes it mentions; the forward pass
runs the rows in the table's order, so the numbers come from the model's own expressions and each
matrix product happens once, at the size the table writes it.

Per-head rows are compiled once, for the generic head $h$. ``heads="batched"`` calls them once
with every head's matrices stacked on a leading axis (products and transposes act on the last
two axes); ``heads="loop"`` calls them once per head with that head's slices and stacks the
results. Either way the outputs of per-head rows have the head axis first.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Callable

import numpy as np
from sympy import lambdify
from sympy.matrices.expressions.matexpr import MatrixSymbol

from ..dims import SIZES
from ..errors import InputError
from ..model import Activation, Convention, Model, Variant, build
from ..ops import HeadMatrixSymbol
from .backends import Backend
from .weights import Weights, check_weights

HEAD_MODES = ("batched", "loop")


def _model(variant) -> Model:
    if isinstance(variant, Model):
        return variant
    return build(variant)


@dataclass(frozen=True)
class CompiledRow:
    """One activation's row, lambdified: ``fn(*[env[name] for name in args], *sizes)``."""

    key: str
    name: str  # the activation's symbol name, its key in the environment
    per_head: bool
    args: tuple[str, ...]  # matrix arguments, by symbol name
    sliced: frozenset[str]  # arguments that are per-head (sliced by head in loop mode)
    sizes: tuple[str, ...]  # size arguments, by name
    fn: Callable
    source: str  # the printed expression (numpy or torch code)


def compile_row(model: Model, activation: Activation, backend: Backend = Backend()) -> CompiledRow:
    """Lambdify one activation's row expression (not its expansion) once, with ``backend``'s printer."""
    if activation.expr is None:
        raise InputError(f"{activation.key!r} is an input of {model.id!r}; there is nothing to compile")
    expr = activation.expr
    layout = "rows" if model.variant.convention is Convention.ROW else "columns"
    onehot = {a.symbol: layout for a in model.inputs()}
    symbols = sorted(expr.atoms(MatrixSymbol), key=lambda s: s.name)
    names = tuple(dict.fromkeys(s.name for s in symbols))
    sliced = frozenset(
        s.name for s in symbols if activation.per_head and isinstance(s, HeadMatrixSymbol) and not s.head.is_Integer
    )
    sizes = tuple(s for s in SIZES if s in expr.free_symbols)
    printer = backend.printer(onehot)
    args = [MatrixSymbol(name, 1, 1) for name in names] + list(sizes)
    fn = lambdify(args, expr, modules=backend.modules(), printer=printer, docstring_limit=0)
    return CompiledRow(activation.key, activation.symbol.name, activation.per_head, names, sliced,
                       tuple(str(s) for s in sizes), fn, printer.doprint(expr))


def _needed(model: Model, keys: Sequence[str]) -> list[Activation]:
    """The activations ``keys`` depend on, themselves included, in table order.

    In a stacked model a block row also depends on the stream between blocks, which no row
    defines: wanting any block row (or the final stream $x^{(2L)}$) wants every block row and the
    embedding.
    """
    by_name = {a.symbol.name: a for a in model.activations}
    block = model.block
    stream = {block.input.name, block.final.name} if block is not None else set()
    wanted: set[str] = set()
    stack = [model[k.partition(".")[0]] for k in keys]
    while stack:
        a = stack.pop()
        if a.key in wanted:
            continue
        wanted.add(a.key)
        if a.expr is not None:
            names = {s.name for s in a.expr.atoms(MatrixSymbol)}
            stack += [by_name[name] for name in names if name in by_name]
            if names & stream:
                stack += [model[k] for k in (*block.keys, "embed")]
    return [a for a in model.activations if a.key in wanted]


class Forward:
    r"""A compiled forward pass: ``f(weights, tokens) -> {activation key: array}``.

    ``weights`` is a mapping in the file format (see ``symtf.numeric.weights``), validated on each
    call, or a :class:`~symtf.numeric.weights.Weights` from ``f.prepare(weights)`` (validated once).
    ``tokens`` are integer token ids $t_1 \dots t_n$ (0-based). Outputs are in the model's own
    convention (the post's column vectors unless the variant says ``Convention.ROW``), per-head
    arrays with the head axis first: numpy arrays, or torch tensors on ``device`` with
    ``backend="torch"``. A stacked model (``Variant(layers=L)``) runs its block rows once per layer
    $\ell$, each layer reading its slice of the per-layer parameters, and returns them as
    ``"q.1"`` … ``"q.L"``. ``keys`` limits the rows run and the values kept (see
    :func:`compile_forward`).
    """

    def __init__(self, model: Model, dtype=np.float64, heads: str = "batched", keys: Sequence[str] | None = None,
                 backend: str = "numpy", device: str = "cpu"):
        if heads not in HEAD_MODES:
            raise ValueError(f"heads must be one of {', '.join(HEAD_MODES)}, got {heads!r}")
        self.model = model
        self.backend = Backend.of(backend, device, dtype if isinstance(dtype, str) else np.dtype(dtype).name)
        self.dtype = self.backend.numpy_dtype  # the dtype weights are validated in
        self.heads = heads
        self._env_cache: tuple = (None, None)
        acts = _needed(model, keys) if keys is not None else list(model.activations)
        self.rows = tuple(compile_row(model, a, self.backend) for a in acts if a.expr is not None)
        if model.block is not None:  # block rows give one output per layer: "q.1" ... "q.L"
            repeated = set(model.block.keys)
            every = [f"{r.key}.{layer}" for r in self.rows for layer in range(1, model.block.layers + 1)
                     if r.key in repeated]
            every.sort(key=lambda k: (int(k.rsplit(".", 1)[1]), model.block.keys.index(k.rsplit(".", 1)[0])))
            prefix = [r.key for r in self.rows if r.key not in repeated]
            embed_at = prefix.index("embed") + 1 if "embed" in prefix else 0
            every = prefix[:embed_at] + every + prefix[embed_at:]
            wanted = set(keys) if keys is not None else None
            self.outputs = tuple(k for k in every if wanted is None or k.rsplit(".", 1)[0] in wanted or k in wanted)
        else:
            self.outputs = tuple(keys) if keys is not None else tuple(r.key for r in self.rows)
        self._keep = frozenset(self.outputs)  # only these are returned; the rest is freed as the pass goes
        self._tokens = next(a for a in model.inputs()).symbol.name
        self._row = model.variant.convention is Convention.ROW

    @property
    def keys(self) -> tuple[str, ...]:
        return self.outputs

    def prepare(self, weights: Mapping[str, np.ndarray]) -> Weights:
        """Validate ``weights`` once (shapes, finiteness) and cast them to this function's dtype."""
        if isinstance(weights, Weights) and weights.dtype == self.dtype and weights.variant == self._column_variant():
            return weights
        return check_weights(self.model, weights, self.dtype)

    def _column_variant(self) -> Variant:
        return self.model.variant.with_(convention=Convention.COLUMN)

    def environment(self, weights: Weights) -> dict:
        """The parameters by symbol name, in the model's layout (vectors as columns), on the backend.

        The last ``Weights`` seen is remembered, so a torch backend moves the weights to its device once.
        """
        cached, env = self._env_cache
        if cached is weights:
            return dict(env)
        env = {}
        for p in self.model.parameters:
            a = weights[p.key]
            if len(p.shape) == 1:
                a = a[..., None]  # (d,) -> (d, 1); (H, d) -> (H, d, 1)
            elif self._row:
                a = np.swapaxes(a, -1, -2)
            env[p.symbol.name] = self.backend.array(a)
        self._env_cache = (weights, env)
        return dict(env)

    def __call__(self, weights: Mapping[str, np.ndarray], tokens: Sequence[int]) -> dict[str, np.ndarray]:
        weights = self.prepare(weights)
        sizes = dict(weights.sizes)
        t = _tokens(tokens, sizes)
        sizes["n"] = len(t)
        env = self.environment(weights)
        env[self._tokens] = self.backend.tokens(t)
        with self.backend.running():
            return self._forward(env, sizes)

    def _forward(self, env, sizes) -> dict:
        out = {}
        block = self.model.block
        if block is None:
            self._run(self.rows, env, sizes, out, "", set())
            return {k: out[k] for k in self.outputs}
        repeated = set(block.keys)
        rows = [r for r in self.rows if r.key in repeated]
        first = next((i for i, r in enumerate(self.rows) if r.key in repeated), len(self.rows))
        self._run(self.rows[:first], env, sizes, out, "", {self.model["embed"].symbol.name})
        stacked = {p.symbol.name: env[p.symbol.name] for p in self.model.parameters if p.per_layer}
        stream = env[self.model["embed"].symbol.name]  # x^{(0)}
        if not rows:  # nothing of the blocks is wanted (the embedding alone)
            return {k: out[k] for k in self.outputs}
        for layer in range(1, block.layers + 1):
            env.update({name: a[layer - 1] for name, a in stacked.items()})  # W_Q^{h,ℓ} ... of this layer
            env[block.input.name] = stream  # x^{(2ℓ-2)}
            self._run(rows, env, sizes, out, f".{layer}", {block.output.name})
            stream = env[block.output.name]  # x^{(2ℓ)}
        env[block.final.name] = stream  # x^{(2L)}
        self._run(self.rows[first + len(rows):], env, sizes, out, "", set())
        return {k: out[k] for k in self.outputs}

    def _run(self, rows, env, sizes, out, suffix, keep) -> None:
        """Run ``rows`` in order, each writing its symbol into ``env`` and its value into ``out[key + suffix]``.

        A row's value leaves ``env`` after the last of ``rows`` that reads it (unless its name is in
        ``keep``: the stream the next rows read), so memory holds only what is still to be read
        and the wanted outputs.
        """
        heads = sizes.get("H", 1)
        last = {r.name: i for i, r in enumerate(rows)}  # a row nobody reads is dropped at once
        for i, r in enumerate(rows):
            last.update({a: i for a in r.args if a in last})
        drops = [[] for _ in rows]
        for name, i in last.items():
            if name not in keep:
                drops[i].append(name)
        for row, drop in zip(rows, drops):
            size_args = [sizes[s] for s in row.sizes]
            if row.per_head and self.heads == "loop":
                parts = [
                    row.fn(*[env[a][c] if a in row.sliced else env[a] for a in row.args], *size_args)
                    for c in range(heads)
                ]
                value = self.backend.stack(parts)
            else:
                value = row.fn(*[env[a] for a in row.args], *size_args)
            value = self.backend.value(value)
            env[row.name] = value
            if row.key + suffix in self._keep:
                out[row.key + suffix] = value
            for name in drop:
                del env[name]


def _tokens(tokens: Sequence[int], sizes: Mapping[str, int]) -> np.ndarray:
    try:
        t = np.asarray(tokens)
    except Exception as exc:
        raise InputError(f"tokens: not a sequence of integers ({exc})") from None
    if t.ndim != 1 or t.size == 0:
        raise InputError(f"tokens: expected a non-empty 1-D sequence of token ids, got shape {t.shape}")
    if not np.issubdtype(t.dtype, np.integer):
        raise InputError(f"tokens: expected integer token ids, got dtype {t.dtype}")
    vocab = sizes.get("n_vocab")
    if vocab is not None and (t.min() < 0 or t.max() >= vocab):
        bad = int(t[(t < 0) | (t >= vocab)][0])
        raise InputError(f"tokens: id {bad} is outside the vocabulary 0..{vocab - 1}")
    ctx = sizes.get("n_ctx")
    if ctx is not None and len(t) > ctx:
        raise InputError(f"tokens: {len(t)} tokens but W_pos has positions for n_ctx = {ctx}")
    return t.astype(np.intp, copy=False)


def compile_forward(variant: Variant | str | Model = "full", dtype=np.float64, heads: str = "batched",
                    backend: str = "numpy", device: str = "cpu", keys: Sequence[str] | None = None) -> Forward:
    """The whole forward pass of ``variant``, every row lambdified once: ``f(weights, tokens) -> dict``.

    ``backend="torch"`` prints the rows with the torch printer and returns torch tensors on
    ``device`` (``"cpu"``, ``"cuda"``); ``dtype`` float32 or float64, or ``"bfloat16"`` with torch.
    ``keys`` (e.g. ``["logits"]``) runs only the rows they need and keeps only their values, so
    memory holds one layer's activations at a time; a stacked model's block keys give every layer
    (``"q"`` → ``"q.1"`` … ``"q.L"``; ``"q.2"`` alone is also accepted).

    >>> import numpy as np
    >>> from symtf.numeric import compile_forward, random_weights
    >>> f = compile_forward("gpt2", np.float32)
    >>> acts = f(random_weights("gpt2", seed=0), [3, 1, 4])
    >>> acts["pattern"].shape, acts["probs"].shape  # (H, n, n), (n_vocab, n)
    ((2, 3, 3), (13, 3))
    """
    return Forward(_model(variant), dtype, heads, keys, backend=backend, device=device)


class ActivationFunction:
    """One activation as a function of the weights and tokens; only the rows it needs are compiled."""

    def __init__(self, model: Model, key: str, dtype=np.float64, heads: str = "batched"):
        self.key = key
        self.forward = Forward(model, dtype, heads, keys=[key])
        self.row = next(r for r in self.forward.rows if r.key == key)

    def __call__(self, weights, tokens) -> np.ndarray:
        return self.forward(weights, tokens)[self.key]


def compile_activation(model: Model | Variant | str, key: str, dtype=np.float64, heads: str = "batched"):
    """Activation ``key`` of ``model`` as ``f(weights, tokens) -> array``; ``f.row.fn`` is its own row's function."""
    model = _model(model)
    model[key]  # an unknown key raises UnknownSymbolError naming the known ones
    if model.block is not None and key in model.block.keys:
        raise InputError(f"{key!r} is a block row of the {model.block.layers}-layer model, one per layer: use "
                         f"compile_forward(...)(weights, tokens)['{key}.ℓ'] for ℓ = 1 … {model.block.layers}")
    return ActivationFunction(model, key, dtype, heads)
