// The runner's settings: one JSON file per environment and size, with the paper's values
// (upstream-paper-repo.md §4.1–4.2) as defaults where they apply. Defaults ← file ← overrides;
// every section is checked here, unknown keys are refused, so a typo fails before hours of work.
import { envSuite } from '@diffworld/envs';
import type { TrainConfig } from '@diffworld/mdlm-core';
import { GrpoError } from '../errors.js';
import type { LossAggregation } from '../loss.js';
import type { ScaleRewards } from '../advantages.js';

export interface TokenizerStage {
  /** Use this tokenizer.json (relative to the config file's directory or absolute) instead of training one. */
  path?: string;
  vocabSize: number;
  /** Corpus episodes the tokenizer is trained on (from the env's training split). */
  episodes: number;
}

export interface WorldModelStage {
  /** Use this world-model HF directory instead of training one. */
  path?: string;
  /** Use a served world model (comma-separated base URLs) instead of a local one; nothing is trained. */
  urls?: string;
  /** Protocol of `urls`: 'openai' chat completions (default) or the paper's 'proxy' route. */
  protocol?: 'openai' | 'proxy';
  /** Corpus episodes played for the world model's training rows. */
  episodes: number;
  /** Rows longer than this many tokens are cut in the middle of their history (dataset's truncateMiddle). */
  maxRowTokens: number;
  /** Settings for mdlm-core's trainWorldModel (objective bd3 by default). */
  train: Partial<TrainConfig>;
  /** Sampling as the paper's WM proxy sends it: temperature 0, repetition penalty 1.3, max_tokens 256, 1 diffusion step. */
  sampling: { temperature: number; topP: number; repetitionPenalty: number; maxNewTokens: number; threshold: number };
  /** Prompts longer than this get an empty answer from the local world model (the reference's SKIPPED_OVERLONG). */
  maxPromptTokens: number;
}

export interface PolicyStage {
  /** HF config.json fields of the policy (vocab_size is the tokenizer's; the scorer needs an untied lm_head). */
  model: Record<string, unknown>;
  seed: number;
}

export interface SftStage {
  /** Expert demonstrations (tasks of the training split). */
  demos: number;
  steps: number;
  batch: number;
  lr: number;
  /** Checkpoint (weights, AdamW moments, data order) every N steps, so a killed SFT resumes; absent: none. */
  saveEvery?: number;
}

export interface EvalStage {
  /** Held-out split (default: the suite's evaluation split). */
  split?: string;
  /** Tasks played per evaluation (a seeded sample of the split). */
  tasks: number;
  /** Policy sampling at evaluation (0 = greedy). */
  temperature: number;
  /** Play the games this many at a time, each chunk stored when done (resumable); absent: all at once. */
  chunk?: number;
}

export interface GrpoStage {
  steps: number;
  /** Training-split tasks per step; each is played groupSize times. */
  tasksPerStep: number;
  groupSize: number;
  microBatch: number;
  innerEpochs: number;
  lr: number;
  beta: number;
  epsilon: number;
  epsilonHigh?: number;
  aggregation: LossAggregation;
  scaleRewards: ScaleRewards;
  temperature: number;
  topP: number;
  maxGradNorm: number;
  /** Real-engine evaluation every N steps (0: only at the end). */
  evalEvery: number;
  /** Checkpoint every N steps. */
  saveEvery: number;
}

export interface RolloutStage {
  /** Policy decoding in rollouts and evaluations: 'kv' (a KV cache per episode) or 'none' (the scorer's window per token). */
  cache: 'kv' | 'none';
  maxTurns: number;
  maxTokensPerTurn: number;
  maxSeqLen: number;
}

export interface PipelineConfig {
  env: string;
  seed: number;
  /** ONNX Runtime provider (cpu, cuda, webgpu…). */
  provider?: string;
  /**
   * Peak memory the training graphs may take (GB); a config whose estimate is over it is refused
   * before any work. Default: 75 % of RAM on the CPU provider, no check on others.
   */
  memoryBudgetGB?: number;
  /** Real-engine env steps in a piscina pool of this many worker threads (1: in the main thread). */
  envWorkers?: number;
  tokenizer: TokenizerStage;
  worldModel: WorldModelStage;
  policy: PolicyStage;
  rollout: RolloutStage;
  sft: SftStage;
  eval: EvalStage;
  grpo: GrpoStage;
}

