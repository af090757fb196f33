// A LLaMA/Mistral/Qwen2/Qwen3-style decoder: token embedding → N × pre-norm blocks (RMSNorm,
// RoPE, grouped-query attention, SwiGLU) → final RMSNorm → LM head. Parameter names are Hugging
// Face's, so safetensors checkpoints load without renaming. Options cover what those families
// differ in: tied embeddings, q/k/v(/o) and MLP biases, Qwen3's per-head q/k RMSNorm, and an
// optional KV cache for decoding. References: HF transformers' modeling_llama.py / modeling_qwen3.py
// (structure only).
import { type Tensor, add, concat, fromHalf, gather, gatherND, reshape, slice, toHalf, transpose } from '../graph/index.js';
import type { ParamSpec } from './params.js';
import type { RopeScaling } from './config.js';
import { type RopeCache, applyRope, applyRopeFused, attention, linear, linearHalf, rmsNorm, swiglu } from './functional.js';

export interface TransformerConfig {
  vocabSize: number;
  dModel: number;
  nLayers: number;
  nHeads: number;
  /** Grouped-query attention: KV heads (divides nHeads). */
  nKvHeads: number;
  /** Defaults to dModel / nHeads. */
  headDim?: number;
  ffnDim: number;
  ropeTheta: number;
  rmsEps: number;
  /** One matrix `model.embed_tokens.weight` serves as input embedding and LM head (no `lm_head.weight`). */
  tieEmbeddings?: boolean;
  /** Biases on q_proj, k_proj and v_proj. */
  attentionBias?: boolean;
  /** Bias on o_proj (LLaMA's and Qwen3's attention_bias set both; Qwen2 has q/k/v biases only). */
  attentionOutBias?: boolean;
  /** Biases on gate_proj, up_proj and down_proj (LLaMA's mlp_bias). */
  mlpBias?: boolean;
  /** Qwen3: RMSNorm over each head of q and k (`q_norm`, `k_norm`, weight [headDim]) before RoPE. */
  qkNorm?: boolean;
  /** RoPE scaling used by `ropeTablesAt` (default: none). */
  ropeScaling?: RopeScaling;
  /** max_position_embeddings; needed by dynamic RoPE. */
  maxPositions?: number;
}

export const headDimOf = (c: TransformerConfig) => c.headDim ?? c.dModel / c.nHeads;

export function validateConfig(c: TransformerConfig): void {
  const bad = (what: string) => {
    throw new RangeError(`TransformerConfig: ${what}`);
  };
  for (const k of ['vocabSize', 'dModel', 'nLayers', 'nHeads', 'nKvHeads', 'ffnDim'] as const) if (!Number.isInteger(c[k]) || c[k] <= 0) bad(`${k} must be a positive integer, got ${c[k]}`);
  if (c.nHeads % c.nKvHeads !== 0) bad(`nHeads (${c.nHeads}) must be a multiple of nKvHeads (${c.nKvHeads})`);
  const hd = headDimOf(c);
  if (!Number.isInteger(hd) || hd % 2 !== 0) bad(`head dimension must be an even integer, got ${hd}`);
  if (!(c.rmsEps > 0)) bad(`rmsEps must be > 0, got ${c.rmsEps}`);
}

const layer = (i: number, rest: string) => `model.layers.${i}.${rest}`;

