// The decoder configuration and its Hugging Face form. `parseHfConfig` reads a `config.json` of a
// LLaMA, Mistral, Qwen2, Qwen3, SDAR (block-diffusion Qwen3) or LFM2 (short convolutions mixed
// with attention) causal LM — defaults, validation and "not supported" errors in one place — and
// `toHfConfig` writes one back, so a checkpoint goes both ways. Defaults are those of the
// transformers config classes (SDAR's own SDARConfig; a missing field means the class default there too).
import type { HybridLayout, LayerType, TransformerConfig } from './transformer.js';

/** RoPE variants of transformers' `rope_type` (facts: modeling_rope_utils). */
export type RopeScaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  /** NTK-aware: the base grows once the sequence is longer than `maxPositions` of the config. */
  | { type: 'dynamic'; factor: number }
  | { type: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; originalMaxPositions: number }
  | {
      type: 'yarn';
      factor: number;
      originalMaxPositions: number;
      betaFast: number;
      betaSlow: number;
      /** Multiplies cos and sin; derived from factor (and mscale, mscaleAllDim) when absent. */
      attentionFactor?: number;
      mscale?: number;
      mscaleAllDim?: number;
      truncate: boolean;
    };

export type RopeType = RopeScaling['type'];
export type ModelType = 'llama' | 'mistral' | 'qwen2' | 'qwen3' | 'sdar' | 'lfm2';

/** The model types `parseHfConfig` reads, in the order `diffworld doctor` lists them. */
export const MODEL_TYPES: readonly ModelType[] = ['llama', 'mistral', 'qwen2', 'qwen3', 'sdar', 'lfm2'];

/**
 * LFM2's feed-forward size as config.json gives it: `intermediate_size` (or `block_ff_dim`), and,
 * when `block_auto_adjust_ff_dim`, ⌊2/3⌋ of it times `block_ffn_dim_multiplier` rounded up to a
 * multiple of `block_multiple_of` (transformers' Lfm2MLP). `ffnDim` is the result.
 */
export interface Lfm2FfnSizing {
  intermediateSize: number;
  autoAdjust: boolean;
  /** null: no multiplier and no rounding. */
  multiplier: number | null;
  multipleOf: number;
}

/** SDAR's block diffusion as its config.json declares it (`block_size`, `mask_token_id`). */
export interface BlockDiffusionSpec {
  blockSize: number;
  maskTokenId: number;
}
export type TorchDtype = 'float32' | 'bfloat16' | 'float16';
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A decoder read from (or written to) a Hugging Face `config.json`. */
export interface ModelConfig extends TransformerConfig {
  modelType: ModelType;
  /** `max_position_embeddings`. */
  maxPositions: number;
  ropeScaling: RopeScaling;
  torchDtype: TorchDtype;
  bosTokenId?: number | undefined;
  eosTokenId?: number | number[] | undefined;
  padTokenId?: number | undefined;
  /** Fields of the JSON that do not change the computation (initializer_range, use_cache, …), written back as read. */
  extra: Record<string, Json>;
  /** Where the RoPE settings were read from: transformers ≥ 5 writes `rope_parameters`, older versions `rope_theta` + `rope_scaling`. */
  ropeStyle: 'rope_parameters' | 'rope_scaling';
  /** lfm2 only: the sizing fields `ffnDim` was computed from, written back as read. */
  ffnSizing?: Lfm2FfnSizing;
  /** sdar only: its block length and mask token. */
  blockDiffusion?: BlockDiffusionSpec;
}

/** A config.json field we cannot honour, or a malformed one; `field` is the JSON key. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly where: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${where}: ${field}: ${detail}`);
  }
}

const ARCHITECTURE: Record<ModelType, string> = {
  llama: 'LlamaForCausalLM',
  mistral: 'MistralForCausalLM',
  qwen2: 'Qwen2ForCausalLM',
  qwen3: 'Qwen3ForCausalLM',
  sdar: 'SDARForCausalLM',
  lfm2: 'Lfm2ForCausalLM',
};

interface ClassDefaults {
  vocab_size: number;
  hidden_size: number;
  intermediate_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  /** null: equal to num_attention_heads. */
  num_key_value_heads: number | null;
  /** null: hidden_size / num_attention_heads. */
  head_dim: number | null;
  max_position_embeddings: number;
  sliding_window: number | null;
}

