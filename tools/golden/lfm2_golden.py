"""Golden vectors for mdlm-core's LFM2 decoder, computed with transformers' Lfm2ForCausalLM.

Two random tiny LFM2 models, saved with save_pretrained in float32 (and the first in bfloat16):
  lfm2_tied          conv / attention / conv layers, kernel 3, no biases, tied embeddings, the
                     feed-forward width auto-adjusted (intermediate_size 80 -> 2/3 -> 53 -> 64)
  lfm2_untied_bias   attention / conv / conv / attention, kernel 4, conv biases, untied LM head,
                     head_dim 12 != hidden / heads, auto-adjust off
For each checkpoint, reloaded in float32 with eager attention: logits, masked cross-entropy loss
and every parameter gradient for one fixed batch; transformers' own cached decoding (a prefill of
5 tokens, then 3 steps of one token through Lfm2HybridConvCache) against the uncached logits of
the same 8 tokens; and greedy generate() tokens from a 5-token prompt. Finally a checkpoint written
by DiffWorld (test-data/golden/lfm2/diffworld_written, made by
packages/mdlm-core/src/nn/golden-checkpoint.ts lfm2) is loaded and its logits recorded.

Layout of OUT: index.json (everything small, and where each tensor is), tensors.bin (float32
little-endian, concatenated), and one directory per saved checkpoint.

Run on the GPU host (any machine with torch + transformers >= 4.54; CPU is enough):
  python3 tools/golden/lfm2_golden.py [OUT_DIR] [DIFFWORLD_CHECKPOINT_DIR]
"""
import json
import os
import sys
import traceback

import torch
import torch.nn.functional as F
import transformers
from transformers import AutoModelForCausalLM, Lfm2Config

OUT = sys.argv[1] if len(sys.argv) > 1 else "test-data/golden/lfm2"
DW = sys.argv[2] if len(sys.argv) > 2 else os.path.join(OUT, "diffworld_written")
os.makedirs(OUT, exist_ok=True)
torch.use_deterministic_algorithms(True)

B, T, V = 2, 8, 64
PREFILL, STEPS = 5, 3
DTYPE_KW = "dtype" if int(transformers.__version__.split(".")[0]) >= 5 else "torch_dtype"
print(f"transformers {transformers.__version__}, torch {torch.__version__}", flush=True)

index = {"transformers_version": transformers.__version__, "torch_version": torch.__version__,
         "batch": {}, "models": {}, "errors": []}
blob = bytearray()


