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

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "CONFIGS",
    "LATEX",
    "SIZES",
    "Config",
    "H",
    "check_config",
    "d_head",
    "d_mlp",
    "d_model",
    "n",
    "n_ctx",
    "n_layers",
    "n_vocab",
    "param_breakdown",
    "param_count_formula",
]
