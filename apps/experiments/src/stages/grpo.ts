// GRPO from the SFT policy against one rollout source — the real engine or a world model (with or
// without the env's local responder) — for grpo.steps steps of grpo.tasksPerStep tasks × groupSize
// rollouts, rewarded by the suite's reward over each episode's messages. Checkpoints every
// grpo.saveEvery steps (weights, AdamW moments, step counters), a real-engine evaluation every
// grpo.evalEvery steps (stored in the stage's evals/), so a killed stage resumes where it stopped.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import type { TaskRef } from '@diffworld/env-core';
import { type GrpoConfig, type GrpoStepMetrics, GrpoTrainer, type RolloutSource, type TransitionCounts, loadPolicy, savePolicy, worldModelSource } from '@diffworld/grpo';
import { checkpointDirName, constantWithWarmup, latestCheckpoint, pruneCheckpoints } from '@diffworld/mdlm-core';
import { openWorldModel } from '../world-model.js';
import { type ExperimentContext, fmt } from './context.js';
import { playEvaluation } from './evaluate.js';
import type { PolicyArtefact, PolicySetup } from './policy.js';
import type { WorldModelArtefact } from './world-model.js';

export type GrpoSource = { kind: 'real' } | { kind: 'world-model'; model: WorldModelArtefact };

export interface GrpoResult {
  steps: number;
  /** Steps whose groups all had zero reward variance (their update was skipped). */
  skippedSteps: number;
  /** Mean over steps of the share of groups with zero reward variance. */
  zeroStdShare: number;
  rewardMean: number;
  success: number;
  /** Real-engine success of the periodic evaluations, by step. */
  periodic: { step: number; success: number; episodes: number }[];
  /** World-model sources: the share of the rollouts' transitions the world model itself answered (the env's local responder answered the rest). */
  worldModelShare?: number;
}

/** What a step's record adds to the trainer's metrics: the transitions it played, for world-model sources. */
type StepRecord = GrpoStepMetrics & { transitions?: number; worldModelAnswers?: number };

/** The trainer's settings from the config's grpo and rollout sections (the same names). */
export function grpoTrainerConfig(ctx: ExperimentContext, setup: PolicySetup): GrpoConfig {
  const c = ctx.config;
  const g = c.grpo;
  const system = ctx.suite.agent.system();
  return {
    model: setup.model,
    loss: { epsilon: g.epsilon, ...(g.epsilonHigh === undefined ? {} : { epsilonHigh: g.epsilonHigh }), beta: g.beta, aggregation: g.aggregation, temperature: g.temperature },
    groupSize: g.groupSize,
    microBatch: g.microBatch,
    innerEpochs: g.innerEpochs,
    scaleRewards: g.scaleRewards,
    limits: c.rollout,
    sampling: { temperature: g.temperature, topP: g.topP },
    clipNorm: g.clipNorm,
    optimizer: { weightDecay: g.weightDecay },
    // ms-swift: constant schedule after a 5 % warmup.
    schedule: constantWithWarmup(g.lr, Math.round(0.05 * g.steps)),
    rolloutCache: c.rollout.cache,
    // The paper's reward functions, over the harness conversation (ms-swift's ORMs, after the rollout).
    reward: (e) => ctx.suite.reward([{ role: 'system', content: system }, ...e.messages], e.task),
    ...ctx.providerOption,
  };
}

async function sourceOf(ctx: ExperimentContext, source: GrpoSource): Promise<RolloutSource & { counts?: TransitionCounts }> {
  if (source.kind === 'real') return ctx.realSource();
  const w = ctx.config.worldModel;
  return worldModelSource(ctx.suite, await openWorldModel(ctx.config.env, source.model.spec, w.sampling), { useResponder: w.useResponder });
}

