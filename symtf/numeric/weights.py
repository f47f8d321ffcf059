r"""Weight files: the post's column-vector shapes, one npz entry per parameter.

=============================  ==============================  =====================================
key                            shape in the file               in the post
=============================  ==============================  =====================================
``W_E``                        (d_model, n_vocab)              $W_E$, column $k$ embeds token $k$
``W_pos``                      (d_model, n_ctx)                $W_\text{pos}$, column $i$ = position $i$
``W_Q``, ``W_K``, ``W_V``      (H, d_head, d_model)            $W_Q^h$ ... stacked over heads
``W_O``                        (H, d_model, d_head)            $W_O^h$
``b_Q``, ``b_K``, ``b_V``      (H, d_head)                     GPT-2's attention biases
``b_O``                        (d_model,)
``ln1_g`` ... ``lnf_b``        (d_model,)                      $\gamma$, $\beta$ of each LayerNorm
``W_1`` / ``b_1``              (d_mlp, d_model) / (d_mlp,)
``W_2`` / ``b_2``              (d_model, d_mlp) / (d_model,)
``W_U``                        (n_vocab, d_model)              absent when tied ($W_U = W_E^\top$)
=============================  ==============================  =====================================

A stacked model (``Variant(layers=L)``, $L \ge 2$) reads every block parameter (``W_Q`` ... ``b_2``,
``ln1_*``, ``ln2_*``) with a leading layer axis: ``W_Q`` is (L, H, d_head, d_model), layer
$\ell$ at index $\ell - 1$ (the layout :func:`symtf.numeric.checkpoint.load_checkpoint` returns);
the one-layer model also reads them with a leading axis of 1.

The simplified model has one head; it reads ``W_Q`` ... as (1, d_head, d_model) or
(d_head, d_model). Keys a variant does not use are ignored. A missing key, a wrong shape or a
NaN/infinite entry is an :class:`~symtf.errors.InputError` naming the key.
"""
from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from sympy import Symbol

from ..dims import SIZES
from ..errors import InputError
from ..io import write_atomic
from ..model import Convention, Kind, Model, Variant, build

_SIZE_BY_NAME = {str(s): s for s in SIZES}
_ONE_HEAD = ("W_Q", "W_K", "W_V", "W_O")  # per head in the file, one head in the simplified model
#: Block parameters: a leading layer axis in a stacked model's file (and a 1-layer checkpoint's).
PER_LAYER = ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "W_O", "b_O", "ln1_g", "ln1_b", "ln2_g", "ln2_b",
             "W_1", "b_1", "W_2", "b_2")

#: Small prime sizes, one per dimension, so that a swapped axis cannot pass unnoticed.
DEFAULT_SIZES = {"n_vocab": 13, "d_model": 7, "d_head": 5, "d_mlp": 11, "H": 2, "n_ctx": 17}


def column_model(variant: Variant | str | Model) -> Model:
    """The column-convention model whose parameter shapes define the file format."""
    if isinstance(variant, Model):
        if variant.variant.convention is Convention.COLUMN:
            return variant
        variant = variant.variant
    if isinstance(variant, str):
        variant = Variant.preset(variant)
    return build(variant.with_(convention=Convention.COLUMN))


def file_shape(param) -> tuple:
    """A parameter's shape in a weights file, in size symbols: the layer axis, then the head axis, first."""
    layer = (_SIZE_BY_NAME["n_layers"],) if param.per_layer else ()
    return layer + ((_SIZE_BY_NAME["H"],) if param.per_head else ()) + tuple(param.shape)


def _show(shape, sizes) -> str:
    parts = [str(sizes.get(s, s)) if isinstance(s, Symbol) else str(s) for s in shape]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


class Weights(Mapping):
    """Validated weights of one model, by parameter key, cast to ``dtype``; ``sizes`` maps size names to ints.

    Arrays keep the file's layout (vectors 1-D, the head axis first). Build one with
    :func:`load_weights` or :func:`check_weights`; a compiled forward pass accepts it without
    checking again.
    """

    def __init__(self, arrays: dict[str, np.ndarray], sizes: dict[str, int], dtype, variant: Variant):
        self._arrays = arrays
        self.sizes = sizes
        self.dtype = np.dtype(dtype)
        self.variant = variant

    def __getitem__(self, key):
        return self._arrays[key]

    def __iter__(self):
        return iter(self._arrays)

    def __len__(self):
        return len(self._arrays)


