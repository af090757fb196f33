// parseHfConfig / toHfConfig: configs written by transformers 5.17 (test-data/golden/hf), the older
// rope_theta + rope_scaling form, class defaults, round trips, parameter names per family, and an
// error naming the field for everything unsupported or malformed.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, type ModelConfig, parseHfConfig, toHfConfig } from './config.js';
import { hfParamNames, transformerParams } from './transformer.js';

const GOLDEN = resolve(import.meta.dirname, '../../../../test-data/golden/hf');
const read = (dir: string) => JSON.parse(readFileSync(join(GOLDEN, dir, 'config.json'), 'utf8')) as Record<string, unknown>;
const TINY = { vocab_size: 64, hidden_size: 32, intermediate_size: 48, num_hidden_layers: 2, num_attention_heads: 4, num_key_value_heads: 2 };

function fails(json: unknown, field: string): ConfigError {
  let err: unknown;
  try {
    parseHfConfig(json, 'test.json');
  } catch (e) {
    err = e;
  }
  expect(err, `expected a ConfigError naming ${field}`).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).field).toBe(field);
  expect((err as ConfigError).message).toContain(`test.json: ${field}:`);
  return err as ConfigError;
}

describe('parseHfConfig on configs written by transformers', () => {
  it('llama (tied): sizes, GQA, head_dim, eps, rope_parameters, untouched extras', () => {
    const c = parseHfConfig(read('llama_tied/float32'));
    expect(c).toMatchObject({
      modelType: 'llama',
      vocabSize: 64,
      dModel: 32,
      nLayers: 2,
      nHeads: 4,
      nKvHeads: 2,
      headDim: 8,
      ffnDim: 48,
      rmsEps: 1e-5,
      ropeTheta: 10000,
      tieEmbeddings: true,
      torchDtype: 'float32',
      ropeStyle: 'rope_parameters',
      ropeScaling: { type: 'default' },
      maxPositions: 256,
      bosTokenId: 1,
      eosTokenId: 2,
    });
    expect(c.extra).toMatchObject({ initializer_range: 0.02, use_cache: true, transformers_version: '5.17.0' });
    expect(hfParamNames(c)).not.toContain('lm_head.weight');
  });

  it('llama with attention_bias and mlp_bias: biases on q/k/v/o and gate/up/down', () => {
    const c = parseHfConfig(read('llama_untied_bias/float32'));
    expect(c).toMatchObject({ attentionBias: true, attentionOutBias: true, mlpBias: true, tieEmbeddings: false, ropeTheta: 500000 });
    const names = hfParamNames(c);
    for (const p of ['self_attn.q_proj', 'self_attn.k_proj', 'self_attn.v_proj', 'self_attn.o_proj', 'mlp.gate_proj', 'mlp.up_proj', 'mlp.down_proj'])
      expect(names).toContain(`model.layers.1.${p}.bias`);
    expect(names).toContain('lm_head.weight');
  });

  it('qwen2: q/k/v biases, no o_proj bias; qwen3: q_norm/k_norm of head_dim, head_dim ≠ hidden/heads', () => {
    const q2 = parseHfConfig(read('qwen2/bfloat16'));
    expect(q2).toMatchObject({ modelType: 'qwen2', attentionBias: true, attentionOutBias: false, torchDtype: 'bfloat16', ropeTheta: 1e6 });
    const n2 = hfParamNames(q2);
    expect(n2).toContain('model.layers.0.self_attn.k_proj.bias');
    expect(n2).not.toContain('model.layers.0.self_attn.o_proj.bias');
    const q3 = parseHfConfig(read('qwen3/float32'));
    expect(q3).toMatchObject({ modelType: 'qwen3', headDim: 12, qkNorm: true, attentionBias: false, tieEmbeddings: true });
    const specs = transformerParams(q3);
    expect(specs.find((s) => s.name === 'model.layers.1.self_attn.k_norm.weight')).toMatchObject({ shape: [12], decay: false });
    expect(specs.find((s) => s.name === 'model.layers.0.self_attn.q_proj.weight')!.shape).toEqual([48, 32]);
  });

  it('rope_parameters of each type', () => {
    expect(parseHfConfig(read('rope/linear')).ropeScaling).toEqual({ type: 'linear', factor: 4 });
    expect(parseHfConfig(read('rope/dynamic')).ropeScaling).toEqual({ type: 'dynamic', factor: 2 });
    expect(parseHfConfig(read('rope/llama3')).ropeScaling).toEqual({ type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 });
    expect(parseHfConfig(read('rope/yarn')).ropeScaling).toEqual({ type: 'yarn', factor: 4, originalMaxPositions: 4096, betaFast: 32, betaSlow: 1, truncate: true });
    expect(parseHfConfig(read('rope/yarn_mscale')).ropeScaling).toMatchObject({ type: 'yarn', factor: 40, mscale: 1, mscaleAllDim: 0.707 });
  });

  it('every committed config survives toHfConfig → parseHfConfig unchanged', () => {
    for (const dir of ['llama_tied/float32', 'llama_untied_bias/bfloat16', 'qwen2/float32', 'qwen3/bfloat16', 'rope/llama3', 'rope/yarn_mscale', 'rope/dynamic', 'diffworld_written', 'far/yarn']) {
      const c = parseHfConfig(read(dir));
      const back = toHfConfig(c);
      expect(back['architectures'], dir).toHaveLength(1);
      expect(back['model_type']).toBe(c.modelType);
      expect(parseHfConfig(JSON.parse(JSON.stringify(back))), dir).toEqual(c);
    }
  });
});

