r"""Figures for the post (matplotlib, Agg backend; each written as PNG and SVG).

- ``variance-scaling``: $\operatorname{Var}(q^\top k)$ against $d_\text{head}$ for
  $q, k$ with independent standard normal entries: the line $d_\text{head}$ unscaled and $1$
  after dividing by $\sqrt{d_\text{head}}$, each $d_\text{head} \cdot \operatorname{Var}(q_1 k_1)$
  with $\operatorname{Var}(q_1 k_1) = 1$ computed by ``sympy.stats``; Monte Carlo points on top.
- ``softmax-sharpening``: $\text{softmax}(q^\top k_i)$ over 16 random keys concentrates on one key
  as $d_\text{head}$ grows, unless the scores are divided by $\sqrt{d_\text{head}}$.
- ``attention-pattern``: the causal pattern $A^{h_1}$ of the worked example ``example-toy`` as a heatmap.

Monte Carlo uses ``numpy.random.default_rng(seed)``; the same seed gives the same figures.
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..io import write_atomic

DEFAULT_OUT = Path("docs") / "figures"
D_HEADS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
FIGURE_IDS = ("variance-scaling", "softmax-sharpening", "attention-pattern")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "symtf"  # reproducible SVG ids
    return plt


def term_variance() -> int:
    r"""$\operatorname{Var}(q_1 k_1)$ for independent $q_1, k_1 \sim \mathcal{N}(0, 1)$, by ``sympy.stats`` (it is 1)."""
    from sympy.stats import Normal, variance

    value = variance(Normal("q_1", 0, 1) * Normal("k_1", 0, 1))
    return int(value)


def monte_carlo_variance(d_heads=D_HEADS, samples: int = 20000, seed: int = 0) -> dict[int, tuple[float, float]]:
    r"""$d \mapsto (\widehat{\operatorname{Var}}(q^\top k), \widehat{\operatorname{Var}}(q^\top k / \sqrt d))$ from ``samples`` draws."""
    rng = np.random.default_rng(seed)
    out = {}
    for d in d_heads:
        q = rng.standard_normal((samples, d))  # (samples, d)
        k = rng.standard_normal((samples, d))
        dots = np.einsum("sd,sd->s", q, k)  # (samples,)
        out[d] = (float(dots.var()), float((dots / np.sqrt(d)).var()))
    return out


def variance_figure(seed: int = 0):
    plt = _pyplot()
    per_term = term_variance()
    mc = monte_carlo_variance(seed=seed)
    d = np.array(D_HEADS, dtype=float)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.plot(d, per_term * d, color="C0", label=r"$\mathrm{Var}(q^\top k) = d_\mathrm{head}$ (proved)")
    ax.plot(d, per_term * d / d, color="C1",
            label=r"$\mathrm{Var}(q^\top k / \sqrt{d_\mathrm{head}}) = 1$ (proved)")
    ax.scatter(d, [mc[x][0] for x in D_HEADS], color="C0", marker="o", zorder=3, label="Monte Carlo, unscaled")
    ax.scatter(d, [mc[x][1] for x in D_HEADS], color="C1", marker="s", zorder=3, label="Monte Carlo, scaled")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xlabel(r"$d_\mathrm{head}$")
    ax.set_ylabel("variance of the attention score")
    ax.set_title(r"Why divide by $\sqrt{d_\mathrm{head}}$: entries of $q, k$ i.i.d. $\mathcal{N}(0, 1)$")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    return fig


def softmax_weights(d_head: int, keys: int, scaled: bool, rng) -> np.ndarray:
    r"""$\text{softmax}(q^\top k_i [/\sqrt{d_\text{head}}])_{i=1..keys}$ for one random query and ``keys`` random keys."""
    q = rng.standard_normal(d_head)  # (d_head,)
    k = rng.standard_normal((keys, d_head))  # (keys, d_head)
    scores = k @ q / (np.sqrt(d_head) if scaled else 1.0)  # (keys,)
    weights = np.exp(scores - scores.max())
    return weights / weights.sum()


def sharpening_figure(seed: int = 0, keys: int = 16, trials: int = 2000):
    plt = _pyplot()
    rng = np.random.default_rng(seed)
    shown = (2, 16, 128)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.0))
    ranks = np.arange(1, keys + 1)
    for n_d, d in enumerate(shown):
        for scaled, style in ((False, "o-"), (True, "s--")):
            w = np.sort(softmax_weights(d, keys, scaled, rng))[::-1]  # (keys,) largest first
            label = f"$d_\\mathrm{{head}} = {d}$, " + ("scaled" if scaled else "unscaled")
            left.plot(ranks, w, style, color=f"C{n_d}", alpha=0.55 if scaled else 1.0, markersize=4, label=label)
    left.set_xlabel("key, ranked by its weight")
    left.set_xticks(ranks[::3])
    left.set_ylabel("attention weight")
    left.set_title("One random query against 16 random keys")
    left.legend(fontsize=7)
    d = np.array(D_HEADS)
    for scaled, style in ((False, "o-"), (True, "s--")):
        top = [np.mean([softmax_weights(int(x), keys, scaled, rng).max() for _ in range(trials // 10)]) for x in d]
        right.plot(d, top, style, label=r"$\text{softmax}(q^\top k / \sqrt{d_\mathrm{head}})$" if scaled
                   else r"$\text{softmax}(q^\top k)$")
    right.axhline(1 / keys, color="grey", lw=0.8, ls=":", label="uniform (1/16)")
    right.set_xscale("log", base=2)
    right.set_ylim(0, 1.02)
    right.set_xlabel(r"$d_\mathrm{head}$")
    right.set_ylabel("mean largest weight")
    right.set_title("Unscaled scores sharpen the softmax as $d_\\mathrm{head}$ grows")
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


def pattern_figure(example_id: str = "example-toy"):
    plt = _pyplot()
    from .example import named_example

    example = named_example(example_id)
    A = np.array(example.value("pattern").evalf(30).tolist(), dtype=float)  # (n, n)
    text = example.decimals("pattern")
    n = A.shape[0]
    fig, ax = plt.subplots(figsize=(4.2, 3.8))
    masked = np.ma.masked_where(np.triu(np.ones_like(A, dtype=bool), k=1), A)
    image = ax.imshow(masked, cmap="viridis", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if j > i:
                ax.text(j, i, "0\n(masked)", ha="center", va="center", color="grey", fontsize=8)
            else:
                ax.text(j, i, text[i][j], ha="center", va="center", color="white" if A[i, j] < 0.6 else "black")
    ax.set_xticks(range(n), [f"key {j + 1}" for j in range(n)])
    ax.set_yticks(range(n), [f"query {i + 1}" for i in range(n)])
    ax.set_title(f"Causal attention pattern $A$ ({example_id})")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    return fig


BUILDERS = {"variance-scaling": variance_figure, "softmax-sharpening": sharpening_figure,
            "attention-pattern": pattern_figure}


def write_figures(out: str | Path = DEFAULT_OUT) -> list[Path]:
    """Write every figure as ``<id>.png`` and ``<id>.svg`` under ``out``; return the paths."""
    plt = _pyplot()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: exists and is not a directory (figures go into a directory)")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in FIGURE_IDS:
        fig = BUILDERS[name]()
        for suffix, metadata in ((".png", {"Software": None}), (".svg", {"Date": None})):
            path = out / f"{name}{suffix}"
            buffer = io.BytesIO()
            fig.savefig(buffer, format=suffix[1:], dpi=150, metadata=metadata)
            written.append(write_atomic(path, buffer.getvalue()))
        plt.close(fig)
    return written