def check_weights(variant, weights: Mapping[str, np.ndarray], dtype=np.float64) -> Weights:
    """Validate ``weights`` for ``variant``: every key present, shapes consistent, entries finite.

    Sizes are read from the arrays themselves (d_model and n_vocab from ``W_E`` ...) and every
    other array must agree with them.
    """
    model = column_model(variant)
    sizes: dict = {}
    source: dict = {}  # size symbol -> the key that fixed it
    arrays: dict[str, np.ndarray] = {}
    block_params = [p for p in model.parameters if p.key in PER_LAYER and p.key in weights]  # all must have it
    one_layer_axis = model.block is None and model.variant.kind is Kind.FULL and bool(block_params) and all(
        np.ndim(weights[p.key]) == len(file_shape(p)) + 1 and np.shape(weights[p.key])[0] == 1 for p in block_params)
    for p in model.parameters:
        expected = file_shape(p)
        if p.key not in weights:
            raise InputError(f"weights: missing key {p.key!r} (expected shape {_show(expected, sizes)})")
        try:
            a = np.asarray(weights[p.key])
        except Exception as exc:  # an object array, a ragged list ...
            raise InputError(f"weights: {p.key!r} is not a numeric array ({exc})") from None
        if not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):
            raise InputError(f"weights: {p.key!r} has dtype {a.dtype}, expected a real floating-point array")
        if model.variant.kind is Kind.SIMPLIFIED and p.key in _ONE_HEAD and a.ndim == len(expected) + 1:
            if a.shape[0] != 1:  # the simplified model: one head, read from the (H, ...) layout
                raise InputError(f"weights: {p.key!r} has shape {a.shape}; the {model.id} model has one head, "
                                 f"expected {_show((1,) + expected, sizes)} or {_show(expected, sizes)}")
            a = a[0]
        if one_layer_axis and p.key in PER_LAYER:
            a = a[0]  # a one-layer checkpoint's (1, ...) layer axis: the one-layer model has no layer axis
        if a.ndim != len(expected):
            raise InputError(f"weights: {p.key!r} has shape {a.shape}, expected {_show(expected, sizes)}")
        for size, actual in zip(expected, a.shape):
            if actual == 0:
                raise InputError(f"weights: {p.key!r} has shape {a.shape}, expected {_show(expected, {})}: "
                                 f"{size} = 0, every size must be at least 1")
            if size.is_Integer:
                ok = int(size) == actual
            else:
                ok = sizes.setdefault(size, actual) == actual
                source.setdefault(size, p.key)
            if not ok:
                raise InputError(f"weights: {p.key!r} has shape {a.shape}, expected {_show(expected, {})} = "
                                 f"{_show(expected, sizes)} ({size}={sizes[size]} from {source[size]!r})")
        a = a.astype(dtype, copy=False)
        if not np.isfinite(a).all():
            bad = np.argwhere(~np.isfinite(a))[0]
            raise InputError(f"weights: {p.key!r} has a non-finite entry ({a[tuple(bad)]} at index "
                             f"{tuple(int(i) for i in bad)}); NaN and infinite weights are rejected")
        arrays[p.key] = a
    layers = sizes.get(_SIZE_BY_NAME["n_layers"])
    if model.block is not None and layers != model.block.layers:
        raise InputError(f"weights: {layers} layers ({source[_SIZE_BY_NAME['n_layers']]!r} has shape "
                         f"{arrays[source[_SIZE_BY_NAME['n_layers']]].shape}) but the model has {model.block.layers}")
    return Weights(arrays, {str(k): int(v) for k, v in sizes.items()}, dtype, model.variant)


def load_weights(path, variant, dtype=np.float64) -> Weights:
    """Read and validate an npz weights file (see the module docstring for the keys and shapes)."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            raw = {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise InputError(f"{path}: not a readable npz weights file ({exc})") from None
    try:
        return check_weights(variant, raw, dtype)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def save_weights(path, weights: Mapping[str, np.ndarray]) -> None:
    """Write ``weights`` as an npz file in the format :func:`load_weights` reads (atomically, at ``path`` as given)."""
    write_npz(path, weights)


def write_npz(path, arrays: Mapping[str, np.ndarray]) -> Path:
    """Write ``arrays`` as an npz file at exactly ``path`` (no ``.npz`` appended), atomically."""
    buffer = io.BytesIO()
    np.savez(buffer, **{k: np.asarray(v) for k, v in arrays.items()})
    return write_atomic(path, buffer.getvalue())


def random_weights(variant, sizes: Mapping | None = None, seed: int = 0) -> dict[str, np.ndarray]:
    r"""Random float64 weights for ``variant`` in the file format; ``sizes`` maps size names to ints.

    Matrices have entries $\mathcal N(0, 1/\text{fan-in})$ (so activations stay of order 1), the
    embeddings $\mathcal N(0, 1)$, biases and LayerNorm shifts $\mathcal N(0, 0.1^2)$, LayerNorm
    scales $1 + \mathcal N(0, 0.1^2)$. Missing sizes default to :data:`DEFAULT_SIZES`.
    """
    given = {str(k): int(v) for k, v in (sizes or {}).items()}
    unknown = set(given) - set(_SIZE_BY_NAME)
    if unknown:
        raise InputError(f"unknown size(s) {', '.join(sorted(unknown))}; known: {', '.join(_SIZE_BY_NAME)}")
    values = {**DEFAULT_SIZES, **given}
    for name, value in values.items():
        if value < 1:
            raise InputError(f"size {name} must be a positive integer, got {value}")
    model = column_model(variant)
    values["n_layers"] = model.variant.layers
    rng = np.random.default_rng(seed)
    out = {}
    for p in model.parameters:
        shape = tuple(int(values[str(s)]) if not s.is_Integer else int(s) for s in file_shape(p))
        if p.key.startswith("ln") and p.key.endswith("_g"):
            a = 1.0 + 0.1 * rng.standard_normal(shape)
        elif p.key.startswith("b_") or p.key.startswith("ln"):
            a = 0.1 * rng.standard_normal(shape)
        elif p.key in ("W_E", "W_pos"):
            a = rng.standard_normal(shape)
        else:
            a = rng.standard_normal(shape) / np.sqrt(shape[-1])
        out[p.key] = a
    return out