// transformers' config class defaults (LlamaConfig, MistralConfig, Qwen2Config, Qwen3Config,
// Lfm2Config; SDAR's SDARConfig has Qwen3's). Shared by all but LFM2: rms_norm_eps 1e-6,
// rope_theta 10000, tie_word_embeddings false, hidden_act silu (LFM2's are below: LFM2_DEFAULTS).
const DEFAULTS: Record<ModelType, ClassDefaults> = {
  llama: {
    vocab_size: 32000,
    hidden_size: 4096,
    intermediate_size: 11008,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: null,
    head_dim: null,
    max_position_embeddings: 2048,
    sliding_window: null,
  },
  mistral: {
    vocab_size: 32000,
    hidden_size: 4096,
    intermediate_size: 14336,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    head_dim: null,
    max_position_embeddings: 4096 * 32,
    sliding_window: 4096,
  },
  qwen2: {
    vocab_size: 151936,
    hidden_size: 4096,
    intermediate_size: 22016,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    head_dim: null,
    max_position_embeddings: 32768,
    sliding_window: null,
  },
  qwen3: {
    vocab_size: 151936,
    hidden_size: 4096,
    intermediate_size: 22016,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    head_dim: 128,
    max_position_embeddings: 32768,
    sliding_window: null,
  },
  sdar: {
    vocab_size: 151936,
    hidden_size: 4096,
    intermediate_size: 22016,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 32,
    head_dim: 128,
    max_position_embeddings: 32768,
    sliding_window: null,
  },
  lfm2: {
    vocab_size: 65536,
    hidden_size: 2560,
    intermediate_size: 12288,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    head_dim: null,
    max_position_embeddings: 128000,
    sliding_window: null,
  },
};

/** Lfm2Config's own defaults beyond the sizes. */
const LFM2_DEFAULTS = {
  norm_eps: 1e-5,
  rope_theta: 1000000,
  tie_word_embeddings: true,
  conv_L_cache: 3,
  conv_bias: false,
  block_multiple_of: 256,
  block_ffn_dim_multiplier: 1,
  block_auto_adjust_ff_dim: true,
};

/** SDAR's fields of block diffusion; they have no default (a checkpoint must say them). */
const SDAR_FIELDS = ['block_size', 'mask_token_id'];

/** LFM2's fields, including the original LFM2 release's aliases transformers reads (block_ff_dim, theta, tie_embedding). */
const LFM2_FIELDS = ['norm_eps', 'conv_bias', 'conv_L_cache', 'block_multiple_of', 'block_ffn_dim_multiplier', 'block_auto_adjust_ff_dim', 'block_ff_dim', 'full_attn_idxs', 'theta', 'tie_embedding'];

/** Keys that configure mixtures of experts: their presence means a model this decoder cannot run. */
const MOE_FIELDS = ['num_experts', 'num_local_experts', 'num_experts_per_tok', 'moe_intermediate_size', 'n_routed_experts', 'decoder_sparse_step', 'shared_expert_intermediate_size'];

/** Keys read (or checked) here; everything else goes to `extra` untouched. */
const CONSUMED = new Set([
  'model_type',
  'architectures',
  'vocab_size',
  'hidden_size',
  'intermediate_size',
  'num_hidden_layers',
  'num_attention_heads',
  'num_key_value_heads',
  'head_dim',
  'max_position_embeddings',
  'rms_norm_eps',
  'rope_theta',
  'rope_scaling',
  'rope_parameters',
  'tie_word_embeddings',
  'attention_bias',
  'mlp_bias',
  'hidden_act',
  'torch_dtype',
  'dtype',
  'sliding_window',
  'use_sliding_window',
  'max_window_layers',
  'layer_types',
  'attention_dropout',
  'pretraining_tp',
  'partial_rotary_factor',
  'bos_token_id',
  'eos_token_id',
  'pad_token_id',
  'quantization_config',
  ...MOE_FIELDS,
]);

/** Keys a model type reads on top of CONSUMED (elsewhere they are extra fields, kept as read). */
const CONSUMED_BY: Partial<Record<ModelType, ReadonlySet<string>>> = { sdar: new Set(SDAR_FIELDS), lfm2: new Set(LFM2_FIELDS) };

type Obj = Record<string, unknown>;

