r"""Size claims: shapes (table Shape cells, "a $d \times n$ matrix $W$"), size relations
($d_\text{head} = d_\text{model}/H$) and key-figure tables, against the model and
``symtf.dims.CONFIGS``.
"""
from __future__ import annotations

import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

import sympy
from sympy import Integer

from .. import dims
from ..latex.printer import latex_shape
from ..shapes import CONVENTIONAL_RELATIONS, Verdict, compare_shapes
from .compare import free_vars, walk
from .context import Context
from .evaluate import CheckError
from .parse import UNJUDGED
from .report import Finding
from .scalar_read import suffixed
from .unparse import unparse
from .data import load

_FIELDS = (("total", "total"), ("param", "total"), ("context", "n_ctx"), ("n_ctx", "n_ctx"), ("n_heads", "n_heads"),
           ("d_model", "d_model"), ("d_mlp", "d_mlp"), ("d_head", "d_head"), ("n_layers", "n_layers"),
           ("n_vocab", "n_vocab"), ("vocab", "n_vocab"), ("layers", "n_layers"), ("kv", "n_kv_heads"),
           ("key-value", "n_kv_heads"), ("key/value", "n_kv_heads"), ("heads", "n_heads"))


# a row label that counts the parameters of a part of the model, not its total (read with spaces removed)
_PART = re.compile(r"embed|transformer|encoder|decoder|layer|attention|ffn|mlp|feed|head|block|per|non|pooler|lm")


def size_key(node) -> str:
    """A size letter's profile key: ``N``, ``d_k`` (base and subscript)."""
    return node[1] + (f"_{node[2]}" if node[2] else "")


def size_expr(node, ctx: Context):
    """A size expression as SymPy in ``symtf.dims`` symbols; CheckError if it is not one."""
    kind = node[0]
    if kind == "num" and float(node[1]).is_integer():
        return Integer(int(node[1]))
    if kind == "sym" and node[3] is not None and node[3].isdigit() and len(node[3]) <= 2:
        return size_expr(("sym", node[1], node[2], None), ctx) ** int(node[3])  # d_\text{model}^2
    if kind == "pow" and node[2][0] == "num" and float(node[2][1]).is_integer() and 0 < node[2][1] <= 64:
        return size_expr(node[1], ctx) ** int(node[2][1])
    if kind == "sym" and node[3] is None:
        name = size_key(node)
        key = ctx.profile["sizes"].get(name) or ctx.profile.get("shape_sizes", {}).get(name)
        if key is None and name in ctx.profile.get("lint_sizes", {}):
            key = ctx.profile["lint_sizes"][name][0]
            ctx.lints.append((name, ctx.profile["lint_sizes"][name][1]))
        if key is not None:
            return getattr(dims, key)
    if kind == "mul" and suffixed(node):  # 118\text{M}, 1.1\text{B}: a count with its suffix
        return sympy.Rational(node[1][2]) * suffixed(node)[1]
    if kind == "mul" and node[3] in ("*", "·", "/"):
        a, b = size_expr(node[1], ctx), size_expr(node[2], ctx)
        return a / b if node[3] == "/" else a * b
    if kind == "frac":
        return size_expr(node[1], ctx) / size_expr(node[2], ctx)
    raise CheckError(f"{unparse(node)} is not a size")


def shape_of(node, ctx: Context):
    """The stated shape ``A \\times B`` / ``(A, B)`` / ``A`` as a tuple of sizes."""
    if node[0] == "mul" and node[3] == "×":
        return shape_of(node[1], ctx) + shape_of(node[2], ctx)
    if node[0] == "tuple":
        return tuple(size_expr(x, ctx) for x in node[1])
    return (size_expr(node, ctx),)


def is_shape(node) -> bool:
    return (node[0] == "mul" and node[3] == "×") or node[0] == "tuple"


def sizes_declared(stated_node, subjects, ctx: Context) -> dict[str, str]:
    """``Q \\in \\mathbb{R}^{N \\times d_k}`` where Q is the reference's queries (n × d_head): the letters of the stated
    shape that are no size yet, as the reference's sizes of their axes (``{"N": "n"}``): the document saying what N is.
    Only for one subject the reference knows, with as many axes as its shape, every axis a single size of the
    model, at least one axis already a size that agrees (``Q \\in \\mathbb{R}^{N \\times d_k}``: the document's Q is
    the model's q, as far as a shape tells; ``A \\in \\mathbb{R}^{h \\times d}`` may be another A), the sizes
    already known agreeing, and each new letter given one size; else nothing."""
    axes = shape_axes(stated_node)
    if len(subjects) != 1 or len(axes) < 2:
        return {}
    try:
        ref = ctx.resolve(subjects[0], {})
    except CheckError:
        return {}
    derived = getattr(ref.symbol, "shape", None) if ref.symbol is not None else None
    if derived is None or len(derived) != len(axes) or not all(getattr(d, "is_Symbol", False) for d in derived):
        return {}
    learned: dict[str, str] = {}
    agreeing = 0  # axes whose letter is already that size: the evidence that the subject is the model's quantity
    for axis, size in zip(axes, derived):
        if axis[0] != "sym" or axis[3] is not None:
            return {}
        key = size_key(axis)
        lint = ctx.profile.get("lint_sizes", {}).get(key)
        known = ctx.profile["sizes"].get(key) or (lint[0] if lint else None)
        if known is not None and known != str(size) or learned.get(key, str(size)) != str(size):
            return {}  # a known size that disagrees, or one letter for two sizes: no reading
        if known is None:
            learned[key] = str(size)
        else:
            agreeing += 1
    return learned if agreeing else {}


