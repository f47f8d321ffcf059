"""Speed and memory of symtf's compiled forward pass at GPT-2 Small sizes, against baselines in the same process.

    python benchmarks/forward.py [--layers 12] [--n 128 1024] [--repeats 3] [--vocab 50257] [--threads 1]

One random GPT-2 (HF ``GPT2LMHeadModel`` from a config, nothing downloaded) is saved with
``save_pretrained`` and read back with ``symtf.numeric.checkpoint.load_checkpoint``; then, on the CPU,
every implementation computes the same forward pass (embedding, L blocks, final LayerNorm, tied
unembedding) on the same tokens and returns the logits:

- symtf numpy: ``compile_forward(variant, backend="numpy", keys=["logits"])``, every row lambdified from
  the model (the rows the logits need; each layer's activations freed when the next layer writes its own);
- symtf torch: the same rows printed with the torch printer (``backend="torch"``);
- HF eager and HF SDPA: ``GPT2LMHeadModel`` with ``attn_implementation`` "eager" and "sdpa";
- numpy (hand-written): the post's column-vector forward pass written directly.

Times are medians of round-robin runs after one warm-up (a change of machine load hits all alike),
with ratios to HF eager. ``--threads`` (default 1) sets numpy's BLAS and torch's threads alike: on a
shared machine one thread each is the steadiest comparison. Peak memory is measured per
implementation in a fresh process: the weights loaded, one warm-up call, Linux's peak-RSS mark reset
(``/proc/self/clear_refs``), one more forward call, then the peak resident set above the size just before
(``VmHWM - VmRSS``; glibc's mmap threshold is fixed so freed buffers go back to the system), with its
ratio to HF eager's. With CUDA available, symtf torch and HF (eager, SDPA)
are also timed on the GPU in float32 and bfloat16 (``torch.cuda.synchronize`` around each call);
without CUDA that part prints that it is skipped.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _threads(argv) -> str:
    """``--threads`` read before numpy and torch start their thread pools."""
    for i, arg in enumerate(argv):
        if arg == "--threads" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--threads="):
            return arg.split("=", 1)[1]
    return "1"


for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = _threads(sys.argv)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402

D_MODEL, H, D_HEAD, D_MLP, N_CTX = 768, 12, 64, 3072, 1024
EPS = 1e-5


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def peak_rise(fn) -> int:
    """Bytes the resident set rose above its size before ``fn()`` at its highest (Linux peak-RSS mark)."""
    import gc

    gc.collect()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM to the current VmRSS
    before = _status_kib("VmRSS")
    fn()
    return (_status_kib("VmHWM") - before) * 1024


def interleaved_medians(fns: dict, repeats: int) -> dict[str, float]:
    """Median time of each function, run round-robin after one warm-up each."""
    for fn in fns.values():
        fn()
    times = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


# --------------------------------------------------------------------------- hand-written numpy


def numpy_forward(w, tokens, layers):
    """The post's column-vector forward pass of L GPT-2 blocks, written directly in numpy."""
    n = len(tokens)

    def layernorm(x, g, b):
        mu = x.mean(axis=0, keepdims=True)
        xc = x - mu
        var = (xc * xc).mean(axis=0, keepdims=True)
        return xc / np.sqrt(var + EPS) * g[:, None] + b[:, None]

    mask = np.triu(np.ones((n, n), dtype=bool), 1)
    scale = np.float32(1.0 / math.sqrt(D_HEAD))
    x = w["W_E"][:, tokens] + w["W_pos"][:, :n]  # (d_model, n)
    for l in range(layers):
        x_ln = layernorm(x, w["ln1_g"][l], w["ln1_b"][l])
        W_qkv = np.concatenate([w["W_Q"][l], w["W_K"][l], w["W_V"][l]]).reshape(3 * H * D_HEAD, D_MODEL)
        b_qkv = np.concatenate([w["b_Q"][l], w["b_K"][l], w["b_V"][l]]).reshape(-1, 1)
        qkv = (W_qkv @ x_ln + b_qkv).reshape(3, H, D_HEAD, n)
        attn = np.zeros((D_MODEL, n), x.dtype)
        for c in range(H):
            s = np.where(mask, -np.inf, (qkv[0, c].T @ qkv[1, c]) * scale)  # (n, n)
            e = np.exp(s - s.max(axis=1, keepdims=True))
            a = e / e.sum(axis=1, keepdims=True)
            attn += w["W_O"][l][c] @ (qkv[2, c] @ a.T)
        x = x + attn + w["b_O"][l][:, None]
        pre = w["W_1"][l] @ layernorm(x, w["ln2_g"][l], w["ln2_b"][l]) + w["b_1"][l][:, None]
        z = 0.5 * pre * (1.0 + np.tanh(np.float32(math.sqrt(2 / math.pi)) * (pre + np.float32(0.044715) * pre**3)))
        x = x + w["W_2"][l] @ z + w["b_2"][l][:, None]
    return w["W_E"].T @ layernorm(x, w["lnf_g"], w["lnf_b"])  # logits (n_vocab, n)


