"""Golden vectors for the mdlm-core engine, computed with PyTorch in float64.

Two models: a 2-layer MLP (GELU-tanh) and a one-layer pre-norm LLaMA-style LM (embedding,
RMSNorm, RoPE, grouped-query attention with a block-causal mask, SwiGLU, LM head), each with
masked cross-entropy. Recorded: forward outputs, loss, every parameter gradient, and loss,
gradient norm and parameters after each of 3 AdamW steps with global-norm clipping.

Run (GPU host or any machine with torch):  python3 tools/golden/engine_golden.py test-data/golden/engine
"""
import json, math, sys, os
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
OUT = sys.argv[1] if len(sys.argv) > 1 else "test-data/golden/engine"
os.makedirs(OUT, exist_ok=True)

OPT = dict(lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.1)
CLIP = 1.0
STEPS = 3


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def dump(t):
    return {"shape": list(t.shape), "data": flat(t)}


def train(params, loss_fn):
    opt = torch.optim.AdamW(list(params.values()), **OPT)
    steps = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss, _ = loss_fn()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(list(params.values()), CLIP)
        opt.step()
        steps.append({"loss": float(loss), "grad_norm": float(norm), "params": {k: dump(v) for k, v in params.items()}})
    return steps


def first_pass(params, loss_fn):
    for p in params.values():
        p.grad = None
    loss, outputs = loss_fn()
    loss.backward()
    return {
        "loss": float(loss),
        "outputs": {k: dump(v) for k, v in outputs.items()},
        "grads": {k: dump(p.grad) for k, p in params.items()},
    }


def mlp():
    g = torch.Generator().manual_seed(1)
    n, d_in, d_h, n_cls = 4, 8, 16, 5
    params = {
        "fc1.weight": torch.randn(d_h, d_in, generator=g) * 0.5,
        "fc1.bias": torch.randn(d_h, generator=g) * 0.1,
        "fc2.weight": torch.randn(n_cls, d_h, generator=g) * 0.5,
        "fc2.bias": torch.randn(n_cls, generator=g) * 0.1,
    }
    params = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    x = torch.randn(n, d_in, generator=g)
    targets = torch.randint(0, n_cls, (n,), generator=g)
    weights = torch.tensor([1.0, 1.0, 0.0, 1.0])

    def loss_fn():
        h = F.gelu(F.linear(x, params["fc1.weight"], params["fc1.bias"]), approximate="tanh")
        logits = F.linear(h, params["fc2.weight"], params["fc2.bias"])
        t = torch.where(weights > 0, targets, torch.full_like(targets, -100))
        return F.cross_entropy(logits, t, ignore_index=-100), {"logits": logits}

    init = {k: dump(v) for k, v in params.items()}
    first = first_pass(params, loss_fn)
    steps = train(params, loss_fn)
    return {
        "config": {"n": n, "d_in": d_in, "d_hidden": d_h, "n_classes": n_cls, "optimizer": {**OPT, "betas": list(OPT["betas"])}, "clip": CLIP},
        "params": init,
        "batch": {"x": dump(x), "targets": targets.tolist(), "weights": flat(weights)},
        **first,
        "steps": steps,
    }


def rms_norm(x, w, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], dim=-1)


