r"""``gqa-mha``: grouped-query attention is multi-head attention with each K/V head repeated over its group.

GQA has $G$ key/value heads, each shared by a group of $s$ query heads ($H = G s$; Hugging Face's
``num_key_value_heads`` is $G$). Query head $(c, j)$, group $c$, member $j$, is query head
$(c - 1) s + j$ of the MHA picture; it reads K/V head $c$:

$$\sum_{c=1}^{G} \sum_{j=1}^{s} o\big((c-1)s + j,\ c\big) = \sum_{h=1}^{G s} o\big(h,\ \lfloor (h-1)/s \rfloor + 1\big),$$

with $o(a, b) = W_O^a W_V^b x\, \text{softmax}^*\big((W_Q^a x)^\top W_K^b x / \sqrt{d_\text{head}}\big)^\top$, the
model's own head output with the K/V symbols at head $b$. The right side is MHA whose K/V heads are
``repeat_interleave``-d $s$ times along the head axis. Proved by induction on $G$ (symbolic $G$
and $s$): base $G = 1$ uses $\lfloor (j-1)/s \rfloor = 0$ for $1 \le j \le s$ (a hand-applied
rule), the step re-indexes $h = G s + j$, where SymPy gives
$\lfloor (G s + j - 1)/s \rfloor = G + \lfloor (j-1)/s \rfloor$. Multi-query attention is $G = 1$:
the base case. Repeating along the wrong axis (``repeat``, i.e. tiling: K/V head
$((h - 1) \bmod G) + 1$) fails the step and is refuted on a numeric instance.
"""
from __future__ import annotations

from sympy import Add, Integer, Mod, Symbol, expand, floor

from ..dims import d_head, d_model, n
from ..model import Variant, build, h
from ..ops import HeadMatrixSymbol
from .claim import Method, NumericCheck, Result, proved, refuted, unknown
from .concrete import TOLERANCE
from .explicit import Env, explicit

G = Symbol("G", integer=True, positive=True)  # key/value heads (groups)
s = Symbol("s", integer=True, positive=True)  # query heads per group
u = Symbol("u", integer=True, positive=True)  # the K/V head a query head reads
j = Symbol("j", integer=True, positive=True)

STATEMENT = (r"\sum_{c=1}^{G} \sum_{j=1}^{s} o\big((c-1)s + j,\ c\big) = \sum_{h=1}^{Gs} o\big(h,\ "
             r"\lfloor (h-1)/s \rfloor + 1\big);\ \text{MQA: } G = 1")
ASSUMPTIONS = ("H = G s query heads, G key/value heads", "symbolic G, s and sizes",
               "query head (c, j) is MHA head (c - 1) s + j (Hugging Face's layout)")
SIZES = [{G: 2, s: 3, n: 3, d_model: 5, d_head: 2}, {G: 3, s: 1, n: 2, d_model: 3, d_head: 2}]


def interleave(hq):
    r"""$\lfloor (h-1)/s \rfloor + 1$: ``repeat_interleave`` of the K/V heads (the right axis)."""
    return floor((hq - 1) / s) + 1


def tile(hq):
    r"""$((h-1) \bmod G) + 1$: ``repeat`` (tiling) of the K/V heads, the wrong axis."""
    return Mod(hq - 1, G) + 1


def head_output():
    r"""$o(h, u)$: the model's head output, its $W_K$, $W_V$ at K/V head $u$ and the rest at query head $h$."""
    model = build(Variant(layernorm=False))
    out = model["head_out"].expr
    for key in ("result", "pattern", "scores", "q", "k", "v"):
        out = out.xreplace({model[key].symbol: model[key].expr})
    kv = {p.symbol: HeadMatrixSymbol(p.symbol.name, *p.symbol.shape, u) for p in model.parameters
          if p.key in ("W_K", "W_V")}
    return out.xreplace(kv)


def _at(o, hq, hk):
    return o.xreplace({h: hq, u: hk})


def _floor_lemma(e):
    r"""$\lfloor (j - 1)/s \rfloor = 0$ for $1 \le j \le s$ (the member index of a group)."""
    e = e.replace(lambda x: isinstance(x, floor), lambda x: floor(expand(x.args[0])))  # G + floor((j-1)/s)
    return e.replace(lambda x: isinstance(x, floor) and expand(x.args[0] - (j - 1) / s) == 0, lambda x: Integer(0))


