// Real-engine evaluation of a policy (weights) on held-out tasks: the same rollout code as
// training (token ids end to end, harness framing), one episode per task, summarised as eval's
// agent evaluation (success with Wilson 95% intervals overall and per task type).
import { Rng, episodeRecord, summarizeEpisodes, type TaskRef } from '@diffworld/env-core';
import { type AgentEvaluation, selectTasks, summarizeByTaskType } from '@diffworld/eval';
import type { ProviderName } from '@diffworld/mdlm-core';
import { cachedPolicy } from '../cached-policy.js';
import type { TurnCodec, RolloutLimits } from '../rollout.js';
import { rollout, scorerPolicy } from '../rollout.js';
import type { ParamValues, PolicyScorer } from '../score.js';
import type { RolloutSource } from './sources.js';
import { applySuiteReward } from './sources.js';

export interface PolicyEvalOptions {
  source: RolloutSource;
  split: string;
  tasks: number;
  seed: number;
  temperature: number;
  limits: RolloutLimits;
  /** Shown as the policy's name in summaries. */
  label: string;
  /** KV-cached decoding (the scorer's full window per token otherwise). */
  cache: 'kv' | 'none';
  provider?: ProviderName;
}

export function evalTasks(env: string, split: string, count: number, seed: number): TaskRef[] {
  return selectTasks(env, split, count, seed);
}

export async function evaluatePolicy(scorer: PolicyScorer, params: ParamValues, codec: TurnCodec, o: PolicyEvalOptions): Promise<AgentEvaluation> {
  const t0 = performance.now();
  const suite = o.source.suite;
  const tasks = evalTasks(suite.name, o.split, o.tasks, o.seed);
  const rng = new Rng(o.seed).fork(`eval|${o.label}`);
  const jobs = tasks.map((task, i) => ({ task, groupId: `eval:${i}`, env: o.source.makeEnv(), rng: rng.fork(i), seed: task.seed }));
  const sampling = { temperature: o.temperature };
  const system = suite.agent.system();
  const cached = o.cache === 'kv' ? await cachedPolicy(scorer.cfg, params, jobs.length, o.provider ? { provider: o.provider } : {}) : undefined;
  let played;
  try {
    played = await rollout(cached ?? scorerPolicy(scorer, params), jobs, codec, o.limits, sampling);
  } finally {
    await cached?.close();
  }
  const episodes = applySuiteReward(suite, system, played);
  await Promise.all(jobs.map((j) => j.env.close?.()));
  const records = episodes.map((e) =>
    episodeRecord(e.task, { messages: [{ role: 'system', content: system }, ...e.messages], actions: e.actions, reward: e.reward, score: e.score, won: e.won }),
  );
  const wallSeconds = (performance.now() - t0) / 1000;
  return {
    records,
    summary: {
      env: suite.name, split: o.split, policy: o.label, seed: o.seed, overall: summarizeEpisodes(records), byTaskType: summarizeByTaskType(records),
      workers: 1, wallSeconds, episodesPerSecond: wallSeconds > 0 ? records.length / wallSeconds : 0,
    },
  };
}