class Reader {
  constructor(
    readonly json: Obj,
    readonly where: string,
  ) {}

  fail(field: string, detail: string): never {
    throw new ConfigError(this.where, field, detail);
  }

  has(k: string): boolean {
    return this.json[k] !== undefined && this.json[k] !== null;
  }

  num(k: string, dflt: number | null, from: Obj = this.json, label = k): number {
    const v = from[k];
    if (v === undefined || v === null) {
      if (dflt === null) this.fail(label, 'is required');
      return dflt;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(label, `must be a number, got ${JSON.stringify(v)}`);
    return v;
  }

  posInt(k: string, dflt: number | null, from: Obj = this.json, label = k): number {
    const v = this.num(k, dflt, from, label);
    if (!Number.isInteger(v) || v <= 0) this.fail(label, `must be a positive integer, got ${v}`);
    return v;
  }

  bool(k: string, dflt: boolean): boolean {
    const v = this.json[k];
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'boolean') this.fail(k, `must be true or false, got ${JSON.stringify(v)}`);
    return v;
  }

  tokenId(k: string): number | undefined {
    const v = this.json[k];
    if (v === undefined || v === null) return undefined;
    if (!Number.isInteger(v) || (v as number) < 0) this.fail(k, `must be a token id, got ${JSON.stringify(v)}`);
    return v as number;
  }
}

function modelTypeOf(r: Reader): ModelType {
  const mt = r.json['model_type'];
  const archs = r.json['architectures'];
  if (archs !== undefined && archs !== null && (!Array.isArray(archs) || archs.some((a) => typeof a !== 'string'))) r.fail('architectures', 'must be a list of class names');
  const known = Object.keys(ARCHITECTURE) as ModelType[];
  let type: ModelType | undefined;
  if (mt === undefined || mt === null) {
    const fromArch = known.find((t) => (archs as string[] | undefined)?.includes(ARCHITECTURE[t]));
    if (!fromArch) r.fail('model_type', `is missing (and architectures ${JSON.stringify(archs ?? null)} names no supported model); supported: ${known.join(', ')}`);
    type = fromArch;
  } else {
    if (typeof mt !== 'string' || !(known as string[]).includes(mt)) r.fail('model_type', `${JSON.stringify(mt)} is not supported; supported: ${known.join(', ')}`);
    type = mt as ModelType;
  }
  for (const a of (archs as string[] | undefined) ?? []) {
    if (a !== ARCHITECTURE[type]) r.fail('architectures', `${JSON.stringify(a)} is not supported for model_type ${type}; expected ${ARCHITECTURE[type]}`);
  }
  return type;
}

function rejectUnsupported(r: Reader, type: ModelType, d: ClassDefaults): void {
  for (const k of MOE_FIELDS) if (r.has(k) && r.json[k] !== 0) r.fail(k, 'mixture-of-experts models are not supported');
  if (r.has('quantization_config')) r.fail('quantization_config', 'quantized checkpoints are not supported; use a float32, float16 or bfloat16 one');
  const act = r.json['hidden_act'];
  if (act !== undefined && act !== 'silu') r.fail('hidden_act', `${JSON.stringify(act)} is not supported (only "silu", the SwiGLU of these models)`);
  if (r.num('attention_dropout', 0) !== 0) r.fail('attention_dropout', 'attention dropout is not supported; set it to 0');
  const prf = r.num('partial_rotary_factor', 1);
  if (prf !== 1) r.fail('partial_rotary_factor', `partial rotary embeddings (${prf}) are not supported`);
  if (type === 'qwen2' || type === 'qwen3' || type === 'sdar') {
    if (r.bool('use_sliding_window', false)) r.fail('use_sliding_window', 'sliding-window attention is not supported; set it to false');
  } else if (type === 'mistral') {
    const sw = r.json['sliding_window'] === undefined ? d.sliding_window : r.json['sliding_window'];
    if (sw !== null) r.fail('sliding_window', `sliding-window attention (${JSON.stringify(sw)}) is not supported; set it to null for full attention`);
  }
  const lt = r.json['layer_types'];
  // LFM2's layer_types name its convolution layers too (readLfm2Layout checks them).
  if (type !== 'lfm2' && lt !== undefined && lt !== null) {
    if (!Array.isArray(lt) || lt.some((x) => x !== 'full_attention')) r.fail('layer_types', `only "full_attention" layers are supported, got ${JSON.stringify(lt)}`);
  }
}

