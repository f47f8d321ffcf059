"""`python -m symtf` runs the `symtf` command."""

import sys

from symtf.cli import main

sys.exit(main())
