// A tiny qwen3 checkpoint with random initial weights, written by the project's checkpoint writer:
// what the Hub tests serve and download, and what a policy starts from in the pipeline's tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveCheckpoint } from '../checkpoint/index.js';
import { parseHfConfig, toHfConfig } from '../nn/config.js';
import { transformerParams } from '../nn/transformer.js';
import { initialWeights } from '../train/trainer.js';
import { tinyWmTokenizerJson } from './world-model.js';

/** config.json of a 2-layer qwen3, d = 32, over the world-model tokenizer's 512 tokens. */
export const TINY_QWEN3 = {
  model_type: 'qwen3',
  vocab_size: 512,
  hidden_size: 32,
  intermediate_size: 64,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 8,
  max_position_embeddings: 1024,
  rope_theta: 10000,
  rms_norm_eps: 1e-6,
} as const;

export interface TinyQwen3Options {
  /** Seed of the initial weights (default 1). */
  seed?: number;
  /** Tied embeddings: no lm_head.weight (default true). */
  tied?: boolean;
  /** tokenizer.json to write beside the weights (default: the world-model tokenizer; null: none). */
  tokenizerJson?: string | null;
  /** Split the weights into shards of at most this many bytes, with an index. */
  maxShardBytes?: number;
  generationConfig?: Record<string, unknown>;
}

/** Writes the tiny qwen3 into a fresh temporary `model/` folder and returns it. */
export async function saveTinyQwen3(opts: TinyQwen3Options = {}): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'tiny-qwen3-')), 'model');
  const model = parseHfConfig({ ...TINY_QWEN3, tie_word_embeddings: opts.tied ?? true }, 'tiny qwen3');
  const values = initialWeights(model, opts.seed ?? 1);
  const weights = Object.fromEntries(transformerParams(model).map((p) => [p.name, { shape: p.shape, data: values[p.name]! }]));
  const tokenizerJson = opts.tokenizerJson === undefined ? tinyWmTokenizerJson : opts.tokenizerJson;
  await saveCheckpoint(dir, {
    config: toHfConfig(model),
    weights,
    ...(tokenizerJson !== null ? { tokenizerJson } : {}),
    ...(opts.maxShardBytes ? { maxShardBytes: opts.maxShardBytes } : {}),
    ...(opts.generationConfig ? { generationConfig: opts.generationConfig } : {}),
  });
  return dir;
}