/** Reads the RoPE block: `rope_parameters` (transformers ≥ 5) or `rope_theta` + `rope_scaling`. */
function readRope(r: Reader, maxPositions: number, defaultTheta = 10000): { theta: number; scaling: RopeScaling; style: ModelConfig['ropeStyle'] } {
  const rp = r.json['rope_parameters'];
  const rs = r.json['rope_scaling'];
  let block: Obj | null = null;
  let field = 'rope_scaling';
  let style: ModelConfig['ropeStyle'] = 'rope_scaling';
  if (rp !== undefined && rp !== null) {
    if (typeof rp !== 'object' || Array.isArray(rp)) r.fail('rope_parameters', 'must be an object');
    block = rp as Obj;
    field = 'rope_parameters';
    style = 'rope_parameters';
    if (rs !== undefined && rs !== null) r.fail('rope_scaling', 'give either rope_parameters or rope_scaling, not both');
  } else if (rs !== undefined && rs !== null) {
    if (typeof rs !== 'object' || Array.isArray(rs)) r.fail('rope_scaling', 'must be an object');
    block = rs as Obj;
  }
  const theta = block && block['rope_theta'] !== undefined ? r.num('rope_theta', null, block, `${field}.rope_theta`) : r.num('rope_theta', defaultTheta);
  if (theta <= 1) r.fail('rope_theta', `must be > 1, got ${theta}`);
  if (!block) return { theta, scaling: { type: 'default' }, style };
  const typeName = block['rope_type'] ?? block['type'] ?? 'default';
  const f = (k: string, dflt: number | null) => r.num(k, dflt, block, `${field}.${k}`);
  const factor = () => {
    const v = f('factor', null);
    if (v < 1) r.fail(`${field}.factor`, `must be ≥ 1, got ${v}`);
    return v;
  };
  if (block['partial_rotary_factor'] !== undefined && block['partial_rotary_factor'] !== 1) r.fail(`${field}.partial_rotary_factor`, 'partial rotary embeddings are not supported');
  switch (typeName) {
    case 'default':
      return { theta, scaling: { type: 'default' }, style };
    case 'linear':
      return { theta, scaling: { type: 'linear', factor: factor() }, style };
    case 'dynamic':
      return { theta, scaling: { type: 'dynamic', factor: factor() }, style };
    case 'llama3': {
      const lowFreqFactor = f('low_freq_factor', null);
      const highFreqFactor = f('high_freq_factor', null);
      if (highFreqFactor <= lowFreqFactor) r.fail(`${field}.high_freq_factor`, `must exceed low_freq_factor (${lowFreqFactor}), got ${highFreqFactor}`);
      return {
        theta,
        scaling: {
          type: 'llama3',
          factor: factor(),
          lowFreqFactor,
          highFreqFactor,
          originalMaxPositions: r.posInt('original_max_position_embeddings', null, block, `${field}.original_max_position_embeddings`),
        },
        style,
      };
    }
    case 'yarn': {
      const originalMaxPositions = r.posInt('original_max_position_embeddings', maxPositions, block, `${field}.original_max_position_embeddings`);
      const opt = (k: string) => (block[k] === undefined || block[k] === null ? undefined : f(k, null));
      const truncate = block['truncate'] ?? true;
      if (typeof truncate !== 'boolean') r.fail(`${field}.truncate`, 'must be true or false');
      const y: Extract<RopeScaling, { type: 'yarn' }> = {
        type: 'yarn',
        // transformers: a missing factor is max_position_embeddings / original_max_position_embeddings
        factor: block['factor'] === undefined || block['factor'] === null ? maxPositions / originalMaxPositions : factor(),
        originalMaxPositions,
        // transformers treats 0 like absent here (`or 32`, `or 1`)
        betaFast: f('beta_fast', 32) || 32,
        betaSlow: f('beta_slow', 1) || 1,
        truncate,
      };
      const af = opt('attention_factor');
      const ms = opt('mscale');
      const msa = opt('mscale_all_dim');
      if (af !== undefined) y.attentionFactor = af;
      if (ms !== undefined) y.mscale = ms;
      if (msa !== undefined) y.mscaleAllDim = msa;
      return { theta, scaling: y, style };
    }
    default:
      return r.fail(`${field}.rope_type`, `${JSON.stringify(typeName)} is not supported; supported: default, linear, dynamic, llama3, yarn`);
  }
}