describe('parseHfConfig: older form and class defaults', () => {
  it('rope_theta + rope_scaling ("type" or "rope_type"), written back in the same form', () => {
    const c = parseHfConfig({ model_type: 'llama', ...TINY, rope_theta: 500000, rope_scaling: { type: 'linear', factor: 2 }, torch_dtype: 'bfloat16' });
    expect(c).toMatchObject({ ropeTheta: 500000, ropeScaling: { type: 'linear', factor: 2 }, ropeStyle: 'rope_scaling', torchDtype: 'bfloat16' });
    const back = toHfConfig(c);
    expect(back).toMatchObject({ rope_theta: 500000, rope_scaling: { rope_type: 'linear', factor: 2 }, torch_dtype: 'bfloat16' });
    expect(back['rope_parameters']).toBeUndefined();
    const y = parseHfConfig({ model_type: 'qwen2', ...TINY, max_position_embeddings: 131072, rope_scaling: { rope_type: 'yarn', original_max_position_embeddings: 32768 } });
    expect(y.ropeScaling).toMatchObject({ type: 'yarn', factor: 4 }); // factor = max / original when absent
  });

  it('missing fields take the transformers class defaults', () => {
    expect(parseHfConfig({ model_type: 'qwen3' })).toMatchObject({
      vocabSize: 151936,
      dModel: 4096,
      headDim: 128,
      nKvHeads: 32,
      maxPositions: 32768,
      rmsEps: 1e-6,
      ropeTheta: 10000,
      tieEmbeddings: false,
      torchDtype: 'float32',
    });
    expect(parseHfConfig({ model_type: 'llama', hidden_size: 64, num_attention_heads: 4 })).toMatchObject({ headDim: 16, nKvHeads: 4, maxPositions: 2048 });
    expect(parseHfConfig({ model_type: 'mistral', sliding_window: null })).toMatchObject({ nKvHeads: 8, headDim: 128, ffnDim: 14336, attentionBias: false, mlpBias: false });
    expect(parseHfConfig({ architectures: ['Qwen2ForCausalLM'], ...TINY }).modelType).toBe('qwen2'); // model_type from architectures
    expect(parseHfConfig({ model_type: 'llama', ...TINY, eos_token_id: [2, 7] }).eosTokenId).toEqual([2, 7]);
  });
});

