r"""Activations by TransformerLens hook name: ``blocks.{l}.hook_resid_pre`` … plus ``logits`` and ``probs``.

A row's ``hook`` is the name TransformerLens gives the same quantity (a stacked model's block
rows hold the template ``blocks.{l}.…``, filled with $l = \ell - 1$: TransformerLens counts
blocks from 0, the tables count layers $\ell$ from 1). Rows with no hook (the logits and the
probabilities) keep their key. In a stacked model ``blocks.{l}.hook_resid_pre`` for $l \ge 1$ is
``blocks.{l-1}.hook_resid_post`` again: $x^{(2\ell-2)}$ is written by one block and read by the
next. The arrays are symtf's own, in the model's convention: the post's
column vectors ($d_\text{model} \times n$, tokens as columns; per-head arrays head axis first) or
the row convention's transposes, never TransformerLens's ``(batch, pos, head, d_head)`` layout.
Where a TransformerLens hook is defined differently, the value is symtf's row: ``hook_attn_scores``
holds $S^h$ before the causal mask, ``ln1.hook_normalized`` the LayerNorm output with $\gamma$
and $\beta$ applied.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..model import Model


def hook_name(model: Model, key: str) -> str:
    """The TransformerLens name of output ``key`` (``"q.2"`` → ``blocks.1.attn.hook_q``), or ``key`` itself."""
    base, _, layer = key.partition(".")
    hook = model[base].hook
    if hook is None:
        return key
    return hook.format(l=int(layer) - 1) if layer else hook


def by_hook(model: Model, acts: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``acts`` (a forward pass's outputs) keyed by TransformerLens hook names; logits and probs as they are."""
    out: dict[str, np.ndarray] = {}
    block = model.block
    output = next(a.key for a in model.activations if a.symbol == block.output) if block is not None else None
    for key, value in acts.items():
        base, _, layer = key.partition(".")
        if block is not None and layer and int(layer) > 1 and base == block.keys[0]:
            # block ℓ's input x^{(2ℓ-2)} is block ℓ-1's output: TransformerLens names it twice
            out[f"blocks.{int(layer) - 1}.hook_resid_pre"] = acts[f"{output}.{int(layer) - 1}"]
        name = hook_name(model, key)
        if name in out:
            raise ValueError(f"two outputs share the hook name {name!r} (model {model.id!r})")
        out[name] = value
    return out


__all__ = ["by_hook", "hook_name"]
