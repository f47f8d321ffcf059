"""Speed of symtf's compiled one-layer forward pass at GPT-2 Small sizes, against baselines run in the same process.

    python benchmarks/forward.py [--repeats 5] [--n 128 1024] [--vocab 50257]

Three implementations compute the same activations of the ``gpt2`` variant (embedding, LayerNorms,
12 heads with biases, GELU-tanh MLP, final LayerNorm, tied unembedding, softmax), float32:

- symtf: ``compile_forward("gpt2", float32)``, every row lambdified from the model (both head modes);
- numpy: a hand-written column-vector forward pass (fused QKV projection, per-head attention);
- torch: the same written with torch CPU ops (row-vector layout, batched heads).

Printed: the median wall time of each, symtf's ratio to each baseline, the matrix-multiply
throughput each achieves (GFLOP/s, counting only the products) against this machine's float32
GEMM (2048 x 2048 x 2048, timed in the same round-robin), and symtf's compile time.
"""
from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

D_MODEL, H, D_HEAD, D_MLP, N_CTX = 768, 12, 64, 3072, 1024
EPS = 1e-5


def median_time(fn, repeats: int) -> float:
    fn()  # warm up (page in the weights, first-call allocations)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def interleaved_medians(fns: dict, repeats: int) -> dict[str, float]:
    """Median time of each function, run round-robin so that a change in machine load hits all alike."""
    for fn in fns.values():
        fn()  # warm up
    times = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


def sgemm_operands():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2048, 2048)).astype(np.float32)
    b = rng.standard_normal((2048, 2048)).astype(np.float32)
    return lambda: a @ b


SGEMM_FLOPS = 2 * 2048**3


def matmul_flops(n: int, vocab: int) -> int:
    qkv = 3 * 2 * D_MODEL * D_MODEL * n
    attention = 2 * (2 * H * n * n * D_HEAD)  # q^T k and v A^T
    out = 2 * D_MODEL * D_MODEL * n
    mlp = 2 * (2 * D_MLP * D_MODEL * n)
    unembed = 2 * vocab * D_MODEL * n
    return qkv + attention + out + mlp + unembed


# --------------------------------------------------------------------------- hand-written numpy


def numpy_forward(w, tokens):
    """The post's column-vector forward pass, written directly in numpy (float32 in, float32 out)."""
    n = len(tokens)

    def layernorm(x, g, b):
        mu = x.mean(axis=0, keepdims=True)
        xc = x - mu
        var = (xc * xc).mean(axis=0, keepdims=True)
        return xc / np.sqrt(var + EPS) * g[:, None] + b[:, None]

    def softmax0(x):
        e = np.exp(x - x.max(axis=0, keepdims=True))
        return e / e.sum(axis=0, keepdims=True)

    x0 = w["W_E"][:, tokens] + w["W_pos"][:, :n]  # (d_model, n)
    x0_ln = layernorm(x0, w["ln1_g"], w["ln1_b"])
    W_qkv = np.concatenate([w["W_Q"], w["W_K"], w["W_V"]]).reshape(3 * H * D_HEAD, D_MODEL)
    b_qkv = np.concatenate([w["b_Q"], w["b_K"], w["b_V"]]).reshape(-1, 1)
    qkv = (W_qkv @ x0_ln + b_qkv).reshape(3, H, D_HEAD, n)
    q, k, v = qkv[0], qkv[1], qkv[2]  # (H, d_head, n)
    mask = np.triu(np.ones((n, n), dtype=bool), 1)
    scale = 1.0 / math.sqrt(D_HEAD)
    S = np.empty((H, n, n), np.float32)
    A = np.empty((H, n, n), np.float32)
    r = np.empty((H, D_HEAD, n), np.float32)
    o = np.empty((H, D_MODEL, n), np.float32)
    for c in range(H):
        S[c] = (q[c].T @ k[c]) * scale
        s = np.where(mask, -np.inf, S[c])
        e = np.exp(s - s.max(axis=1, keepdims=True))
        A[c] = e / e.sum(axis=1, keepdims=True)
        r[c] = v[c] @ A[c].T
        o[c] = w["W_O"][c] @ r[c]
    x1 = x0 + o.sum(axis=0) + w["b_O"][:, None]
    x1_ln = layernorm(x1, w["ln2_g"], w["ln2_b"])
    pre = w["W_1"] @ x1_ln + w["b_1"][:, None]
    z = 0.5 * pre * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (pre + 0.044715 * pre**3)))
    m = w["W_2"] @ z + w["b_2"][:, None]
    x2 = x1 + m
    x2_ln = layernorm(x2, w["lnf_g"], w["lnf_b"])
    logits = w["W_E"].T @ x2_ln
    return {"embed": x0, "ln1": x0_ln, "q": q, "k": k, "v": v, "scores": S, "pattern": A, "result": r,
            "head_out": o, "resid_mid": x1, "ln2": x1_ln, "mlp_hidden": z, "mlp_out": m, "resid_post": x2,
            "lnf": x2_ln, "logits": logits, "probs": softmax0(logits)}