def shape_axes(node) -> list:
    """The axes of a stated shape ``a \\times b`` or ``(a, b)``, as nodes."""
    if node[0] == "mul" and node[3] == "×":
        return shape_axes(node[1]) + shape_axes(node[2])
    return list(node[1]) if node[0] == "tuple" else [node]


def _one_token(subject, stated, derived):
    r"""``k \in \mathbb{R}^d`` after ``k = W_K x``: a lower-case letter without an index, stated as a vector, where
    the reference's quantity holds every token (an n axis), is one token's vector: the other axis (a column of
    d_head × n, a row of n × d_head); any other shape as it is."""
    if len(stated) == 1 and len(derived) == 2 and subject[0] == "sym" and subject[2] is None and \
            re.fullmatch(r"[a-z]", subject[1]) and dims.n in derived and 1 not in derived:
        other = derived[1] if derived[0] == dims.n else derived[0]
        return (other, Integer(1))
    return derived


def check_shape(line, latex, stated_node, subjects, ctx: Context) -> list[Finding]:
    if any(n[0] == "sym" and n[1] == "d" and n[2] is None and n[3] is None for n in _nodes(stated_node)):
        # a bare d is d_model in most papers (X ∈ R^{n×d}) and d_head where it scales scores: accept either
        found = []
        for meaning in ("d_model", "d_head"):
            reading = ctx.with_(profile={**ctx.profile, "sizes": {**ctx.profile["sizes"], "d": meaning}})
            found.append(_check_shape(line, latex, stated_node, subjects, reading))
        for i in range(len(found[0])):
            pair = [f[i] for f in found]
            good = next((f for f in pair if f.status == "verified"), None)
            found[0][i] = good or pair[0]
            if good is not None:
                good.letter_read = "d_model" if good is pair[0] else "d_head"
                good.message += f" (reading d as {good.letter_read})"
        return found[0]
    return _check_shape(line, latex, stated_node, subjects, ctx)


def _check_shape(line, latex, stated_node, subjects, ctx: Context) -> list[Finding]:
    try:
        stated = shape_of(stated_node, ctx)
    except CheckError as exc:
        return [Finding(line, latex, "unchecked", "shape", str(exc))]
    out = []
    for subject in subjects:
        verdicts = []
        every = {v: 2 for v in free_vars([subject])}  # W_i^Q, x_i: one head's or token's shape is every one's
        for reading in (ctx, ctx.with_(concat=True)):
            try:
                ref = reading.resolve(subject, every)
            except CheckError as exc:
                verdicts.append((None, str(exc), None, None))
                continue
            if ref.symbol is None:
                verdicts.append((None, f"{ref.latex} has no declared shape", None, None))
                continue
            derived = ref.symbol.shape
            if ref.latex == "W_O" and reading.concat:
                derived = (dims.H * dims.d_head, dims.d_model) if reading.row else (dims.d_model, dims.H * dims.d_head)
            relations = dict(reading.model.relations)
            derived = _one_token(subject, stated, derived)
            verdict, why = compare_shapes(stated, derived, relations)
            verdicts.append((verdict, why, derived, ref))
        name = unparse(subject)
        good = [v for v in verdicts if v[0] is Verdict.CONSISTENT]
        flipped = [v for v in good if len(stated) == 2 and tuple(stated) != tuple(v[2]) and
                   tuple(stated) == tuple(v[2])[::-1]]
        if good and len(flipped) == len(good):  # d_model × H d_head for H d_head × d_model: equal sizes, wrong way round
            derived = good[0][2]
            out.append(Finding(line, latex, "mismatch", "shape", f"{unparse(subject)}: stated {latex_shape(stated)}, "
                               f"the model has {latex_shape(derived)} (the axes are swapped; the sizes agree only "
                               f"because d_model = H d_head)", latex_shape(derived)))
            out[-1].diagnosis = "a transposed shape"
            continue
        if good:
            out.append(Finding(line, latex, "verified", "shape", f"{name} is {latex_shape(good[0][2])}"))
            continue
        verdict, why, derived, ref = next((v for v in verdicts if v[0] is not None), verdicts[0])
        if verdict is None:
            out.append(Finding(line, latex, "unchecked", "shape", why))
        elif verdict is Verdict.INCONSISTENT and _all_heads(stated, derived, ref, ctx, subject):
            out.append(Finding(line, latex, "unchecked", "shape", f"{name}: stated {latex_shape(stated)}, which is every "
                               f"head's {name} side by side (heads concatenated); one head's is {latex_shape(derived)}"))
        elif verdict is Verdict.INCONSISTENT and not _free(stated) and _free(derived):
            out.append(Finding(line, latex, "unchecked", "shape", f"{name}: stated {latex_shape(stated)}, numbers "
                               f"against the model's {latex_shape(derived)}: an example's sizes, which the document "
                               "does not tie to the model's letters here; not judged"))
        elif verdict is Verdict.INCONSISTENT:
            out.append(Finding(line, latex, "mismatch", "shape", f"{name}: stated {latex_shape(stated)}, "
                               f"the model has {latex_shape(derived)} ({why})", latex_shape(derived)))
            if len(stated) == 2 and tuple(stated)[::-1] == tuple(derived):
                out[-1].diagnosis = "a transposed shape"
        elif ref.kind == "parameter" and dims.n in _free(stated) and dims.n_ctx in _free(derived):
            out.append(Finding(line, latex, "mismatch", "shape",
                               f"{name}: a parameter cannot depend on the input length n; the model's {name} is "
                               f"{latex_shape(derived)} (n ≤ n_ctx) and an input of n tokens uses its first n "
                               f"columns", latex_shape(derived)))
        elif ref.kind == "activation" and dims.n_ctx in _free(stated) and dims.n in _free(derived):
            out.append(Finding(line, latex, "mismatch", "shape",
                               f"{name}: an activation has one column per input token (n), not n_ctx",
                               latex_shape(derived)))
        else:
            out.append(Finding(line, latex, "unchecked", "shape", why))
    return out