function dtypeOf(r: Reader): TorchDtype {
  const key = r.has('dtype') ? 'dtype' : 'torch_dtype';
  const v = r.json[key] ?? 'float32';
  if (v !== 'float32' && v !== 'bfloat16' && v !== 'float16') r.fail(key, `${JSON.stringify(v)} is not supported; use float32, bfloat16 or float16`);
  return v;
}

/** LFM2's layer kinds (`layer_types`, else `full_attn_idxs`, else every layer attention) and conv settings. */
function readLfm2Layout(r: Reader, nLayers: number): HybridLayout {
  const lt = r.json['layer_types'];
  let layerTypes: LayerType[];
  if (lt !== undefined && lt !== null) {
    if (!Array.isArray(lt) || lt.some((x) => x !== 'full_attention' && x !== 'conv')) r.fail('layer_types', `must list "conv" or "full_attention" per layer, got ${JSON.stringify(lt)}`);
    if (lt.length !== nLayers) r.fail('layer_types', `has ${lt.length} entries for num_hidden_layers ${nLayers}`);
    layerTypes = lt as LayerType[];
  } else {
    const idx = r.json['full_attn_idxs'];
    if (idx !== undefined && idx !== null && (!Array.isArray(idx) || idx.some((i) => !Number.isInteger(i) || i < 0 || i >= nLayers)))
      r.fail('full_attn_idxs', `must list layer indices below num_hidden_layers ${nLayers}, got ${JSON.stringify(idx)}`);
    const attn = new Set((idx as number[] | undefined | null) ?? Array.from({ length: nLayers }, (_, i) => i));
    layerTypes = Array.from({ length: nLayers }, (_, i) => (attn.has(i) ? 'full_attention' : 'conv'));
  }
  const convKernel = r.posInt('conv_L_cache', LFM2_DEFAULTS.conv_L_cache);
  if (convKernel < 2) r.fail('conv_L_cache', `must be at least 2 (a kernel over the token and the one before it), got ${convKernel}`);
  return { layerTypes, convKernel, convBias: r.bool('conv_bias', LFM2_DEFAULTS.conv_bias) };
}

function readLfm2Ffn(r: Reader, d: ClassDefaults): Lfm2FfnSizing {
  // transformers: `block_ff_dim` (the original release's key) wins over intermediate_size.
  const intermediateSize = r.has('block_ff_dim') ? r.posInt('block_ff_dim', null) : r.posInt('intermediate_size', d.intermediate_size);
  const m = r.json['block_ffn_dim_multiplier'];
  const multiplier = m === null ? null : r.num('block_ffn_dim_multiplier', LFM2_DEFAULTS.block_ffn_dim_multiplier);
  if (multiplier !== null && !(multiplier > 0)) r.fail('block_ffn_dim_multiplier', `must be > 0, got ${multiplier}`);
  return {
    intermediateSize,
    autoAdjust: r.bool('block_auto_adjust_ff_dim', LFM2_DEFAULTS.block_auto_adjust_ff_dim),
    multiplier,
    multipleOf: r.posInt('block_multiple_of', LFM2_DEFAULTS.block_multiple_of),
  };
}

/** LFM2's feed-forward width from its sizing fields, as transformers' Lfm2MLP computes it. */
export function lfm2FfnDim(s: Lfm2FfnSizing): number {
  if (!s.autoAdjust) return s.intermediateSize;
  let n = Math.trunc((2 * s.intermediateSize) / 3);
  if (s.multiplier !== null) {
    n = Math.trunc(s.multiplier * n);
    n = s.multipleOf * Math.ceil(n / s.multipleOf);
  }
  return n;
}

function readBlockDiffusion(r: Reader, vocabSize: number): BlockDiffusionSpec {
  const blockSize = r.posInt('block_size', null);
  const maskTokenId = r.tokenId('mask_token_id');
  if (maskTokenId === undefined) r.fail('mask_token_id', 'is required (the token SDAR fills masked positions with)');
  if (maskTokenId >= vocabSize) r.fail('mask_token_id', `${maskTokenId} is outside the vocabulary (vocab_size ${vocabSize})`);
  return { blockSize, maskTokenId };
}