# --------------------------------------------------------------------------- torch


def torch_forward_factory(w):
    import torch
    import torch.nn.functional as F

    t = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in w.items()}
    W_E_row = t["W_E"].T.contiguous()  # (vocab, d_model), as nn.Embedding stores it
    W_pos_row = t["W_pos"].T.contiguous()
    W_qkv = torch.cat([t["W_Q"], t["W_K"], t["W_V"]]).reshape(3 * D_MODEL, D_MODEL)  # nn.Linear layout (out, in)
    b_qkv = torch.cat([t["b_Q"], t["b_K"], t["b_V"]]).reshape(-1)
    W_O = t["W_O"].permute(1, 0, 2).reshape(D_MODEL, H * D_HEAD)  # (out, in)

    @torch.inference_mode()
    def forward(tokens):
        n = len(tokens)
        ids = torch.as_tensor(tokens)
        x0 = W_E_row[ids] + W_pos_row[:n]  # (n, d_model)
        x0_ln = F.layer_norm(x0, (D_MODEL,), t["ln1_g"], t["ln1_b"], EPS)
        qkv = F.linear(x0_ln, W_qkv, b_qkv).view(n, 3, H, D_HEAD).permute(1, 2, 0, 3)  # (3, H, n, d_head)
        q, k, v = qkv[0], qkv[1], qkv[2]
        S = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(D_HEAD))
        mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
        A = torch.softmax(S.masked_fill(mask, float("-inf")), dim=-1)
        r = A @ v  # (H, n, d_head)
        z_cat = r.transpose(0, 1).reshape(n, H * D_HEAD)
        o = F.linear(z_cat, W_O, t["b_O"])
        x1 = x0 + o
        x1_ln = F.layer_norm(x1, (D_MODEL,), t["ln2_g"], t["ln2_b"], EPS)
        z = F.gelu(F.linear(x1_ln, t["W_1"], t["b_1"]), approximate="tanh")
        m = F.linear(z, t["W_2"], t["b_2"])
        x2 = x1 + m
        x2_ln = F.layer_norm(x2, (D_MODEL,), t["lnf_g"], t["lnf_b"], EPS)
        logits = x2_ln @ W_E_row.T
        return {"pattern": A, "resid_post": x2, "logits": logits, "probs": torch.softmax(logits, dim=-1)}

    return forward


