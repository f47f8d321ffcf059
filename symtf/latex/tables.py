r"""The post's tables as Kramdown Markdown (``$$…$$`` in the cells) or JSON, from the model.

Activation rows read ``| Name | $$x^{(0)} = W_E t + W_\text{pos}$$ | $$d_\text{model} \times n$$ |``;
parameter rows group parameters as the post does (``$$W_Q^h, W_K^h, W_V^h$$``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from ..model import Activation, Convention, Model, Variant, build
from ..model.variants import Kind
from .printer import latex, latex_shape

ACTIVATION_TABLES = {"zero-layer": Kind.ZERO, "simplified-one-layer": Kind.SIMPLIFIED, "full-one-layer": Kind.FULL}
PARAM_TABLES = {"params-simplified": Kind.SIMPLIFIED, "params-full": Kind.FULL}
#: Block ℓ of a stacked model (``Variant(layers=L)``), the post's full variant: its rows and its parameters.
BLOCK_TABLES = ("block", "params-block")
TABLE_IDS = (*ACTIVATION_TABLES, *PARAM_TABLES, *BLOCK_TABLES)

_DEFAULT = {Kind.ZERO: "zero", Kind.SIMPLIFIED: "simplified", Kind.FULL: "full"}


@dataclass(frozen=True)
class Row:
    name: str
    latex: str
    shape: str
    hook: str | None = None


@dataclass(frozen=True)
class Table:
    id: str
    title: str
    header: tuple[str, ...]
    rows: tuple[Row, ...]


def _listing(a: Activation) -> str:
    r"""``[x_1, \dots, x_n]`` for a table that lists the columns of ``a``."""
    sym, last = latex(a.symbol), latex(a.symbol.shape[1])
    return rf"[{sym}_1, \dots, {sym}_{last}]"


def activation_cell(a: Activation) -> str:
    r"""The Expression cell: ``x^{(0)} = [x^{(0)}_1, \dots, x^{(0)}_n] = W_E t + W_\text{pos}``."""
    parts = [latex(a.symbol)]
    if a.columns:
        parts.append(_listing(a))
    if a.expr is not None:
        parts.append(latex(a.expr))
    return " = ".join(parts)


def activation_table(model: Model, table_id: str | None = None) -> Table:
    """The activation table of ``model``, one row per activation."""
    rows = tuple(Row(a.name, activation_cell(a), latex_shape(a.shape), a.hook) for a in model.activations)
    return Table(table_id or model.id, model.title, ("Activation Name", "Expression", "Shape"), rows)


def parameter_table(model: Model, table_id: str | None = None) -> Table:
    """The parameter table of ``model``: one row per group, shapes joined as the post joins them."""
    rows = []
    for group in model.param_rows:
        params = [model.parameter(key) for key in group.keys]
        names = ", ".join(dict.fromkeys(latex(p.symbol) for p in params))  # γ, β of every LayerNorm once
        shapes = list(dict.fromkeys(latex_shape(p.shape) for p in params))
        rows.append(Row(group.layer, names, "$$, &nbsp; $$".join(shapes)))
    layered = any(group.layer for group in model.param_rows)
    header = ("Layer", "Parameter(s)", "Shape") if layered else ("Parameter Name", "Shape")
    return Table(table_id or model.params_id, f"Parameters: {model.title}", header, tuple(rows))


def block_table(model: Model, table_id: str = "block") -> Table:
    r"""The rows of block $\ell$ of a stacked model: $x^{(2\ell-2)}_\text{LN}$ … $x^{(2\ell)}$, per-layer symbols."""
    if model.block is None:
        raise ValueError(f"model {model.id!r} has no repeated block; build it with Variant(layers=L)")
    rows = activation_table(model, table_id).rows
    keys = [a.key for a in model.activations]
    picked = tuple(row for key, row in zip(keys, rows) if key in model.block.keys)
    return Table(table_id, "Block ℓ of L" + _convention_note(model), ("Activation Name", "Expression", "Shape"), picked)


def block_parameter_table(model: Model, table_id: str = "params-block") -> Table:
    r"""The parameters of block $\ell$ ($W_Q^{h,\ell}$ …, $\gamma_1^\ell$ …): the parameter rows of per-layer parameters."""
    full = parameter_table(model, table_id)
    per_layer = {p.key for p in model.parameters if p.per_layer}
    rows = []
    for group, row in zip(model.param_rows, full.rows):
        keys = [k for k in group.keys if k in per_layer]
        if keys == list(group.keys):
            rows.append(row)
        elif keys:  # the LayerNorm row also lists the final γ, β: keep the block's own
            params = [model.parameter(k) for k in keys]
            rows.append(Row(row.name, ", ".join(latex(p.symbol) for p in params), latex_shape(params[0].shape)))
    return Table(table_id, "Parameters of block ℓ of L" + _convention_note(model), full.header, tuple(rows))


def _convention_note(model: Model) -> str:
    return " (row-vector convention)" if model.variant.convention is Convention.ROW else ""


def _block_model(convention: Convention) -> Model:
    return build(Variant.preset("full").with_(layers=2, convention=convention))


def table(table_id: str, convention: Convention = Convention.COLUMN) -> Table:
    """A table by id: one of ``TABLE_IDS``."""
    if table_id == "block":
        return block_table(_block_model(convention))
    if table_id == "params-block":
        return block_parameter_table(_block_model(convention))
    if table_id in ACTIVATION_TABLES:
        model = build(Variant.preset(_DEFAULT[ACTIVATION_TABLES[table_id]]).with_(convention=convention))
        return activation_table(model, table_id)
    if table_id in PARAM_TABLES:
        model = build(Variant.preset(_DEFAULT[PARAM_TABLES[table_id]]).with_(convention=convention))
        return parameter_table(model, table_id)
    raise KeyError(f"unknown table {table_id!r}; known: {', '.join(TABLE_IDS)}")


def to_markdown(t: Table) -> str:
    """Kramdown table with ``$$…$$`` cells, columns padded to a common width."""
    def cells(row: Row) -> list[str]:
        math = [f"$${row.latex}$$", f"$${row.shape}$$"]
        return [row.name, *math] if len(t.header) == 3 else math

    return pipe_table([list(t.header)] + [cells(r) for r in t.rows])


def pipe_table(lines: list[list[str]]) -> str:
    """A Kramdown pipe table (first line the header), columns padded to a common width."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    fmt = lambda line: "| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |"  # noqa: E731
    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([fmt(lines[0]), rule, *map(fmt, lines[1:])])