/** Reads a Hugging Face `config.json` (already parsed); `where` names it in errors (e.g. its path). */
export function parseHfConfig(json: unknown, where = 'config.json'): ModelConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ConfigError(where, '(root)', 'must be a JSON object');
  const r = new Reader(json as Obj, where);
  const modelType = modelTypeOf(r);
  const d = DEFAULTS[modelType];
  rejectUnsupported(r, modelType, d);
  const lfm2 = modelType === 'lfm2';
  const nHeads = r.posInt('num_attention_heads', d.num_attention_heads);
  const dModel = r.posInt('hidden_size', d.hidden_size);
  const nKvHeads = r.posInt('num_key_value_heads', d.num_key_value_heads ?? nHeads);
  if (nHeads % nKvHeads !== 0) r.fail('num_key_value_heads', `${nKvHeads} does not divide num_attention_heads (${nHeads})`);
  const headDefault = d.head_dim ?? Math.floor(dModel / nHeads);
  const headDim = r.posInt('head_dim', headDefault);
  if (headDim % 2 !== 0) r.fail('head_dim', `must be even for rotary embeddings, got ${headDim}`);
  const maxPositions = r.posInt('max_position_embeddings', d.max_position_embeddings);
  const epsKey = lfm2 ? 'norm_eps' : 'rms_norm_eps';
  const rmsEps = r.num(epsKey, lfm2 ? LFM2_DEFAULTS.norm_eps : 1e-6);
  if (rmsEps <= 0) r.fail(epsKey, `must be > 0, got ${rmsEps}`);
  const rope = readRope(r, maxPositions, lfm2 ? LFM2_DEFAULTS.rope_theta : 10000);
  // LFM2: transformers reads the original release's `theta` before `rope_theta` (outside a rope_parameters block).
  if (lfm2 && r.has('theta') && rope.style === 'rope_scaling') rope.theta = r.num('theta', null);
  const pt = r.num('pretraining_tp', 1);
  if (!Number.isInteger(pt) || pt < 1) r.fail('pretraining_tp', `must be a positive integer, got ${pt}`); // > 1 only slices the same matmuls in transformers

  // LFM2 has no biases in attention or MLP (its conv layers' follow conv_bias).
  const attentionBias = lfm2 ? false : r.bool('attention_bias', false);
  const nLayers = r.posInt('num_hidden_layers', d.num_hidden_layers);
  const vocabSize = r.posInt('vocab_size', d.vocab_size);
  const ffnSizing = lfm2 ? readLfm2Ffn(r, d) : undefined;
  // LFM2: transformers reads the original release's `tie_embedding` before tie_word_embeddings.
  const tieKey = lfm2 && r.has('tie_embedding') ? 'tie_embedding' : 'tie_word_embeddings';
  const cfg: ModelConfig = {
    modelType,
    vocabSize,
    dModel,
    nLayers,
    nHeads,
    nKvHeads,
    headDim,
    ffnDim: ffnSizing ? lfm2FfnDim(ffnSizing) : r.posInt('intermediate_size', d.intermediate_size),
    ropeTheta: rope.theta,
    rmsEps,
    maxPositions,
    ropeScaling: rope.scaling,
    ropeStyle: rope.style,
    tieEmbeddings: r.bool(tieKey, lfm2 ? LFM2_DEFAULTS.tie_word_embeddings : false),
    // Qwen2 always has q/k/v biases and never an o_proj bias; LLaMA, Qwen3 and SDAR follow attention_bias for all four; Mistral has none.
    attentionBias: modelType === 'qwen2' ? true : modelType === 'mistral' ? false : attentionBias,
    attentionOutBias: modelType === 'qwen2' || modelType === 'mistral' ? false : attentionBias,
    mlpBias: modelType === 'llama' ? r.bool('mlp_bias', false) : false,
    qkNorm: modelType === 'qwen3' || modelType === 'sdar' || lfm2,
    torchDtype: dtypeOf(r),
    bosTokenId: r.tokenId('bos_token_id'),
    eosTokenId: readEos(r),
    padTokenId: r.tokenId('pad_token_id'),
    extra: {},
  };
  if (ffnSizing) {
    cfg.ffnSizing = ffnSizing;
    cfg.lfm2 = readLfm2Layout(r, nLayers);
    if (cfg.ffnDim < 1) r.fail('intermediate_size', `gives a feed-forward width of ${cfg.ffnDim}`);
  }
  if (modelType === 'sdar') cfg.blockDiffusion = readBlockDiffusion(r, vocabSize);
  const own = CONSUMED_BY[modelType];
  for (const [k, v] of Object.entries(r.json)) if (!CONSUMED.has(k) && !own?.has(k)) cfg.extra[k] = v as Json;
  return cfg;
}