# --------------------------------------------------------------------------- main


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n", type=int, nargs="+", default=[128, 1024])
    parser.add_argument("--vocab", type=int, default=50257)
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    from symtf.numeric import compile_forward, random_weights
    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    f_batched = compile_forward("gpt2", np.float32, heads="batched")
    t_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    f_loop = compile_forward("gpt2", np.float32, heads="loop")
    t_compile_loop = time.perf_counter() - t0

    sizes = {"n_vocab": args.vocab, "d_model": D_MODEL, "d_head": D_HEAD, "d_mlp": D_MLP, "H": H, "n_ctx": N_CTX}
    raw = random_weights("gpt2", sizes, seed=0)
    prepared = f_batched.prepare(raw)  # validated and cast to float32 once
    w32 = {k: prepared[k] for k in prepared}
    try:
        import torch
        torch_forward = torch_forward_factory(w32)
        torch_info = f"torch {torch.__version__}, {torch.get_num_threads()} threads"
    except ImportError:
        torch_forward, torch_info = None, "torch not installed"

    sgemm = sgemm_operands()
    print(f"GPT-2 Small one-layer forward (gpt2 variant), float32: d_model={D_MODEL} H={H} d_head={D_HEAD} "
          f"d_mlp={D_MLP} n_vocab={args.vocab}; numpy {np.__version__}; {torch_info}")
    print(f"import symtf.numeric: {t_import:.2f} s; compile_forward: {t_compile:.2f} s (batched heads), "
          f"{t_compile_loop:.2f} s (per-head loop, second compile)")
    print(f"median of {args.repeats} round-robin runs after one warm-up; sgemm (numpy, 2048^3 float32) is timed in "
          "the same round-robin, so '% sgemm' compares against the machine as loaded at that moment")
    print()
    header = f"{'n':>5}  {'implementation':<22} {'median ms':>10} {'GFLOP/s':>8} {'% sgemm':>8}"
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(1)
    for n in args.n:
        tokens = rng.integers(0, args.vocab, size=n).tolist()
        ref = numpy_forward(w32, tokens)
        got = f_batched(prepared, tokens)
        err = max(float(np.abs(got[k] - ref[k]).max() / max(1.0, float(np.abs(ref[k]).max()))) for k in ref)
        flops = matmul_flops(n, args.vocab)
        rows = [
            ("symtf (batched heads)", lambda: f_batched(prepared, tokens)),
            ("symtf (per-head loop)", lambda: f_loop(prepared, tokens)),
            ("numpy (hand-written)", lambda: numpy_forward(w32, tokens)),
        ]
        if torch_forward is not None:
            rows.append(("torch CPU", lambda: torch_forward(tokens)))
        times = interleaved_medians(dict(rows) | {"sgemm": sgemm}, args.repeats)
        peak = SGEMM_FLOPS / times["sgemm"] / 1e9
        print(f"{n:>5}  {'sgemm 2048^3 (numpy)':<22} {times['sgemm'] * 1e3:>10.1f} {peak:>8.1f} {100:>7.0f}%")
        for name, _ in rows:
            gf = flops / times[name] / 1e9
            print(f"{n:>5}  {name:<22} {times[name] * 1e3:>10.1f} {gf:>8.1f} {100 * gf / peak:>7.0f}%")
        default = times["symtf (batched heads)"]
        best = min(default, times["symtf (per-head loop)"])
        line = f"{n:>5}  ratios: symtf default (batched) {default / times['numpy (hand-written)']:.3f}x numpy"
        if torch_forward is not None:
            line += f", {default / times['torch CPU']:.3f}x torch"
        line += f"; best symtf mode {best / times['numpy (hand-written)']:.3f}x numpy"
        if torch_forward is not None:
            line += f", {best / times['torch CPU']:.3f}x torch"
        print(line)
        line = " " * 7
        line += f"max relative difference to numpy: symtf {err:.1e} (all activations)"
        if torch_forward is not None:
            theirs = torch_forward(tokens)
            t_err = max(
                float(np.abs(theirs[k].numpy() - (ref[k] if k == "pattern" else ref[k].T)).max()
                      / max(1.0, float(np.abs(ref[k]).max())))
                for k in theirs
            )
            line += f", torch {t_err:.1e} (pattern, resid_post, logits, probs)"
        print(line)
        print()


if __name__ == "__main__":
    main()
