"""Golden vectors for mdlm-core's Hugging Face decoders, computed with `transformers`.

Random tiny LLaMA (tied; untied with attention and MLP biases), Qwen2 (q/k/v biases) and Qwen3
(q/k norm, head_dim != hidden/heads) models, each saved with save_pretrained in float32 and
bfloat16 (the untied LLaMA's float32 save is sharded, so model.safetensors.index.json is used).
For each saved checkpoint, reloaded in float32 with eager attention: logits, masked cross-entropy
loss and every parameter gradient for one fixed batch. RoPE: inverse frequencies, attention
scaling and cos/sin at positions past 4,096 for default, linear, dynamic, llama3 and yarn configs,
plus logits of a tiny llama3- and yarn-scaled model at positions 5000..5007. Finally a checkpoint
written by DiffWorld (test-data/golden/hf/diffworld_written, made by
packages/mdlm-core/src/nn/golden-checkpoint.ts) is loaded and its logits recorded.

Layout of OUT: index.json (everything small, and where each tensor is), tensors.bin (float32
little-endian, concatenated), and one directory per saved checkpoint.

Run on the GPU host (any machine with torch + transformers):
  python3 tools/golden/hf_models.py OUT_DIR [DIFFWORLD_CHECKPOINT_DIR]
"""
import inspect
import json
import os
import shutil
import sys
import traceback

import numpy as np
import torch
import torch.nn.functional as F
import transformers
from transformers import AutoModelForCausalLM, LlamaConfig, Qwen2Config, Qwen3Config

OUT = sys.argv[1] if len(sys.argv) > 1 else "test-data/golden/hf"
DW = sys.argv[2] if len(sys.argv) > 2 else "test-data/golden/hf/diffworld_written"
os.makedirs(OUT, exist_ok=True)
torch.use_deterministic_algorithms(True)

B, T, V = 2, 8, 64
COMMON = dict(vocab_size=V, hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
              num_key_value_heads=2, max_position_embeddings=256, rms_norm_eps=1e-5, bos_token_id=1, eos_token_id=2)

# transformers >= 5 names the load dtype `dtype`; older versions `torch_dtype`.
DTYPE_KW = "dtype" if int(transformers.__version__.split(".")[0]) >= 5 else "torch_dtype"
print(f"transformers {transformers.__version__}, torch {torch.__version__}", flush=True)

index = {"transformers_version": transformers.__version__, "torch_version": torch.__version__,
         "batch": {}, "models": {}, "rope": {}, "errors": []}
blob = bytearray()