describe('parseHfConfig: LFM2 and SDAR', () => {
  const lfm2 = { model_type: 'lfm2', vocab_size: 64, hidden_size: 32, num_attention_heads: 4, num_key_value_heads: 2, num_hidden_layers: 4 };

  it('LFM2 class defaults: every layer attention, kernel 3, norm_eps 1e-5, rope_theta 1e6, tied, width 2/3 rounded to 256', () => {
    const c = parseHfConfig(lfm2);
    expect(c).toMatchObject({ modelType: 'lfm2', rmsEps: 1e-5, ropeTheta: 1e6, tieEmbeddings: true, qkNorm: true, headDim: 8, maxPositions: 128000 });
    expect(c.lfm2).toEqual({ layerTypes: ['full_attention', 'full_attention', 'full_attention', 'full_attention'], convKernel: 3, convBias: false });
    // 12288 → ⌊2·12288/3⌋ = 8192, already a multiple of 256 (LFM2-1.2B's width)
    expect(c.ffnDim).toBe(8192);
  });

  it('LFM2 aliases of the original release: full_attn_idxs, block_ff_dim, theta, tie_embedding', () => {
    const c = parseHfConfig({ ...lfm2, full_attn_idxs: [1, 3], block_ff_dim: 100, intermediate_size: 12288, block_multiple_of: 8, theta: 5e5, tie_embedding: false });
    expect(c.lfm2!.layerTypes).toEqual(['conv', 'full_attention', 'conv', 'full_attention']);
    expect(c.ffnDim).toBe(72); // ⌊200/3⌋ = 66 → up to a multiple of 8
    expect([c.ropeTheta, c.tieEmbeddings]).toEqual([5e5, false]);
    expect(parseHfConfig({ ...lfm2, theta: 5e5, rope_theta: 1e4 }).ropeTheta).toBe(5e5); // transformers: theta first
    expect(parseHfConfig({ ...lfm2, intermediate_size: 100, block_ffn_dim_multiplier: null }).ffnDim).toBe(66); // no multiplier: no rounding
    expect(parseHfConfig({ ...lfm2, intermediate_size: 100, block_auto_adjust_ff_dim: false }).ffnDim).toBe(100);
  });

  it('LFM2 round trip: toHfConfig writes Lfm2Config’s fields (norm_eps, conv_*, block_*, layer_types), no hidden_act', () => {
    const c = parseHfConfig({ ...lfm2, layer_types: ['conv', 'conv', 'full_attention', 'conv'], conv_bias: true, conv_L_cache: 4, intermediate_size: 80, block_multiple_of: 16 });
    const json = toHfConfig(c);
    expect(json).toMatchObject({ architectures: ['Lfm2ForCausalLM'], norm_eps: 1e-5, conv_bias: true, conv_L_cache: 4, intermediate_size: 80, block_multiple_of: 16, block_auto_adjust_ff_dim: true });
    expect(json).not.toHaveProperty('hidden_act');
    expect(json).not.toHaveProperty('rms_norm_eps');
    expect(parseHfConfig(json)).toEqual(c);
    // a width changed by hand is written as itself, with auto-adjust off
    expect(parseHfConfig(toHfConfig({ ...c, ffnDim: 50 })).ffnDim).toBe(50);
  });

  it('SDAR: a Qwen3 (q/k norms, attention_bias on all four) with block_size and mask_token_id', () => {
    const c = parseHfConfig({ ...TINY, model_type: 'sdar', architectures: ['SDARForCausalLM'], attention_bias: true, block_size: 4, mask_token_id: 60, fuse_cross_entropy: true });
    expect(c).toMatchObject({ modelType: 'sdar', qkNorm: true, attentionBias: true, attentionOutBias: true, headDim: 128, blockDiffusion: { blockSize: 4, maskTokenId: 60 } });
    expect(c.extra).toEqual({ fuse_cross_entropy: true });
    expect(parseHfConfig(toHfConfig(c))).toEqual(c);
    expect(hfParamNames(c)).toContain('model.layers.0.self_attn.q_norm.weight');
  });

  it.each([
    ['LFM2 layer_types of another kind', { ...lfm2, layer_types: ['conv', 'sliding_attention', 'conv', 'conv'] }, 'layer_types'],
    ['LFM2 layer_types of the wrong length', { ...lfm2, layer_types: ['conv'] }, 'layer_types'],
    ['LFM2 attention index out of range', { ...lfm2, full_attn_idxs: [4] }, 'full_attn_idxs'],
    ['LFM2 kernel of 1', { ...lfm2, conv_L_cache: 1 }, 'conv_L_cache'],
    ['LFM2 norm_eps', { ...lfm2, norm_eps: 0 }, 'norm_eps'],
    ['LFM2 MoE', { ...lfm2, num_experts: 32 }, 'num_experts'],
    ['SDAR without block_size', { ...TINY, model_type: 'sdar', mask_token_id: 3 }, 'block_size'],
    ['SDAR without mask_token_id', { ...TINY, model_type: 'sdar', block_size: 4 }, 'mask_token_id'],
    ['SDAR mask outside the vocabulary', { ...TINY, model_type: 'sdar', block_size: 4, mask_token_id: 64 }, 'mask_token_id'],
    ['SDAR sliding window', { ...TINY, model_type: 'sdar', block_size: 4, mask_token_id: 3, use_sliding_window: true }, 'use_sliding_window'],
  ])('%s', (_, json, field) => {
    fails(json, field);
  });
});

