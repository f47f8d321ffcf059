r"""Notation profiles as data: how a document names sizes, parameters and activations.

A symbol is looked up by its *key*: the base, then ``^(L)`` for a layer superscript, ``_tag``
for a naming subscript (``W_\text{pos}`` → ``W_pos``, ``x^{(0)}_\text{LN}`` → ``x^(0)_LN``), and
``[i]`` for an activation whose name carries its token index (the simplified model's ``q_n``).
Activations map to model keys per model kind; per-head ones take a head superscript.
A user profile (JSON or TOML) overrides or extends a built-in one, key by key.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import InputError

_SIZES = {"n": "n", "d_model": "d_model", "d_head": "d_head", "d_mlp": "d_mlp", "n_vocab": "n_vocab", "H": "H",
          "n_heads": "H", "n_layers": "n_layers", "n_ctx": "n_ctx", "d_k": "d_head", "d_v": "d_head",
          "d_ff": "d_mlp"}
_PARAMS = {"W_E": "W_E", "W_pos": "W_pos", "W_P": "W_pos", "W_Q": "W_Q", "W_K": "W_K", "W_V": "W_V", "W_O": "W_O",
           "W_U": "W_U", "W_1": "W_1", "W_2": "W_2", "b_1": "b_1", "b_2": "b_2", "b_Q": "b_Q", "b_K": "b_K",
           "b_V": "b_V", "b_O": "b_O", r"\gamma": "ln_g", r"\beta": "ln_b"}

COLUMN: dict = {
    "name": "column",
    "convention": "column",
    "sizes": dict(_SIZES),
    # one quantity, another name: accepted, and reported by the notation lint
    "lint_sizes": {"d_vocab": ("n_vocab", r"n_\text{vocab}")},
    "params": dict(_PARAMS),
    "per_head": ["q", "k", "v", "S", "A", "r", "o"],
    "entries": {"s": "S", "a": "A"},  # s_{ij} is an entry of S (full model)
    "activations": {
        "zero": {"t": "tokens", "x^(0)": "embed", r"\ell": "logits", "p": "probs"},
        "simplified": {"t": "tokens", "x": "embed", "x^(0)": "embed", "q[n]": "q", "k": "k", "v": "v",
                       "s": "scores", "a": "pattern", "r[n]": "result", "o[n]": "head_out",
                       "x^(1)[n]": "resid_mid", r"\ell[n+1]": "logits", "p[n+1]": "probs"},
        "full": {"t": "tokens", "x^(0)": "embed", "x^(0)_LN": "ln1", "q": "q", "k": "k", "v": "v", "S": "scores",
                 "A": "pattern", "r": "result", "o": "head_out", "x^(1)": "resid_mid", "x^(1)_LN": "ln2",
                 "z": "mlp_hidden", "m": "mlp_out", "x^(2)": "resid_post", "x^(2)_LN": "lnf", r"\ell": "logits",
                 "p": "probs"},
    },
    # letters that name different sizes in different documents: a published figure is compared with them
    # only where the document says what they are
    "ambiguous": ["d", "h", "D", "N", "L", "V", "T", "P", "E"],
}

ROW: dict = {
    "name": "row",
    "convention": "row",
    "sizes": dict(_SIZES, d="d_head", d_model="d_model"),
    "shape_sizes": {"h": "H"},  # in a shape or size relation, h is the number of heads (Vaswani et al.)
    "lint_sizes": {"d_vocab": ("n_vocab", r"n_\text{vocab}")},
    "params": dict(_PARAMS),
    "per_head": ["Q", "K", "V", "S", "A", "Z", "O"],
    "entries": {},
    "head_alias": {r"\text{head}": "Z"},  # head_i = Attention(X W_i^Q, X W_i^K, X W_i^V): head i's result
    "activations": {
        "full": {"T": "tokens", "X": "embed", "X^(0)": "embed", "X^(0)_LN": "ln1", "Q": "q", "K": "k", "V": "v",
                 "S": "scores", "A": "pattern", "Z": "result", "O": "head_out", "X^(1)": "resid_mid",
                 "X^(1)_LN": "ln2", "H": None, "M": "mask", "X^(2)": "resid_post", "L": "logits", "P": "probs"},
    },
    "ambiguous": ["d", "h", "D", "N", "L", "V", "T", "P", "E"],
}

PROFILES = {"column": COLUMN, "row": ROW}


def load_profile(path: str | Path) -> dict:
    """A user profile: a JSON or TOML table with any of the keys above (checked by
    :mod:`symtf.check.profile_schema`); ``base`` names the built-in it extends."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read profile {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"profile {path} is not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    try:
        if path.suffix == ".toml":
            import tomllib

            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except ValueError as exc:
        raise InputError(f"profile {path} is not valid {path.suffix.lstrip('.') or 'JSON'}: {exc}") from None
    from .profile_schema import validate_profile

    validate_profile(data, path)
    base = PROFILES[data.get("base", data.get("convention", "column"))]
    merged = {k: (dict(v) if isinstance(v, dict) else v) for k, v in base.items()}
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            if key == "activations":
                for kind, table in value.items():
                    merged[key].setdefault(kind, {}).update(table)
            else:
                merged[key].update(value)
        else:
            merged[key] = value
    merged["name"] = data.get("name", path.stem)
    return merged
