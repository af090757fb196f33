"""PyTorch eager reference for the GPU training-step benchmark (packages/mdlm-core/src/bench/gpu-train.bench.ts).

The same LLaMA-style model and step: causal-LM loss over batch x seq random tokens, AdamW
(lr 1e-4, weight decay 0.01), global-norm clipping at 1. Times one step at fp32 (TF32 off), TF32,
and bf16 autocast (fp32 master weights), after warm-up, with CUDA synchronisation, and writes
{"fp32": ms, "tf32": ms, "bf16": ms} as JSON.

    python3 tools/gpu/torch_train_step.py --out torch.json [--layers 12 --d 768 ...] [--profile]

--profile also runs two steps per precision under torch.profiler and prints the GPU kernel time
of one step: in all, in GEMMs, in attention kernels and the rest, and the largest kernels (set
beside the ORT profile of DiffWorld's step to see where the two differ).
"""
import argparse
import json
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM


def kernel_kind(name: str) -> str:
    n = name.lower()
    if "flash" in n or "fmha" in n or "attention" in n:
        return "attention"
    if "gemm" in n or "xmma" in n or "cutlass" in n or "splitk" in n:
        return "gemm"
    return "other"


def print_kernel_profile(precision: str, step, steps: int = 2) -> None:
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    kernels = [e for e in prof.key_averages() if e.device_type.name == "CUDA" and e.self_device_time_total > 0]
    per_step = lambda us: us / steps / 1000
    by_kind: dict = {}
    for e in kernels:
        by_kind[kernel_kind(e.key)] = by_kind.get(kernel_kind(e.key), 0) + e.self_device_time_total
    total = sum(by_kind.values())
    print(f"  {precision} GPU kernel time per step: {per_step(total):.1f} ms — " + ", ".join(f"{k} {per_step(v):.1f} ms" for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])), flush=True)
    for e in sorted(kernels, key=lambda e: -e.self_device_time_total)[:25]:
        print(f"    {per_step(e.self_device_time_total):7.2f} ms {e.count // steps:5d}x  {e.key[:110]}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    for name, default in [("layers", 12), ("d", 768), ("heads", 12), ("ffn", 2048), ("vocab", 8192), ("batch", 16), ("seq", 512), ("steps", 20)]:
        ap.add_argument(f"--{name}", type=int, default=default)
    ap.add_argument("--out", required=True)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    cfg = LlamaConfig(vocab_size=a.vocab, hidden_size=a.d, intermediate_size=a.ffn, num_hidden_layers=a.layers,
                      num_attention_heads=a.heads, num_key_value_heads=a.heads, max_position_embeddings=a.seq,
                      rms_norm_eps=1e-6, rope_theta=10000.0, tie_word_embeddings=False)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, a.vocab, (a.batch, a.seq), generator=g).cuda()
    results = {}
    for precision in ["fp32", "tf32", "bf16"]:
        torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
        torch.backends.cudnn.allow_tf32 = precision == "tf32"
        torch.manual_seed(0)
        model = LlamaForCausalLM(cfg).cuda().train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.01)

        def step() -> float:
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=precision == "bf16"):
                loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            return loss

        for _ in range(3):
            step()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(a.steps):
            loss = step()
        torch.cuda.synchronize()
        results[precision] = (time.perf_counter() - t0) / a.steps * 1000
        print(f"pytorch {torch.__version__} {precision}: {results[precision]:.1f} ms/step (loss {float(loss):.4f})", flush=True)
        if a.profile:
            print_kernel_profile(precision, step)
        del model, opt
        torch.cuda.empty_cache()
    with open(a.out, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
