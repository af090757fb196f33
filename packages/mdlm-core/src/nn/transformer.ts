// A LLaMA/Mistral/Qwen2/Qwen3-style decoder: token embedding → N × pre-norm blocks (RMSNorm,
// RoPE, grouped-query attention, SwiGLU) → final RMSNorm → LM head. Parameter names are Hugging
// Face's, so safetensors checkpoints load without renaming. Options cover what those families
// differ in: tied embeddings, q/k/v(/o) and MLP biases, Qwen3's per-head q/k RMSNorm, and an
// optional KV cache for decoding. A config with an `lfm2` layout is LFM2's hybrid decoder instead
// (lfm2.ts), which shares the attention block below. References: HF transformers'
// modeling_llama.py / modeling_qwen3.py (structure only).
import { type Tensor, add, concat, fromHalf, gather, gatherND, reshape, scatterND, slice, toHalf, transpose } from '../graph/index.js';
import type { ParamSpec } from './params.js';
import type { RopeScaling } from './config.js';
import { type RopeCache, applyRope, applyRopeFused, attention, linear, linearHalf, rmsNorm, swiglu } from './functional.js';
import { lfm2Forward, lfm2Params } from './lfm2.js';

/** What one layer of a hybrid decoder computes its token mixing with. */
export type LayerType = 'full_attention' | 'conv';

/** LFM2's layout: which layers are gated short convolutions instead of attention, and their kernel. */
export interface HybridLayout {
  /** One per layer. */
  layerTypes: readonly LayerType[];
  /** conv_L_cache: the depthwise kernel's length; a decoding cache keeps the last L − 1 gated inputs. */
  convKernel: number;
  /** Biases on in_proj, the convolution and out_proj. */
  convBias: boolean;
}

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
  /**
   * LFM2 (Liquid's hybrid): conv and attention layers with LFM2's names (operator_norm,
   * self_attn.out_proj, q/k_layernorm, feed_forward.w1/w3/w2, model.embedding_norm); qkNorm must
   * be set and no bias flag. Absent: the LLaMA family, every layer attention.
   */
  lfm2?: HybridLayout;
}

export const headDimOf = (c: TransformerConfig) => c.headDim ?? c.dModel / c.nHeads;

/** Each layer's kind: LFM2's layout, else attention everywhere. */
export const layerTypesOf = (c: TransformerConfig): readonly LayerType[] => c.lfm2?.layerTypes ?? Array<LayerType>(c.nLayers).fill('full_attention');

/** How many layers keep keys/values (the `past` / `present` entries, in layer order). */
export const attentionLayerCount = (c: TransformerConfig): number => layerTypesOf(c).filter((t) => t === 'full_attention').length;

/** How many layers keep a convolution state (the `convPast` / `convFresh` entries, in layer order). */
export const convLayerCount = (c: TransformerConfig): number => layerTypesOf(c).filter((t) => t === 'conv').length;

export function validateConfig(c: TransformerConfig): void {
  const bad = (what: string) => {
    throw new RangeError(`TransformerConfig: ${what}`);
  };
  for (const k of ['vocabSize', 'dModel', 'nLayers', 'nHeads', 'nKvHeads', 'ffnDim'] as const) if (!Number.isInteger(c[k]) || c[k] <= 0) bad(`${k} must be a positive integer, got ${c[k]}`);
  if (c.nHeads % c.nKvHeads !== 0) bad(`nHeads (${c.nHeads}) must be a multiple of nKvHeads (${c.nKvHeads})`);
  const hd = headDimOf(c);
  if (!Number.isInteger(hd) || hd % 2 !== 0) bad(`head dimension must be an even integer, got ${hd}`);
  if (!(c.rmsEps > 0)) bad(`rmsEps must be > 0, got ${c.rmsEps}`);
  if (c.lfm2) {
    const l = c.lfm2;
    if (l.layerTypes.length !== c.nLayers) bad(`lfm2.layerTypes has ${l.layerTypes.length} entries for ${c.nLayers} layers`);
    if (l.layerTypes.some((t) => t !== 'conv' && t !== 'full_attention')) bad(`lfm2.layerTypes must be "conv" or "full_attention", got ${JSON.stringify(l.layerTypes)}`);
    if (!Number.isInteger(l.convKernel) || l.convKernel < 2) bad(`lfm2.convKernel must be an integer ≥ 2, got ${l.convKernel}`);
    if (!c.qkNorm || c.attentionBias || c.attentionOutBias || c.mlpBias) bad('lfm2 has q/k layer norms and no attention or MLP biases (qkNorm true, bias flags off)');
  }
}

const layer = (i: number, rest: string) => `model.layers.${i}.${rest}`;