function readEos(r: Reader): number | number[] | undefined {
  const v = r.json['eos_token_id'];
  if (Array.isArray(v)) {
    if (v.some((x) => !Number.isInteger(x) || x < 0)) r.fail('eos_token_id', `must be a token id or a list of them, got ${JSON.stringify(v)}`);
    return v as number[];
  }
  return r.tokenId('eos_token_id');
}

function ropeJson(c: ModelConfig): Record<string, Json> {
  const s = c.ropeScaling;
  const out: Record<string, Json> = { rope_type: s.type };
  switch (s.type) {
    case 'default':
      break;
    case 'linear':
    case 'dynamic':
      out['factor'] = s.factor;
      break;
    case 'llama3':
      Object.assign(out, { factor: s.factor, low_freq_factor: s.lowFreqFactor, high_freq_factor: s.highFreqFactor, original_max_position_embeddings: s.originalMaxPositions });
      break;
    case 'yarn':
      Object.assign(out, { factor: s.factor, original_max_position_embeddings: s.originalMaxPositions, beta_fast: s.betaFast, beta_slow: s.betaSlow, truncate: s.truncate });
      if (s.attentionFactor !== undefined) out['attention_factor'] = s.attentionFactor;
      if (s.mscale !== undefined) out['mscale'] = s.mscale;
      if (s.mscaleAllDim !== undefined) out['mscale_all_dim'] = s.mscaleAllDim;
      break;
  }
  return out;
}

/** LFM2's sizing fields for a config: as read when they still give its ffnDim, else the width itself with auto-adjust off. */
function lfm2FfnJson(c: ModelConfig): Record<string, Json> {
  const s = c.ffnSizing;
  const sizing = s && lfm2FfnDim(s) === c.ffnDim ? s : { intermediateSize: c.ffnDim, autoAdjust: false, multiplier: s?.multiplier ?? 1, multipleOf: s?.multipleOf ?? 256 };
  return {
    intermediate_size: sizing.intermediateSize,
    block_auto_adjust_ff_dim: sizing.autoAdjust,
    block_ffn_dim_multiplier: sizing.multiplier,
    block_multiple_of: sizing.multipleOf,
  };
}

/** The `config.json` object for a model config (transformers reads it back to the same model). */
export function toHfConfig(c: ModelConfig): Record<string, Json> {
  validateModelConfig(c);
  const hd = c.headDim ?? c.dModel / c.nHeads;
  const lfm2 = c.lfm2;
  const out: Record<string, Json> = {
    ...c.extra,
    architectures: [ARCHITECTURE[c.modelType]],
    model_type: c.modelType,
    vocab_size: c.vocabSize,
    hidden_size: c.dModel,
    intermediate_size: c.ffnDim,
    num_hidden_layers: c.nLayers,
    num_attention_heads: c.nHeads,
    num_key_value_heads: c.nKvHeads,
    head_dim: hd,
    hidden_act: 'silu',
    max_position_embeddings: c.maxPositions,
    rms_norm_eps: c.rmsEps,
    tie_word_embeddings: c.tieEmbeddings ?? false,
    torch_dtype: c.torchDtype,
  };
  if (c.modelType === 'llama' || c.modelType === 'qwen3' || c.modelType === 'sdar') out['attention_bias'] = c.attentionBias ?? false;
  if (c.modelType === 'llama') out['mlp_bias'] = c.mlpBias ?? false;
  if (c.modelType === 'mistral') out['sliding_window'] = null;
  if (c.modelType === 'qwen2' || c.modelType === 'qwen3' || c.modelType === 'sdar') out['use_sliding_window'] = false;
  if (c.blockDiffusion) Object.assign(out, { block_size: c.blockDiffusion.blockSize, mask_token_id: c.blockDiffusion.maskTokenId });
  if (lfm2) {
    // Lfm2Config has no hidden_act or rms_norm_eps; its head_dim is hidden_size / heads unless set.
    delete out['hidden_act'];
    delete out['rms_norm_eps'];
    if (hd === Math.floor(c.dModel / c.nHeads)) delete out['head_dim'];
    Object.assign(out, lfm2FfnJson(c), { norm_eps: c.rmsEps, conv_bias: lfm2.convBias, conv_L_cache: lfm2.convKernel, layer_types: [...lfm2.layerTypes] });
  }
  if (c.ropeStyle === 'rope_parameters') out['rope_parameters'] = { ...ropeJson(c), rope_theta: c.ropeTheta };
  else {
    out['rope_theta'] = c.ropeTheta;
    out['rope_scaling'] = c.ropeScaling.type === 'default' ? null : ropeJson(c);
  }
  if (c.bosTokenId !== undefined) out['bos_token_id'] = c.bosTokenId;
  if (c.eosTokenId !== undefined) out['eos_token_id'] = c.eosTokenId;
  if (c.padTokenId !== undefined) out['pad_token_id'] = c.padTokenId;
  return out;
}

