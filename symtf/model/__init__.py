"""The post's tables as data: activations, parameters, variants and the row-vector view."""
from .build import LAYER, build, full_one_layer, h, simplified_one_layer, stacked, zero_layer
from .records import Activation, Block, Model, Parameter, ParamRow
from .row import to_row
from .variants import PRESETS, Convention, Heads, Kind, Nonlinearity, Variant

__all__ = [
    "Activation", "Block", "Convention", "LAYER", "Heads", "Kind", "Model", "Nonlinearity", "PRESETS", "ParamRow", "Parameter",
    "Variant", "build", "full_one_layer", "h", "simplified_one_layer", "stacked", "to_row", "zero_layer",
]
