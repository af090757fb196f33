// SDAR checkpoints as block-diffusion world models, on the CPU: sdarDecoding's settings (config.json
// block_size / mask_token_id, generate.py's defaults, generation_config.json overrides, errors that
// name the field); ChatGenerator.load takes a random tiny SDAR directory as bd3 with those settings
// (no objective needed); a bd3 fine-tune from it (wm train --init) keeps model_type sdar, writes the
// block length it trained with as block_size, and refuses a tokenizer whose mask token differs.
// The agreement with SDAR's own code is sdar-golden.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint, saveCheckpoint } from '../checkpoint/index.js';
import { type ModelConfig, parseHfConfig, toHfConfig } from '../nn/config.js';
import { transformerParams } from '../nn/transformer.js';
import { resolveTrainConfig } from '../train/config.js';
import { tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, writeTransitions } from '../testing/index.js';
import { initialWeights, trainWorldModel } from '../train/trainer.js';
import { SamplingError } from './errors.js';
import { ChatGenerator } from './generator.js';
import { sdarDecoding } from './sdar.js';

const MASK = tok.maskId!;
/** An SDAR checkpoint directory with seeded random weights (bfloat16, as SDAR-*-Chat ship). */
async function writeSdar(dir: string, c: ModelConfig, seed: number, generationConfig?: Record<string, unknown>): Promise<void> {
  const w = initialWeights(c, seed);
  const weights = new Map(transformerParams(c).map((p) => [p.name, { shape: p.shape, data: w[p.name]! }]));
  await saveCheckpoint(dir, { config: toHfConfig(c), weights, dtype: 'BF16', tokenizerJson, ...(generationConfig ? { generationConfig } : {}) });
}

const sdarJson = (blockSize: number, mask = MASK) => ({
  architectures: ['SDARForCausalLM'],
  model_type: 'sdar',
  vocab_size: tok.vocabSize,
  hidden_size: 64,
  intermediate_size: 96,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 16,
  max_position_embeddings: 256,
  rope_theta: 1000000,
  rope_scaling: null,
  use_sliding_window: false,
  sliding_window: null,
  attention_bias: false,
  tie_word_embeddings: false,
  block_size: blockSize,
  mask_token_id: mask,
  fuse_cross_entropy: true,
  torch_dtype: 'bfloat16',
});

describe('sdarDecoding', () => {
  const cfg = parseHfConfig(sdarJson(4), 'config.json');

  it('takes block_size and mask_token_id from config.json and generate.py’s defaults for the rest', () => {
    expect(sdarDecoding(cfg, undefined, 'gc')).toEqual({ blockLength: 4, maskId: MASK, denoisingSteps: 4, threshold: 0.85, unmasking: 'low_confidence_dynamic' });
    expect(cfg.extra).toMatchObject({ fuse_cross_entropy: true });
    expect(toHfConfig(cfg)).toMatchObject({ model_type: 'sdar', architectures: ['SDARForCausalLM'], block_size: 4, mask_token_id: MASK, use_sliding_window: false });
  });

  it('takes generate.py’s flag names from generation_config.json', () => {
    const gc = { block_length: 8, denoising_steps: 2, remasking_strategy: 'low_confidence_static', confidence_threshold: 0.9 };
    expect(sdarDecoding(cfg, gc, 'gc')).toEqual({ blockLength: 8, maskId: MASK, denoisingSteps: 2, threshold: 0.9, unmasking: 'low_confidence_static' });
  });

  it('names the field it cannot use', () => {
    const bad = (gc: Record<string, unknown>, field: string) => {
      expect(() => sdarDecoding(cfg, gc, 'x/generation_config.json')).toThrow(SamplingError);
      expect(() => sdarDecoding(cfg, gc, 'x/generation_config.json')).toThrow(new RegExp(`x/generation_config.json: ${field}`));
    };
    bad({ denoising_steps: 0 }, 'denoising_steps');
    bad({ remasking_strategy: 'entropy_bounded' }, 'remasking_strategy');
    bad({ confidence_threshold: 2 }, 'confidence_threshold');
    expect(() => sdarDecoding(parseHfConfig({ ...sdarJson(4), model_type: 'qwen3', architectures: ['Qwen3ForCausalLM'] }), undefined, 'gc')).toThrow(/not a block-diffusion \(sdar\) checkpoint/);
  });
});

describe('an SDAR directory as a world model', () => {
  let root: string;
  let sdarDir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'sdar-'));
    sdarDir = join(root, 'SDAR-tiny-Chat');
    const cfg = parseHfConfig(sdarJson(8), 'config.json');
    // as SDAR-*-Chat ship it: no objective, sampling settings of its own, eos ids
    await writeSdar(sdarDir, cfg, 5, { do_sample: true, temperature: 0.6, top_k: 20, eos_token_id: [tok.tokenToId('<|im_end|>')!] });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('ChatGenerator.load decodes it as bd3 with its block length and mask token, without an objective', async () => {
    const gen = await ChatGenerator.load(sdarDir, { provider: 'cpu' });
    expect(gen.objective).toBe('bd3');
    expect(gen.blockLength).toBe(8);
    expect(gen.maskId).toBe(MASK);
    expect(gen.decoding).toEqual({ denoisingSteps: 8, threshold: 0.85, unmasking: 'low_confidence_dynamic' });
    const req = { messages: [{ role: 'user' as const, content: 'Action: open cabinet 1' }], seed: 3 };
    const [a] = await gen.generate([req], { maxNewTokens: 12 });
    const [b] = await gen.generate([req], { maxNewTokens: 12, denoisingSteps: 8 });
    expect(a!.tokenIds.length).toBeGreaterThan(0);
    expect(a!.tokenIds).toEqual(b!.tokenIds);
  });

  it('a bd3 fine-tune from it stays sdar and records the block length it trained with', async () => {
    const data = join(root, 'rows.jsonl');
    writeTransitions(data);
    const out = join(root, 'run');
    const config = resolveTrainConfig({ objective: 'bd3', blockLength: 4, seqLength: 64, batchSize: 4, steps: 2, evalFraction: 0, saveEvery: 2 });
    await trainWorldModel({ config, data: [data], out, tokenizer: tok, tokenizerJson, init: sdarDir, provider: 'cpu' });
    const ck = await loadCheckpoint(join(out, 'model'), { optimizer: false });
    const back = parseHfConfig(ck.config);
    expect(back).toMatchObject({ modelType: 'sdar', blockDiffusion: { blockSize: 4, maskTokenId: MASK } });
    const gen = await ChatGenerator.load(join(out, 'model'), { provider: 'cpu' });
    expect([gen.objective, gen.blockLength]).toEqual(['bd3', 4]);
  });

  it('a tokenizer whose mask token is not the checkpoint’s is refused by id', async () => {
    const other = join(root, 'other-mask');
    await writeSdar(other, parseHfConfig(sdarJson(4, MASK === 0 ? 1 : 0), 'config.json'), 6);
    const data = join(root, 'rows2.jsonl');
    writeTransitions(data);
    const config = resolveTrainConfig({ objective: 'bd3', seqLength: 64, batchSize: 4, steps: 1, evalFraction: 0 });
    await expect(trainWorldModel({ config, data: [data], out: join(root, 'run2'), tokenizer: tok, tokenizerJson, init: other, provider: 'cpu' })).rejects.toThrow(/mask token is id .*mask_token_id/);
  });
});
