// The GRPO update loop: roll out G episodes per task with the current policy, score them,
// compute group-relative advantages, store the old log-probs (and the frozen reference policy's),
// then μ inner epochs — each one optimizer step whose gradient is accumulated over micro-batches
// with the whole batch's normaliser. Metrics per step as TRL / ms-swift log them.
import { Rng } from '@diffworld/dataset';
import type { TaskRef, TextEnv } from '@diffworld/env-core';
import { type AdamWConfig, type ProviderName, type Schedule, type TokenSampling, type TransformerConfig, checkTokenSampling, transformerParams } from '@diffworld/mdlm-core';
import { type ScaleRewards, groupAdvantages } from './advantages.js';
import { cachedPolicy } from './cached-policy.js';
import { type GrpoRow, packGrpo } from './batch.js';
import { GrpoError } from './errors.js';
import { type GrpoLossConfig, grpoBatchSpec, grpoLoss, grpoOutputs, lossNormalizer, validateLossConfig } from './loss.js';
import { type Episode, type RolloutJob, type RolloutLimits, type TurnCodec, rollout, scorerPolicy } from './rollout.js';
import { type FloatArray, type ParamValues, PolicyScorer } from './score.js';
import { GraphUpdater, type UpdateResult } from './updater.js';

export interface GrpoConfig {
  model: TransformerConfig;
  loss: GrpoLossConfig;
  /** G: episodes per task (≥ 2). */
  groupSize: number;
  /** Rows per grad-graph run and per scorer run. */
  microBatch: number;
  /** μ: optimizer steps on each batch of rollouts, against the stored old log-probs. */
  innerEpochs: number;
  scaleRewards: ScaleRewards;
  limits: RolloutLimits;
  /** Rollout sampling; its temperature must equal loss.temperature (else ρ is biased). */
  sampling: TokenSampling;
  /** Dr. GRPO's L; defaults to limits.maxSeqLen. */
  maxCompletionLength?: number;
  optimizer?: Partial<AdamWConfig>;
  clipNorm?: number;
  schedule?: Schedule;
  dtype?: 'float32' | 'float64';
  provider?: ProviderName;
  /** Rollout decoding: 'none' (default) re-runs the scorer's window per token; 'kv' keeps a KV cache per episode. */
  rolloutCache?: 'kv' | 'none';
  /**
   * The reward of a finished episode, replacing the env's own (e.g. the paper's reward functions over
   * the message list, as ms-swift's ORMs compute them after the rollout); absent: the env's reward.
   */
  reward?: (episode: Episode) => number;
}

/**
 * DAPO's dynamic sampling: groups whose rewards are all equal carry no signal, so they are dropped
 * and fresh groups rolled out in their place, up to `maxRounds` extra rounds.
 */
export interface DynamicSampling {
  /** Jobs of fresh groups for refill round `round` (1, 2, …); their envs are closed by the trainer. */
  more(round: number): RolloutJob[];
  maxRounds: number;
}

export interface UpdateMetrics {
  loss: number;
  gradNorm: number;
  lr: number;
  /** Shares of mask tokens in TRL's clip regions (low: ρ < 1−ε_low, Â < 0; high: ρ > 1+ε_high, Â > 0). */
  clipLow: number;
  clipHigh: number;
  clipRatio: number;
  /** Mean k3 KL to the reference policy over mask tokens (NaN when β = 0). */
  kl: number;
  entropy: number;
  ratioMean: number;
  optimizerSteps: number;
  updateMs: number;
}

export interface GrpoStepMetrics extends UpdateMetrics {
  step: number;
  episodes: number;
  rewardMean: number;
  rewardStd: number;
  zeroStdShare: number;
  /** Share of episodes the env counted as won. */
  success: number;
  /** Mean policy tokens and turns per episode. */
  policyTokens: number;
  turns: number;
  truncated: number;
  /** Policy tokens generated per second of rollout. */
  tokensPerSec: number;
  rolloutMs: number;
  /** Groups with reward variance that the update used (with dynamic sampling: after refills). */
  usableGroups: number;
  /** Refill rounds dynamic sampling rolled out (0 without it). */
  refillRounds: number;
  /** True when no group had reward variance: the step changed no weight (the update was skipped). */
  skipped: boolean;
}