def put(t):
    """Appends a tensor (as float32) to tensors.bin; returns its entry."""
    a = t.detach().to(torch.float32).cpu().contiguous().numpy().astype("<f4")
    entry = {"offset": len(blob) // 4, "shape": list(a.shape)}
    blob.extend(a.tobytes())
    return entry


g = torch.Generator().manual_seed(33)
input_ids = torch.randint(0, V, (B, T), generator=g)
targets = torch.randint(0, V, (B, T), generator=g)
weights = (torch.rand(B, T, generator=g) < 0.7).to(torch.float32)
weights[0, 0] = 1.0
index["batch"] = {"input_ids": input_ids.reshape(-1).tolist(), "targets": targets.reshape(-1).tolist(),
                  "weights": weights.reshape(-1).tolist(), "shape": [B, T], "prefill": PREFILL, "steps": STEPS}

COMMON = dict(vocab_size=V, hidden_size=32, num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
              norm_eps=1e-5, bos_token_id=1, eos_token_id=2, pad_token_id=None)
MODELS = {
    "lfm2_tied": dict(num_hidden_layers=3, layer_types=["conv", "full_attention", "conv"], conv_L_cache=3, conv_bias=False,
                      intermediate_size=80, block_auto_adjust_ff_dim=True, block_ffn_dim_multiplier=1.0, block_multiple_of=16,
                      tie_word_embeddings=True, rope_theta=1000000.0),
    "lfm2_untied_bias": dict(num_hidden_layers=4, layer_types=["full_attention", "conv", "conv", "full_attention"], conv_L_cache=4,
                             conv_bias=True, intermediate_size=40, block_auto_adjust_ff_dim=False, head_dim=12,
                             tie_word_embeddings=False, rope_theta=10000.0),
}
BF16 = {"lfm2_tied"}


def randomize(model, seed):
    """Weights large enough that logits, loss and gradients are far from trivial."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            r = torch.randn(p.shape, generator=gen)
            if name.endswith("norm.weight"):
                p.copy_(1 + 0.1 * r)
            elif name.endswith(".bias"):
                p.copy_(0.1 * r)
            else:
                p.copy_(0.3 * r)


def masked_ce(logits):
    t = torch.where(weights > 0, targets, torch.full_like(targets, -100))
    return F.cross_entropy(logits.reshape(-1, V).float(), t.reshape(-1), ignore_index=-100)


def load(path):
    m = AutoModelForCausalLM.from_pretrained(path, **{DTYPE_KW: torch.float32}, attn_implementation="eager")
    m.train(False)
    return m


def cached_decoding(m):
    """transformers' own cache: a prefill, then single tokens; logits of each call, next to the uncached pass."""
    with torch.no_grad():
        full = m(input_ids=input_ids, use_cache=False).logits
        out = m(input_ids=input_ids[:, :PREFILL], use_cache=True)
        cache, pieces = out.past_key_values, [out.logits]
        for s in range(PREFILL, PREFILL + STEPS):
            out = m(input_ids=input_ids[:, s:s + 1], past_key_values=cache, use_cache=True,
                    cache_position=torch.tensor([s]))
            cache = out.past_key_values
            pieces.append(out.logits)
        cached = torch.cat(pieces, dim=1)
    n = PREFILL + STEPS
    return {"cached_logits": put(cached), "uncached_logits": put(full[:, :n]),
            "cached_vs_uncached": float((cached - full[:, :n]).abs().max())}


def greedy(m):
    with torch.no_grad():
        ids = m.generate(input_ids[:, :PREFILL], max_new_tokens=6, do_sample=False, min_new_tokens=6,
                         pad_token_id=V - 1, eos_token_id=None)
    return ids[:, PREFILL:].tolist()


def reference(path):
    m = load(path)
    logits = m(input_ids=input_ids).logits
    loss = masked_ce(logits)
    loss.backward()
    return {"logits": put(logits), "loss": float(loss), "grads": {n: put(p.grad) for n, p in m.named_parameters()},
            "param_names": [n for n, _ in m.named_parameters()], **cached_decoding(m), "greedy": greedy(m)}


for i, (name, extra) in enumerate(MODELS.items()):
    try:
        cfg = Lfm2Config(**COMMON, **extra)
        torch.manual_seed(300 + i)
        model = AutoModelForCausalLM.from_config(cfg, attn_implementation="eager")
        randomize(model, 400 + i)
        entry = {"ffn_dim": model.model.layers[0].feed_forward.w1.out_features, "variants": {}}
        dirs = {"float32": os.path.join(OUT, name, "float32")}
        model.save_pretrained(dirs["float32"])
        if name in BF16:
            dirs["bfloat16"] = os.path.join(OUT, name, "bfloat16")
            model.to(torch.bfloat16).save_pretrained(dirs["bfloat16"])
        for variant, d in dirs.items():
            entry["variants"][variant] = {"checkpoint": os.path.relpath(d, OUT), "files": sorted(os.listdir(d)), **reference(d)}
        index["models"][name] = entry
        f32 = entry["variants"]["float32"]
        print(f"{name}: ffn {entry['ffn_dim']}, loss {f32['loss']:.6f}, transformers cached vs uncached "
              f"{f32['cached_vs_uncached']:.2e}, greedy {f32['greedy']}", flush=True)
    except Exception:
        traceback.print_exc()
        index["errors"].append(f"model {name}: {traceback.format_exc()}")

# ---- a checkpoint written by DiffWorld ------------------------------------------------------------
try:
    if os.path.isdir(DW):
        m = load(DW)
        with torch.no_grad():
            dw_logits = m(input_ids=input_ids).logits
        index["diffworld_written"] = {"logits": put(dw_logits), "param_names": [n for n, _ in m.named_parameters()],
                                      "config_class": type(m.config).__name__, "layer_types": list(m.config.layer_types),
                                      "ffn_dim": m.model.layers[0].feed_forward.w1.out_features,
                                      "tied": m.lm_head.weight.data_ptr() == m.model.embed_tokens.weight.data_ptr()}
    else:
        index["errors"].append(f"no DiffWorld checkpoint at {DW}")
except Exception:
    traceback.print_exc()
    index["errors"].append(f"diffworld_written: {traceback.format_exc()}")

with open(os.path.join(OUT, "tensors.bin"), "wb") as f:
    f.write(bytes(blob))
with open(os.path.join(OUT, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
print(f"wrote {len(blob)} bytes of tensors; errors: {len(index['errors'])}", flush=True)