def _all_heads(stated, derived, ref, ctx, subject=None) -> bool:
    """Whether ``stated`` is a per-head shape with d_head widened to H d_head = d_model (Q, K, V ∈ R^{n × d_model}
    and W_Q ∈ R^{d_model × d_model}: every head's at once, before the split into heads, as many documents write
    them): a reading of the multi-head model, not a contradiction of it. Activations only in the row convention
    and never for a symbol with a subscript (``q^h``, ``q_n``); a weight never for one that names its head
    (``W_i^Q``)."""
    if ref is None or ref.kind not in ("activation", "parameter") or subject is None or subject[0] != "sym":
        return False
    if ref.kind == "activation" and (not ctx.row or subject[2] or subject[3]) or free_vars([subject]):
        return False
    if dims.d_head not in _free(derived) or 1 in tuple(stated):
        return False  # one token's vector (q_n ∈ R^{d_model}) is a head's: only a whole matrix is read so
    widened = tuple(s.subs(dims.d_head, dims.H * dims.d_head) for s in derived)
    relations = {**dict(ctx.model.relations), dims.d_model: dims.H * dims.d_head}  # the multi-head model's width
    return compare_shapes(stated, widened, relations)[0] is Verdict.CONSISTENT


def _free(shape):
    return set().union(*(getattr(s, "free_symbols", set()) for s in shape))


def _config_for(header: str):
    key = re.sub(r"[^a-z0-9]", "", re.sub(r"\(.*?\)", "", header.lower()))
    if not key:
        return None
    whole = re.sub(r"[^a-z0-9]", "", header.lower())  # "GPT-2 (small)"
    if whole != key and not re.search(r"\(\s*\d{4}\s*\)", header):
        found = _config_for(re.sub(r"[()]", " ", header))
        if found is not None:
            return found
    hits = [cid for cid, cfg in dims.CONFIGS.items()
            if re.sub(r"[^a-z0-9]", "", cfg.name.lower()).startswith(key) or cid.replace("-", "") == key]
    return dims.CONFIGS[hits[0]] if len(hits) == 1 else None


def _field(label: str):
    text = re.sub(r"\\text\{([^}]*)\}|[{}$\\ ]", lambda m: m.group(1) or "", label).lower()
    if "param" in text and _PART.search(text):
        return None  # "Embedding parameters", "Transformer Parametreleri": a part's count, not the model's total
    for needle, field in _FIELDS:
        if needle in text:
            return field
    if text.startswith("h="):
        return "n_heads"
    return None


def _rounds_to(count: int, published: str) -> bool:
    value, unit = dims.parse_published(published)
    exact = Decimal(count) / unit
    return value in (exact.quantize(value, rounding=ROUND_HALF_UP), exact.quantize(value, rounding=ROUND_DOWN))


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _entry(name: str, field: str, spec, source: str):
    """A published field as the checker uses it: (value, note) or ({value: what}, note, expected)."""
    if isinstance(spec, dict):
        values = {int(k): f"{v} ({source})" for k, v in spec["values"].items()}
        note = f"{name} uses {spec['note']} ({source})" if "note" in spec else source
        return (values, note, spec.get("expected", ", ".join(str(k) for k in values)))
    return (spec, f"{field} = {spec} ({source})")


# the size a published field records, by the model's symbol for it (one table: the fields read, the letters judged)
_FIELD_OF = {dims.d_model: "d_model", dims.d_mlp: "d_mlp", dims.H: "n_heads", dims.d_head: "d_head",
             dims.n_layers: "n_layers", dims.n_vocab: "n_vocab", dims.n_ctx: "n_ctx"}
_PUBLISHED_FIELDS = tuple(_FIELD_OF.values())