/** Parameter names (Hugging Face's) and shapes; norm weights and biases are excluded from weight decay. */
export function transformerParams(c: TransformerConfig): ParamSpec[] {
  validateConfig(c);
  const hd = headDimOf(c);
  const specs: ParamSpec[] = [{ name: 'model.embed_tokens.weight', shape: [c.vocabSize, c.dModel] }];
  const proj = (i: number, name: string, out: number, inp: number, bias: boolean | undefined) => {
    specs.push({ name: layer(i, `${name}.weight`), shape: [out, inp] });
    if (bias) specs.push({ name: layer(i, `${name}.bias`), shape: [out], decay: false });
  };
  for (let i = 0; i < c.nLayers; i++) {
    specs.push({ name: layer(i, 'input_layernorm.weight'), shape: [c.dModel], decay: false });
    proj(i, 'self_attn.q_proj', c.nHeads * hd, c.dModel, c.attentionBias);
    proj(i, 'self_attn.k_proj', c.nKvHeads * hd, c.dModel, c.attentionBias);
    proj(i, 'self_attn.v_proj', c.nKvHeads * hd, c.dModel, c.attentionBias);
    proj(i, 'self_attn.o_proj', c.dModel, c.nHeads * hd, c.attentionOutBias);
    if (c.qkNorm) specs.push({ name: layer(i, 'self_attn.q_norm.weight'), shape: [hd], decay: false }, { name: layer(i, 'self_attn.k_norm.weight'), shape: [hd], decay: false });
    specs.push({ name: layer(i, 'post_attention_layernorm.weight'), shape: [c.dModel], decay: false });
    proj(i, 'mlp.gate_proj', c.ffnDim, c.dModel, c.mlpBias);
    proj(i, 'mlp.up_proj', c.ffnDim, c.dModel, c.mlpBias);
    proj(i, 'mlp.down_proj', c.dModel, c.ffnDim, c.mlpBias);
  }
  specs.push({ name: 'model.norm.weight', shape: [c.dModel], decay: false });
  if (!c.tieEmbeddings) specs.push({ name: 'lm_head.weight', shape: [c.vocabSize, c.dModel] });
  return specs;
}

/** The Hugging Face tensor names of a config's parameters, in `transformerParams` order. */
export const hfParamNames = (c: TransformerConfig): string[] => transformerParams(c).map((p) => p.name);

/** Keys and values of one layer, [B, nKvHeads, S, headDim]; keys already carry their RoPE rotation. */
export interface KvPair {
  key: Tensor;
  value: Tensor;
}

export interface ForwardInputs {
  /** int64 [B, T]: the new tokens (all tokens when there is no cache). */
  inputIds: Tensor;
  /**
   * Additive attention mask broadcastable to [B, H, T, P + T] (0 = attend, large negative = not):
   * rows are the new tokens, columns the cached positions then the new ones. With a dynamic past
   * length named `past`, the last dim of a mask input is `sumDims(['past', T])` = 'past+T'.
   */
  mask: Tensor;
  /** RoPE rows of the new tokens' positions: [T, hd], or [B, 1, T, hd] when rows differ per sequence. */
  cos: Tensor;
  sin: Tensor;
  /**
   * The same rotation as half tables and positions (`ropeInputs` gives both forms): on a graph that
   * targets opset ≥ 23, each layer's q and k are rotated by one RotaryEmbedding node instead.
   */
  rope?: RopeCache;
  /** Per-layer cache from earlier calls (`present` of the previous step); omit for a full pass. */
  past?: readonly KvPair[];
  /** Only positions [start, end) get logits (block diffusion trains on the x_t half only: the LM head then runs over T rows, not 2T). */
  logitsRange?: readonly [number, number];
  /**
   * int64 [K, 2]: only these (b, t) positions get logits, as [K, V] (a sampler needs a few rows of
   * each sequence: the LM head and the logits copy then scale with K, not B·T).
   */
  logitsAt?: Tensor;
  /** Inference graphs: grouped-query attention without repeating K/V heads (see functional.ts attention). */
  groupedAttention?: boolean;
}

export interface ForwardOutputs {
  /** [B, T, V] for the new tokens. */
  logits: Tensor;
  /** Per layer: the past concatenated with the new tokens' keys/values, [B, Hkv, P + T, hd] — feed it back as `past`. */
  present: KvPair[];
  /** Per layer: the new tokens' keys/values only, [B, Hkv, T, hd] (for callers that keep the past themselves). */
  fresh: KvPair[];
}

