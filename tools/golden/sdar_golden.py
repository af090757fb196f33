"""Golden vectors for SDAR checkpoints in mdlm-core, computed with SDAR's own modelling code.

SDAR (JetAstra/SDAR on GitHub; JetLM/SDAR-*-Chat on the Hub) is a block-diffusion Qwen3. Its code
is read from a copy of the upstream repository given on the command line and is never committed
(see the README of packages/mdlm-core for where it comes from). A random tiny SDARForCausalLM
(2 layers, GQA, head_dim 12 != hidden/heads, untied, block_size 4, mask_token_id 63) is built from
the upstream SDARConfig / modeling_sdar.py, saved in float32 (config.json + model.safetensors, as save_pretrained writes them), and recorded:
  forward   logits of one block-diffusion training-layout pass: [x_t ; x_0] of 2 x 8 tokens, position
            ids [0..7, 0..7], the attention mask built by SDAR's own block_diff_mask, eval mode
  decode    SDAR's generate.py block_diffusion_generate on a 6-token prompt (one full block, a
            2-token tail), gen_length 10, block 4, 4 denoising steps, threshold 0.85, top_k 1 (so
            its multinomial draw is the argmax), for the sequential and low_confidence_dynamic
            strategies: the generated tokens, and for sequential every model call it made (tokens,
            store_kv, logits)

SDAR's file needs packages a plain GPU host lacks (flash_attn, liger_kernel) and names transformers
5 dropped (LossKwargs, DynamicCache indexing, the 'default' RoPE initialiser); this script puts
stand-ins computing the same functions in their place before importing it (flash_attn_func as
non-causal SDPA, rms_norm_fn as the float32 RMSNorm of SDAR's own commented-out code), and says
which it used in index.json.

Layout of OUT: index.json, tensors.bin (float32 little-endian, concatenated), checkpoint/ (the
saved model: config.json, generation_config.json, model.safetensors).

Run on the GPU host (any machine with torch + transformers; CPU is enough):
  python3 tools/golden/sdar_golden.py SDAR_REPO_DIR [OUT_DIR]
SDAR_REPO_DIR holds generate.py and training/model/SDAR-8B-Chat/{modeling_sdar.py,
configuration_sdar.py, fused_linear_diffusion_cross_entropy.py} of JetAstra/SDAR.
"""
import importlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import traceback
import types

import safetensors.torch
import torch
import torch.nn.functional as F
import transformers

if len(sys.argv) < 2:
    sys.exit(__doc__)
ROOT = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else "test-data/golden/sdar-tiny"
MODEL_DIR = os.path.join(ROOT, "training", "model", "SDAR-8B-Chat")
torch.use_deterministic_algorithms(True)
print(f"transformers {transformers.__version__}, torch {torch.__version__}", flush=True)

index = {"transformers_version": transformers.__version__, "torch_version": torch.__version__, "stand_ins": [], "errors": []}
blob = bytearray()


def put(t):
    a = t.detach().to(torch.float32).cpu().contiguous().numpy().astype("<f4")
    entry = {"offset": len(blob) // 4, "shape": list(a.shape)}
    blob.extend(a.tobytes())
    return entry


# ---- stand-ins for what SDAR's file imports and this host may lack --------------------------------
def module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package="__path__" in attrs)
    sys.modules[name] = m
    return m


def rms_norm_fn(x, weight, bias=None, eps=1e-6, **_):
    """SDAR's own float32 RMSNorm (the code it keeps commented out beside the flash_attn call)."""
    dtype = x.dtype
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    return weight * h.to(dtype)


def flash_attn_func(q, k, v, causal=False, softmax_scale=None, **_):
    """flash_attn's [B, L, H, D] attention with fewer KV heads, as SDPA (SDAR calls it non-causal)."""
    out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=causal,
                                         scale=softmax_scale, enable_gqa=True)
    return out.transpose(1, 2)


# transformers' own modules first: they probe for flash_attn once, and must find the real state.
import transformers.activations  # noqa: E402,F401
import transformers.modeling_utils  # noqa: E402,F401

try:
    import flash_attn  # noqa: F401
except ImportError:
    module("flash_attn", flash_attn_func=flash_attn_func, flash_attn_varlen_func=None, __path__=[])
    module("flash_attn.ops", __path__=[])
    module("flash_attn.ops.triton", __path__=[])
    module("flash_attn.ops.triton.layer_norm", rms_norm_fn=rms_norm_fn)
    module("flash_attn.bert_padding", index_first_axis=None, pad_input=None, unpad_input=None)
    index["stand_ins"].append("flash_attn (flash_attn_func = SDPA, rms_norm_fn = float32 RMSNorm)")