function validate(c: GrpoConfig): void {
  validateLossConfig(c.loss);
  checkTokenSampling(c.sampling, 'GRPO sampling');
  const bad = (what: string) => {
    throw new GrpoError('bad_config', `GRPO config: ${what}`);
  };
  if (!Number.isInteger(c.groupSize) || c.groupSize < 2) bad(`groupSize must be an integer ≥ 2 (GRPO needs at least 2 generations per prompt), got ${c.groupSize}`);
  if (!Number.isInteger(c.microBatch) || c.microBatch < 1) bad(`microBatch must be a positive integer, got ${c.microBatch}`);
  if (!Number.isInteger(c.innerEpochs) || c.innerEpochs < 1) bad(`innerEpochs must be a positive integer, got ${c.innerEpochs}`);
  if (c.sampling.temperature !== c.loss.temperature)
    bad(`sampling temperature ${c.sampling.temperature} differs from the loss temperature ${c.loss.temperature}; the ratio to the old policy would be biased`);
}

const tokenWeighted = (rs: UpdateResult[], key: string): number => {
  let num = 0;
  let den = 0;
  for (const r of rs)
    for (const m of r.micro) {
      const n = m.outputs[grpoOutputs.tokens] ?? 0;
      num += (m.outputs[key] ?? Number.NaN) * n;
      den += n;
    }
  return den === 0 ? 0 : num / den;
};

export interface GrpoTrainerState {
  /** GRPO steps done. */
  step: number;
  nextOptimizerStep: number;
  /** Parameters and AdamW moments by graph name (`adam_m.<p>`, `adam_v.<p>`). */
  optimizer: Record<string, FloatArray>;
  reference?: Record<string, FloatArray>;
}

export class GrpoTrainer {
  private stepNo = 0;

  private constructor(
    readonly config: GrpoConfig,
    readonly updater: GraphUpdater,
    readonly scorer: PolicyScorer,
    private readonly reference: ParamValues | undefined,
  ) {}

  /** `init`: starting weights (e.g. the SFT policy); the reference policy defaults to a frozen copy of them. */
  static async create(config: GrpoConfig, init: ParamValues, opts: { reference?: ParamValues; startStep?: number } = {}): Promise<GrpoTrainer> {
    validate(config);
    const dtype = config.dtype ?? 'float32';
    const t = config.limits.maxSeqLen;
    const provider = config.provider ? { provider: config.provider } : {};
    const updater = await GraphUpdater.create(
      {
        params: transformerParams(config.model),
        batch: grpoBatchSpec(config.microBatch, t, config.loss, dtype),
        loss: grpoLoss(config.model, config.loss),
        dtype,
        ...(config.optimizer ? { optimizer: config.optimizer } : {}),
        ...(config.clipNorm !== undefined ? { clipNorm: config.clipNorm } : {}),
      },
      init,
      { ...provider, ...(config.schedule ? { schedule: config.schedule } : {}), ...(opts.startStep ? { startStep: opts.startStep } : {}), label: 'GRPO' },
    );
    const scorer = await PolicyScorer.create(config.model, { batch: config.microBatch, seqLen: t, temperature: config.loss.temperature, dtype, ...provider });
    const reference = config.loss.beta > 0 ? (opts.reference ?? Object.fromEntries(Object.entries(init).map(([k, v]) => [k, v.slice()]))) : undefined;
    return new GrpoTrainer(config, updater, scorer, reference);
  }

  params(): Record<string, FloatArray> {
    return this.updater.params();
  }

  /** Everything a checkpoint needs to resume exactly: weights, moments, step counters, reference. */
  state(): GrpoTrainerState {
    return {
      step: this.stepNo,
      nextOptimizerStep: this.updater.nextStep,
      optimizer: Object.fromEntries(Object.entries(this.updater.optimizerState()).map(([k, v]) => [k, v.slice()])),
      ...(this.reference ? { reference: Object.fromEntries(Object.entries(this.reference).map(([k, v]) => [k, v.slice()])) } : {}),
    };
  }