function block(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, i: number, x: Tensor, inp: ForwardInputs): { x: Tensor; kv: KvPair; fresh: KvPair } {
  const [b, t] = inp.inputIds.shape;
  const hd = headDimOf(c);
  const w = (name: string) => p[layer(i, name)]!;
  const opt = (name: string) => p[layer(i, name)];
  const split = (y: Tensor, n: number) => reshape(y, [b!, t!, n, hd]); // (B, T, n, hd)
  const heads = (y: Tensor) => transpose(y, [0, 2, 1, 3]); // (B, n, T, hd)
  const h = rmsNorm(x, w('input_layernorm.weight'), c.rmsEps);
  // Under autocast (a training step) q, k, v, the rotation and attention's output stay in half
  // precision from the projections that make them to the one that takes them: no float32 round
  // trip of each [B, T, H·hd] tensor, as PyTorch's autocast runs the block.
  const ac = x.graph.autocast;
  const half = ac !== undefined && x.dtype === 'float32' && !inp.past;
  const project = (name: string) => (half ? linearHalf : linear)(h, w(`self_attn.${name}.weight`), opt(`self_attn.${name}.bias`)); // (B, T, n·hd)
  const float = (y: Tensor) => (half ? fromHalf(y, ac) : y);
  const normed = (y: Tensor, n: number, name: string) => reshape(rmsNorm(split(float(y), n), w(`self_attn.${name}.weight`), c.rmsEps), [b!, t!, n * hd]);
  const fused = inp.rope && x.graph.opset >= 23 ? inp.rope : undefined;
  // RoPE on (B, T, n·hd): one RotaryEmbedding node where the graph allows it, else the composite in float32.
  const rotate = (y: Tensor, n: number) => {
    if (fused) return heads(split(applyRopeFused(y, fused, n, half), n));
    const r = applyRope(heads(split(float(y), n)), inp.cos, inp.sin);
    return half ? toHalf(r, ac) : r;
  };
  const q = c.qkNorm ? normed(project('q_proj'), c.nHeads, 'q_norm') : project('q_proj');
  const k = c.qkNorm ? normed(project('k_proj'), c.nKvHeads, 'k_norm') : project('k_proj');
  const qr = rotate(q, c.nHeads);
  const kNew = rotate(k, c.nKvHeads);
  const vNew = heads(split(project('v_proj'), c.nKvHeads));
  const pastKv = inp.past?.[i];
  const kv: KvPair = pastKv ? { key: concat([pastKv.key, kNew], 2), value: concat([pastKv.value, vNew], 2) } : { key: kNew, value: vNew };
  const att = attention(qr, kv.key, kv.value, inp.mask, { groupedHeads: inp.groupedAttention === true, half });
  const o = reshape(transpose(att, [0, 2, 1, 3]), [b!, t!, c.nHeads * hd]); // (B, T, H·hd)
  const x1 = add(x, linear(o, w('self_attn.o_proj.weight'), opt('self_attn.o_proj.bias')));
  const h2 = rmsNorm(x1, w('post_attention_layernorm.weight'), c.rmsEps);
  const mlp = swiglu(h2, w('mlp.gate_proj.weight'), w('mlp.up_proj.weight'), w('mlp.down_proj.weight'), {
    gate: opt('mlp.gate_proj.bias'),
    up: opt('mlp.up_proj.bias'),
    down: opt('mlp.down_proj.bias'),
  });
  return { x: add(x1, mlp), kv, fresh: { key: kNew, value: vNew } };
}

/**
 * The decoder with an optional KV cache: logits of the new tokens and, per layer, the keys/values
 * to feed back as `past` next time (past ++ new). Shapes may use named dims (batch, past length)
 * for inference graphs; training graphs use static shapes and ignore `present`.
 */
export function decoderForward(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, inp: ForwardInputs): ForwardOutputs {
  if (inp.past && inp.past.length !== c.nLayers) throw new RangeError(`decoderForward: past has ${inp.past.length} layers, the model ${c.nLayers}`);
  const embed = p['model.embed_tokens.weight']!;
  let x = gather(embed, inp.inputIds, 0); // (B, T, D)
  const present: KvPair[] = [];
  const fresh: KvPair[] = [];
  for (let i = 0; i < c.nLayers; i++) {
    const r = block(c, p, i, x, inp);
    x = r.x;
    present.push(r.kv);
    fresh.push(r.fresh);
  }
  const head = c.tieEmbeddings ? embed : p['lm_head.weight']!;
  if (inp.logitsRange) x = slice(x, [inp.logitsRange[0]], [inp.logitsRange[1]], [1]);
  if (inp.logitsAt) x = gatherND(x, inp.logitsAt); // (K, D)
  return { logits: linear(rmsNorm(x, p['model.norm.weight']!, c.rmsEps), head), present, fresh };
}

/** Logits [B, T, V] (no cache): the training forward. */
export function transformerForward(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, inp: ForwardInputs): Tensor {
  return decoderForward(c, p, inp).logits;
}