export function defaultPipelineConfig(env: string): PipelineConfig {
  return {
    env,
    seed: 0,
    tokenizer: { vocabSize: 2048, episodes: 64 },
    worldModel: {
      episodes: 64,
      maxRowTokens: 2048,
      train: { objective: 'bd3', steps: 200, seqLength: 2048, batchSize: 2, saveEvery: 50, evalEvery: 0, logEvery: 10 },
      sampling: { temperature: 0, topP: 1, repetitionPenalty: 1.3, maxNewTokens: 256, threshold: 0.85 },
      maxPromptTokens: 8192,
    },
    policy: {
      model: {
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
      },
      seed: 0,
    },
    rollout: { cache: 'kv', maxTurns: envSuite(env).paperMaxTurns, maxTokensPerTurn: 128, maxSeqLen: 4096 },
    sft: { demos: 64, steps: 100, batch: 4, lr: 1e-3 },
    eval: { tasks: 32, temperature: 0 },
    grpo: {
      steps: 20,
      tasksPerStep: 2,
      groupSize: 8,
      microBatch: 8,
      innerEpochs: 1,
      lr: 1e-4,
      beta: 0.1,
      epsilon: 0.2,
      aggregation: 'grpo',
      scaleRewards: 'group',
      temperature: 0.9,
      topP: 0.95,
      maxGradNorm: 0.5,
      evalEvery: 10,
      saveEvery: 5,
    },
  };
}

const SECTIONS = ['tokenizer', 'worldModel', 'policy', 'rollout', 'sft', 'eval', 'grpo'] as const;
const TOP = ['env', 'seed', 'provider', 'memoryBudgetGB', 'envWorkers', ...SECTIONS];

const fail = (where: string, what: string): never => {
  throw new GrpoError('bad_config', `${where}: ${what}`);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Defaults ← file ← overrides, section by section; unknown keys and bad values throw GrpoError naming the field. */
export function resolvePipelineConfig(file: unknown, where = 'pipeline config', overrides: { env?: string } = {}): PipelineConfig {
  if (!isObject(file)) fail(where, 'must be a JSON object');
  const given = file as Record<string, unknown>;
  for (const k of Object.keys(given)) if (!TOP.includes(k)) fail(where, `unknown setting "${k}"; known: ${TOP.join(', ')}`);
  const env = overrides.env ?? given['env'];
  if (typeof env !== 'string' || env === '') fail(where, 'env must name an environment (alfworld, sciworld, appworld)');
  if (overrides.env && given['env'] !== undefined && given['env'] !== overrides.env) fail(where, `the file is for env "${String(given['env'])}", not "${overrides.env}"`);
  const d = defaultPipelineConfig(env as string);
  const out = { ...d, env: env as string } as unknown as Record<string, unknown>;
  if (given['seed'] !== undefined) out['seed'] = given['seed'];
  for (const k of ['provider', 'memoryBudgetGB', 'envWorkers'] as const) if (given[k] !== undefined) out[k] = given[k];
  for (const s of SECTIONS) {
    const g = given[s];
    if (g === undefined) continue;
    if (!isObject(g)) fail(`${where}.${s}`, 'must be an object');
    const base = d[s] as unknown as Record<string, unknown>;
    const known = new Set([...Object.keys(base), ...OPTIONAL[s]]);
    for (const k of Object.keys(g as object)) if (!known.has(k)) fail(`${where}.${s}`, `unknown setting "${k}"; known: ${[...known].join(', ')}`);
    // Nested objects (worldModel.train, worldModel.sampling) merge one level deeper; model configs are replaced whole.
    const merged: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(g as object)) merged[k] = k !== 'model' && isObject(base[k]) && isObject(v) ? { ...(base[k] as object), ...v } : v;
    out[s] = merged;
  }
  const c = out as unknown as PipelineConfig;
  checkValues(c, where);
  return c;
}

const OPTIONAL: Record<(typeof SECTIONS)[number], string[]> = {
  tokenizer: ['path'],
  worldModel: ['path', 'urls', 'protocol'],
  policy: [],
  rollout: [],
  sft: ['saveEvery'],
  eval: ['split', 'chunk'],
  grpo: ['epsilonHigh'],
};

