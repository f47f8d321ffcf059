"""``symtf check``: verify every equation of a Markdown post against the model."""
