"""Golden vectors for the GRPO loss of packages/grpo, computed with PyTorch in float64.

Policy: a two-layer LLaMA-style decoder (embedding, RMSNorm, RoPE, grouped-query attention with a
causal mask, SwiGLU, LM head) written in plain torch. Batch: 4 right-padded sequences with a token
loss mask (0 on prompt/observation/padding), old log-probs from a perturbed copy of the policy
(plus two tokens pushed outside the clip range), reference log-probs from another perturbed copy
(plus one token whose k3 estimate exceeds the clamp of 10). Per-token loss as ms-swift/TRL:

    ratio = exp(logp - old);  pg = -min(ratio*A, clamp(ratio, 1-eps_low, 1+eps_high)*A)
    kl = clamp(exp(ref-logp) - (ref-logp) - 1, -10, 10);  loss_t = pg + beta*kl

aggregated as grpo (mean over a sequence's mask tokens, then over sequences), dapo (token mean over
the batch) or dr_grpo (token sum / (sequences * max completion length)); each with beta 0 and 0.1.
Recorded per case: loss, every parameter gradient, clip-region shares, mean KL, entropy, mean
ratio; shared: parameters, batch, policy log-probs of the sampled tokens.

Run (GPU host or any machine with torch):  python3 tools/golden/grpo_golden.py test-data/golden/grpo
"""
import json, math, sys, os
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
OUT = sys.argv[1] if len(sys.argv) > 1 else "test-data/golden/grpo"
os.makedirs(OUT, exist_ok=True)

B, T, D, H, KV, HD, FF, V, LAYERS = 4, 10, 16, 4, 2, 4, 32, 13, 2
RMS_EPS, THETA, MASK_VALUE = 1e-6, 10000.0, -1e9
TEMPERATURE, EPS_LOW, EPS_HIGH, KL_CLAMP, MAX_COMPLETION = 0.9, 0.2, 0.28, 10.0, 12


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def dump(t):
    return {"shape": list(t.shape), "data": flat(t)}


g = torch.Generator().manual_seed(13)
r = lambda *s: torch.randn(*s, generator=g)


def init_params():
    p = {"model.embed_tokens.weight": r(V, D) * 0.5}
    for i in range(LAYERS):
        L = f"model.layers.{i}."
        p[L + "input_layernorm.weight"] = 1 + 0.1 * r(D)
        p[L + "self_attn.q_proj.weight"] = r(H * HD, D) * 0.3
        p[L + "self_attn.k_proj.weight"] = r(KV * HD, D) * 0.3
        p[L + "self_attn.v_proj.weight"] = r(KV * HD, D) * 0.3
        p[L + "self_attn.o_proj.weight"] = r(D, H * HD) * 0.3
        p[L + "post_attention_layernorm.weight"] = 1 + 0.1 * r(D)
        p[L + "mlp.gate_proj.weight"] = r(FF, D) * 0.3
        p[L + "mlp.up_proj.weight"] = r(FF, D) * 0.3
        p[L + "mlp.down_proj.weight"] = r(D, FF) * 0.3
    p["model.norm.weight"] = 1 + 0.1 * r(D)
    p["lm_head.weight"] = r(V, D) * 0.5
    return p


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + RMS_EPS) * w


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], dim=-1)


pos = torch.arange(T, dtype=torch.float64)
inv_freq = 1.0 / (THETA ** (torch.arange(0, HD, 2, dtype=torch.float64) / HD))
ang = torch.outer(pos, inv_freq)
COS, SIN = torch.cat([ang, ang], -1).cos(), torch.cat([ang, ang], -1).sin()
CAUSAL = torch.where(torch.arange(T)[None, :] <= torch.arange(T)[:, None], 0.0, MASK_VALUE)