describe('parseHfConfig errors name the field', () => {
  const base = { model_type: 'llama', ...TINY };
  it.each<[string, Record<string, unknown>, string]>([
    ['unknown model_type', { ...base, model_type: 'gemma2' }, 'model_type'],
    ['no model_type, unknown architecture', { ...TINY, architectures: ['GPT2LMHeadModel'] }, 'model_type'],
    ['architecture of another family', { ...base, architectures: ['Qwen2ForCausalLM'] }, 'architectures'],
    ['mixture of experts', { ...base, num_local_experts: 8 }, 'num_local_experts'],
    ['qwen MoE', { ...base, model_type: 'qwen3', num_experts: 64 }, 'num_experts'],
    ['quantized', { ...base, quantization_config: { quant_method: 'gptq' } }, 'quantization_config'],
    ['qwen sliding window', { ...base, model_type: 'qwen2', use_sliding_window: true }, 'use_sliding_window'],
    ['mistral sliding window (its default)', { ...base, model_type: 'mistral' }, 'sliding_window'],
    ['sliding layers', { ...base, model_type: 'qwen3', layer_types: ['full_attention', 'sliding_attention'] }, 'layer_types'],
    ['activation', { ...base, hidden_act: 'gelu' }, 'hidden_act'],
    ['dropout', { ...base, attention_dropout: 0.1 }, 'attention_dropout'],
    ['partial rotary', { ...base, partial_rotary_factor: 0.5 }, 'partial_rotary_factor'],
    ['unknown rope type', { ...base, rope_parameters: { rope_type: 'longrope', rope_theta: 10000 } }, 'rope_parameters.rope_type'],
    ['llama3 without low_freq_factor', { ...base, rope_scaling: { rope_type: 'llama3', factor: 8, high_freq_factor: 4, original_max_position_embeddings: 8192 } }, 'rope_scaling.low_freq_factor'],
    ['linear without factor', { ...base, rope_scaling: { type: 'linear' } }, 'rope_scaling.factor'],
    ['both rope forms', { ...base, rope_parameters: { rope_type: 'default', rope_theta: 1e4 }, rope_scaling: { type: 'linear', factor: 2 } }, 'rope_scaling'],
    ['GQA heads do not divide', { ...base, num_key_value_heads: 3 }, 'num_key_value_heads'],
    ['odd head_dim', { ...base, head_dim: 7 }, 'head_dim'],
    ['non-integer size', { ...base, hidden_size: 32.5 }, 'hidden_size'],
    ['string size', { ...base, vocab_size: '64' }, 'vocab_size'],
    ['dtype', { ...base, dtype: 'int8' }, 'dtype'],
    ['eps', { ...base, rms_norm_eps: 0 }, 'rms_norm_eps'],
    ['tie flag', { ...base, tie_word_embeddings: 'yes' }, 'tie_word_embeddings'],
  ])('%s', (_, json, field) => {
    fails(json, field);
  });

  it('a non-object', () => {
    fails([1, 2], '(root)');
  });

  it('toHfConfig refuses flags the model type cannot have', () => {
    const c = parseHfConfig({ model_type: 'qwen2', ...TINY });
    const wrong: ModelConfig = { ...c, attentionOutBias: true };
    expect(() => toHfConfig(wrong)).toThrow(ConfigError);
    expect(() => toHfConfig({ ...c, modelType: 'mistral' })).toThrow(/mistral has no biases/);
  });
});