export async function grpoStage(ctx: ExperimentContext, setup: PolicySetup, sft: PolicyArtefact, source: GrpoSource): Promise<PolicyArtefact> {
  const c = ctx.config;
  const name = source.kind === 'real' ? 'grpo-real' : 'grpo-world-model';
  const w = c.worldModel;
  // Which arms run does not change how this arm trains (nor does eval.base: ctx.evalInputs).
  const { arms: _, ...grpo } = c.grpo;
  const inputs = {
    sft: sft.ref,
    env: c.env,
    seed: c.seed,
    grpo,
    rollout: c.rollout,
    eval: ctx.evalInputs,
    provider: c.provider ?? null,
    source: source.kind === 'real' ? 'real' : { model: source.model.ref, sampling: w.sampling, useResponder: w.useResponder, maxPromptTokens: w.maxPromptTokens },
  };
  const s = await ctx.runner.run(name, inputs, async (dir) => {
    const src = await sourceOf(ctx, source);
    const init = await sft.params();
    const trainer = await GrpoTrainer.create(grpoTrainerConfig(ctx, setup), init, { reference: init });
    const evalDir = join(dir, 'evals');
    mkdirSync(evalDir, { recursive: true });
    const periodic: GrpoResult['periodic'] = [];
    const evaluateAt = async (step: number) => {
      const ev = await playEvaluation(ctx, setup, `${name}-step${step}`, trainer.params() as Record<string, Float32Array>, evalDir);
      periodic.push({ step, success: ev.summary.overall.successRate, episodes: ev.summary.overall.episodes });
    };
    const latest = await latestCheckpoint(dir);
    if (latest) {
      const saved = await loadPolicy(latest.path);
      const st = saved.trainerState as { step: number; nextOptimizerStep: number };
      trainer.restore({ step: st.step, nextOptimizerStep: st.nextOptimizerStep, optimizer: saved.optimizer!, reference: init });
      ctx.log(`[${name}] resumed at step ${st.step} from ${latest.path}`);
    }
    // The task stream is the same for every source (same seed): step k plays the same tasks.
    const pool = ctx.suite.tasks(ctx.suite.splits[0]!);
    const t0 = performance.now();
    const first = trainer.state().step;
    // Evaluations of steps already trained (stored, or cut off by a kill after the checkpoint) first.
    if (c.grpo.evalEvery > 0) for (let k = c.grpo.evalEvery; k <= first && k < c.grpo.steps; k += c.grpo.evalEvery) await evaluateAt(k);
    const stepsFile = join(dir, 'steps.jsonl');
    for (let step = first; step < c.grpo.steps; step++) {
      const rng = new Rng(c.seed).fork(`grpo|${step}`);
      const tasks: TaskRef[] = rng.sample(pool, Math.min(c.grpo.tasksPerStep, pool.length));
      const jobs = trainer.jobsFor(tasks, () => src.makeEnv(), rng);
      const dynamic =
        c.grpo.dynamicSampling > 0
          ? {
              maxRounds: c.grpo.dynamicSampling,
              more: (round: number) => trainer.jobsFor(rng.fork(`refill${round}`).sample(pool, Math.min(c.grpo.tasksPerStep, pool.length)), () => src.makeEnv(), rng.fork(`refill${round}|jobs`)),
            }
          : undefined;
      const before = src.counts ? { ...src.counts } : undefined;
      const played = await trainer.step(jobs, setup.codec, dynamic);
      await Promise.all(jobs.map((j) => j.env.close?.()));
      // Per step in steps.jsonl, so a resumed stage still totals every step's transitions.
      const m: StepRecord =
        src.counts && before ? { ...played, transitions: src.counts.transitions - before.transitions, worldModelAnswers: src.counts.worldModelAnswers - before.worldModelAnswers } : played;
      appendFileSync(stepsFile, `${JSON.stringify(m)}\n`);
      await ctx.metric({ stage: name, ...m });
      const el = (performance.now() - t0) / 1000;
      const kl = Number.isNaN(m.kl) ? '-' : m.kl.toExponential(2);
      ctx.log(
        `[${name}] step ${m.step}/${c.grpo.steps} reward ${m.rewardMean.toFixed(3)} ± ${m.rewardStd.toFixed(3)} success ${(m.success * 100).toFixed(0)}% usable groups ${m.usableGroups}${m.skipped ? ' (no reward variance: update skipped)' : ''} kl ${kl} turns ${m.turns.toFixed(1)} rollout ${(m.rolloutMs / 1000).toFixed(1)}s update ${(m.updateMs / 1000).toFixed(1)}s · eta ${fmt((el / (step + 1 - first)) * (c.grpo.steps - step - 1))}`,
      );
      // Checkpoint first: a long evaluation cut off by a command's time limit then resumes from this step.
      if (m.step % c.grpo.saveEvery === 0 || m.step === c.grpo.steps) {
        const st = trainer.state();
        await savePolicy(join(dir, checkpointDirName(m.step)), setup.model, setup.tokenizerJson, trainer.params(), {
          optimizer: st.optimizer,
          trainerState: { step: st.step, nextOptimizerStep: st.nextOptimizerStep },
        });
        await pruneCheckpoints(dir, 2);
        ctx.log(`[${name}] checkpoint step ${m.step} saved`);
      }
      if (c.grpo.evalEvery > 0 && m.step % c.grpo.evalEvery === 0 && m.step < c.grpo.steps) await evaluateAt(m.step);
    }
    await savePolicy(join(dir, 'policy'), setup.model, setup.tokenizerJson, trainer.params());
    // The world model goes with its stage: on CUDA it would hold its GPU memory through the later stages.
    await src.close?.();
    await ctx.releaseGraphs();
    const metrics = stepMetrics(stepsFile);
    periodic.sort((a, b) => a.step - b.step);
    const mean = (f: (m: StepRecord) => number) => (metrics.length ? metrics.reduce((a, m) => a + f(m), 0) / metrics.length : Number.NaN);
    return {
      steps: c.grpo.steps,
      skippedSteps: metrics.filter((m) => m.skipped).length,
      zeroStdShare: mean((m) => m.zeroStdShare),
      rewardMean: mean((m) => m.rewardMean),
      success: mean((m) => m.success),
      periodic,
      ...worldModelShare(metrics),
    } satisfies GrpoResult;
  });
  return { label: name, dir: join(s.dir, 'policy'), ref: { hash: s.hash, result: s.result }, params: async () => (await loadPolicy(join(s.dir, 'policy'))).params };
}

/** Every step's metrics of a stage, over its invocations (a step replayed after a kill: the last). */
function stepMetrics(file: string): StepRecord[] {
  if (!existsSync(file)) return [];
  const byStep = new Map<number, StepRecord>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as StepRecord;
    byStep.set(m.step, m);
  }
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}

function worldModelShare(steps: readonly StepRecord[]): { worldModelShare?: number } {
  const transitions = steps.reduce((a, m) => a + (m.transitions ?? 0), 0);
  if (transitions === 0) return {};
  return { worldModelShare: steps.reduce((a, m) => a + (m.worldModelAnswers ?? 0), 0) / transitions };
}