import transformers.utils as tu  # noqa: E402
from transformers import cache_utils, modeling_rope_utils  # noqa: E402

if not hasattr(tu, "LossKwargs"):
    from typing import TypedDict

    class LossKwargs(TypedDict, total=False):
        num_items_in_batch: int

    tu.LossKwargs = LossKwargs
    index["stand_ins"].append("transformers.utils.LossKwargs (an empty TypedDict)")
for name in ("SlidingWindowCache", "StaticCache"):
    if not hasattr(cache_utils, name):
        setattr(cache_utils, name, type(name, (), {}))
        index["stand_ins"].append(f"transformers.cache_utils.{name} (a class nothing is an instance of)")
if not hasattr(cache_utils.DynamicCache, "__getitem__"):
    def _layer(self, i):
        layer = self.layers[i]
        return layer.keys, layer.values

    cache_utils.DynamicCache.__getitem__ = _layer
    index["stand_ins"].append("DynamicCache[i] -> (keys, values) of layer i")
if "default" not in modeling_rope_utils.ROPE_INIT_FUNCTIONS:
    def _default_rope(config, device=None, seq_len=None):
        base = config.rope_theta if getattr(config, "rope_theta", None) is not None else config.rope_parameters["rope_theta"]
        dim = int((getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads)
                  * getattr(config, "partial_rotary_factor", 1.0))
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(device=device, dtype=torch.float) / dim))
        return inv_freq, 1.0

    modeling_rope_utils.ROPE_INIT_FUNCTIONS["default"] = _default_rope
    index["stand_ins"].append("ROPE_INIT_FUNCTIONS['default'] (transformers 4's default inverse frequencies)")


# ---- SDAR's code, from the given copy ---------------------------------------------------------------
def load_upstream():
    for f in ("modeling_sdar.py", "configuration_sdar.py"):
        if not os.path.isfile(os.path.join(MODEL_DIR, f)):
            sys.exit(f"{MODEL_DIR}/{f} is missing: give the root of a JetAstra/SDAR copy")
    pkg = module("sdar_upstream", __path__=[MODEL_DIR])  # the file imports its neighbours relatively
    sys.path.insert(0, MODEL_DIR)  # … or, in older copies, by absolute name
    cfg_mod = importlib.import_module("sdar_upstream.configuration_sdar")
    sys.modules["configuration_sdar"] = cfg_mod
    try:
        fused = importlib.import_module("sdar_upstream.fused_linear_diffusion_cross_entropy")
    except Exception as e:  # triton or torch.distributed pieces missing; only training uses it
        fused = module("sdar_upstream.fused_linear_diffusion_cross_entropy", FusedLinearDiffusionCrossEntropyLoss=None)
        index["stand_ins"].append(f"fused_linear_diffusion_cross_entropy (training-only, not importable here: {e!r})")
    sys.modules["fused_linear_diffusion_cross_entropy"] = fused
    modeling = importlib.import_module("sdar_upstream.modeling_sdar")
    spec = importlib.util.spec_from_file_location("sdar_generate", os.path.join(ROOT, "generate.py"))
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    return pkg, cfg_mod, modeling, generate


_, cfg_mod, modeling, generate = load_upstream()

V, MASK, BLOCK, L, B = 64, 63, 4, 8, 2
cfg = cfg_mod.SDARConfig(vocab_size=V, hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
                         num_key_value_heads=2, head_dim=12, max_position_embeddings=256, rms_norm_eps=1e-6,
                         rope_theta=1000000.0, rope_scaling=None, tie_word_embeddings=False, attention_bias=False,
                         use_sliding_window=False, sliding_window=None, block_size=BLOCK, mask_token_id=MASK,
                         bos_token_id=1, eos_token_id=2, pad_token_id=None, fuse_cross_entropy=False)
cfg._attn_implementation = "sdpa"
torch.manual_seed(500)
model = modeling.SDARForCausalLM(cfg)
gen = torch.Generator().manual_seed(501)
with torch.no_grad():
    for name, p in model.named_parameters():
        r = torch.randn(p.shape, generator=gen)
        p.copy_(1 + 0.1 * r if name.endswith("norm.weight") else 0.3 * r)