# --------------------------------------------------------------------------- setup


def hf_models(layers: int, vocab: int, path: str) -> None:
    """A random HF GPT-2 Small with ``layers`` blocks, float32, saved to ``path`` (every implementation reads it)."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=vocab, n_positions=N_CTX, n_embd=D_MODEL, n_head=H, n_inner=D_MLP, n_layer=layers,
                        activation_function="gelu_new", resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                        bos_token_id=0, eos_token_id=0, attn_implementation="eager")
    torch.manual_seed(0)
    eager = GPT2LMHeadModel(config).eval()
    with torch.no_grad():  # GPT-2's init leaves biases 0 and LayerNorm 1: make every parameter count
        for name, p in eager.named_parameters():
            if name.endswith("bias") or ".ln_" in name:
                p.normal_(0.0, 0.02)
            if name.endswith(("ln_1.weight", "ln_2.weight", "ln_f.weight")):
                p.add_(1.0)
    eager.save_pretrained(path)


def hf_call(model, device="cpu"):
    import torch

    @torch.inference_mode()
    def run(ids):
        return model(ids, use_cache=False).logits

    return run


# --------------------------------------------------------------------------- main

IMPLEMENTATIONS = ("symtf numpy", "symtf torch", "HF eager", "HF SDPA", "numpy (hand-written)")


def setup(name: str, path: str, layers: int):
    """``call(tokens) -> logits`` for implementation ``name``, its weights read from the checkpoint at ``path``."""
    import torch

    if name.startswith("HF"):
        from transformers import GPT2LMHeadModel

        model = GPT2LMHeadModel.from_pretrained(path, attn_implementation=name.split()[1].lower()).eval()
        run = hf_call(model)
        return lambda tokens: run(torch.tensor([tokens]))
    from symtf.numeric import compile_forward
    from symtf.numeric.checkpoint import load_checkpoint

    ckpt = load_checkpoint(path)
    if name == "numpy (hand-written)":
        w = {k: np.asarray(v, np.float32) for k, v in ckpt.params.items()}
        return lambda tokens: numpy_forward(w, tokens, layers)
    # every implementation returns the logits (HF's output); symtf runs the rows they need, keeping no others
    f = compile_forward(ckpt.variant, np.float32, backend=name.split()[1], keys=["logits"])
    weights = f.prepare(ckpt.params)  # validated and cast to float32 once
    f(weights, [0])  # the torch backend moves the weights once, here
    return lambda tokens: f(weights, tokens)["logits"]


def memory_of(name: str, path: str, layers: int, n: int, vocab: int) -> int:
    """Peak memory of one call of ``name`` in a fresh process (see the module docstring)."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072", MALLOC_TRIM_THRESHOLD_="131072")
    out = subprocess.run([sys.executable, __file__, "--memory-of", name, "--checkpoint", path, "--layers",
                          str(layers), "--n", str(n), "--vocab", str(vocab), "--threads", _threads(sys.argv)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["peak"]


def tokens_for(n: int, vocab: int) -> list[int]:
    return np.random.default_rng(n).integers(0, vocab, size=n).tolist()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--n", type=int, nargs="+", default=[128, 1024])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP/torch threads of every implementation")
    parser.add_argument("--memory-of", choices=IMPLEMENTATIONS, help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--checkpoint", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    import torch
    import transformers

    torch.set_num_threads(args.threads)
    if args.memory_of:
        call = setup(args.memory_of, args.checkpoint, args.layers)
        tokens = tokens_for(args.n[0], args.vocab)
        call(tokens)  # one-time work (lazy imports, first-call caches) is not the forward pass's memory
        print(json.dumps({"peak": peak_rise(lambda: call(tokens))}))
        return
    with tempfile.TemporaryDirectory() as path:
        hf_models(args.layers, args.vocab, path)
        t0 = time.perf_counter()
        calls = {name: setup(name, path, args.layers) for name in IMPLEMENTATIONS}
        t_setup = time.perf_counter() - t0
        print(f"GPT-2 Small, {args.layers} layers, float32, CPU: d_model={D_MODEL} H={H} d_head={D_HEAD} "
              f"d_mlp={D_MLP} n_vocab={args.vocab}; numpy {np.__version__}, torch {torch.__version__}, transformers "
              f"{transformers.__version__}; {args.threads} thread(s) each, {os.cpu_count()} CPUs, load average "
              f"{os.getloadavg()[0]:.1f}")
        print(f"setup of all five (load_checkpoint, compile_forward, from_pretrained): {t_setup:.1f} s")
        print(f"time: median of {args.repeats} round-robin runs after one warm-up; memory: peak RSS rise of one call "
              "in a fresh process")
        print()
        header = (f"{'n':>5}  {'implementation':<22} {'median ms':>10} {'x HF eager':>10} {'peak MiB':>9} "
                  f"{'x HF eager':>10}")
        print(header)
        print("-" * len(header))
        for n in args.n:
            tokens = tokens_for(n, args.vocab)
            times = interleaved_medians({name: (lambda c=c: c(tokens)) for name, c in calls.items()}, args.repeats)
            memory = {name: memory_of(name, path, args.layers, n, args.vocab) for name in IMPLEMENTATIONS}
            for name in IMPLEMENTATIONS:
                print(f"{n:>5}  {name:<22} {times[name] * 1e3:>10.1f} {times[name] / times['HF eager']:>10.3f} "
                      f"{memory[name] / 2**20:>9.1f} {memory[name] / memory['HF eager']:>10.3f}")
            ref = calls["HF eager"](tokens)[0].T.numpy()  # (n_vocab, n)
            scale = max(1.0, float(np.abs(ref).max()))
            errors = {name: float(np.abs(np.asarray(calls[name](tokens)) - ref).max()) / scale
                      for name in ("symtf numpy", "symtf torch", "numpy (hand-written)")}
            print("       max |logits - HF eager| / max(1, max|logits|): "
                  + ", ".join(f"{k} {v:.1e}" for k, v in errors.items()))
            best = min(times["symtf numpy"], times["symtf torch"])
            best_mem = min(memory["symtf numpy"], memory["symtf torch"])
            print(f"       symtf best backend: time {best / times['HF eager']:.3f}x HF eager "
                  f"({best / times['HF SDPA']:.3f}x HF SDPA); memory {best_mem / memory['HF eager']:.3f}x HF eager")
            print()
        gpu(args, path)


def gpu(args, path: str) -> None:
    import torch

    if not torch.cuda.is_available():
        print("GPU: skipped (CUDA is not available on this machine)")
        return
    from transformers import GPT2LMHeadModel

    from symtf.numeric import compile_forward
    from symtf.numeric.checkpoint import load_checkpoint

    ckpt = load_checkpoint(path)
    print(f"GPU: {torch.cuda.get_device_name()}; median of {max(args.repeats, 10)} round-robin runs, synchronized")
    for dtype in ("float32", "bfloat16"):
        f = compile_forward(ckpt.variant, dtype, backend="torch", device="cuda", keys=["logits"])
        weights = f.prepare(ckpt.params)
        tdt = getattr(torch, dtype)
        models = {name: GPT2LMHeadModel.from_pretrained(path, attn_implementation=impl).to("cuda", tdt).eval()
                  for name, impl in (("HF eager", "eager"), ("HF SDPA", "sdpa"))}
        for n in args.n:
            tokens = tokens_for(n, args.vocab)
            ids = torch.tensor([tokens], device="cuda")

            def synced(fn):
                def run():
                    fn()
                    torch.cuda.synchronize()
                return run

            rows = {"symtf torch": synced(lambda: f(weights, tokens))}
            rows.update({name: synced(lambda m=m: hf_call(m)(ids)) for name, m in models.items()})
            times = interleaved_medians(rows, max(args.repeats, 10))
            print(f"{n:>5} {dtype:<9} " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in times.items())
                  + f"; symtf {times['symtf torch'] / times['HF SDPA']:.3f}x HF SDPA")


if __name__ == "__main__":
    main()