def put(t):
    """Appends a tensor (as float32) to tensors.bin; returns its entry."""
    a = t.detach().to(torch.float32).cpu().contiguous().numpy().astype("<f4")
    entry = {"offset": len(blob) // 4, "shape": list(a.shape)}
    blob.extend(a.tobytes())
    return entry


def takes(cls, name):
    return name in inspect.signature(cls.__init__).parameters


def rope_kwargs(cls, theta, scaling):
    """rope_parameters (transformers >= 5) or rope_theta + rope_scaling (older)."""
    if takes(cls, "rope_parameters"):
        return {"rope_parameters": {"rope_type": "default", "rope_theta": theta, **(scaling or {})}}
    return {"rope_theta": theta, "rope_scaling": scaling}


g = torch.Generator().manual_seed(7)
input_ids = torch.randint(0, V, (B, T), generator=g)
targets = torch.randint(0, V, (B, T), generator=g)
weights = (torch.rand(B, T, generator=g) < 0.7).to(torch.float32)
weights[0, 0] = 1.0
index["batch"] = {"input_ids": input_ids.reshape(-1).tolist(), "targets": targets.reshape(-1).tolist(),
                  "weights": weights.reshape(-1).tolist(), "shape": [B, T]}


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


def reference(path, position_ids=None, grads=True):
    m = AutoModelForCausalLM.from_pretrained(path, **{DTYPE_KW: torch.float32}, attn_implementation="eager")
    m.train(False)
    kwargs = {} if position_ids is None else {"position_ids": position_ids}
    logits = m(input_ids=input_ids, **kwargs).logits
    out = {"logits": put(logits)}
    if grads:
        loss = masked_ce(logits)
        loss.backward()
        out["loss"] = float(loss)
        out["grads"] = {n: put(p.grad) for n, p in m.named_parameters()}
        out["param_names"] = [n for n, _ in m.named_parameters()]
    return out


MODELS = {
    "llama_tied": (LlamaConfig, dict(head_dim=8, tie_word_embeddings=True), 10000.0, None),
    "llama_untied_bias": (LlamaConfig, dict(head_dim=8, tie_word_embeddings=False, attention_bias=True, mlp_bias=True), 500000.0, None),
    "qwen2": (Qwen2Config, dict(tie_word_embeddings=False, use_sliding_window=False), 1000000.0, None),
    "qwen3": (Qwen3Config, dict(head_dim=12, tie_word_embeddings=True, attention_bias=False), 1000000.0, None),
}
SHARDED = "llama_untied_bias"

for i, (name, (cls, extra, theta, scaling)) in enumerate(MODELS.items()):
    try:
        cfg = cls(**COMMON, **extra, **rope_kwargs(cls, theta, scaling))
        torch.manual_seed(100 + i)
        model = AutoModelForCausalLM.from_config(cfg, attn_implementation="eager")
        randomize(model, 200 + i)
        entry = {"variants": {}}
        f32_dir = os.path.join(OUT, name, "float32")
        bf16_dir = os.path.join(OUT, name, "bfloat16")
        model.save_pretrained(f32_dir, max_shard_size="40KB" if name == SHARDED else "100MB")
        model.to(torch.bfloat16).save_pretrained(bf16_dir)
        for variant, d in (("float32", f32_dir), ("bfloat16", bf16_dir)):
            entry["variants"][variant] = {"checkpoint": os.path.relpath(d, OUT), "files": sorted(os.listdir(d)), **reference(d)}
        index["models"][name] = entry
        print(f"{name}: loss f32 {entry['variants']['float32']['loss']:.6f} bf16 {entry['variants']['bfloat16']['loss']:.6f}", flush=True)
    except Exception:
        traceback.print_exc()
        index["errors"].append(f"model {name}: {traceback.format_exc()}")

# ---- RoPE tables at positions past 4,096 -------------------------------------------------------
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding  # noqa: E402

ROPE = {
    "default": (10000.0, None, 2048),
    "linear": (10000.0, {"rope_type": "linear", "factor": 4.0}, 2048),
    "dynamic": (10000.0, {"rope_type": "dynamic", "factor": 2.0}, 2048),
    "llama3": (500000.0, {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                          "original_max_position_embeddings": 8192}, 131072),
    "yarn": (1000000.0, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}, 16384),
    "yarn_mscale": (10000.0, {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": 4096,
                              "mscale": 1.0, "mscale_all_dim": 0.707, "beta_fast": 32, "beta_slow": 1}, 163840),
}
POSITIONS = [0, 1, 7, 1000, 4095, 4096, 4097, 5000, 8191, 8192, 10000, 65537]
for name, (theta, scaling, max_pos) in ROPE.items():
    try:
        cfg = LlamaConfig(vocab_size=V, hidden_size=512, num_attention_heads=4, head_dim=128, num_hidden_layers=1,
                          max_position_embeddings=max_pos, **rope_kwargs(LlamaConfig, theta, scaling))
        rot = LlamaRotaryEmbedding(config=cfg)
        inv_freq_init = rot.inv_freq.clone()
        x = torch.zeros(1, dtype=torch.float32)
        cos, sin = rot(x, torch.tensor([POSITIONS]))
        d = os.path.join(OUT, "rope", name)
        cfg.save_pretrained(d)
        index["rope"][name] = {"config": os.path.relpath(d, OUT), "positions": POSITIONS,
                               "inv_freq_init": put(inv_freq_init), "inv_freq": put(rot.inv_freq),
                               "attention_scaling": float(rot.attention_scaling), "cos": put(cos[0]), "sin": put(sin[0])}
    except Exception:
        traceback.print_exc()
        index["errors"].append(f"rope {name}: {traceback.format_exc()}")

# ---- logits of tiny scaled models at positions 5000..5007 -------------------------------------------
FAR = torch.arange(5000, 5000 + T).unsqueeze(0).expand(B, T)
for name, scaling, max_pos in (("llama3", ROPE["llama3"][1], 131072), ("yarn", ROPE["yarn"][1], 16384)):
    try:
        src = os.path.join(OUT, "llama_tied", "float32")
        cfg = LlamaConfig.from_pretrained(src)
        kw = rope_kwargs(LlamaConfig, 500000.0, scaling)
        for k, v in kw.items():
            setattr(cfg, k, v)
        cfg.max_position_embeddings = max_pos
        d = os.path.join(OUT, "far", name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(src):
            if f.endswith(".safetensors"):
                shutil.copy(os.path.join(src, f), d)
        cfg.save_pretrained(d)
        index["models"][f"far_{name}"] = {"checkpoint": os.path.relpath(d, OUT), "position_start": 5000,
                                          **reference(d, position_ids=FAR, grads=False)}
    except Exception:
        traceback.print_exc()
        index["errors"].append(f"far {name}: {traceback.format_exc()}")

# ---- a checkpoint written by DiffWorld ------------------------------------------------------------
try:
    if os.path.isdir(DW):
        m = AutoModelForCausalLM.from_pretrained(DW, **{DTYPE_KW: torch.float32}, attn_implementation="eager")
        index["diffworld_written"] = {"logits": put(m(input_ids=input_ids).logits),
                                      "param_names": [n for n, _ in m.named_parameters()],
                                      "config_class": type(m.config).__name__,
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
