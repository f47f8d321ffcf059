"""latex2sympy2-extended vs symtf.check's own parser on the post's fragments: share parsed, time, and
how the raw parser reads the field's notation (layer superscripts become powers, ReLU a product).

Usage: python benchmarks/check_parsers.py  (about 30 s: latex2sympy is slow to start and to parse)
"""
import time
from latex2sympy2_extended import latex2sympy
from latex2sympy2_extended.latex2sympy2 import ConversionConfig
from symtf.check.extract import extract
from symtf.check.normalize import statements, clean
from symtf.check.parse import parse, ParseError

frags, _ = extract(open('/work/shared/post/gentle-introduction.md').read())
cfg = ConversionConfig(lowercase_symbols=False)
ok_raw = ok_norm = ok_ours = 0
t = time.time()
samples = {}
for f in frags:
    try:
        r = latex2sympy(f.latex, conversion_config=cfg); ok_raw += 1
        if any(k in f.latex for k in (r"x^{(0)}_n", r"\text{ReLU}", r"\,|\,", r"W_O^h")):
            samples[f.latex[:50]] = str(r)[:60]
    except Exception:
        pass
    try:
        for st in statements(f.latex):
            latex2sympy(clean(st.text), conversion_config=cfg)
        ok_norm += 1
    except Exception:
        pass
t1 = time.time() - t
t = time.time()
for f in frags:
    try:
        for st in statements(f.latex):
            parse(st.text)
        ok_ours += 1
    except ParseError:
        try:
            parse("[" + f.latex + "]"); ok_ours += 1
        except ParseError:
            pass
t2 = time.time() - t
n = len(frags)
print(f"{n} fragments; latex2sympy raw {ok_raw/n:.0%}, after normalize {ok_norm/n:.0%} ({t1:.2f}s); ours {ok_ours/n:.0%} ({t2:.2f}s)")
for k, v in list(samples.items())[:6]:
    print(f"  {k!r} -> {v}")