function checkValues(c: PipelineConfig, where: string): void {
  const int = (v: unknown, path: string, min: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) fail(`${where}.${path}`, `must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  };
  const num = (v: unknown, path: string, lo: number, hi: number) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) fail(`${where}.${path}`, `must be a number in [${lo}, ${hi}], got ${JSON.stringify(v)}`);
  };
  int(c.seed, 'seed', 0);
  if (c.memoryBudgetGB !== undefined) num(c.memoryBudgetGB, 'memoryBudgetGB', 0.1, 1e6);
  if (c.envWorkers !== undefined) int(c.envWorkers, 'envWorkers', 1);
  int(c.tokenizer.vocabSize, 'tokenizer.vocabSize', 300);
  int(c.tokenizer.episodes, 'tokenizer.episodes', 1);
  int(c.worldModel.episodes, 'worldModel.episodes', 1);
  int(c.worldModel.maxRowTokens, 'worldModel.maxRowTokens', 16);
  int(c.worldModel.maxPromptTokens, 'worldModel.maxPromptTokens', 16);
  if (c.worldModel.urls !== undefined && (typeof c.worldModel.urls !== 'string' || c.worldModel.urls.trim() === '')) fail(`${where}.worldModel.urls`, 'must be comma-separated base URLs');
  if (c.worldModel.protocol !== undefined && c.worldModel.protocol !== 'openai' && c.worldModel.protocol !== 'proxy')
    fail(`${where}.worldModel.protocol`, `must be openai or proxy, got ${JSON.stringify(c.worldModel.protocol)}`);
  int(c.worldModel.sampling.maxNewTokens, 'worldModel.sampling.maxNewTokens', 1);
  num(c.worldModel.sampling.temperature, 'worldModel.sampling.temperature', 0, 10);
  num(c.worldModel.sampling.topP, 'worldModel.sampling.topP', 0, 1);
  num(c.worldModel.sampling.repetitionPenalty, 'worldModel.sampling.repetitionPenalty', 0.01, 10);
  num(c.worldModel.sampling.threshold, 'worldModel.sampling.threshold', 0, 1);
  if (!isObject(c.policy.model)) fail(`${where}.policy.model`, 'must be a config.json object');
  int(c.policy.seed, 'policy.seed', 0);
  if (c.rollout.cache !== 'kv' && c.rollout.cache !== 'none') fail(`${where}.rollout.cache`, `must be kv or none, got ${JSON.stringify(c.rollout.cache)}`);
  int(c.rollout.maxTurns, 'rollout.maxTurns', 1);
  int(c.rollout.maxTokensPerTurn, 'rollout.maxTokensPerTurn', 1);
  int(c.rollout.maxSeqLen, 'rollout.maxSeqLen', 16);
  int(c.sft.demos, 'sft.demos', 1);
  int(c.sft.steps, 'sft.steps', 0);
  int(c.sft.batch, 'sft.batch', 1);
  num(c.sft.lr, 'sft.lr', 0, 1);
  if (c.sft.saveEvery !== undefined) int(c.sft.saveEvery, 'sft.saveEvery', 1);
  int(c.eval.tasks, 'eval.tasks', 1);
  num(c.eval.temperature, 'eval.temperature', 0, 10);
  if (c.eval.chunk !== undefined) int(c.eval.chunk, 'eval.chunk', 1);
  const g = c.grpo;
  int(g.steps, 'grpo.steps', 0);
  int(g.tasksPerStep, 'grpo.tasksPerStep', 1);
  int(g.groupSize, 'grpo.groupSize', 2);
  int(g.microBatch, 'grpo.microBatch', 1);
  int(g.innerEpochs, 'grpo.innerEpochs', 1);
  int(g.evalEvery, 'grpo.evalEvery', 0);
  int(g.saveEvery, 'grpo.saveEvery', 1);
  num(g.lr, 'grpo.lr', 0, 1);
  num(g.beta, 'grpo.beta', 0, 100);
  num(g.epsilon, 'grpo.epsilon', 0, 1);
  if (g.epsilonHigh !== undefined) num(g.epsilonHigh, 'grpo.epsilonHigh', 0, 10);
  num(g.temperature, 'grpo.temperature', 0.01, 10);
  num(g.topP, 'grpo.topP', 0, 1);
  num(g.maxGradNorm, 'grpo.maxGradNorm', 0, Infinity);
  if (!['grpo', 'dapo', 'dr_grpo'].includes(g.aggregation)) fail(`${where}.grpo.aggregation`, `must be grpo, dapo or dr_grpo, got ${JSON.stringify(g.aggregation)}`);
  if (!['group', 'batch', 'none'].includes(g.scaleRewards)) fail(`${where}.grpo.scaleRewards`, `must be group, batch or none, got ${JSON.stringify(g.scaleRewards)}`);
}
