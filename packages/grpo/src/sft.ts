// SFT of the policy on demonstrations: the AR next-token objective on policy tokens only (the
// episode's loss mask: every assistant turn a target, prompt and observations not) — ms-swift's
// `swift sft` with `loss_scale default`.
//   trainSft    the pipeline's path: mdlm-core's trainer (objective ar) on the demonstrations' own
//               ids, packed end to end into rows no longer than the longest demonstration (no
//               padding to the window), IO binding + bf16 on CUDA, checkpoints and exact resume;
//               the result is an HF policy directory (loadPolicy / savePolicy's format).
//   SftTrainer  one in-memory step at a time through GraphUpdater (float32, rows padded to the
//               window): for toy vocabularies without a tokenizer (the line-walk tests).
import { join } from 'node:path';
import {
  type AdamWConfig,
  type Precision,
  type ProviderName,
  type Schedule,
  type ScheduleName,
  type TrainExample,
  type TrainSummary,
  type TransformerConfig,
  resolveTrainConfig,
  trainWorldModel,
  transformerParams,
} from '@diffworld/mdlm-core';
import type { Tokenizer } from '@diffworld/tokenizer';
import { type SequenceRow, packSequences, sftBatchSpec, sftLoss } from './batch.js';
import { GrpoError } from './errors.js';
import type { FloatArray, ParamValues } from './score.js';
import { GraphUpdater, type UpdateResult } from './updater.js';

/**
 * A demonstration as the trainer's example: its ids and loss mask, cut after its last policy token
 * (the observation after it trains nothing under the ar objective).
 */
export function sftExample(row: SequenceRow, where = 'SFT demonstration'): TrainExample {
  if (row.ids.length !== row.lossMask.length) throw new GrpoError('bad_batch', `${where}: ${row.ids.length} ids but ${row.lossMask.length} mask entries`);
  if (row.lossMask[0]) throw new GrpoError('bad_batch', `${where}: mask 1 on its first token, which nothing predicts`);
  let end = row.lossMask.length;
  while (end > 0 && !row.lossMask[end - 1]) end--;
  const ids = Int32Array.from(row.ids.slice(0, end));
  const target = Uint8Array.from(row.lossMask.slice(0, end), (m) => (m ? 1 : 0));
  return { ids, target };
}

/**
 * A demonstration with the next-token loss on every token from `from` on — the observations and
 * admissible lists as well as the assistant turns — for SFT's `loss: 'episode'`. Why: the
 * assistant turns are ~2 % of an ALFWorld demonstration's tokens, and what a policy must learn
 * first is to copy names out of its context (the goal's object, the last observation's); the
 * observations and command lists are full of exactly those copies ("You pick up the plate 1"
 * after "take plate 1 …", "take plate 1 from diningtable 1" after "you see … a plate 1"), so a
 * small policy trained from scratch gets ~50× the copying signal per step at the same cost.
 * `from` is where the episode's own text starts (after the system message: constant text that
 * teaches nothing).
 */
export function episodeTargets(row: SequenceRow, from: number): SequenceRow {
  if (!Number.isInteger(from) || from < 1 || from >= row.ids.length) throw new GrpoError('bad_batch', `episodeTargets: from must lie in [1, ${row.ids.length}), got ${from}`);
  return { ids: row.ids, lossMask: row.ids.map((_, i) => (i >= from || row.lossMask[i] ? 1 : 0)) };
}

/** Packing granularity of SFT rows: rows are a multiple of this many tokens (graph shapes stay few). */
const ROW_QUANTUM = 64;

/**
 * The packed batch shape of an SFT run: rows as long as the longest demonstration (rounded up to
 * 64 tokens, at most the window), and as many rows per step as hold `batch` demonstrations of
 * mean length — so `sft.batch` keeps meaning "demonstrations per step", on average.
 */
export function sftShape(lengths: readonly number[], batch: number, maxSeqLen: number): { rows: number; rowTokens: number } {
  if (lengths.length === 0) throw new GrpoError('bad_batch', 'SFT: no demonstrations to train on');
  if (!Number.isInteger(batch) || batch < 1) throw new GrpoError('bad_config', `SFT: batch must be a positive integer, got ${batch}`);
  const longest = Math.max(...lengths);
  if (longest > maxSeqLen) throw new GrpoError('bad_batch', `SFT: a demonstration has ${longest} tokens, the window (rollout.maxSeqLen) is ${maxSeqLen}`);
  const rowTokens = Math.min(maxSeqLen, Math.ceil(longest / ROW_QUANTUM) * ROW_QUANTUM);
  const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  return { rows: Math.max(1, Math.round((batch * mean) / rowTokens)), rowTokens };
}

