"""The torch backend: the same rows printed by SymPy's torch printer (taught symtf's ops), the same numbers.

The numpy backend is the reference here (itself checked against exact SymPy, hand-written numpy and
HF GPT-2); HF GPT-2 checks both backends directly in tests/test_crosscheck_layers.py.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from sympy import MatrixSymbol, Symbol, sqrt

from symtf.errors import InputError
from symtf.model import Convention, Heads, Nonlinearity, Variant
from symtf.numeric import compile_forward, random_weights
from symtf.numeric import runtime as np_runtime

if os.environ.get("SYMTF_REQUIRE_CROSSCHECK"):
    import torch  # noqa: E402
else:
    torch = pytest.importorskip("torch", reason="torch not installed: pip install -e '.[crosscheck]'")

from symtf.numeric import runtime_torch  # noqa: E402
from symtf.numeric.backends import Backend, to_numpy  # noqa: E402
from symtf.numeric.printer_torch import torch_code  # noqa: E402

pytestmark = pytest.mark.crosscheck

SIZES = {"n_vocab": 13, "d_model": 6, "d_head": 3, "d_mlp": 11, "H": 2, "n_ctx": 17}
TOKENS = [3, 1, 4, 1, 5, 9, 2]
VARIANTS = {
    "zero": Variant.preset("zero"), "simplified": Variant.preset("simplified"), "full": Variant.preset("full"),
    "gpt2": Variant.preset("gpt2"), "gelu": Variant(nonlinearity=Nonlinearity.GELU),
    "concat": Variant(heads=Heads.CONCAT), "gpt2-row": Variant.preset("gpt2").with_(convention=Convention.ROW),
    "gpt2-3-layers": Variant.preset("gpt2").with_(layers=3),
}


def test_every_op_has_a_torch_form():
    numpy_ops = {k for k in np_runtime.NAMESPACE if k.startswith("symtf_")}
    torch_ops = {k for k in runtime_torch.NAMESPACE if k.startswith("symtf_")}
    assert numpy_ops == torch_ops


def test_torch_printer_prints_scalars_with_math_and_transposes_the_last_axes():
    d = Symbol("d_head", positive=True)
    q, k = MatrixSymbol("q", 3, 5), MatrixSymbol("k", 3, 5)
    assert torch_code(q.T * k / sqrt(d)) == "(float(1/math.sqrt(d_head))*(symtf_matmul(torch.transpose(q, -1, -2), k)))"


@pytest.mark.parametrize("heads", ["batched", "loop"])
@pytest.mark.parametrize("name", list(VARIANTS))
def test_torch_backend_equals_numpy_backend(name, heads):
    variant = VARIANTS[name]
    w = random_weights(variant, SIZES, seed=3)
    expected = compile_forward(variant, np.float64, heads)(w, TOKENS)
    got = compile_forward(variant, "float64", heads, backend="torch")(w, TOKENS)
    assert list(got) == list(expected)
    for key, value in expected.items():
        assert isinstance(got[key], torch.Tensor) and got[key].dtype == torch.float64
        np.testing.assert_allclose(to_numpy(got[key]), value, rtol=0, atol=1e-12, err_msg=key)


def test_rmsnorm_and_rope_agree_across_backends():
    rng = np.random.default_rng(0)
    x, g = rng.standard_normal((6, 5)), rng.standard_normal((6, 1))
    theta = rng.standard_normal(3)
    t = torch.from_numpy
    np.testing.assert_allclose(runtime_torch.symtf_rmsnorm(t(x), t(g), 1e-5, 0).numpy(),
                               np_runtime.symtf_rmsnorm(x, g, 1e-5, 0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(runtime_torch.symtf_rope(t(x), theta, 2).numpy(), np_runtime.symtf_rope(x, theta, 2),
                               rtol=0, atol=1e-12)


def test_bfloat16_stays_bfloat16():
    w = random_weights("gpt2", SIZES, seed=1)
    acts = compile_forward("gpt2", "bfloat16", backend="torch")(w, TOKENS)
    assert acts["probs"].dtype == torch.bfloat16
    expected = compile_forward("gpt2", np.float64)(w, TOKENS)["probs"]
    assert np.abs(to_numpy(acts["probs"]) - expected).max() < 0.05  # bfloat16 keeps ~3 significant digits


def test_backend_errors_name_what_is_known():
    with pytest.raises(InputError, match="unknown backend 'jax'; known: numpy, torch"):
        Backend.of("jax")
    with pytest.raises(InputError, match="backend numpy computes in float32, float64, not bfloat16"):
        Backend.of("numpy", dtype="bfloat16")
    with pytest.raises(InputError, match="the numpy backend runs on the CPU only"):
        Backend.of("numpy", device="cuda")
    if not torch.cuda.is_available():
        with pytest.raises(InputError, match="CUDA is not available on this machine"):
            Backend.of("torch", device="cuda")