/** Parameter names (Hugging Face's) and shapes; norm weights and biases are excluded from weight decay. */
export function transformerParams(c: TransformerConfig): ParamSpec[] {
  validateConfig(c);
  if (c.lfm2) return lfm2Params(c, c.lfm2);
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
  /** Per attention layer, the cache from earlier calls (`present` of the previous step); omit for a full pass. */
  past?: readonly KvPair[];
  /**
   * LFM2, per conv layer: the gated inputs of the L − 1 tokens before the new ones, [B, L − 1, D]
   * (zeros where there are fewer); required with `past`, and whenever the new-token count is a named dim.
   */
  convPast?: readonly Tensor[];
  /**
   * LFM2, int64 [B, T]: the packed sample of each token; a convolution tap that would reach into
   * an earlier sample reads zero instead, as if each sample ran alone (attention has the mask).
   */
  segmentIds?: Tensor;
  /** Only positions [start, end) get logits (block diffusion trains on the x_t half only: the LM head then runs over T rows, not 2T). */
  logitsRange?: readonly [number, number];
  /**
   * int64 [K, 2]: only these (b, t) positions get logits, as [K, V] (a sampler needs a few rows of
   * each sequence: the LM head and the logits copy then scale with K, not B·T).
   */
  logitsAt?: Tensor;
  /** Inference graphs: grouped-query attention without repeating K/V heads (see functional.ts attention). */
  groupedAttention?: boolean;
  /**
   * Per attention layer a cache of fixed capacity C, [B, Hkv, C, hd], into which the new tokens'
   * keys/values are written (ScatterND at `at`, int64 [B, Hkv, T, 3]: row, head, position) before
   * attention reads it; the mask's columns are then the C cache positions. With the layer's
   * `present` output bound to the cache's own buffer the write happens in place (ScatterND copies
   * its data input only when the output is elsewhere), so the cache never leaves the device.
   * `attend: 'fresh'` (a prefill into empty rows) attends to the new tokens alone — the mask's
   * columns are then the T new tokens — and only writes them into the cache.
   */
  cacheWrite?: { cache: readonly KvPair[]; at: Tensor; attend?: 'cache' | 'fresh' };
}

export interface ForwardOutputs {
  /** [B, T, V] for the new tokens. */
  logits: Tensor;
  /** Per layer: the past concatenated with the new tokens' keys/values, [B, Hkv, P + T, hd] — feed it back as `past`. */
  present: KvPair[];
  /** Per layer: the new tokens' keys/values only, [B, Hkv, T, hd] (for callers that keep the past themselves). */
  fresh: KvPair[];
  /** LFM2, per conv layer: the new tokens' gated convolution inputs, [B, T, D] (the cache keeps the last L − 1 of past ++ these). */
  convFresh: Tensor[];
}

/** The tensor names of one attention block: LLaMA's (o_proj, q_norm/k_norm) or LFM2's (out_proj, q/k_layernorm). */
export interface AttentionNames {
  q: string;
  k: string;
  v: string;
  o: string;
  qNorm: string;
  kNorm: string;
}

const llamaAttention = (i: number): AttentionNames => ({
  q: layer(i, 'self_attn.q_proj'),
  k: layer(i, 'self_attn.k_proj'),
  v: layer(i, 'self_attn.v_proj'),
  o: layer(i, 'self_attn.o_proj'),
  qNorm: layer(i, 'self_attn.q_norm'),
  kNorm: layer(i, 'self_attn.k_norm'),
});

/**
 * Grouped-query self-attention of normed hidden states h [B, T, D]: projections (with biases when
 * the checkpoint has them), per-head q/k RMSNorm (qkNorm), RoPE, attention over past ++ new, output
 * projection. Returns the block's output [B, T, D], the layer's keys/values and the new ones alone.
 */
export function selfAttention(
  c: TransformerConfig,
  p: Readonly<Record<string, Tensor>>,
  n: AttentionNames,
  h: Tensor,
  inp: ForwardInputs,
  pastKv: KvPair | undefined,
  cacheKv?: KvPair,
): { out: Tensor; kv: KvPair; fresh: KvPair } {
  const [b, t] = inp.inputIds.shape;
  const hd = headDimOf(c);
  const w = (name: string) => p[`${name}.weight`]!;
  const bias = (name: string) => p[`${name}.bias`];
  const split = (y: Tensor, heads: number) => reshape(y, [b!, t!, heads, hd]); // (B, T, n, hd)
  const toHeads = (y: Tensor) => transpose(y, [0, 2, 1, 3]); // (B, n, T, hd)
  // Under autocast (a training step) q, k, v, the rotation and attention's output stay in half
  // precision from the projections that make them to the one that takes them: no float32 round
  // trip of each [B, T, H·hd] tensor, as PyTorch's autocast runs the block.
  const ac = h.graph.autocast;
  const half = ac !== undefined && h.dtype === 'float32' && !inp.past && !inp.cacheWrite;
  const project = (name: string) => (half ? linearHalf : linear)(h, w(name), bias(name)); // (B, T, n·hd)
  const float = (y: Tensor) => (half ? fromHalf(y, ac) : y);
  const normed = (y: Tensor, heads: number, name: string) => reshape(rmsNorm(split(float(y), heads), w(name), c.rmsEps), [b!, t!, heads * hd]);
  const fused = inp.rope && h.graph.opset >= 23 ? inp.rope : undefined;
  // RoPE on (B, T, n·hd): one RotaryEmbedding node where the graph allows it, else the composite in float32.
  const rotate = (y: Tensor, heads: number) => {
    if (fused) return toHeads(split(applyRopeFused(y, fused, heads, half), heads));
    const r = applyRope(toHeads(split(float(y), heads)), inp.cos, inp.sin);
    return half ? toHalf(r, ac) : r;
  };
  const q = c.qkNorm ? normed(project(n.q), c.nHeads, n.qNorm) : project(n.q);
  const k = c.qkNorm ? normed(project(n.k), c.nKvHeads, n.kNorm) : project(n.k);
  const qr = rotate(q, c.nHeads);
  const kNew = rotate(k, c.nKvHeads);
  const vNew = toHeads(split(project(n.v), c.nKvHeads));
  const kv: KvPair = cacheKv
    ? { key: scatterND(cacheKv.key, inp.cacheWrite!.at, kNew), value: scatterND(cacheKv.value, inp.cacheWrite!.at, vNew) }
    : pastKv
      ? { key: concat([pastKv.key, kNew], 2), value: concat([pastKv.value, vNew], 2) }
      : { key: kNew, value: vNew };
  const attended = cacheKv && inp.cacheWrite!.attend === 'fresh' ? { key: kNew, value: vNew } : kv;
  const att = attention(qr, attended.key, attended.value, inp.mask, { groupedHeads: inp.groupedAttention === true, half });
  const o = reshape(transpose(att, [0, 2, 1, 3]), [b!, t!, c.nHeads * hd]); // (B, T, H·hd)
  return { out: linear(o, w(n.o), bias(n.o)), kv, fresh: { key: kNew, value: vNew } };
}

