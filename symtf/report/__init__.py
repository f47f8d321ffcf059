"""``symtf report``: the example post checked, every claim proved, the tables; the docs pages from them."""
from .run import EXAMPLE_POST, build_report, run_report, to_text

__all__ = ["EXAMPLE_POST", "build_report", "run_report", "to_text"]
