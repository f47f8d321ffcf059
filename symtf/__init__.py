"""symtf: symbolic derivation and checking for the math of GPT-style Transformers."""

from symtf.dims import (
    CONFIGS,
    LATEX,
    SIZES,
    Config,
    H,
    check_config,
    d_head,
    d_mlp,
    d_model,
    n,
    n_ctx,
    n_layers,
    n_vocab,
    param_breakdown,
    param_count_formula,
)
from symtf.errors import InputError, PrintingError, ShapeError, SymtfError, UnknownSymbolError
from symtf.latex.printer import latex, latex_shape
from symtf.latex.tables import render_tables
from symtf.model import Convention, Heads, Kind, Model, Nonlinearity, Variant, build, to_row
from symtf.ops import (
    GELU, CausalSoftmax, GELUTanh, HeadConcat, HeadMatrixSymbol, HeadSum, LayerNorm, ReLU, Softmax,
)
from symtf.shapes import Verdict, check_expr, check_model

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "CONFIGS", "LATEX", "SIZES", "Config", "H", "check_config", "d_head", "d_mlp", "d_model", "n", "n_ctx",
    "n_layers", "n_vocab", "param_breakdown", "param_count_formula",
    "InputError", "PrintingError", "ShapeError", "SymtfError", "UnknownSymbolError",
    "latex", "latex_shape", "render_tables",
    "Convention", "Heads", "Kind", "Model", "Nonlinearity", "Variant", "build", "to_row",
    "GELU", "CausalSoftmax", "GELUTanh", "HeadConcat", "HeadMatrixSymbol", "HeadSum", "LayerNorm", "ReLU", "Softmax",
    "Verdict", "check_expr", "check_model",
]
