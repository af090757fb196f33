// The trainer's settings: one object with defaults and validation in one place, read from a JSON
// file and overridden by command-line flags. `model` is a Hugging Face config.json object (used
// when training from scratch; an --init checkpoint brings its own).
// Declared as a schema (@diffworld/config): defaults, types and ranges in one place.
import { ConfigError, isPlainObject, parseConfig, z } from '@diffworld/config';
import { OBJECTIVES } from './data.js';

export const SCHEDULES = ['constant', 'constant_with_warmup', 'cosine'] as const;
export type ScheduleName = (typeof SCHEDULES)[number];

/** HF config.json fields of the default model trained from scratch (a small qwen3). */
const DEFAULT_MODEL = {
  model_type: 'qwen3',
  hidden_size: 128,
  intermediate_size: 384,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 32,
  max_position_embeddings: 4096,
  rope_theta: 10000,
  rms_norm_eps: 1e-6,
  tie_word_embeddings: true,
};

const int = (min: number) => z.int().min(min);

/**
 * Mask-ratio ranges for `maskRange`. `full` is the default (LLaDA/SDAR's ε floor; with 1/p weights,
 * the NELBO). `bd3lmClipped` is BD3-LM's clipped schedule at block 4 (p ~ U[0.45, 0.95]; it reports
 * the NELBO's variance 23.45 → 6.24): its 1/p-weighted loss is a lower-variance training objective,
 * not the NELBO, so held-out NELBOs are compared under `full`. The default stays `full` until the
 * clip search on our corpora (GPU) says otherwise.
 */
export const MASK_RANGE_PRESETS = {
  full: [0.001, 1],
  bd3lmClipped: [0.45, 0.95],
} as const satisfies Record<string, readonly [number, number]>;

/** The trainer's settings, each with its default and range; `wm train --config`, the pipeline's and repro's `worldModel.train` read it. */
export const trainConfigSchema = z
  .strictObject({
    objective: z.enum(OBJECTIVES).default('bd3'),
    /** HF config.json fields of a model trained from scratch (vocab_size defaults to the tokenizer's). */
    model: z.record(z.string(), z.unknown()).default(DEFAULT_MODEL),
    seed: int(0).default(0),
    /** Tokens per packed row. */
    seqLength: int(2).default(256),
    /**
     * Range [lo, hi] of the per-sample mask ratio p of the diffusion objectives (weights 1/p). The
     * default [0.001, 1] is LLaDA/SDAR's ε floor; a narrower range is BD3-LM's clipped schedule,
     * which lowers the variance of small-batch training.
     */
    maskRange: z
      .tuple([z.number(), z.number()])
      .refine(([lo, hi]) => lo > 0 && lo < hi && hi <= 1, 'must be [lo, hi] with 0 < lo < hi ≤ 1')
      .default([...MASK_RANGE_PRESETS.full]),
    /**
     * bd3: predict token i from the output at position i−1 (Dream's and Fast-dLLM v2's token shift,
     * which keeps an AR model's next-token head meaningful when a diffusion model is adapted from
     * it). 'auto' turns it on for a run initialised from an AR checkpoint (or a bd3 one trained
     * shifted) and off from scratch and for SDAR checkpoints, which are trained unshifted.
     */
    tokenShift: z.enum(['auto', 'on', 'off']).default('auto'),
    /** Block length of bd3 (and the EOS padding unit of mdlm). SDAR trains with 4. */
    blockLength: int(1).default(4),
    /** Rows per micro-batch, and micro-batches per optimizer step. */
    batchSize: int(1).default(8),
    gradAccum: int(1).default(1),
    /** Optimizer steps of the run. */
    steps: int(1).default(200),
    lr: z.number().min(0).max(10).default(1e-3),
    schedule: z.enum(SCHEDULES).default('cosine'),
    /** Share of `steps` spent warming up (SDAR: 0.03). */
    warmupRatio: z.number().min(0).max(1).default(0.03),
    /** Final learning rate of the cosine schedule, as a share of `lr`. */
    minLrRatio: z.number().min(0).max(1).default(0.1),
    weightDecay: z.number().min(0).max(10).default(0.01),
    clipNorm: z.number().min(0).default(1.0),
    /** Held-out loss every N steps (0: never), over this many batches. */
    evalEvery: int(0).default(50),
    evalBatches: int(1).default(4),
    /** Share of the training rows held out for eval when no eval data is given. */
    evalFraction: z.number().min(0).max(0.5).default(0.05),
    /** Checkpoint every N steps (0: only at the end), keeping the last K. */
    saveEvery: int(0).default(50),
    keepLast: int(1).default(3),
    /** Progress line every N steps. */
    logEvery: int(1).default(10),
    /** dtype of the final model's weights on disk (checkpoints for resuming are always float32). */
    saveDtype: z.enum(['float32', 'bfloat16']).default('float32'),
    /**
     * A malformed row (bad JSON, not a chat row) stops the run naming file:line (false), or is
     * skipped and listed with its file:line and reason (true). Stopping is the default: a row that
     * vanishes silently changes what was trained on.
     */
    skipBadRows: z.boolean().default(false),
  })
  .refine((c) => c.seqLength % c.blockLength === 0, { path: ['seqLength'], message: 'must be a multiple of blockLength' });

export type TrainConfig = z.output<typeof trainConfigSchema>;

export const TRAIN_DEFAULTS: TrainConfig = parseConfig(trainConfigSchema, {}, 'train defaults');

const KEYS = Object.keys(TRAIN_DEFAULTS) as (keyof TrainConfig)[];

/** Defaults ← `file` (a parsed JSON object) ← `overrides`; every field checked, unknown keys refused (ConfigError naming the key). */
export function resolveTrainConfig(file: unknown, overrides: Partial<TrainConfig> = {}, where = 'train config'): TrainConfig {
  if (file !== undefined && !isPlainObject(file)) throw new ConfigError(where, [{ path: '(root)', message: 'must be a JSON object' }]);
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return parseConfig(trainConfigSchema, { ...((file ?? {}) as object), ...defined }, where);
}

/**
 * The settings that must not change when a run is resumed (everything but logging cadence, and
 * skipBadRows: a run that got past loading trained on the same rows under either policy).
 */
export function resumeMismatches(saved: TrainConfig, now: TrainConfig): string[] {
  const free = new Set<keyof TrainConfig>(['logEvery', 'keepLast', 'saveEvery', 'evalEvery', 'steps', 'skipBadRows']);
  return KEYS.filter((k) => !free.has(k) && JSON.stringify(saved[k]) !== JSON.stringify(now[k]));
}