  /** Continues from a saved state (same config). */
  restore(s: GrpoTrainerState): void {
    if (!Number.isInteger(s.step) || s.step < 0) throw new GrpoError('bad_config', `GRPO restore: step must be an integer ≥ 0, got ${s.step}`);
    if (this.reference && !s.reference) throw new GrpoError('bad_config', 'GRPO restore: β > 0 but the saved state has no reference weights');
    this.updater.restore(s.optimizer, s.nextOptimizerStep);
    if (this.reference && s.reference) for (const [k, v] of Object.entries(s.reference)) (this.reference as Record<string, FloatArray>)[k] = v.slice();
    this.stepNo = s.step;
  }

  /** G jobs per task, each with its own env (from `makeEnv`) and random stream. */
  jobsFor(tasks: readonly TaskRef[], makeEnv: () => TextEnv, rng: Rng): RolloutJob[] {
    const step = this.stepNo;
    return tasks.flatMap((task, ti) =>
      Array.from({ length: this.config.groupSize }, (_, k) => ({ task, groupId: `${step}:${ti}:${task.id}`, env: makeEnv(), rng: rng.fork(`${step}:${ti}:${k}`), seed: task.seed })),
    );
  }

  /** Rollouts with the current weights (KV-cached decoding when `rolloutCache` is 'kv'), rewarded by `config.reward` when given. */
  async collect(jobs: readonly RolloutJob[], codec: TurnCodec): Promise<Episode[]> {
    const episodes = await this.play(jobs, codec);
    const reward = this.config.reward;
    if (reward) for (const e of episodes) e.reward = reward(e);
    return episodes;
  }

  private async play(jobs: readonly RolloutJob[], codec: TurnCodec): Promise<Episode[]> {
    if (this.config.rolloutCache !== 'kv') return rollout(scorerPolicy(this.scorer, this.params()), jobs, codec, this.config.limits, this.config.sampling);
    const policy = await cachedPolicy(this.config.model, this.params(), Math.max(1, jobs.length), this.config.provider ? { provider: this.config.provider } : {});
    try {
      return await rollout(policy, jobs, codec, this.config.limits, this.config.sampling);
    } finally {
      await policy.close();
    }
  }

  private async scoreAll(params: ParamValues, episodes: readonly Episode[]): Promise<Float64Array[]> {
    const out: Float64Array[] = [];
    for (let i = 0; i < episodes.length; i += this.config.microBatch)
      out.push(
        ...(await this.scorer.logProbs(
          params,
          episodes.slice(i, i + this.config.microBatch).map((e) => e.ids),
        )),
      );
    return out;
  }

  /** μ optimizer steps on a batch of scored episodes with the given advantages. */
  async update(episodes: readonly Episode[], advantages: ArrayLike<number>): Promise<UpdateMetrics> {
    const c = this.config;
    const t0 = performance.now();
    const dtype = c.dtype ?? 'float32';
    const old = await this.scoreAll(this.params(), episodes);
    const ref = this.reference ? await this.scoreAll(this.reference, episodes) : undefined;
    const rows: GrpoRow[] = episodes.map((e, i) => ({ ids: e.ids, lossMask: e.lossMask, advantage: advantages[i]!, oldLogp: old[i]!, ...(ref ? { refLogp: ref[i]! } : {}) }));
    const maskTokens = episodes.reduce((a, e) => a + e.policyTokens, 0);
    const norm = lossNormalizer(c.loss.aggregation, episodes.length, maskTokens, c.maxCompletionLength ?? c.limits.maxSeqLen);
    const micro = [];
    for (let i = 0; i < rows.length; i += c.microBatch)
      micro.push(packGrpo(rows.slice(i, i + c.microBatch), c.microBatch, c.limits.maxSeqLen, { dtype, norm, temperature: c.loss.temperature, withRef: ref !== undefined }));
    const results: UpdateResult[] = [];
    for (let e = 0; e < c.innerEpochs; e++) results.push(await this.updater.step(micro));
    const last = results[results.length - 1]!;
    const clipLow = tokenWeighted(results, grpoOutputs.clipLow);
    const clipHigh = tokenWeighted(results, grpoOutputs.clipHigh);
    return {
      loss: results.reduce((a, r) => a + r.loss, 0) / results.length,
      gradNorm: last.gradNorm,
      lr: last.lr,
      clipLow,
      clipHigh,
      clipRatio: clipLow + clipHigh,
      kl: ref ? tokenWeighted(results, grpoOutputs.kl) : Number.NaN,
      entropy: tokenWeighted(results, grpoOutputs.entropy),
      ratioMean: tokenWeighted(results, grpoOutputs.ratioMean),
      optimizerSteps: results.length,
      updateMs: performance.now() - t0,
    };
  }