model.eval()
ck = os.path.join(OUT, "checkpoint")
if os.path.isdir(ck):
    shutil.rmtree(ck)
# save_pretrained of transformers 5 expects a dict of tied weights where SDAR's class has a list;
# the files are written as it would write them instead (float32 safetensors with "format": "pt").
os.makedirs(ck)
cfg.save_pretrained(ck)
safetensors.torch.save_file({n: t.detach().contiguous() for n, t in model.state_dict().items()}, os.path.join(ck, "model.safetensors"),
                            metadata={"format": "pt"})
with open(os.path.join(ck, "generation_config.json"), "w") as f:  # as SDAR-*-Chat ship it, with this model's ids
    json.dump({"bos_token_id": 1, "do_sample": True, "eos_token_id": [2], "pad_token_id": 2, "temperature": 0.6,
               "top_k": 20, "top_p": 0.95}, f, indent=2)
index["checkpoint"] = "checkpoint"
index["param_names"] = [n for n, _ in model.named_parameters()]

# ---- one block-diffusion training-layout forward ----------------------------------------------------
g = torch.Generator().manual_seed(502)
x0 = torch.randint(0, MASK, (B, L), generator=g)
masked = torch.rand(B, L, generator=g) < 0.5
masked[0, 0] = True
xt = torch.where(masked, torch.full_like(x0, MASK), x0)
ids = torch.cat([xt, x0], dim=1)
positions = torch.arange(L).repeat(2).unsqueeze(0).expand(B, -1)
q = torch.arange(2 * L)[:, None]
k = torch.arange(2 * L)[None, :]
allowed = modeling.block_diff_mask(None, None, q, k, block_size=BLOCK, n=L)
with torch.no_grad():
    logits = model(input_ids=ids, attention_mask=allowed[None, None].expand(B, 1, -1, -1), position_ids=positions).logits
index["forward"] = {"input_ids": ids.reshape(-1).tolist(), "position_ids": positions.reshape(-1).tolist(), "shape": [B, 2 * L],
                    "length": L, "allowed": allowed.to(torch.int64).reshape(-1).tolist(), "logits": put(logits)}
print(f"forward: logits {tuple(logits.shape)}, |logits| max {float(logits.abs().max()):.3f}", flush=True)

# ---- generate.py's block diffusion decoding ------------------------------------------------------
PROMPT = torch.randint(0, MASK, (1, 6), generator=g)
GEN = 10
calls = []
real_forward = model.forward


def recording_forward(*args, **kwargs):
    out = real_forward(*args, **kwargs)
    x = kwargs["input_ids"] if "input_ids" in kwargs else args[0]
    calls.append({"tokens": x.reshape(-1).tolist(), "position": int(kwargs["position_ids"][0, 0]),
                  "store_kv": bool(kwargs.get("store_kv", False)), "logits": put(out.logits[0])})
    return out


index["decode"] = {"prompt": PROMPT.reshape(-1).tolist(), "gen_length": GEN, "block_length": BLOCK, "denoising_steps": 4,
                   "threshold": 0.85, "top_k": 1, "runs": {}}
for strategy in ("sequential", "low_confidence_dynamic"):
    try:
        calls.clear()
        model.forward = recording_forward
        torch.manual_seed(503)
        x = generate.block_diffusion_generate(model, {"input_ids": PROMPT}, mask_id=MASK, gen_length=GEN, block_length=BLOCK,
                                              denoising_steps=4, temperature=1.0, top_k=1, top_p=1.0,
                                              remasking_strategy=strategy, confidence_threshold=0.85,
                                              stopping_criteria_idx=None)
        model.forward = real_forward
        run = {"tokens": x[0, PROMPT.shape[1]:PROMPT.shape[1] + GEN].tolist(), "calls": len(calls)}
        if strategy == "sequential":
            run["forwards"] = list(calls)
        index["decode"]["runs"][strategy] = run
        print(f"decode {strategy}: {run['tokens']} in {len(calls)} model calls", flush=True)
    except Exception:
        model.forward = real_forward
        traceback.print_exc()
        index["errors"].append(f"decode {strategy}: {traceback.format_exc()}")

os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "tensors.bin"), "wb") as f:
    f.write(bytes(blob))
with open(os.path.join(OUT, "index.json"), "w") as f:
    json.dump(index, f, indent=1)
print(f"wrote {len(blob)} bytes of tensors; stand-ins: {index['stand_ins']}; errors: {len(index['errors'])}", flush=True)
