// The settings of every experiment — `diffworld grpo train` and `diffworld repro` — as one zod
// schema: defaults, types and ranges declared once, the same names as the libraries that read them
// (the trainer's TrainConfig under worldModel.train, GRPO's loss and trainer fields under grpo), and
// unknown keys refused with their path. One file serves both commands: `grpo train` reads the
// pipeline's sections, `repro` all of them (its RQ2 runs the same pipeline once per seed).
import { z } from '@diffworld/config';
import { WORLD_MODEL_LAYOUTS } from '@diffworld/dataset';
import { ENV_NAMES, ENV_SUITES } from '@diffworld/envs';
import { PROVIDERS, trainConfigSchema } from '@diffworld/mdlm-core';

const int = (min: number) => z.int().min(min);
const unit = () => z.number().min(0).max(1);

const tokenizer = z.strictObject({
  /** Use this tokenizer.json (relative to the config file or absolute) instead of training one. */
  path: z.string().min(1).optional(),
  vocabSize: int(300).default(2048),
  /** Training-split episodes whose corpus rows, agent prompts and expert actions the tokenizer is trained on. */
  episodes: int(1).default(64),
});

const corpus = z.strictObject({
  /** Episodes of the training split played for world-model rows (expert and perturbed ones). */
  trainEpisodes: int(1).default(64),
  /** Episodes of the held-out split played for held-out rows (evaluation loss, fidelity, steering). */
  heldoutEpisodes: int(1).default(16),
  /** Held-out split (default: the suite's evaluation split). */
  heldoutSplit: z.string().min(1).optional(),
  /** The paper's length diversification (middle truncation + sub-trajectories) on training rows. */
  diversify: z.boolean().default(false),
  subTrajectoryProb: unit().default(0.15),
  /**
   * World-model row layout (@diffworld/dataset): 'transition', the paper's rows (one per step), or
   * 'episode', one training row per episode with every observation a target. With 'episode' the
   * held-out episodes are expanded into one row per step (each ending on its observation, its
   * prompt the model's inference prompt), diversify does not apply, and rows are not fitted here:
   * the trainer and the world model window long episodes to their latest steps.
   */
  layout: z.enum(WORLD_MODEL_LAYOUTS).default('transition'),
});

/** Sampling as the paper's WM proxy sends it: greedy, repetition penalty 1.3, 256 new tokens, 1 diffusion step. */
const sampling = z.strictObject({
  temperature: z.number().min(0).max(10).default(0),
  topP: unit().default(1),
  repetitionPenalty: z.number().min(0.01).max(10).default(1.3),
  maxNewTokens: int(1).default(256),
  /** bd3 dynamic unmasking threshold. */
  threshold: unit().default(0.85),
});

const worldModel = z.strictObject({
  /** Use this world-model HF directory instead of training one. */
  path: z.string().min(1).optional(),
  /** Use served world models (comma-separated base URLs) instead of a local one; nothing is trained. */
  urls: z.string().trim().min(1).optional(),
  /** Protocol of `urls`: OpenAI chat completions or the paper's proxy route. */
  protocol: z.enum(['openai', 'proxy']).default('openai'),
  /**
   * The trainer's own settings (`wm train --config` reads the same schema). Corpus rows are fitted to
   * train.seqLength (history cut in the middle, or the row dropped), and world-model requests at
   * rollout time to the same budget. repro trains one model per objective and ignores `objective`.
   */
  train: trainConfigSchema.prefault({}),
  /**
   * How a bd3 world model starts: 'ar' (default, SDAR's recipe) trains an ar model first on the same
   * rows with the same settings (its own stage, train-ar) and adapts bd3 from its weights
   * (`wm train --init`); the extra compute is that ar run (the same steps; an ar step passes T tokens
   * a row, bd3's [x_t ; x_0] 2T), and repro's ar model is the same stage, so there it costs nothing. 'scratch' trains bd3 from random weights, as the H200 repro did.
   */
  bd3Init: z.enum(['ar', 'scratch']).default('ar'),
  precision: z.enum(['float32', 'bfloat16', 'float16']).default('float32'),
  sampling: sampling.prefault({}),
  /** Prompts longer than this get an empty answer from the local world model (the reference's SKIPPED_OVERLONG). */
  maxPromptTokens: int(16).default(8192),
  /** The env's deterministic local responder answers the transitions whose outcome is certain (the paper's default). */
  useResponder: z.boolean().default(true),
});

