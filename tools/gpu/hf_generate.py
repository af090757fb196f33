"""transformers' generate on the prompt ids the decode bench wrote (decode.bench --write-prompts):
greedy, the same stop ids and new-token limit, at each batch size and dtype; generated tokens/s
(tokens up to and including the first stop, as the bench counts them) and, from the float32 run at
the largest batch, each prompt's greedy tokens for the bench's token-for-token comparison.

  python3 hf_generate.py --model run-ar/model --prompts prompts.json --batches 1,16,64 --out hf.json
"""
import argparse
import json
import os
import time

import torch
from transformers import AutoModelForCausalLM


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--prompts", required=True)
    ap.add_argument("--batches", default="1,16,64")
    ap.add_argument("--single", type=int, default=8, help="prompts decoded one at a time for batch 1")
    ap.add_argument("--dtypes", default="bfloat16,float32")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    spec = json.load(open(a.prompts))
    ids, stops, max_new = spec["ids"], spec["stops"], spec["maxNewTokens"]
    batches = [int(b) for b in a.batches.split(",")]
    runs, reference = [], None
    for dtype in a.dtypes.split(","):
        model = AutoModelForCausalLM.from_pretrained(a.model, dtype=getattr(torch, dtype)).cuda().eval()
        for b in batches:
            count = min(a.single, len(ids)) if b == 1 else min(b, len(ids))
            decode(model, ids[: min(b, 2)], stops, max_new)  # warm-up: kernels, allocator
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            out = []
            for i in range(0, count, b):
                out += decode(model, ids[i : i + b], stops, max_new)
            torch.cuda.synchronize()
            s = time.perf_counter() - t0
            generated = sum(len(t) for t in out)
            runs.append({"dtype": dtype, "batch": b, "prompts": count, "tokensPerSecond": generated / s})
            print(f"transformers {dtype} batch {b}: {generated / s:.0f} tok/s ({generated} tokens, {s:.2f} s)", flush=True)
            if dtype == "float32" and b == max(batches):
                reference = out
        del model
        torch.cuda.empty_cache()
    tmp = a.out + ".tmp"
    json.dump({"runs": runs, "tokens": reference or [], "transformers": __import__("transformers").__version__}, open(tmp, "w"))
    os.replace(tmp, a.out)


@torch.no_grad()
def decode(model, prompts, stops, max_new):
    """Left-padded batch, greedy; per prompt its new tokens up to and including the first stop."""
    width = max(len(p) for p in prompts)
    pad = stops[0]
    input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts], device="cuda")
    mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts], device="cuda")
    out = model.generate(input_ids=input_ids, attention_mask=mask, max_new_tokens=max_new, do_sample=False, eos_token_id=stops, pad_token_id=pad)
    result = []
    for row in out[:, width:].tolist():
        cut = next((i for i, t in enumerate(row) if t in stops), None)
        result.append(row if cut is None else row[: cut + 1])
    return result


if __name__ == "__main__":
    main()
