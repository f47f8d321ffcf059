"""LaTeX for the post: the printer in the post's notation and the table emitters."""
from .printer import PostLatexPrinter, latex, latex_shape

__all__ = ["PostLatexPrinter", "latex", "latex_shape"]
