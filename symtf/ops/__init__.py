"""symtf's operations as SymPy matrix-expression nodes (see each module)."""
from .base import HeadMatrixSymbol, Op, SizeConstraint
from .elementwise import GELU, Elementwise, GELUTanh, ReLU, gelu, relu
from .heads import HeadConcat, HeadSum, head_concat, head_sum
from .layernorm import LayerNorm, layernorm
from .rmsnorm import RMSNorm, rmsnorm
from .rope import RoPE, rope
from .softmax import CausalMask, CausalSoftmax, Softmax, causal_softmax, softmax
from .structure import Broadcast, Column, LeadingColumns, WeightedSum

__all__ = [
    "Broadcast", "CausalMask", "CausalSoftmax", "Column", "Elementwise", "GELU", "GELUTanh",
    "HeadConcat", "HeadMatrixSymbol", "HeadSum", "LayerNorm", "LeadingColumns", "Op", "RMSNorm", "ReLU", "RoPE",
    "SizeConstraint", "Softmax", "WeightedSum", "causal_softmax", "gelu", "head_concat", "head_sum",
    "layernorm", "relu", "rmsnorm", "rope", "softmax",
]