const policy = z.strictObject({
  /** HF config.json fields of the policy (vocab_size is the tokenizer's; the scorer needs an untied lm_head). */
  model: z.record(z.string(), z.unknown()).default({
    model_type: 'qwen3',
    hidden_size: 64,
    intermediate_size: 192,
    num_hidden_layers: 2,
    num_attention_heads: 4,
    num_key_value_heads: 2,
    head_dim: 16,
    max_position_embeddings: 8192,
    rope_theta: 10000,
    rms_norm_eps: 1e-6,
    tie_word_embeddings: false,
  }),
  /**
   * Start from this pretrained checkpoint instead of random `model` weights: a directory (relative to
   * the config file, or absolute) or a Hub model `org/name[@revision]`. Its config and its own
   * tokenizer (which must have <|im_start|> / <|im_end|>) replace `model` and the run's tokenizer.
   */
  init: z.string().min(1).optional(),
  seed: int(0).default(0),
});

const rollout = z.strictObject({
  /** Policy decoding in rollouts and evaluations: a KV cache per episode, or the scorer's window per token. */
  cache: z.enum(['kv', 'none']).default('kv'),
  /** Turns per episode; default: the env's turn limit in the paper's GRPO scripts (EnvSuite.paperMaxTurns). */
  maxTurns: int(1).optional(),
  maxTokensPerTurn: int(1).default(128),
  maxSeqLen: int(16).default(4096),
});

const sft = z.strictObject({
  /** Expert demonstrations (tasks of the training split). */
  demos: int(1).default(64),
  steps: int(0).default(100),
  batch: int(1).default(4),
  lr: z.number().min(0).max(1).default(1e-3),
  /**
   * Learning-rate schedule of SFT (mdlm-core's trainer schedules); absent: constant, no warm-up.
   * 'cosine' warms up over `warmupRatio` of the steps and decays to `minLrRatio` × lr. Optional
   * (no default) so that configs without them keep their stage hashes.
   */
  schedule: z.enum(['constant', 'constant_with_warmup', 'cosine']).optional(),
  warmupRatio: z.number().min(0).max(1).optional(),
  minLrRatio: z.number().min(0).max(1).optional(),
  /**
   * What SFT's next-token loss covers: 'assistant' (absent: the assistant turns only) or 'episode'
   * (every token after the system message — observations and command lists too; grpo's
   * episodeTargets says why a small policy from scratch learns to copy names from that).
   */
  loss: z.enum(['assistant', 'episode']).optional(),
  /** Checkpoint (weights, AdamW moments) every N steps, so a killed SFT resumes; absent: only at the end. */
  saveEvery: int(1).optional(),
  /** MatMul precision of the SFT step ('bfloat16': the trainer's fast step on CUDA; no speed-up on the CPU). */
  precision: z.enum(['float32', 'bfloat16', 'float16']).default('float32'),
});

const evaluation = z.strictObject({
  /** Held-out split (default: the suite's evaluation split). */
  split: z.string().min(1).optional(),
  /** Tasks played per evaluation (a seeded sample of the split). */
  tasks: int(1).default(32),
  /** Policy sampling at evaluation (0 = greedy). */
  temperature: z.number().min(0).max(10).default(0),
  /** Play the games this many at a time, each chunk stored when done (resumable); absent: all at once. */
  chunk: int(1).optional(),
  /**
   * Evaluate on imported real games (`diffworld env import alfworld` output, e.g. the paper's 140
   * eval_in_distribution games) instead of the engine's generated games of the split.
   */
  games: z.string().min(1).optional(),
  /** Evaluate the untrained policy too (absent: yes); off saves a GPU run an evaluation of noise. */
  base: z.boolean().optional(),
});