def _load_published() -> dict:
    """Published configurations by every normalised name: data/published.yaml, and LLaMA-2 (symtf.llama)."""
    from ..llama import LLAMA2

    raw = load("published.yaml")
    out = {}
    for spec in raw.values():
        named = re.search(r"\d+(?:\.\d+)?[KMBT]\b", spec["name"])
        pub = {"name": spec["name"], "nominal": named.group(0) if named else ""}
        if "total" in spec:  # a model named by a rounded size has none recorded (Llama 3 70B has 70.6B)
            pub["total"] = (spec["total"], spec.get("total_note", f"{spec['total']} parameters, as published "
                                                                  f"({spec['source']})"))
        if "counted" in spec:  # the released model's own count (BERT-base: 109,482,240 against the paper's 110M)
            pub["counted"] = spec["counted"]
        for field in _PUBLISHED_FIELDS + ("n_kv_heads",):  # the key/value heads: a table's row, no letter of the model
            if field in spec:
                pub[field] = _entry(spec["name"], field, spec[field], spec["source"])
        for name in spec["names"]:
            out[_norm(name)] = pub
    for cfg in LLAMA2.values():
        size = cfg.nominal
        pub = {"name": cfg.name, "total": (f"{size}", f"{cfg.name}: {size} parameters as named ({cfg.source})")}
        for field in ("d_model", "d_mlp", "n_heads", "d_head", "n_layers", "n_vocab", "n_kv_heads"):
            pub[field] = (getattr(cfg, field), f"{field} = {getattr(cfg, field)} ({cfg.source})")
        for name in (f"Llama 2 {size}", f"Llama-2-{size}", f"LLaMA 2 {size}"):
            out[_norm(name)] = pub
    return out


PUBLISHED = _load_published()


def _key(header: str) -> str:
    return re.sub(r"[^a-z0-9]", "", re.sub(r"\(.*?\)", "", header.lower()))


def _published_for(header: str):
    key = _key(header)
    return PUBLISHED.get(key) if key else None


def _names_model(text: str) -> bool:
    return _config_for(text) is not None or _published_for(text) is not None


def _orientation(table) -> str | None:
    """"columns" when the header names the models, "rows" when each row's first cell does, else None."""
    if table.header[1:] and any(_names_model(h) for h in table.header[1:]):
        return "columns"
    if table.rows and any(_names_model(cells[0]) for _, cells in table.rows if cells) and \
            any(_field(h) for h in table.header[1:]):
        return "rows"
    return None


def is_figures_table(table) -> bool:
    return _orientation(table) is not None


def _cells(table):
    """(line, field label, model header, cell text) for every figure of the table, in either orientation."""
    if _orientation(table) == "columns":
        for line, cells in table.rows:
            for header, cell in zip(table.header[1:], cells[1:]):
                yield line, cells[0], header, cell
    else:
        for line, cells in table.rows:
            for label, cell in zip(table.header[1:], cells[1:]):
                yield line, label, cells[0], cell


def _check_published(line, text, field, pub) -> Finding:
    entry = pub.get(field)
    if entry is None:
        return Finding(line, text, "unchecked", "figures", f"{pub['name']}: no published {field} recorded")
    if field == "total":
        try:
            value, unit = dims.parse_published(text)
            want, wunit = dims.parse_published(entry[0])
        except ValueError as exc:
            return Finding(line, text, "unchecked", "figures", f"{pub['name']}: not compared with its published "
                           f"total ({exc})")
        ok = value * unit == want * wunit
        if not ok and pub.get("counted") and _rounds_to(pub["counted"], text):
            return Finding(line, text, "verified", "figures", f"{pub['name']}: {text} is the released model's own "
                           f"count, {pub['counted']:,} parameters, rounded or cut (the paper prints {entry[0]})")
        return Finding(line, text, "verified" if ok else "mismatch", "figures",
                       f"{pub['name']}: {entry[1]} (a published figure)", None if ok else entry[0])
    try:
        got = int(text.replace(",", ""))
    except ValueError:
        return Finding(line, text, "unchecked", "figures", f"{pub['name']}: {text!r} is not a whole number, not "
                       f"compared with its published {field}")
    if isinstance(entry[0], dict):  # several published values, each for a stated part of the model
        if got in entry[0]:
            return Finding(line, text, "verified", "figures", f"{pub['name']}: {entry[0][got]}")
        expected = entry[2] if len(entry) > 2 else ", ".join(str(k) for k in entry[0])
        return Finding(line, text, "mismatch", "figures", f"{pub['name']}: {got} is not a published {field}. "
                       + (entry[1] if len(entry) > 2 else f"published: {expected} ({entry[1]})"), expected)
    ok = got == entry[0]
    return Finding(line, text, "verified" if ok else "mismatch", "figures",
                   f"{pub['name']}: {entry[1]}" + ("" if ok else f", not {got}"), None if ok else str(entry[0]))


