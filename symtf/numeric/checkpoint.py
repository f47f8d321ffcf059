r"""Read a Hugging Face GPT-2 checkpoint directory into symtf's parameters.

Public API::

    ckpt = load_checkpoint("path/to/gpt2")        # a Checkpoint
    ckpt.variant     # Variant: GPT-2 (biases, final LayerNorm, ε and GELU from config.json), layers = L
    ckpt.sizes       # {"n_vocab", "d_model", "d_head", "d_mlp", "H", "n_ctx", "n_layers"}: ints from the config
    ckpt.params      # {parameter key: array}, symtf's weights-file layout (below), the file's float dtype
    ckpt.config      # config.json as a dict

The directory holds ``config.json`` and ``model.safetensors`` (read with the ``safetensors``
library; a sharded ``model.safetensors.index.json`` too) or ``pytorch_model.bin`` (read with
``torch.load(weights_only=True)``, so only when torch is installed). Every size is named by the
config and every tensor's shape is checked against it. Another architecture (``model_type`` other
than ``gpt2``) or a GPT-2 option symtf does not model is an :class:`~symtf.errors.InputError` in
one line naming the file.

Layout of ``params`` (the post's column vectors; $L$ layers, $H$ heads):

=============================  ================================  =====================================
key                            shape                              from the HF tensor (Conv1D: y = x W + b)
=============================  ================================  =====================================
``W_E``                        (d_model, n_vocab)                 ``wte.weight``ᵀ
``W_pos``                      (d_model, n_ctx)                   ``wpe.weight``ᵀ
``W_Q``, ``W_K``, ``W_V``      (L, H, d_head, d_model)            ``c_attn.weight`` (d, 3d): columns
                                                                  [Q | K | V], head $h$ at columns
                                                                  $h\,d_\text{head} \dots$, transposed
``b_Q``, ``b_K``, ``b_V``      (L, H, d_head)                     ``c_attn.bias`` split the same way
``W_O``                        (L, H, d_model, d_head)            ``attn.c_proj.weight`` (H d_head, d):
                                                                  rows of head $h$, transposed
``b_O``                        (L, d_model)                       ``attn.c_proj.bias``
``ln1_g``, ``ln1_b`` ...       (L, d_model)                       ``ln_1``/``ln_2`` weight and bias
``W_1``, ``b_1``               (L, d_mlp, d_model), (L, d_mlp)    ``mlp.c_fc``, weight transposed
``W_2``, ``b_2``               (L, d_model, d_mlp), (L, d_model)  ``mlp.c_proj``, weight transposed
``lnf_g``, ``lnf_b``           (d_model,)                         ``ln_f``
``W_U``                        (n_vocab, d_model)                 ``lm_head.weight``; absent when tied
=============================  ================================  =====================================

Per-layer parameters carry the layer axis first (layer $\ell$ at index $\ell - 1$), then the
head axis, as the weights files of :mod:`symtf.numeric.weights` carry the head axis.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sympy import Rational

from ..errors import InputError
from ..model import Nonlinearity, Variant

from .weights import PER_LAYER  # parameters once per layer: a leading layer axis in ``Checkpoint.params``

#: GPT-2's ``activation_function`` values and the nonlinearity each one is.
ACTIVATIONS = {"gelu_new": Nonlinearity.GELU_TANH, "gelu_pytorch_tanh": Nonlinearity.GELU_TANH,
               "gelu": Nonlinearity.GELU, "relu": Nonlinearity.RELU}

# config options whose non-default value changes the function GPT-2 computes in a way symtf does not model
_UNSUPPORTED = {"scale_attn_weights": True, "scale_attn_by_inverse_layer_idx": False, "add_cross_attention": False}


@dataclass(frozen=True)
class Checkpoint:
    """A GPT-2 checkpoint read by :func:`load_checkpoint`: its config, sizes, variant and parameters."""

    path: Path
    config: dict
    sizes: dict[str, int]
    variant: Variant
    params: dict[str, np.ndarray]

    @property
    def layers(self) -> int:
        return self.sizes["n_layers"]

    def layer(self, index: int) -> dict[str, np.ndarray]:
        """Layer ``index`` (1-based, $\\ell$) alone, plus the global parameters: a one-layer weights dict."""
        if not 1 <= index <= self.layers:
            raise InputError(f"layer {index} is outside 1..{self.layers}")
        return {k: (v[index - 1] if k in PER_LAYER else v) for k, v in self.params.items()}


def _read_config(path: Path) -> dict:
    file = path / "config.json"
    if not path.is_dir():
        raise InputError(f"{path}: not a directory (expected a Hugging Face GPT-2 checkpoint directory)")
    try:
        config = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no config.json (expected a Hugging Face GPT-2 checkpoint directory)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{file}: not a readable JSON config ({exc})") from None
    if not isinstance(config, dict):
        raise InputError(f"{file}: expected a JSON object, got {type(config).__name__}")
    kind = config.get("model_type")
    if kind != "gpt2":
        raise InputError(f"{file}: model_type {kind!r} is not supported; symtf reads GPT-2 checkpoints "
                         "(model_type 'gpt2')")
    for key, default in _UNSUPPORTED.items():
        if config.get(key, default) != default:
            raise InputError(f"{file}: {key} = {config[key]!r} is not modelled by symtf (only {default!r})")
    return config


def _sizes(config: dict, file: Path) -> dict[str, int]:
    def get(key, default=None):
        value = config.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise InputError(f"{file}: {key} must be a positive integer, got {value!r}")
        return value

    d_model, heads = get("n_embd"), get("n_head")
    if d_model % heads:
        raise InputError(f"{file}: n_embd = {d_model} is not a multiple of n_head = {heads}")
    inner = config.get("n_inner")
    return {"n_vocab": get("vocab_size"), "d_model": d_model, "d_head": d_model // heads,
            "d_mlp": 4 * d_model if inner is None else get("n_inner"), "H": heads,
            "n_ctx": get("n_positions"), "n_layers": get("n_layer")}


def _variant(config: dict, sizes: dict, file: Path) -> Variant:
    act = config.get("activation_function", "gelu_new")
    if act not in ACTIVATIONS:
        raise InputError(f"{file}: activation_function {act!r} is not supported; known: {', '.join(ACTIVATIONS)}")
    eps = config.get("layer_norm_epsilon", 1e-5)
    if not isinstance(eps, (int, float)) or eps < 0:
        raise InputError(f"{file}: layer_norm_epsilon must be a non-negative number, got {eps!r}")
    return Variant.preset("gpt2").with_(
        nonlinearity=ACTIVATIONS[act], ln_eps=Rational(repr(float(eps))),
        tied_unembed=bool(config.get("tie_word_embeddings", True)), layers=sizes["n_layers"])


def _read_safetensors(files: list[Path]) -> dict[str, np.ndarray]:
    from safetensors import SafetensorError, safe_open

    tensors = {}
    for file in files:
        try:
            with safe_open(str(file), framework="numpy") as f:
                for key in f.keys():
                    tensors[key] = f.get_tensor(key)
        except (SafetensorError, OSError, TypeError, ValueError) as exc:
            raise InputError(f"{file}: not a readable safetensors file ({exc})") from None
    return tensors


def _read_bin(file: Path) -> dict[str, np.ndarray]:
    try:
        import torch
    except ImportError:
        raise InputError(f"{file}: reading pytorch_model.bin needs torch (pip install -e '.[crosscheck]'), "
                         "or save the checkpoint as model.safetensors") from None
    try:
        state = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many types for a bad or unsafe pickle
        raise InputError(f"{file}: not a readable PyTorch state dict ({type(exc).__name__}: {exc})") from None
    if not isinstance(state, dict):
        raise InputError(f"{file}: expected a state dict, got {type(state).__name__}")
    keep = (torch.float32, torch.float64)
    return {k: (v if v.dtype in keep or not v.is_floating_point() else v.float()).detach().numpy()
            for k, v in state.items() if isinstance(v, torch.Tensor)}


def _read_tensors(path: Path) -> tuple[dict[str, np.ndarray], Path]:
    single, index, binary = path / "model.safetensors", path / "model.safetensors.index.json", path / "pytorch_model.bin"
    if single.is_file():
        return _read_safetensors([single]), single
    if index.is_file():
        try:
            shards = sorted(set(json.loads(index.read_text(encoding="utf-8"))["weight_map"].values()))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise InputError(f"{index}: not a readable safetensors index ({exc})") from None
        return _read_safetensors([path / s for s in shards]), index
    if binary.is_file():
        return _read_bin(binary), binary
    raise InputError(f"{path}: no model.safetensors, model.safetensors.index.json or pytorch_model.bin")


def _strip_prefix(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """GPT2LMHeadModel saves ``transformer.wte.weight``, GPT2Model ``wte.weight``: one naming for both."""
    return {k.removeprefix("transformer."): v for k, v in tensors.items()}


def _map(tensors: dict[str, np.ndarray], sizes: dict[str, int], tied: bool, file: Path) -> dict[str, np.ndarray]:
    d, V, H, dh, dm, L = (sizes[k] for k in ("d_model", "n_vocab", "H", "d_head", "d_mlp", "n_layers"))

    def get(key, shape):
        if key not in tensors:
            raise InputError(f"{file}: missing tensor {key!r} (expected shape {shape})")
        a = tensors[key]
        if not np.issubdtype(a.dtype, np.floating):
            raise InputError(f"{file}: tensor {key!r} has dtype {a.dtype}, expected floating point")
        if a.shape != shape:
            raise InputError(f"{file}: tensor {key!r} has shape {a.shape}, expected {shape} from config.json")
        return a if a.dtype in (np.float32, np.float64) else a.astype(np.float32)  # float16 is widened

    p = {"W_E": get("wte.weight", (V, d)).T, "W_pos": get("wpe.weight", (sizes["n_ctx"], d)).T}
    layers = {k: [] for k in PER_LAYER}
    for i in range(L):
        h = f"h.{i}."
        W_qkv, b_qkv = get(h + "attn.c_attn.weight", (d, 3 * d)), get(h + "attn.c_attn.bias", (3 * d,))
        for j, name in enumerate("QKV"):
            # x W (row convention): output column j d + c, c = head * d_head + i; the post's W^h is its transpose
            layers[f"W_{name}"].append(W_qkv[:, j * d:(j + 1) * d].T.reshape(H, dh, d))  # (H, d_head, d_model)
            layers[f"b_{name}"].append(b_qkv[j * d:(j + 1) * d].reshape(H, dh))  # (H, d_head)
        W_proj = get(h + "attn.c_proj.weight", (d, d))  # (H d_head, d_model): rows of head h
        layers["W_O"].append(W_proj.reshape(H, dh, d).transpose(0, 2, 1))  # (H, d_model, d_head)
        layers["b_O"].append(get(h + "attn.c_proj.bias", (d,)))
        for ln, hf in (("ln1", "ln_1"), ("ln2", "ln_2")):
            layers[f"{ln}_g"].append(get(h + hf + ".weight", (d,)))
            layers[f"{ln}_b"].append(get(h + hf + ".bias", (d,)))
        layers["W_1"].append(get(h + "mlp.c_fc.weight", (d, dm)).T)  # (d_mlp, d_model)
        layers["b_1"].append(get(h + "mlp.c_fc.bias", (dm,)))
        layers["W_2"].append(get(h + "mlp.c_proj.weight", (dm, d)).T)  # (d_model, d_mlp)
        layers["b_2"].append(get(h + "mlp.c_proj.bias", (d,)))
    p.update({k: np.stack(v) for k, v in layers.items()})  # (L, ...): a copy in layer order
    p["lnf_g"], p["lnf_b"] = get("ln_f.weight", (d,)), get("ln_f.bias", (d,))
    if not tied:
        p["W_U"] = get("lm_head.weight", (V, d))
    for key, a in p.items():
        if not np.isfinite(a).all():
            raise InputError(f"{file}: parameter {key} has a non-finite entry; NaN and infinite weights are rejected")
    return p  # W_E, W_pos: transposed views of wte, wpe (no copy of the largest matrix)


def load_checkpoint(path) -> Checkpoint:
    r"""The GPT-2 checkpoint in directory ``path``: $x^{(0)} = W_E t + W_\text{pos}$, $L$ blocks, $\ell = W_U x_\text{LN}$.

    Returns a :class:`Checkpoint` whose ``params`` are in the post's column-vector layout (see the
    module docstring: Conv1D weights transposed, the fused ``c_attn`` split into $W_Q^{h,\ell}$,
    $W_K^{h,\ell}$, $W_V^{h,\ell}$ and their biases), ``sizes`` named from ``config.json`` and
    ``variant`` the GPT-2 variant with $L$ layers, the config's ε, GELU and tying. Arrays keep the
    file's float32 or float64 (float16 is widened to float32); a forward pass casts them once.
    Raises :class:`~symtf.errors.InputError` (one line, naming the file) for a missing or
    malformed file, another architecture, or a tensor whose shape disagrees with the config.
    """
    path = Path(path)
    config = _read_config(path)
    file = path / "config.json"
    sizes = _sizes(config, file)
    variant = _variant(config, sizes, file)
    tensors, source = _read_tensors(path)
    params = _map(_strip_prefix(tensors), sizes, variant.tied_unembed, source)
    return Checkpoint(path, config, sizes, variant, params)


__all__ = ["ACTIVATIONS", "PER_LAYER", "Checkpoint", "load_checkpoint"]
