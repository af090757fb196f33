// Shared fixtures of the trainer tests: the committed world-model tokenizer, 32 short transitions
// whose answers must be memorised, and a tiny LLaMA-style config.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import { Tokenizer } from '@diffworld/tokenizer';
import { type TrainConfig, resolveTrainConfig } from '../config.js';

export const TOKENIZER = new URL('../../../../../test-data/wm/tokenizer.json', import.meta.url).pathname;
export const tokenizerJson = readFileSync(TOKENIZER, 'utf8');
export const tok = Tokenizer.fromJson(JSON.parse(tokenizerJson));
export const OBJECTS = ['mug', 'apple', 'knife', 'bowl', 'egg', 'pan', 'cup', 'vase'];

/** 32 short transitions: which object box i holds must be memorised. */
export function transitions(path: string): void {
  const r = new Rng(7);
  const rows = Array.from({ length: 32 }, (_, i) => ({
    messages: [
      { role: 'system', content: `Room ${i % 4}` },
      { role: 'user', content: `Action: open cabinet ${i}` },
      { role: 'assistant', content: `You open the cabinet ${i}. In it, you see a ${r.pick(OBJECTS)} ${r.int(1, 3)}.` },
    ],
  }));
  writeFileSync(path, rows.map((x) => JSON.stringify(x)).join('\n'));
}

export const MODEL = {
  model_type: 'llama',
  hidden_size: 128,
  intermediate_size: 256,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  max_position_embeddings: 512,
  tie_word_embeddings: true,
};

/** A fresh temp folder (name prefix given) with the transitions written to its rows.jsonl. */
export function transitionsDir(prefix: string): { dir: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const data = join(dir, 'rows.jsonl');
  transitions(data);
  return { dir, data };
}

/** The tiny bd3 run the trainer tests vary: MODEL, 64 tokens × 4 rows, a quarter held out. */
export function tinyRunConfig(settings: Record<string, unknown>): TrainConfig {
  return resolveTrainConfig({ objective: 'bd3', model: MODEL, seqLength: 64, batchSize: 4, evalFraction: 0.25, ...settings });
}