def forward(p, ids):
    x = F.embedding(ids, p["model.embed_tokens.weight"])
    for i in range(LAYERS):
        L = f"model.layers.{i}."
        h = rms_norm(x, p[L + "input_layernorm.weight"])
        q = F.linear(h, p[L + "self_attn.q_proj.weight"]).view(B, T, H, HD).transpose(1, 2)
        k = F.linear(h, p[L + "self_attn.k_proj.weight"]).view(B, T, KV, HD).transpose(1, 2)
        v = F.linear(h, p[L + "self_attn.v_proj.weight"]).view(B, T, KV, HD).transpose(1, 2)
        q = q * COS + rotate_half(q) * SIN
        k = k * COS + rotate_half(k) * SIN
        k = k.repeat_interleave(H // KV, dim=1)
        v = v.repeat_interleave(H // KV, dim=1)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(HD) + CAUSAL, dim=-1)
        o = (att @ v).transpose(1, 2).reshape(B, T, H * HD)
        x = x + F.linear(o, p[L + "self_attn.o_proj.weight"])
        h = rms_norm(x, p[L + "post_attention_layernorm.weight"])
        x = x + F.linear(F.silu(F.linear(h, p[L + "mlp.gate_proj.weight"])) * F.linear(h, p[L + "mlp.up_proj.weight"]), p[L + "mlp.down_proj.weight"])
    return F.linear(rms_norm(x, p["model.norm.weight"]), p["lm_head.weight"])


def sampled_logprobs(p, ids):
    """log p(token t | tokens < t) at the sampling temperature, [B, T-1], and the log-softmax."""
    lp = torch.log_softmax(forward(p, ids)[:, :-1] / TEMPERATURE, dim=-1)
    return lp.gather(-1, ids[:, 1:, None]).squeeze(-1), lp


params = {k: v.clone().requires_grad_(True) for k, v in init_params().items()}
old_params = {k: v.detach() + 0.15 * r(*v.shape) for k, v in params.items()}
ref_params = {k: v.detach() + 0.10 * r(*v.shape) for k, v in params.items()}

ids = torch.randint(0, V, (B, T), generator=g)
# Token-aligned loss mask: prompt tokens, an observation in row 1, right padding in rows 2 and 3.
mask = torch.zeros(B, T)
mask[0, 3:] = 1
mask[1, 2:5] = 1
mask[1, 7:] = 1
mask[2, 4:8] = 1
mask[3, 2:6] = 1
advantages = torch.tensor([1.2, -0.8, 0.5, -1.5])

with torch.no_grad():
    logp_now, _ = sampled_logprobs(params, ids)
    old_lp, _ = sampled_logprobs(old_params, ids)
    ref_lp, _ = sampled_logprobs(ref_params, ids)
    # Force both clip regions on at least one token each: row 0 (A > 0) ratio e^0.6, row 3 (A < 0) ratio e^-0.7.
    old_lp[0, 4] = logp_now[0, 4] - 0.6
    old_lp[3, 2] = logp_now[3, 2] + 0.7
    # One token whose k3 KL (e^3 - 4 ≈ 16.1) exceeds the clamp.
    ref_lp[2, 4] = logp_now[2, 4] + 3.0
zero_col = torch.zeros(B, 1)
old_logp = torch.cat([zero_col, old_lp], 1)  # token-aligned [B, T]
ref_logp = torch.cat([zero_col, ref_lp], 1)


def grpo_loss(aggregation, beta):
    logp, lp_all = sampled_logprobs(params, ids)
    m = mask[:, 1:]
    A = advantages[:, None]
    ratio = torch.exp(logp - old_logp[:, 1:])
    clipped = torch.clamp(ratio, 1 - EPS_LOW, 1 + EPS_HIGH)
    per_token = -torch.min(ratio * A, clipped * A)
    kl = None
    if beta > 0:
        d = ref_logp[:, 1:] - logp
        kl = torch.clamp(torch.exp(d) - d - 1, -KL_CLAMP, KL_CLAMP)
        per_token = per_token + beta * kl
    if aggregation == "grpo":
        loss = ((per_token * m).sum(-1) / m.sum(-1).clamp(min=1.0)).mean()
    elif aggregation == "dapo":
        loss = (per_token * m).sum() / m.sum().clamp(min=1.0)
    elif aggregation == "dr_grpo":
        loss = (per_token * m).sum() / (B * MAX_COMPLETION)
    else:
        raise ValueError(aggregation)
    n = m.sum().clamp(min=1.0)
    mm = lambda x: float((x * m).sum() / n)
    entropy = -(lp_all.exp() * lp_all).sum(-1)
    outputs = {
        "clip_low": mm(((ratio < 1 - EPS_LOW) & (A < 0)).double()),
        "clip_high": mm(((ratio > 1 + EPS_HIGH) & (A > 0)).double()),
        "entropy": mm(entropy),
        "ratio_mean": mm(ratio),
        "tokens": float(m.sum()),
    }
    if kl is not None:
        outputs["kl"] = mm(kl)
    return loss, outputs


cases = []
for aggregation in ["grpo", "dapo", "dr_grpo"]:
    for beta in [0.0, 0.1]:
        for p in params.values():
            p.grad = None
        loss, outputs = grpo_loss(aggregation, beta)
        loss.backward()
        cases.append({
            "aggregation": aggregation,
            "beta": beta,
            "loss": float(loss),
            "outputs": outputs,
            "grads": {k: dump(p.grad) for k, p in params.items()},
        })
        print(aggregation, beta, "loss", float(loss), outputs)

data = {
    "config": {
        "batch": B, "seq": T, "d_model": D, "heads": H, "kv_heads": KV, "head_dim": HD, "ffn": FF, "vocab": V, "layers": LAYERS,
        "rms_eps": RMS_EPS, "rope_theta": THETA, "mask_value": MASK_VALUE, "temperature": TEMPERATURE,
        "epsilon_low": EPS_LOW, "epsilon_high": EPS_HIGH, "kl_clamp": KL_CLAMP, "max_completion_length": MAX_COMPLETION,
    },
    "params": {k: dump(v) for k, v in params.items()},
    "batch": {
        "input_ids": ids.reshape(-1).tolist(),
        "loss_mask": flat(mask),
        "old_logp": flat(old_logp),
        "ref_logp": flat(ref_logp),
        "advantages": flat(advantages),
    },
    "policy_logp": dump(torch.cat([zero_col, logp_now], 1)),
    "cases": cases,
    "torch_version": torch.__version__,
}
with open(os.path.join(OUT, "grpo.json"), "w") as f:
    json.dump(data, f)
print("wrote", os.path.join(OUT, "grpo.json"))