def to_json(tables: list[Table]) -> str:
    return json.dumps(
        {"tables": [{"id": t.id, "title": t.title, "rows": [r.__dict__ for r in t.rows]} for t in tables]},
        indent=2,
    )


def render_tables(fmt: str = "markdown", ids=TABLE_IDS, convention: Convention = Convention.COLUMN) -> str:
    """Every table (or those in ``ids``) as ``markdown`` (titled sections) or ``json``."""
    tables = [table(i, convention) for i in ids]
    if fmt == "json":
        return to_json(tables)
    if fmt != "markdown":
        raise ValueError(f"unknown format {fmt!r}: markdown or json")
    return "\n\n".join(f"### {t.title} ({t.id})\n\n{to_markdown(t)}" for t in tables) + "\n"


# --------------------------------------------------------------------------- appendix: key figures

KEY_FIGURES_ID = "key-figures"

#: The appendix's columns: a configuration of ``symtf.dims.CONFIGS`` and the column heading's name.
#: Only configurations symtf can count are tabulated (a dense GPT-2-style decoder); a mixture of
#: experts such as DeepSeek V3 is not one, so it has no column here.
KEY_FIGURES_COLUMNS: tuple[tuple[str, str], ...] = (
    ("gpt2-small", "GPT-2 Small"),
    ("gpt2-xl", "GPT-2 XL"),
    ("gpt3-175b", "GPT-3"),
)


def _total_parameters(cfg) -> str:
    """The published figure when the computed count rounds (or cuts) to it, else the count to 3 significant digits."""
    if cfg.matches_published():
        return cfg.published_total
    count = cfg.param_count()
    for unit, scale in (("T", 10**12), ("B", 10**9), ("M", 10**6), ("K", 10**3)):
        if count >= scale:
            return f"{count / scale:.3g}{unit}"
    return str(count)


def key_figures_markdown(columns=KEY_FIGURES_COLUMNS) -> str:
    r"""The appendix table, every figure from ``symtf.dims.CONFIGS``: total parameters, $d_\text{model}$ … context length."""
    from ..dims import CONFIGS, LATEX, d_head, d_mlp, d_model, n_layers, n_vocab

    configs = [(CONFIGS[key], label) for key, label in columns]
    header = ["Parameter", *(f"{label} ({cfg.year})" for cfg, label in configs)]
    fields = (
        ("**Total Parameters**", _total_parameters),
        (f"$${LATEX[d_model]}$$", lambda c: str(c.d_model)),
        (f"$${LATEX[d_mlp]}$$", lambda c: str(c.d_mlp)),
        (r"$$H = n_\text{heads}$$", lambda c: str(c.n_heads)),
        (f"$${LATEX[d_head]}$$", lambda c: str(c.d_head)),
        (f"$${LATEX[n_layers]}$$", lambda c: str(c.n_layers)),
        (f"$${LATEX[n_vocab]}$$", lambda c: str(c.n_vocab)),
        ("Context length", lambda c: str(c.n_ctx)),
    )
    return pipe_table([header] + [[label, *(value(cfg) for cfg, _ in configs)] for label, value in fields])
