"""Claims of the post, proved from the model's own definitions, with three-valued results."""
from .claim import Claim, Method, NumericCheck, Result, Status
from .registry import CLAIMS

__all__ = ["CLAIMS", "Claim", "Method", "NumericCheck", "Result", "Status"]