def check_figures(table) -> list[Finding]:
    out = []
    values = {(header, _field(label)): cell for _, label, header, cell in _cells(table)}
    for line, label, header, cell in _cells(table):
        field, cfg, text = _field(label), _config_for(header), cell.strip()
        pub = None if cfg else _published_for(header)
        if field is None:
            continue  # a row that is not a model size (a benchmark score, a date): not a claim about the model
        elif pub is not None:
            out.append(_check_published(line, text, field, pub))
        elif cfg is None:
            why = f"{header}: not among the named configurations (symtf.dims.CONFIGS)"
            if field == "d_head":
                try:
                    d, heads = (int(values[(header, f)].replace(",", "")) for f in ("d_model", "n_heads"))
                    rel = "equals" if d // heads == int(text.replace(",", "")) and d % heads == 0 else "differs from"
                    why += f"; the value {rel} d_model / H = {d}/{heads} (a relation only)"
                except (KeyError, ValueError):
                    pass
            out.append(Finding(line, text, "unchecked", "figures", why))
        elif field == "total":
            try:
                ok = _rounds_to(cfg.param_count(), text)
            except ValueError as exc:
                out.append(Finding(line, text, "unparsed", "figures", str(exc)))
                continue
            if not ok and cfg.paper_total and _norm(text) == _norm(cfg.paper_total):
                out.append(Finding(line, text, "unchecked", "figures", f"{cfg.name}: {text} is the figure the model's "
                                   f"paper printed (Radford et al. 2019, Table 2), later corrected: the released "
                                   f"checkpoint has {cfg.param_count():,} parameters, named {cfg.published_total}; a "
                                   "citation of the paper, not decided"))
                continue
            out.append(Finding(line, text, "verified" if ok else "mismatch", "figures",
                               f"{cfg.name}: {cfg.param_count():,} parameters by the parameter formula " +
                               ("round to " if ok else "do not round to ") + text,
                               None if ok else cfg.published_total))
        elif getattr(cfg, field, None) is None:  # a GPT-3 column's "KV heads": the configuration records none
            out.append(Finding(line, text, "unchecked", "figures", f"{cfg.name}: no {field} recorded ({cfg.source})"))
        else:
            want = getattr(cfg, field)
            try:
                got = int(text.replace(",", ""))
            except ValueError:
                out.append(Finding(line, text, "unparsed", "figures", f"{text!r} is not a whole number"))
                continue
            status = "verified" if got == want else "mismatch"
            out.append(Finding(line, text, status, "figures", f"{cfg.name}: {field} = {want}" +
                               ("" if got == want else f", not {got}") + f" ({cfg.source})",
                               None if got == want else str(want)))
    return out


def times_as_product(exprs: list) -> list:
    r"""``d_\text{model} = h \times d_k``, ``d_{ff} = 4 \times d_\text{model} = 2048``: where one side of a chain of
    sizes is written without ``\times`` (a lone size, a number, ``h d_k``), the ``\times`` of the others is the product
    of sizes, not a shape. Where every side has one (``n \times d = (n \times d_c)(d_c \times d)``) it stays a shape."""
    times = [any(n[0] == "mul" and n[3] == "×" for n in _nodes(e)) for e in exprs]
    if all(times) or not any(times):
        return exprs

    def product(node):
        if not isinstance(node, tuple):
            return node
        node = tuple(product(c) for c in node)
        return node[:3] + ("*",) if node[0] == "mul" and node[3] == "×" else node
    return [product(e) for e in exprs]


def _nodes(node):
    yield node
    for child in node[1:]:
        if isinstance(child, tuple):
            yield from _nodes(child)


def _size_sum(node, ctx: Context):
    """:func:`size_expr`, and a sum or negation of size expressions."""
    if node[0] == "add":
        return sum((sign * _size_sum(term, ctx) for term, sign in zip(node[1], node[2])), Integer(0))
    if node[0] == "neg":
        return -_size_sum(node[1], ctx)
    return size_expr(node, ctx)


# ≈ between sizes: within this of each other holds (with the document's own sizes, or at every published
# configuration), beyond a factor of this at every configuration does not; between the two it depends on what the
# document counts as close.
_CLOSE, _FAR = 0.05, 2.0


def _approximately(line, text, a, b, configs) -> Finding:
    """``a ≈ b`` for sizes, at the sizes of every published configuration (GPT-2, GPT-3): an approximation that drops
    lower-order terms (``12 d^2 + 13 d ≈ 12 d^2``) holds there, one that drops a square (``12 d ≈ 10 d^2``) does not."""
    ratios = []
    for cfg in configs:
        sizes = cfg.sizes()
        try:
            ratios.append((float(a.xreplace(sizes)) / float(b.xreplace(sizes)), cfg.name))
        except (TypeError, ValueError, ZeroDivisionError):
            return Finding(line, text, "unchecked", "figures", "the relation ≈ is not checked")
    if all(abs(r - 1) <= _CLOSE for r, _ in ratios):
        f = Finding(line, text, "verified", "figures", f"holds to {_CLOSE:.0%} at every published configuration "
                    f"({', '.join(n for _, n in ratios)}): the sides differ by lower-order terms")
    elif all(r > _FAR or r < 1 / _FAR for r, _ in ratios):
        r, name = ratios[0]
        f = Finding(line, text, "mismatch", "figures", f"the sides differ by a factor of {max(r, 1 / r):.3g} at "
                    f"{name}, and by more than {_FAR:g} at every published configuration: not an approximation")
    else:
        f = Finding(line, text, "unchecked", "figures", "≈ between sizes that agree only roughly at the published "
                    "configurations: not decided")
    f.basis = "published"
    return f


