"""Speed and memory of symtf's compiled forward pass at GPT-2 Small sizes, against baselines in the same process.

    python benchmarks/forward.py [--layers 12] [--n 128 1024] [--repeats 3] [--vocab 50257] [--dtype float32]

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
with ratios to HF eager. Peak memory is the largest rise of the process's resident set during one
call above its size just before (sampled every 0.5 ms by a thread; freed-and-reused memory is not
counted twice), with its ratio to HF eager's. With CUDA available, symtf torch and HF (eager, SDPA)
are also timed on the GPU in float32 and bfloat16 (``torch.cuda.synchronize`` around each call);
without CUDA that part prints that it is skipped.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import tempfile
import threading
import time

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

D_MODEL, H, D_HEAD, D_MLP, N_CTX = 768, 12, 64, 3072, 1024
EPS = 1e-5
_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE


def peak_rise(fn) -> int:
    """Bytes the resident set rose above its starting size at its highest during ``fn()``."""
    start = rss()
    peak = [start]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss())
            time.sleep(0.0005)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        fn()
    finally:
        done.set()
        thread.join()
    return max(peak[0], rss()) - start


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


def hf_models(layers: int, vocab: int, path: str):
    """HF GPT-2 Small with ``layers`` blocks, eager and SDPA (same weights), float32, saved to ``path``."""
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
    sdpa = GPT2LMHeadModel.from_pretrained(path, attn_implementation="sdpa").eval()
    return eager, sdpa


def hf_call(model, device="cpu"):
    import torch

    @torch.inference_mode()
    def run(ids):
        return model(ids, use_cache=False).logits

    return run


# --------------------------------------------------------------------------- main


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--n", type=int, nargs="+", default=[128, 1024])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--vocab", type=int, default=50257)
    args = parser.parse_args(argv)

    import torch
    import transformers

    from symtf.numeric import compile_forward
    from symtf.numeric.checkpoint import load_checkpoint

    with tempfile.TemporaryDirectory() as tmp:
        eager, sdpa = hf_models(args.layers, args.vocab, tmp)
        t0 = time.perf_counter()
        ckpt = load_checkpoint(tmp)
        t_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    # every implementation returns the logits (HF's output); symtf runs the rows they need, keeping no others
    f_np = compile_forward(ckpt.variant, np.float32, backend="numpy", keys=["logits"])
    f_torch = compile_forward(ckpt.variant, np.float32, backend="torch", keys=["logits"])
    t_compile = time.perf_counter() - t0
    w_np = f_np.prepare(ckpt.params)  # validated and cast to float32 once
    w_torch = f_torch.prepare(ckpt.params)
    w32 = {k: w_np[k] for k in w_np}
    del ckpt

    print(f"GPT-2 Small, {args.layers} layers, float32, CPU: d_model={D_MODEL} H={H} d_head={D_HEAD} d_mlp={D_MLP} "
          f"n_vocab={args.vocab}; numpy {np.__version__}, torch {torch.__version__} ({torch.get_num_threads()} "
          f"threads), transformers {transformers.__version__}, {os.cpu_count()} CPUs")
    print(f"load_checkpoint: {t_load:.2f} s; compile_forward (numpy + torch, {len(f_np.rows)} rows each): "
          f"{t_compile:.2f} s")
    print(f"time: median of {args.repeats} round-robin runs after one warm-up; memory: peak rise of the resident set "
          "during one call")
    print()
    header = f"{'n':>5}  {'implementation':<22} {'median ms':>10} {'x HF eager':>10} {'peak MiB':>9} {'x HF eager':>10}"
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(1)
    for n in args.n:
        tokens = rng.integers(0, args.vocab, size=n).tolist()
        ids = torch.tensor([tokens])
        rows = {
            "symtf numpy": lambda: f_np(w_np, tokens),
            "symtf torch": lambda: f_torch(w_torch, tokens),
            "HF eager": lambda: hf_call(eager)(ids),
            "HF SDPA": lambda: hf_call(sdpa)(ids),
            "numpy (hand-written)": lambda: numpy_forward(w32, tokens, args.layers),
        }
        times = interleaved_medians(rows, args.repeats)
        memory = {name: peak_rise(fn) for name, fn in rows.items()}
        for name in rows:
            print(f"{n:>5}  {name:<22} {times[name] * 1e3:>10.1f} {times[name] / times['HF eager']:>10.3f} "
                  f"{memory[name] / 2**20:>9.1f} {memory[name] / max(memory['HF eager'], 1):>10.3f}")
        ref = hf_call(eager)(ids)[0].T.numpy()  # (n_vocab, n)
        errors = {
            "symtf numpy": f_np(w_np, tokens)["logits"],
            "symtf torch": f_torch(w_torch, tokens)["logits"].numpy(),
            "numpy (hand-written)": numpy_forward(w32, tokens, args.layers),
        }
        scale = max(1.0, float(np.abs(ref).max()))
        print("       max |logits - HF eager| / max(1, max|logits|): "
              + ", ".join(f"{k} {float(np.abs(v - ref).max()) / scale:.1e}" for k, v in errors.items()))
        best = min(times["symtf numpy"], times["symtf torch"])
        print(f"       symtf best backend: {best / times['HF eager']:.3f}x HF eager, {best / times['HF SDPA']:.3f}x "
              f"HF SDPA")
        print()
    gpu(args, f_torch, w_np, eager, sdpa)


def gpu(args, f_cpu, weights, eager, sdpa) -> None:
    import torch

    if not torch.cuda.is_available():
        print("GPU: skipped (CUDA is not available on this machine)")
        return
    from symtf.numeric import compile_forward

    print(f"GPU: {torch.cuda.get_device_name()}; median of {args.repeats} round-robin runs, synchronized")
    for dtype in ("float32", "bfloat16"):
        f = compile_forward(f_cpu.model, dtype, backend="torch", device="cuda")
        tdt = getattr(torch, dtype)
        models = {"HF eager": eager.to("cuda", tdt), "HF SDPA": sdpa.to("cuda", tdt)}
        for n in args.n:
            tokens = np.random.default_rng(2).integers(0, args.vocab, size=n).tolist()
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
