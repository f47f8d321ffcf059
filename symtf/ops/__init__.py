"""symtf's operations as SymPy matrix-expression nodes (see each module)."""
from .base import HeadMatrixSymbol, Op, SizeConstraint
from .elementwise import GELU, Elementwise, GELUTanh, ReLU
from .heads import HeadConcat, HeadSum
from .layernorm import LayerNorm
from .rmsnorm import RMSNorm, rmsnorm
from .rope import RoPE, rope
from .softmax import CausalMask, CausalSoftmax, Softmax
from .structure import Broadcast, Column, LeadingColumns, WeightedSum

__all__ = [
    "Broadcast", "CausalMask", "CausalSoftmax", "Column", "Elementwise", "GELU", "GELUTanh",
    "HeadConcat", "HeadMatrixSymbol", "HeadSum", "LayerNorm", "LeadingColumns", "Op", "RMSNorm", "ReLU", "RoPE",
    "SizeConstraint", "Softmax", "WeightedSum", "rmsnorm", "rope",
]