/** The final norm, the wanted rows (logitsRange / logitsAt) and the LM head (tied: the embedding). */
export function lmHead(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, x: Tensor, finalNorm: Tensor, inp: ForwardInputs): Tensor {
  const head = c.tieEmbeddings ? p['model.embed_tokens.weight']! : p['lm_head.weight']!;
  let y = x;
  if (inp.logitsRange) y = slice(y, [inp.logitsRange[0]], [inp.logitsRange[1]], [1]);
  if (inp.logitsAt) y = gatherND(y, inp.logitsAt); // (K, D)
  return linear(rmsNorm(y, finalNorm, c.rmsEps), head);
}

function block(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, i: number, x: Tensor, inp: ForwardInputs): { x: Tensor; kv: KvPair; fresh: KvPair } {
  const w = (name: string) => p[layer(i, name)]!;
  const opt = (name: string) => p[layer(i, name)];
  const att = selfAttention(c, p, llamaAttention(i), rmsNorm(x, w('input_layernorm.weight'), c.rmsEps), inp, inp.past?.[i], inp.cacheWrite?.cache[i]);
  const x1 = add(x, att.out);
  const h2 = rmsNorm(x1, w('post_attention_layernorm.weight'), c.rmsEps);
  const mlp = swiglu(h2, w('mlp.gate_proj.weight'), w('mlp.up_proj.weight'), w('mlp.down_proj.weight'), {
    gate: opt('mlp.gate_proj.bias'),
    up: opt('mlp.up_proj.bias'),
    down: opt('mlp.down_proj.bias'),
  });
  return { x: add(x1, mlp), kv: att.kv, fresh: att.fresh };
}

/**
 * The decoder with an optional KV cache: logits of the new tokens and, per layer, the keys/values
 * to feed back as `past` next time (past ++ new). Shapes may use named dims (batch, past length)
 * for inference graphs; training graphs use static shapes and ignore `present`.
 */
export function decoderForward(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, inp: ForwardInputs): ForwardOutputs {
  if (inp.past && inp.past.length !== attentionLayerCount(c)) throw new RangeError(`decoderForward: past has ${inp.past.length} layers, the model ${attentionLayerCount(c)} attention layers`);
  if (inp.cacheWrite && inp.cacheWrite.cache.length !== attentionLayerCount(c))
    throw new RangeError(`decoderForward: cacheWrite has ${inp.cacheWrite.cache.length} layers, the model ${attentionLayerCount(c)} attention layers`);
  if (c.lfm2) {
    if (inp.cacheWrite) throw new RangeError('decoderForward: cacheWrite is for LLaMA-style decoders; LFM2 keeps its past as past/convPast');
    return lfm2Forward(c, c.lfm2, p, inp);
  }
  if (inp.convPast?.length) throw new RangeError('decoderForward: convPast is for LFM2 models; this one has no conv layers');
  let x = gather(p['model.embed_tokens.weight']!, inp.inputIds, 0); // (B, T, D)
  const present: KvPair[] = [];
  const fresh: KvPair[] = [];
  for (let i = 0; i < c.nLayers; i++) {
    const r = block(c, p, i, x, inp);
    x = r.x;
    present.push(r.kv);
    fresh.push(r.fresh);
  }
  return { logits: lmHead(c, p, x, p['model.norm.weight']!, inp), present, fresh, convFresh: [] };
}

/** Logits [B, T, V] (no cache): the training forward. */
export function transformerForward(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, inp: ForwardInputs): Tensor {
  return decoderForward(c, p, inp).logits;
}