def _named_configs(prose: str) -> list:
    """Configurations the prose names: full names first, else every member of a family it names (GPT-2)."""
    text = prose.lower()
    full = [c for c in dims.CONFIGS.values() if c.name.lower() in text]
    if full:
        return full
    families = {}
    for c in dims.CONFIGS.values():
        families.setdefault(c.name.lower().rsplit(" ", 1)[0], []).append(c)
    return [c for fam, cs in families.items() if re.search(re.escape(fam) + r"(?![\w-])", text) for c in cs]


def names_a_configuration(text: str) -> bool:
    """Does ``text`` (a whole document's prose) name a published configuration (GPT-2, Llama 3 70B, BERT-base …)?"""
    return bool(_named_configs(text) or _published_in(text))


def _published_in(text: str) -> list:
    """The configurations known by their published figures (``published.yaml``, LLaMA-2) that ``text`` names."""
    flat = _norm(text)
    return [pub for key, pub in PUBLISHED.items() if key in flat]


def check_size_relation(line, latex, exprs, rels, ctx: Context, prose: str,
                        own: dict | None = None, para: str = "", stated: dict | None = None,
                        named_anywhere: bool = True, gated=None, named_before: bool = True) -> list[Finding] | None:
    """A chain of sizes only (``d_\\text{model} = 768``, ``d_\\text{head} = d_\\text{model}/H``); None if not one.

    A number is a claim about one model: the one the prose names (a published configuration), else the
    document's own sizes stated earlier (``own``: size symbol → (value, line)); with neither, a size set to a
    number is the document's own value (a definition), and anything else is left unchecked. A configuration only a
    heading names, none of whose values agrees with every size the document ``stated`` (d_model = 512 in a post
    titled after a published model), is not this document's model. In a document that names no configuration
    (``named_anywhere`` False) a relation of letters that fails for all of them is not judged: its letters may
    stand for other sizes than the reference's; nor a head as wide as the model (``d_v = d_\text{model}``) where no
    configuration is named before it in its section (``named_before`` False) nor in its sentence; nor one of d_ff
    where the document's MLP is gated (``gated``, its SwiGLU deviation: ``d_{ff} = \frac{8}{3} d_\text{model}``),
    which no configuration in symtf.dims is.
    """
    if set(rels) & UNJUDGED:  # a ≪ b, n ∈ {…}: no size claim to judge
        return None
    approx = set(rels) == {"≈"}  # 12 d_\text{model}^2 + 13 d_\text{model} \approx 12 d_\text{model}^2: sums too
    kinds = ("num", "sym", "mul", "frac", "pow") + (("add", "neg") if approx else ())
    if any(node[0] not in kinds or
           node[0] == "sym" and node[3] is not None and not node[3].isdigit() for e in exprs for node in walk(e)):
        return None
    try:
        sides = [_size_sum(e, ctx) for e in times_as_product(exprs)]
    except CheckError:
        return None
    if not any(s.free_symbols for s in sides):
        return None
    own = own or {}
    named = _named_configs(prose)
    if named and stated and not _named_configs(para) and \
            all(any(c.sizes().get(s) not in (None, v) for s, (v, _) in stated.items()) for c in named):
        named = []  # a heading names them, and the document stated a size (d_model = 512) none has: its own model
    published = _published_in(prose)
    other = _other_model(para, [pub["total"][0] if "total" in pub else pub["nominal"] for pub in published] +
                         [c.name for c in named])
    out = []
    for a, b, rel, ea, eb in zip(sides, sides[1:], rels, exprs, exprs[1:]):
        text = unparse(("chain", [ea, eb], [rel])) if len(rels) > 1 else latex
        if dims.n in (a - b).free_symbols:  # an input's length: the document's own, stated in this section, or none
            out.append(_input_length(line, text, a, b, rel, own))
            continue
        literal = not (a.free_symbols and b.free_symbols)
        if not a.free_symbols and not b.free_symbols:  # 4 \cdot 512^2 = 1048576: exact arithmetic
            ok = a == b if rel == "=" else None
            out.append(Finding(line, text, "unchecked" if ok is None else "verified" if ok else "mismatch", "figures",
                               f"the relation {rel} is not checked" if ok is None else
                               ("holds exactly (exact integer arithmetic)" if ok else f"does not hold: {a} ≠ {b}"),
                               None if ok in (None, True) else f"{unparse(ea)} = {a}"))
            out[-1].basis = "arithmetic"
            continue
        if literal and other and (named or published):
            out.append(Finding(line, text, "unchecked", "figures", f"the sentence names a model of {other} parameters, "
                               f"not {(named[0].name if named else published[0]['name'])} that its section names: not "
                               "compared with published figures"))
            continue
        if literal and not named and published:
            out.append(_published_relation(line, text, a, b, published[0], _one_letter(ea if b.is_number else eb)))
            continue
        if literal and not named:
            out.append(_own_relation(line, text, a, b, rel, own))
            continue
        configs = named if literal else list(dims.CONFIGS.values())
        failing = [c.name for c in configs if (a - b).xreplace(c.sizes()) != 0]  # symbols ↦ numbers: as subs, cheaper
        if literal and len(failing) < len(configs):  # a number holds for one of the models named
            configs, failing = [c for c in configs if c.name not in failing], []
        where = configs[0].name if literal else "every named configuration"
        if rel == "≈" and not literal:
            out.append(_approximately(line, text, a, b, configs))
        elif rel != "=":
            out.append(Finding(line, text, "unchecked", "figures", f"the relation {rel} is not checked"))
        elif failing and literal and _one_letter(ea if b.is_number else eb) and \
                (other_size := _another_size(a, b, configs[0])):
            out.append(Finding(line, text, "unchecked", "figures", f"{other_size}: this document may use the letter "
                               "for that size (its meaning is not stated here)"))
        elif failing and not literal and (mine := _with_own_sizes(line, text, a, b, own, unparse(ea))):
            out.append(mine)
            continue
        elif failing and gated is not None and dims.d_mlp in (a - b).free_symbols:
            out.append(Finding(line, text, "unchecked", "figures", f"does not hold for {', '.join(failing)}, whose "
                               f"MLPs are not gated, where this document's is ({gated.evidence!r}, line {gated.line}): "
                               "its d_ff is not theirs; not compared"))
        elif failing and not literal and not named_anywhere:  # d_k = d_v = d in a table of one head's letters
            out.append(Finding(line, text, "unchecked", "figures", f"does not hold for {', '.join(failing)}, which this "
                               "document does not name: its letters may stand for other sizes (its own model)"))
        elif failing and not literal and not named and not named_before and \
                sympy.expand(a - b) in (dims.d_head - dims.d_model, dims.d_model - dims.d_head):
            out.append(Finding(line, text, "unchecked", "figures", f"does not hold for {', '.join(failing)}, "
                               "whose heads are narrower than the model; a head as wide as the model (one head, or "
                               "attention over the representations themselves) is a setting of this passage, and its "
                               "sentence names none of them: not compared"))
        elif failing:
            cfg = configs[0]
            out.append(Finding(line, text, "mismatch", "figures", f"does not hold for {', '.join(failing)}",
                               f"{unparse(ea)} = {(a if b.is_number else b).subs(cfg.sizes())}" if literal else None))
        else:
            out.append(Finding(line, text, "verified", "figures", f"holds for {where}"))
        out[-1].basis = "published"
    return out