/** Checks that the model-type flags agree with what transformers builds for that type. */
export function validateModelConfig(c: ModelConfig): void {
  const bad = (field: string, detail: string): never => {
    throw new ConfigError('ModelConfig', field, detail);
  };
  if (!(c.modelType in ARCHITECTURE)) bad('modelType', `${c.modelType} is not supported`);
  const ab = c.attentionBias ?? false;
  const ob = c.attentionOutBias ?? false;
  if (c.modelType === 'qwen2' && (!ab || ob)) bad('attentionBias', 'qwen2 has q/k/v biases and no o_proj bias');
  if (c.modelType === 'mistral' && (ab || ob || c.mlpBias)) bad('attentionBias', 'mistral has no biases');
  if (c.modelType === 'llama' && ab !== ob) bad('attentionOutBias', 'llama biases q/k/v/o together (attention_bias)');
  if (c.mlpBias && c.modelType !== 'llama') bad('mlpBias', 'only llama has mlp_bias');
  if ((c.modelType === 'qwen3' || c.modelType === 'sdar') && ab !== ob) bad('attentionOutBias', `${c.modelType} biases q/k/v/o together (attention_bias)`);
  const qkNormed = c.modelType === 'qwen3' || c.modelType === 'sdar' || c.modelType === 'lfm2';
  if ((c.qkNorm ?? false) !== qkNormed) bad('qkNorm', 'q/k norms belong to qwen3, sdar and lfm2, and only to them');
  if ((c.lfm2 !== undefined) !== (c.modelType === 'lfm2')) bad('lfm2', 'the hybrid conv/attention layout belongs to lfm2 and only lfm2');
  if (c.modelType === 'lfm2' && (ab || ob)) bad('attentionBias', 'lfm2 has no attention biases');
  if ((c.blockDiffusion !== undefined) !== (c.modelType === 'sdar')) bad('blockDiffusion', 'block_size and mask_token_id belong to sdar and only sdar');
  if (!Number.isInteger(c.maxPositions) || c.maxPositions <= 0) bad('maxPositions', `must be a positive integer, got ${c.maxPositions}`);
}

/** The Hugging Face architecture class name for a model type (e.g. `Qwen3ForCausalLM`). */
export const hfArchitecture = (t: ModelType): string => ARCHITECTURE[t];

/** What each supported model type is, for listings (`diffworld doctor`). */
export interface SupportedModel {
  modelType: ModelType;
  architecture: string;
  /** What it trains and decodes as here. */
  note: string;
}

const NOTES: Record<ModelType, string> = {
  llama: 'decoder; any objective',
  mistral: 'decoder without sliding windows; any objective',
  qwen2: 'decoder; any objective',
  qwen3: 'decoder with q/k norms; any objective',
  sdar: 'block-diffusion Qwen3; bd3 with its block_size and mask_token_id',
  lfm2: 'short convolutions + GQA; ar only',
};

export const supportedModels = (): SupportedModel[] => MODEL_TYPES.map((modelType) => ({ modelType, architecture: ARCHITECTURE[modelType], note: NOTES[modelType] }));