  /**
   * One GRPO step: rollouts for every job, advantages within groups, μ updates; returns the step's
   * metrics. With `dynamic`, groups without reward variance are replaced by fresh ones (DAPO). A step
   * where no group has reward variance changes no weight: all advantages are 0, and AdamW would still
   * move the weights (weight decay, the KL term scaled up by the moments), so the update is skipped.
   */
  async step(jobs: readonly RolloutJob[], codec: TurnCodec, dynamic?: DynamicSampling): Promise<GrpoStepMetrics> {
    const r0 = performance.now();
    const played = await this.collect(jobs, codec);
    const groupCount = new Set(played.map((e) => e.groupId)).size;
    let kept = dynamic ? usableGroups(played) : played;
    let refillRounds = 0;
    while (dynamic && new Set(kept.map((e) => e.groupId)).size < groupCount && refillRounds < dynamic.maxRounds) {
      refillRounds++;
      const extra = dynamic.more(refillRounds);
      const more = await this.collect(extra, codec);
      await Promise.all(extra.map((j) => j.env.close?.()));
      played.push(...more);
      kept = [...kept, ...usableGroups(more)];
    }
    if (dynamic) kept = firstGroups(kept, groupCount);
    return this.stepOn(played, kept, performance.now() - r0, refillRounds);
  }

  /** The update half: advantages of `kept` (all played episodes, or the usable groups), metrics of all played. */
  private async stepOn(played: readonly Episode[], kept: readonly Episode[], rolloutMs: number, refillRounds: number): Promise<GrpoStepMetrics> {
    const all = groupAdvantages(
      played.map((e) => e.reward),
      played.map((e) => e.groupId),
      this.config.scaleRewards,
    );
    const usable = new Set(usableGroups(kept).map((e) => e.groupId)).size;
    const skipped = usable === 0;
    const adv =
      kept === played
        ? all
        : kept.length > 0
          ? groupAdvantages(
              kept.map((e) => e.reward),
              kept.map((e) => e.groupId),
              this.config.scaleRewards,
            )
          : undefined;
    const upd = skipped || !adv ? this.skippedUpdate() : await this.update(kept, adv.advantages);
    const n = played.length;
    const tokens = played.reduce((a, e) => a + e.policyTokens, 0);
    return {
      step: ++this.stepNo,
      episodes: n,
      rewardMean: all.rewardMean,
      rewardStd: all.rewardStd,
      zeroStdShare: all.zeroStdShare,
      success: played.filter((e) => e.won).length / n,
      policyTokens: tokens / n,
      turns: played.reduce((a, e) => a + e.turns, 0) / n,
      truncated: played.filter((e) => e.truncated).length / n,
      tokensPerSec: tokens / (rolloutMs / 1000),
      rolloutMs,
      usableGroups: usable,
      refillRounds,
      skipped,
      ...upd,
    };
  }

  /** The metrics of an update that did not run (no group with reward variance). */
  private skippedUpdate(): UpdateMetrics {
    return { loss: Number.NaN, gradNorm: 0, lr: Number.NaN, clipLow: 0, clipHigh: 0, clipRatio: 0, kl: Number.NaN, entropy: Number.NaN, ratioMean: Number.NaN, optimizerSteps: 0, updateMs: 0 };
  }
}

/** The episodes of groups whose rewards are not all equal. */
function usableGroups(episodes: readonly Episode[]): Episode[] {
  const rewards = new Map<string, Set<number>>();
  for (const e of episodes) {
    const r = rewards.get(e.groupId) ?? new Set<number>();
    r.add(e.reward);
    rewards.set(e.groupId, r);
  }
  return episodes.filter((e) => rewards.get(e.groupId)!.size > 1);
}

/** The episodes of the first `n` groups, in order of first appearance. */
function firstGroups(episodes: readonly Episode[], n: number): Episode[] {
  const order: string[] = [];
  for (const e of episodes) if (!order.includes(e.groupId)) order.push(e.groupId);
  const keep = new Set(order.slice(0, n));
  return episodes.filter((e) => keep.has(e.groupId));
}
