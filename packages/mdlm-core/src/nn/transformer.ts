// A LLaMA/Qwen-style decoder: token embedding → N × pre-norm blocks (RMSNorm, RoPE, grouped-query
// attention, SwiGLU) → final RMSNorm → LM head. Parameter names are Hugging Face's, so
// safetensors checkpoints load without renaming. References: HF transformers' modeling_llama.py,
// nanoGPT's model.py (structure only).
import { type Tensor, gather, reshape, transpose, add } from '../graph/index.js';
import type { ParamSpec } from '../train/step.js';
import { applyRope, attention, linear, rmsNorm, swiglu } from './functional.js';

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
}

const layer = (i: number, rest: string) => `model.layers.${i}.${rest}`;

/** Parameter names and shapes; norm weights are excluded from weight decay. */
export function transformerParams(c: TransformerConfig): ParamSpec[] {
  validateConfig(c);
  const hd = headDimOf(c);
  const specs: ParamSpec[] = [{ name: 'model.embed_tokens.weight', shape: [c.vocabSize, c.dModel] }];
  for (let i = 0; i < c.nLayers; i++) {
    specs.push(
      { name: layer(i, 'input_layernorm.weight'), shape: [c.dModel], decay: false },
      { name: layer(i, 'self_attn.q_proj.weight'), shape: [c.nHeads * hd, c.dModel] },
      { name: layer(i, 'self_attn.k_proj.weight'), shape: [c.nKvHeads * hd, c.dModel] },
      { name: layer(i, 'self_attn.v_proj.weight'), shape: [c.nKvHeads * hd, c.dModel] },
      { name: layer(i, 'self_attn.o_proj.weight'), shape: [c.dModel, c.nHeads * hd] },
      { name: layer(i, 'post_attention_layernorm.weight'), shape: [c.dModel], decay: false },
      { name: layer(i, 'mlp.gate_proj.weight'), shape: [c.ffnDim, c.dModel] },
      { name: layer(i, 'mlp.up_proj.weight'), shape: [c.ffnDim, c.dModel] },
      { name: layer(i, 'mlp.down_proj.weight'), shape: [c.dModel, c.ffnDim] },
    );
  }
  specs.push({ name: 'model.norm.weight', shape: [c.dModel], decay: false }, { name: 'lm_head.weight', shape: [c.vocabSize, c.dModel] });
  return specs;
}

export interface ForwardInputs {
  /** int64 [B, T] */
  inputIds: Tensor;
  /** Additive attention mask broadcastable to [B, H, T, T]. */
  mask: Tensor;
  /** RoPE tables [T, hd] for the positions of the sequence. */
  cos: Tensor;
  sin: Tensor;
}

function block(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, i: number, x: Tensor, inp: ForwardInputs): Tensor {
  const [b, t] = inp.inputIds.shape;
  const hd = headDimOf(c);
  const heads = (y: Tensor, n: number) => transpose(reshape(y, [b!, t!, n, hd]), [0, 2, 1, 3]); // (B, n, T, hd)
  const h = rmsNorm(x, p[layer(i, 'input_layernorm.weight')]!, c.rmsEps);
  const q = applyRope(heads(linear(h, p[layer(i, 'self_attn.q_proj.weight')]!), c.nHeads), inp.cos, inp.sin);
  const k = applyRope(heads(linear(h, p[layer(i, 'self_attn.k_proj.weight')]!), c.nKvHeads), inp.cos, inp.sin);
  const v = heads(linear(h, p[layer(i, 'self_attn.v_proj.weight')]!), c.nKvHeads);
  const o = reshape(transpose(attention(q, k, v, inp.mask), [0, 2, 1, 3]), [b!, t!, c.nHeads * hd]); // (B, T, H·hd)
  const x1 = add(x, linear(o, p[layer(i, 'self_attn.o_proj.weight')]!));
  const h2 = rmsNorm(x1, p[layer(i, 'post_attention_layernorm.weight')]!, c.rmsEps);
  return add(x1, swiglu(h2, p[layer(i, 'mlp.gate_proj.weight')]!, p[layer(i, 'mlp.up_proj.weight')]!, p[layer(i, 'mlp.down_proj.weight')]!));
}

/** Logits [B, T, V]. */
export function transformerForward(c: TransformerConfig, p: Readonly<Record<string, Tensor>>, inp: ForwardInputs): Tensor {
  let x = gather(p['model.embed_tokens.weight']!, inp.inputIds, 0); // (B, T, D)
  for (let i = 0; i < c.nLayers; i++) x = block(c, p, i, x, inp);
  return linear(rmsNorm(x, p['model.norm.weight']!, c.rmsEps), p['lm_head.weight']!);
}
