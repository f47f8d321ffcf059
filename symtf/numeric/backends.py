"""Where compiled rows run: numpy on the CPU, or PyTorch on a CPU or a CUDA device.

A backend names its printer (one per backend: :class:`~symtf.numeric.printer.SymtfNumPyPrinter`,
:class:`~symtf.numeric.printer_torch.SymtfTorchPrinter`), the runtime namespace its printed code
calls, and how arrays enter and leave it. The forward pass (:mod:`symtf.numeric.compile`) is the
same for all: the same rows, the same order.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError

BACKENDS = ("numpy", "torch")
DTYPES = {"numpy": ("float32", "float64"), "torch": ("float32", "float64", "bfloat16")}


@dataclass(frozen=True)
class Backend:
    """``name`` (numpy or torch), ``device`` (cpu, cuda, cuda:1 ...; torch only) and ``dtype`` (a name)."""

    name: str = "numpy"
    device: str = "cpu"
    dtype: str = "float64"
    _torch: object = field(default=None, repr=False, compare=False)

    @staticmethod
    def of(name: str = "numpy", device: str = "cpu", dtype="float64") -> "Backend":
        """A checked backend; the error says what is known (and whether torch or CUDA is missing)."""
        dtype = dtype if isinstance(dtype, str) else np.dtype(dtype).name
        if name not in BACKENDS:
            raise InputError(f"unknown backend {name!r}; known: {', '.join(BACKENDS)}")
        if dtype not in DTYPES[name]:
            raise InputError(f"backend {name} computes in {', '.join(DTYPES[name])}, not {dtype}")
        if name == "numpy":
            if device != "cpu":
                raise InputError(f"the numpy backend runs on the CPU only, not {device!r}; use --backend torch")
            return Backend(name, device, dtype)
        try:
            import torch
        except ImportError:
            raise InputError("the torch backend needs torch: pip install -e '.[crosscheck]'") from None
        try:
            dev = torch.device(device)
        except RuntimeError as exc:
            raise InputError(f"device {device!r}: {exc}") from None
        if dev.type == "cuda" and not torch.cuda.is_available():
            raise InputError(f"device {device!r}: CUDA is not available on this machine")
        return Backend(name, str(dev), dtype, torch)

    @property
    def is_torch(self) -> bool:
        return self.name == "torch"

    @property
    def numpy_dtype(self) -> np.dtype:
        """The dtype weights are checked in (bfloat16 weights are checked in float32, then rounded)."""
        return np.dtype("float32" if self.dtype == "bfloat16" else self.dtype)

    def printer(self, onehot):
        if self.is_torch:
            from .printer_torch import SymtfTorchPrinter

            return SymtfTorchPrinter(onehot=onehot)
        from .printer import SymtfNumPyPrinter

        return SymtfNumPyPrinter(onehot=onehot)

    def modules(self) -> list:
        if self.is_torch:
            from .runtime_torch import NAMESPACE

            return [NAMESPACE]
        from .runtime import NAMESPACE

        return [NAMESPACE, "numpy"]

    def array(self, a: np.ndarray):
        """A weight (numpy) on this backend: a tensor on the device in the dtype, or the array itself."""
        if not self.is_torch:
            return a
        torch = self._torch
        return torch.from_numpy(np.ascontiguousarray(a)).to(device=self.device, dtype=getattr(torch, self.dtype))

    def tokens(self, t: np.ndarray):
        return self._torch.from_numpy(t.astype(np.int64)).to(self.device) if self.is_torch else t

    def value(self, v):
        """A row's result as an array of this backend's dtype, owned by the caller (never a view of the weights)."""
        if self.is_torch:
            torch = self._torch
            if not isinstance(v, torch.Tensor):
                return torch.as_tensor(v, dtype=getattr(torch, self.dtype), device=self.device)
            return v.contiguous() if not v.is_contiguous() else v
        v = np.asarray(v, dtype=self.dtype)
        return v.copy() if not v.flags.writeable else v  # a broadcast or a view of the weights

    def stack(self, parts):
        return self._torch.stack(parts) if self.is_torch else np.stack(parts)

    def running(self):
        """The context the rows run in: torch's inference mode (no autograd bookkeeping), else nothing."""
        return self._torch.inference_mode() if self.is_torch else contextlib.nullcontext()


def to_numpy(value) -> np.ndarray:
    """A forward pass's output as a numpy array (a torch tensor is moved to the CPU; bfloat16 to float32)."""
    if isinstance(value, np.ndarray):
        return value
    if str(value.dtype) == "torch.bfloat16":
        value = value.float()
    return value.detach().cpu().numpy()


__all__ = ["BACKENDS", "Backend", "DTYPES", "to_numpy"]