/** GRPO: the loss's and the trainer's own names (GrpoLossConfig, GrpoConfig), plus the schedule of the stage. */
const grpo = z.strictObject({
  /**
   * Which GRPO runs start from the SFT policy (absent: both): 'world-model' (trains the world model
   * first) and 'real'. Without 'world-model' no world model is trained or loaded; [] stops after SFT.
   */
  arms: z
    .array(z.enum(['world-model', 'real']))
    .refine((a) => new Set(a).size === a.length, 'each arm at most once')
    .optional(),
  steps: int(0).default(20),
  /** Training-split tasks per step; each is played groupSize times. */
  tasksPerStep: int(1).default(2),
  groupSize: int(2).default(8),
  microBatch: int(1).default(8),
  innerEpochs: int(1).default(1),
  lr: z.number().min(0).max(1).default(1e-4),
  /** AdamW weight decay of the policy update; 0 as in TRL's and ms-swift's GRPO, so a step without signal moves nothing. */
  weightDecay: z.number().min(0).max(1).default(0),
  clipNorm: z.number().min(0).default(0.5),
  beta: z.number().min(0).max(100).default(0.1),
  epsilon: unit().default(0.2),
  epsilonHigh: z.number().min(0).max(10).optional(),
  aggregation: z.enum(['grpo', 'dapo', 'dr_grpo']).default('grpo'),
  scaleRewards: z.enum(['group', 'batch', 'none']).default('group'),
  /** Rollout sampling temperature, which is also the loss's (else the ratio to the old policy is biased). */
  temperature: z.number().min(0.01).max(10).default(0.9),
  topP: unit().default(0.95),
  /**
   * DAPO's dynamic sampling: refill rounds per step in which groups without reward variance are
   * replaced by fresh tasks' groups (0: off; such groups then carry no gradient, and a step with none
   * usable changes no weight).
   */
  dynamicSampling: int(0).default(0),
  /** Real-engine evaluation every N steps (0: only at the end). */
  evalEvery: int(0).default(10),
  /** Checkpoint every N steps. */
  saveEvery: int(1).default(5),
});

const fidelity = z.strictObject({
  /** Held-out rows generated and scored. */
  rows: int(2).default(32),
  /** Samples per prompt (diversity among samples needs ≥ 2). */
  samples: int(2).default(4),
  temperature: z.number().min(0.01).max(10).default(1),
  maxNewTokens: int(1).default(128),
  batchSize: int(1).default(8),
  mauveDims: int(2).default(64),
});

const steering = z
  .strictObject({
    /** Held-out rows whose reference fits in maxNewTokens. */
    rows: int(1).default(16),
    /** Tokens of each anchored field (the reference's opening status tokens and its closing tokens). */
    anchorTokens: int(1).default(3),
    maxNewTokens: int(1).default(64),
    temperature: z.number().min(0).max(10).default(1),
  })
  .refine((s) => s.maxNewTokens > 2 * s.anchorTokens, { path: ['maxNewTokens'], message: 'must be more than 2 × anchorTokens' });

const replay = z.strictObject({
  /** Held-out tasks whose expert actions are played in each world model and in the real engine. */
  tasks: int(1).default(8),
  /** Transitions per task at most. */
  maxSteps: int(1).default(10),
  maxNewTokens: int(1).default(128),
});

export const experimentSchema = z
  .strictObject({
    env: z.enum(ENV_NAMES),
    /** Task sampling, corpus episodes, SFT data order, GRPO task streams. */
    seed: int(0).default(0),
    /** repro's RQ2: one pipeline per seed (≥ 3 for an interval over seeds). */
    seeds: z
      .array(int(0))
      .min(1)
      .refine((s) => new Set(s).size === s.length, 'must not repeat a seed')
      .default([0, 1, 2]),
    /** ONNX Runtime provider of every graph (default: the runtime's cuda → webgpu → cpu probe). */
    provider: z.enum(PROVIDERS).optional(),
    /**
     * Peak memory the training graphs may take (GB); a config whose estimate is over it is refused
     * before any work. Default: 75 % of RAM on the CPU provider, no check on others.
     */
    memoryBudgetGB: z.number().min(0.1).max(1e6).optional(),
    /** Real-engine env steps in a piscina pool of this many worker threads (1: in the main thread). */
    envWorkers: int(1).default(1),
    tokenizer: tokenizer.prefault({}),
    corpus: corpus.prefault({}),
    worldModel: worldModel.prefault({}),
    policy: policy.prefault({}),
    rollout: rollout.prefault({}),
    sft: sft.prefault({}),
    eval: evaluation.prefault({}),
    grpo: grpo.prefault({}),
    fidelity: fidelity.prefault({}),
    steering: steering.prefault({}),
    replay: replay.prefault({}),
  })
  // The env's own turn limit where the file names none: a fact the suite owns, not a default here.
  .transform((c) => ({ ...c, rollout: { ...c.rollout, maxTurns: c.rollout.maxTurns ?? ENV_SUITES[c.env].paperMaxTurns } }));

export type ExperimentConfig = z.output<typeof experimentSchema>;
export type WorldModelSettings = ExperimentConfig['worldModel'];
export type WorldModelSampling = WorldModelSettings['sampling'];
export type GrpoSettings = ExperimentConfig['grpo'];
export type SteeringSettings = ExperimentConfig['steering'];