def block_lm():
    g = torch.Generator().manual_seed(2)
    B, T, D, H, KV, HD, FF, V, BLOCK = 2, 8, 16, 4, 2, 4, 32, 11, 4
    eps, theta = 1e-6, 10000.0
    r = lambda *s: torch.randn(*s, generator=g)
    params = {
        "model.embed_tokens.weight": r(V, D) * 0.5,
        "model.layers.0.input_layernorm.weight": 1 + 0.1 * r(D),
        "model.layers.0.self_attn.q_proj.weight": r(H * HD, D) * 0.3,
        "model.layers.0.self_attn.k_proj.weight": r(KV * HD, D) * 0.3,
        "model.layers.0.self_attn.v_proj.weight": r(KV * HD, D) * 0.3,
        "model.layers.0.self_attn.o_proj.weight": r(D, H * HD) * 0.3,
        "model.layers.0.post_attention_layernorm.weight": 1 + 0.1 * r(D),
        "model.layers.0.mlp.gate_proj.weight": r(FF, D) * 0.3,
        "model.layers.0.mlp.up_proj.weight": r(FF, D) * 0.3,
        "model.layers.0.mlp.down_proj.weight": r(D, FF) * 0.3,
        "model.norm.weight": 1 + 0.1 * r(D),
        "lm_head.weight": r(V, D) * 0.3,
    }
    params = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    ids = torch.randint(0, V, (B, T), generator=g)
    targets = torch.randint(0, V, (B, T), generator=g)
    weights = (torch.rand(B, T, generator=g) < 0.7).double()
    pos = torch.arange(T, dtype=torch.float64)
    inv_freq = 1.0 / (theta ** (torch.arange(0, HD, 2, dtype=torch.float64) / HD))
    ang = torch.outer(pos, inv_freq)
    cos, sin = torch.cat([ang, ang], -1).cos(), torch.cat([ang, ang], -1).sin()
    blk = torch.arange(T) // BLOCK
    allowed = blk[None, :] <= blk[:, None]
    mask = torch.where(allowed, 0.0, -1e9)

    def loss_fn():
        p = params
        x = F.embedding(ids, p["model.embed_tokens.weight"])
        h = rms_norm(x, p["model.layers.0.input_layernorm.weight"], eps)
        q = F.linear(h, p["model.layers.0.self_attn.q_proj.weight"]).view(B, T, H, HD).transpose(1, 2)
        k = F.linear(h, p["model.layers.0.self_attn.k_proj.weight"]).view(B, T, KV, HD).transpose(1, 2)
        v = F.linear(h, p["model.layers.0.self_attn.v_proj.weight"]).view(B, T, KV, HD).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(H // KV, dim=1)
        v = v.repeat_interleave(H // KV, dim=1)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(HD) + mask, dim=-1)
        o = (att @ v).transpose(1, 2).reshape(B, T, H * HD)
        x = x + F.linear(o, p["model.layers.0.self_attn.o_proj.weight"])
        h = rms_norm(x, p["model.layers.0.post_attention_layernorm.weight"], eps)
        mlp = F.linear(F.silu(F.linear(h, p["model.layers.0.mlp.gate_proj.weight"])) * F.linear(h, p["model.layers.0.mlp.up_proj.weight"]), p["model.layers.0.mlp.down_proj.weight"])
        x = x + mlp
        logits = F.linear(rms_norm(x, p["model.norm.weight"], eps), p["lm_head.weight"])
        t = torch.where(weights > 0, targets, torch.full_like(targets, -100))
        loss = F.cross_entropy(logits.reshape(-1, V), t.reshape(-1), ignore_index=-100)
        return loss, {"logits": logits}

    init = {k: dump(v) for k, v in params.items()}
    first = first_pass(params, loss_fn)
    steps = train(params, loss_fn)
    return {
        "config": {"batch": B, "seq": T, "d_model": D, "heads": H, "kv_heads": KV, "head_dim": HD, "ffn": FF, "vocab": V, "block": BLOCK, "rms_eps": eps, "rope_theta": theta, "mask_value": -1e9, "optimizer": {**OPT, "betas": list(OPT["betas"])}, "clip": CLIP},
        "params": init,
        "batch": {"input_ids": ids.reshape(-1).tolist(), "targets": targets.reshape(-1).tolist(), "weights": flat(weights)},
        **first,
        "steps": steps,
    }


for name, fn in [("mlp", mlp), ("block_lm", block_lm)]:
    data = fn()
    data["torch_version"] = torch.__version__
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(data, f)
    print(name, "loss", data["loss"], "steps", [s["loss"] for s in data["steps"]])
