// The tiny world model of every project's tests: the committed world-model tokenizer, a 2-layer
// LLaMA-style config that trains in seconds on a CPU, the run settings those tests share, short
// transitions to memorise, and a model trained through the real trainer into a Hugging Face folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import { Tokenizer } from '@diffworld/tokenizer';
import { type TrainConfig, resolveTrainConfig } from '../train/config.js';
import { trainWorldModel } from '../train/trainer.js';

const TEST_DATA = new URL('../../../../test-data/wm/', import.meta.url).pathname;

/** The committed world-model tokenizer (512 tokens, with the chat template). */
export const TINY_WM_TOKENIZER = join(TEST_DATA, 'tokenizer.json');
export const tinyWmTokenizerJson = readFileSync(TINY_WM_TOKENIZER, 'utf8');
export const tinyWmTokenizer = Tokenizer.fromJson(JSON.parse(tinyWmTokenizerJson));

/**
 * A Hugging Face config.json of a tied 2-layer LLaMA of the given width (FFN twice as wide; the
 * vocabulary comes from the tokenizer). The server's tests and benches take width 64, where the
 * kernels are small enough that batching shows.
 */
export function tinyWmModel(width = 128): Readonly<Record<string, unknown>> {
  return {
    model_type: 'llama',
    hidden_size: width,
    intermediate_size: 2 * width,
    num_hidden_layers: 2,
    num_attention_heads: 4,
    num_key_value_heads: 2,
    max_position_embeddings: 512,
    tie_word_embeddings: true,
  };
}

/** The tiny world model most tests train: width 128. */
export const TINY_WM_MODEL = tinyWmModel();

/**
 * The run settings the tests that train TINY_WM_MODEL share: 128-token rows in batches of 8, a
 * cosine schedule (5% warmup, down to 5% of lr), no weight decay, every row trained on and no
 * checkpoints or logs mid-run. A test overrides what it varies (objective, steps, lr, …).
 */
export const TINY_WM_RUN: Readonly<Record<string, unknown>> = {
  objective: 'bd3',
  model: TINY_WM_MODEL,
  seqLength: 128,
  batchSize: 8,
  steps: 20,
  lr: 3e-3,
  schedule: 'cosine',
  minLrRatio: 0.05,
  warmupRatio: 0.05,
  weightDecay: 0,
  evalFraction: 0,
  evalEvery: 0,
  saveEvery: 0,
  logEvery: 1000,
};

/** TINY_WM_RUN with `settings` over it, resolved as the trainer resolves a config file. */
export function tinyWmConfig(settings: Readonly<Record<string, unknown>> = {}): TrainConfig {
  return resolveTrainConfig({ ...TINY_WM_RUN, ...settings });
}

/**
 * The tiny run the trainer tests vary: TINY_WM_MODEL, 64 tokens × 4 rows, a quarter held out, and
 * the trainer's own defaults for the rest (which those tests check).
 */
export function tinyRunConfig(settings: Record<string, unknown>): TrainConfig {
  return resolveTrainConfig({ objective: 'bd3', model: TINY_WM_MODEL, seqLength: 64, batchSize: 4, evalFraction: 0.25, ...settings });
}

const OBJECTS = ['mug', 'apple', 'knife', 'bowl', 'egg', 'pan', 'cup', 'vase'];

/** Writes `count` (at most 32) short chat transitions to a JSONL file: which object cabinet i holds must be memorised. */
export function writeTransitions(path: string, count = 32): void {
  if (count > 32) throw new Error(`writeTransitions: at most 32 transitions, asked for ${count}`);
  const r = new Rng(7);
  const rows = Array.from({ length: 32 }, (_, i) => ({
    messages: [
      { role: 'system', content: `Room ${i % 4}` },
      { role: 'user', content: `Action: open cabinet ${i}` },
      { role: 'assistant', content: `You open the cabinet ${i}. In it, you see a ${r.pick(OBJECTS)} ${r.int(1, 3)}.` },
    ],
  }));
  writeFileSync(
    path,
    rows
      .slice(0, count)
      .map((x) => JSON.stringify(x))
      .join('\n'),
  );
}

/** A fresh temp folder (name prefix given) with the transitions written to its rows.jsonl. */
export function transitionsDir(prefix: string): { dir: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const data = join(dir, 'rows.jsonl');
  writeTransitions(data);
  return { dir, data };
}

/** The first `count` rows of the committed ALFWorld world-model corpus, in a fresh temp JSONL file; returns its path. */
export function alfworldRowsFile(count: number): string {
  const rows = readFileSync(join(TEST_DATA, 'alfworld-train.jsonl'), 'utf8').trim().split('\n');
  if (count > rows.length) throw new Error(`alfworldRowsFile: the corpus has ${rows.length} rows, asked for ${count}`);
  const path = join(mkdtempSync(join(tmpdir(), 'tiny-wm-rows-')), 'rows.jsonl');
  writeFileSync(path, rows.slice(0, count).join('\n') + '\n');
  return path;
}

export interface TinyWorldModelOptions {
  /** JSONL chat rows to train on. */
  data: string;
  /** The run directory (default: a fresh temporary one). */
  out?: string;
  /** Settings over TINY_WM_RUN (objective, steps, lr, seqLength, …). */
  settings?: Readonly<Record<string, unknown>>;
  log?: (line: string) => void;
}

/** Trains TINY_WM_MODEL on the CPU with the committed tokenizer; returns the run's Hugging Face model/ folder. */
export async function trainTinyWorldModel(opts: TinyWorldModelOptions): Promise<string> {
  const out = opts.out ?? join(mkdtempSync(join(tmpdir(), 'tiny-wm-')), 'run');
  const s = await trainWorldModel({
    config: tinyWmConfig(opts.settings),
    data: [opts.data],
    tokenizer: tinyWmTokenizer,
    tokenizerJson: tinyWmTokenizerJson,
    out,
    provider: 'cpu',
    ...(opts.log ? { log: opts.log } : {}),
  });
  return s.modelDir;
}