export interface SftRunOptions {
  /** Token ids with 1 on the policy's tokens (episodes as the rollout code records them). */
  demos: readonly SequenceRow[];
  /** The policy SFT starts from: an HF checkpoint directory (savePolicy's). */
  init: string;
  /** The policy's tokenizer and its tokenizer.json text (copied into the result). */
  tokenizer: Tokenizer;
  tokenizerJson: string;
  /** The run directory (checkpoints, metrics.jsonl; the SFT policy in `model/`); an existing run there is resumed. */
  out: string;
  steps: number;
  /** Demonstrations per optimizer step, on average (see sftShape). */
  batch: number;
  lr: number;
  /**
   * Learning-rate schedule (default 'constant', no warm-up): 'cosine' warms up over `warmupRatio`
   * of the steps and decays to `minLrRatio` × lr — mdlm-core's trainer schedules.
   */
  schedule?: ScheduleName;
  warmupRatio?: number;
  minLrRatio?: number;
  /** Seed of the data order. */
  seed: number;
  /** The policy's window (rollout.maxSeqLen): no demonstration is longer. */
  maxSeqLen: number;
  clipNorm?: number;
  /** AdamW weight decay (default 0.01, the trainer's). */
  weightDecay?: number;
  /** Checkpoint every N steps (absent: only at the end). */
  saveEvery?: number;
  provider?: ProviderName;
  /** MatMul precision ('bfloat16' on CUDA: the fast step); checkpoints stay float32. */
  precision?: Precision;
  log?: (line: string) => void;
  onStep?: (record: Readonly<Record<string, number>>) => void | Promise<void>;
  /** Stop after this step (tests; the run stays resumable). */
  stopAfter?: number;
}

export interface SftRunResult extends TrainSummary {
  /** The packed batch shape the run used. */
  rows: number;
  rowTokens: number;
}

/** SFT through mdlm-core's trainer (see the header); resumes a run already in `out`. */
export async function trainSft(o: SftRunOptions): Promise<SftRunResult> {
  const examples = o.demos.map((d, i) => sftExample(d, `SFT demonstration ${i}`));
  const { rows, rowTokens } = sftShape(
    examples.map((e) => e.ids.length),
    o.batch,
    o.maxSeqLen,
  );
  const config = resolveTrainConfig(
    {
      objective: 'ar',
      seed: o.seed,
      seqLength: rowTokens,
      batchSize: rows,
      steps: o.steps,
      lr: o.lr,
      schedule: o.schedule ?? 'constant',
      warmupRatio: o.warmupRatio ?? 0,
      ...(o.minLrRatio !== undefined ? { minLrRatio: o.minLrRatio } : {}),
      clipNorm: o.clipNorm ?? 1,
      ...(o.weightDecay !== undefined ? { weightDecay: o.weightDecay } : {}),
      evalEvery: 0,
      evalFraction: 0,
      saveEvery: o.saveEvery ?? 0,
      keepLast: 2,
      logEvery: 10,
      saveDtype: 'float32',
    },
    {},
    'SFT',
  );
  const summary = await trainWorldModel({
    config,
    examples,
    tokenizer: o.tokenizer,
    tokenizerJson: o.tokenizerJson,
    out: o.out,
    init: o.init,
    resume: 'auto',
    precision: o.precision ?? 'float32',
    ...(o.provider ? { provider: o.provider } : {}),
    ...(o.log ? { log: o.log } : {}),
    ...(o.onStep ? { onStep: o.onStep } : {}),
    ...(o.stopAfter !== undefined ? { stopAfter: o.stopAfter } : {}),
  });
  return { ...summary, rows, rowTokens };
}

/** Where trainSft leaves the policy in its run directory. */
export const sftPolicyDir = (out: string) => join(out, 'model');

export interface SftConfig {
  model: TransformerConfig;
  /** Rows per optimizer step. */
  batch: number;
  seqLen: number;
  optimizer?: Partial<AdamWConfig>;
  clipNorm?: number;
  schedule?: Schedule;
  dtype?: 'float32' | 'float64';
  provider?: ProviderName;
}

export class SftTrainer {
  private constructor(
    readonly config: SftConfig,
    readonly updater: GraphUpdater,
  ) {}

  static async create(config: SftConfig, init: ParamValues): Promise<SftTrainer> {
    if (!Number.isInteger(config.batch) || config.batch < 1) throw new GrpoError('bad_config', `SFT config: batch must be a positive integer, got ${config.batch}`);
    const dtype = config.dtype ?? 'float32';
    const updater = await GraphUpdater.create(
      {
        params: transformerParams(config.model),
        batch: sftBatchSpec(config.batch, config.seqLen, dtype),
        loss: sftLoss(config.model),
        dtype,
        ...(config.optimizer ? { optimizer: config.optimizer } : {}),
        ...(config.clipNorm !== undefined ? { clipNorm: config.clipNorm } : {}),
      },
      init,
      { ...(config.provider ? { provider: config.provider } : {}), ...(config.schedule ? { schedule: config.schedule } : {}), label: 'SFT' },
    );
    return new SftTrainer(config, updater);
  }

  /** One optimizer step on up to `batch` rows (mean next-token loss over their policy tokens). */
  step(rows: readonly SequenceRow[]): Promise<UpdateResult> {
    if (!rows.some((r) => r.lossMask.some((m) => m))) throw new GrpoError('bad_batch', 'SFT step: no row has a policy token to train on');
    return this.updater.step([packSequences(rows, this.config.batch, this.config.seqLen, this.config.dtype ?? 'float32')]);
  }

  params(): Record<string, FloatArray> {
    return this.updater.params();
  }

  /** Parameters and AdamW moments (`adam_m.` / `adam_v.`) and the next optimizer step, for a checkpoint. */
  state(): { optimizer: Record<string, FloatArray>; nextOptimizerStep: number } {
    return { optimizer: this.updater.optimizerState(), nextOptimizerStep: this.updater.nextStep };
  }

  /** Continues from a `state()` saved earlier: the next step equals the uninterrupted run's. */
  restore(s: { optimizer: Readonly<Record<string, ArrayLike<number>>>; nextOptimizerStep: number }): void {
    this.updater.restore(s.optimizer, s.nextOptimizerStep);
  }
}