_MODEL_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([BM])\b")


def _other_model(para: str, names: list) -> str | None:
    """A parameter count the sentence names (``a 7B model``, ``175B``) that none of ``names`` (the totals or
    names of the configurations its section names) carries: the sentence is about another model. None if none."""
    carried = {m.group(1) + m.group(2) for name in names for m in _MODEL_SIZE.finditer(str(name))}
    for m in _MODEL_SIZE.finditer(para):
        if carried and m.group(1) + m.group(2) not in carried:
            return m.group(1) + m.group(2)
    return None


def _one_letter(node) -> bool:
    r"""Is ``node`` a lone letter (``h``, ``d``), which documents use for different sizes, not a name
    (``d_\text{head}``)?"""
    return node[0] == "sym" and node[2] is None and node[3] is None and len(node[1]) == 1


def _another_size(a, b, cfg) -> str | None:
    """``h = 12288`` said of a configuration whose d_model is 12288: the number is another size of it, so
    the letter may mean that size in this document. The description, or None."""
    sym, num = (a, b) if b.is_number else (b, a)
    if not (sym.is_Symbol and num.is_number):
        return None
    for other, value in cfg.sizes().items():
        if other != sym and value == num:
            return f"{int(num) if num.is_integer else num} is {cfg.name}'s {other}, not its {sym}"
    return None


# the multi-head model's width, d_model = H d_head, as the model states it: d_head in the other sizes, and its text
_WIDTH = next((rhs, said) for lhs, rhs, said in CONVENTIONAL_RELATIONS if lhs == dims.d_model)
# d_head from d_model = H d_head, linear in d_head: solved by hand (sympy.solve at import costs 0.15 s, half of it
# importing sympy.physics; the checker's start-up is measured against `import sympy`)
_HEAD_SIZE = (dims.d_model - _WIDTH[0].subs(dims.d_head, 0)) / sympy.diff(_WIDTH[0], dims.d_head)