def induction(kv_head=interleave) -> tuple[bool, str]:
    r"""Both sides agree for $G = 1$ and gain the same terms from $G$ to $G + 1$ (summands compared exactly)."""
    o = head_output()
    if G in kv_head(h).free_symbols:  # then the MHA side's summands change with G: no induction on G
        return False, f"query head h reads K/V head {kv_head(h)}, which depends on G itself"
    # base G = 1: MHA terms h = j = 1..s with K/V head kv_head(j) vs GQA group 1, members j
    base_mha = _floor_lemma(_at(o, j, kv_head(j)).xreplace({G: Integer(1)}))
    base_gqa = _at(o, j, Integer(1))
    if base_mha != base_gqa:
        return False, f"base case G = 1: K/V head {kv_head(j).xreplace({G: 1})} for query head j, not 1"
    # step: MHA's new terms h = G s + j (j = 1..s) vs GQA's new group c = G + 1, member j
    new_mha = _floor_lemma(_at(o, G * s + j, kv_head(G * s + j)))
    new_gqa = _at(o, G * s + j, G + 1)
    if new_mha != new_gqa:
        return False, f"step G -> G + 1: query head G s + j reads K/V head {_floor_lemma(kv_head(G * s + j))}, not G + 1"
    return True, "induction on G: base (MQA, G = 1) and step G -> G + 1 agree summand by summand"


def _concrete(o, sizes, kv_head, grouped: bool):
    sized = {k: Integer(v) for k, v in sizes.items()}
    g_, s_ = int(sizes[G]), int(sizes[s])
    if grouped:
        pairs = [((c - 1) * s_ + m, c) for c in range(1, g_ + 1) for m in range(1, s_ + 1)]
    else:
        pairs = [(hq, kv_head(Integer(hq)).xreplace(sized)) for hq in range(1, g_ * s_ + 1)]
    return Add(*[_at(o, Integer(a), Integer(b)).xreplace(sized) for a, b in pairs])


def gap(kv_head=interleave, sizes=None, seed=1) -> float:
    """Largest entry of |GQA - MHA with repeated K/V| on random weights."""
    o, sizes = head_output(), sizes or SIZES[0]
    env = Env(numeric=True, seed=seed, digits=15)
    L, R = (explicit(_concrete(o, sizes, kv_head, grouped), env) for grouped in (True, False))
    return max(abs(float(a - b)) for a, b in zip(L, R))


def prove_gqa(kv_head=interleave) -> Result:
    r"""$\sum_c \sum_j o((c-1)s + j, c) = \sum_h o(h, \text{kv\_head}(h))$ for symbolic $G$, $s$; refuted on a numeric instance if not."""
    ok, why = induction(kv_head)
    if ok:
        return proved(Method.SYMBOLIC, ["symbolic"], why)
    for sizes in SIZES:
        found = gap(kv_head, sizes)
        if found > TOLERANCE:
            named = {str(k): v for k, v in sizes.items()}
            return refuted({"sizes": named, "numeric_gap": found}, why, Method.CONCRETE, [named])
    return unknown(why)


def numpy_mha(x, W_Q, W_K, W_V, W_O):
    """Reference MHA in numpy: per-head weights stacked on axis 0, causal softmax, heads summed."""
    import numpy as np

    q, k, v = W_Q @ x, W_K @ x, W_V @ x  # (H, d_head, n)
    scores = np.swapaxes(q, 1, 2) @ k / np.sqrt(q.shape[1])
    scores = np.where(np.triu(np.ones(scores.shape[1:], dtype=bool), 1), -np.inf, scores)
    A = np.exp(scores - scores.max(-1, keepdims=True))
    A /= A.sum(-1, keepdims=True)
    return (W_O @ v @ np.swapaxes(A, 1, 2)).sum(0)


def numeric() -> NumericCheck:
    """symtf's grouped sum (exact walker) vs numpy MHA with the K/V weights ``np.repeat``-ed over each group."""
    import numpy as np

    o, worst, trials = head_output(), 0.0, 0
    for sizes in SIZES:
        env = Env(numeric=True, seed=7, digits=15)
        ours = np.array(explicit(_concrete(o, sizes, interleave, grouped=True), env), dtype=float)
        sized = {k: Integer(v) for k, v in sizes.items()}
        H_, G_ = int(sizes[G] * sizes[s]), int(sizes[G])
        model = build(Variant(layernorm=False))
        x = np.array(env.leaf(model["embed"].symbol.xreplace(sized)), dtype=float)

        def stack(key, heads):
            sym = model.parameter(key).symbol.xreplace(sized)
            return np.stack([np.array(env.leaf(HeadMatrixSymbol(sym.name, *sym.shape, Integer(c))), dtype=float)
                             for c in range(1, heads + 1)])

        kv = {key: np.repeat(stack(key, G_), int(sizes[s]), axis=0) for key in ("W_K", "W_V")}
        ref = numpy_mha(x, stack("W_Q", H_), kv["W_K"], kv["W_V"], stack("W_O", H_))
        worst, trials = max(worst, float(np.max(np.abs(ours - ref)))), trials + 1
    return NumericCheck(worst < 1e-9, worst, trials, "symtf's GQA sum vs numpy MHA with np.repeat-ed K/V weights")