def _with_own_sizes(line, text, a, b, own: dict, left: str) -> Finding | None:
    r"""``d_k = d_\text{model}/4`` where no configuration holds it, judged with the sizes this document stated
    (``h = 4``) and the model's d_model = H d_head where the document gives d_model or H and not d_head.
    Verified or a mismatch where those sizes decide it; None where the document stated none of them."""
    involved = (a - b).free_symbols | ({dims.d_model, dims.H} if dims.d_head in (a - b).free_symbols else set())
    used = sorted(set(own) & involved, key=str)
    if not used:
        return None
    values, where = _stated(own, used)
    derived = dims.d_head not in own and dims.d_head in (a - b).free_symbols

    def mine(side):
        side = side.subs(values)
        return sympy.simplify(side.subs(dims.d_head, _HEAD_SIZE).subs(values) if derived else side)
    gap = sympy.simplify(mine(a) - mine(b))
    where += f", and {_WIDTH[1]}" if derived else ""
    if gap == 0:
        f = Finding(line, text, "verified", "figures", f"holds with this document's sizes ({where})")
    elif gap.free_symbols and not all(s.is_positive for s in gap.free_symbols):
        return None
    elif gap.free_symbols == {dims.H} and gap.subs(dims.H, 1) == 0:  # d_v = d_model: one head, which the document never says
        f = Finding(line, text, "unchecked", "figures", f"holds with this document's sizes ({where}) only if $H = 1$, "
                    "one head, a count the document does not state: not decided")
    elif gap.free_symbols and gap.is_zero is not False:
        return None  # d_ff = 4d with d_head = 512 stated and d_ff not: the document's sizes leave it open
    else:
        f = Finding(line, text, "mismatch", "figures", f"does not hold with this document's sizes ({where})",
                    f"{left} = {sympy.latex(mine(a), symbol_names=dims.LATEX)}")
    f.basis = "document"
    return f


def _stated(own: dict, symbols) -> tuple[dict, str]:
    """The document's stated values of ``symbols`` (exact) and their description: ``H = 8 (line 3), …``."""
    values = {s: sympy.nsimplify(own[s][0]) for s in symbols}
    return values, ", ".join(f"{dims.LATEX.get(s, s)} = {own[s][0]:g} (line {own[s][1]})" for s in symbols)


def _own_relation(line, text, a, b, rel, own: dict) -> Finding:
    """A size claim with numbers and no model named: against the document's own sizes, if it stated them."""
    free = (a - b).free_symbols
    if free and all(s in own for s in free):
        values, where = _stated(own, sorted(free, key=str))
        gap = (a - b).subs(values)
        ok = gap == 0 if rel == "=" else abs(float(gap)) <= _CLOSE * max(abs(float(a.subs(values))), 1e-12)
        if rel not in ("=", "≈"):
            return Finding(line, text, "unchecked", "figures", f"the relation {rel} is not checked")
        f = Finding(line, text, "verified" if ok else "mismatch", "figures",
                    f"{'holds' if ok else 'does not hold'} with this document's sizes ({where})",
                    None if ok else f"{sympy.latex(a if b.is_number else b, symbol_names=dims.LATEX)} = "
                    f"{sympy.latex((a if b.is_number else b).subs(values))}")
        f.basis = "document"
        return f
    single = [s for s in (a, b) if s.is_Symbol]
    if rel == "=" and single and (b if single[0] is a else a).is_number:
        return Finding(line, text, "unchecked", "figures", f"this document's value of {dims.LATEX.get(single[0], single[0])}"
                       " (a definition: later size claims are checked against it)")
    return Finding(line, text, "unchecked", "figures", "a value of no model named here, and the document has not "
                   "stated the sizes it needs: nothing to check it against")


def _input_length(line, text, a, b, rel, own: dict) -> Finding:
    r"""A size relation with the input's length n (``n = 16``, ``2 n d^2 = 131072``): no model has a length of its
    own, so ``n`` set to a number is this document's value (a definition), and a relation of n with the document's
    stated sizes (``own``, n among them: the caller keeps n only where this section stated it) is judged with them;
    anything else is left unchecked."""
    free = (a - b).free_symbols
    if rel == "=" and {a, b} & {dims.n} and (b if a == dims.n else a).is_number:
        return Finding(line, text, "unchecked", "figures", "this document's value of n, the length of its example "
                       "input (a definition: later size claims of its section are checked against it)")
    if rel in ("=", "≈") and free <= set(own):
        return _own_relation(line, text, a, b, rel, own)
    return Finding(line, text, "unchecked", "figures", "n is the length of one input, not a model size")


def _published_relation(line, text, a, b, pub, one_letter: bool = False) -> Finding:
    """``d_\\text{model} = 7168`` said of a model known only by its published figures; a lone letter (``H``) whose
    number is another of the model's sizes may mean that size in this document: not judged."""
    sym, num = (a, b) if b.is_number else (b, a)
    field = _FIELD_OF.get(sym)
    if field is None or not num.is_number or not num.is_integer:
        return Finding(line, text, "unchecked", "figures", f"{pub['name']}: only single published sizes are checked")
    found = _check_published(line, str(int(num)), field, pub)
    other = [f for f in _PUBLISHED_FIELDS if f != field and isinstance(pub.get(f), tuple) and pub[f][0] == int(num)]
    if found.status == "mismatch" and one_letter and other:  # H = 7168 where the document's H is the hidden width
        return Finding(line, text, "unchecked", "figures", f"{int(num)} is {pub['name']}'s {other[0]}, not its {field}: "
                       "this document may use the letter for that size (its meaning is not stated here)")
    return Finding(line, text, found.status, "figures", found.message, found.expected)
