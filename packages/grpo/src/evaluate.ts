// Real-engine evaluation of a policy (weights) on held-out tasks: the same rollout code as
// training (token ids end to end, harness framing), one episode per task, summarised as eval's
// agent evaluation (success with Wilson 95% intervals overall and per task type).
import { Rng, episodeRecord, summarizeEpisodes, type TaskRef } from '@diffworld/env-core';
import { type AgentEvaluation, type AgentSummary, selectTasks, summarizeByTaskType } from '@diffworld/eval';
import type { ProviderName } from '@diffworld/mdlm-core';
import { GrpoError } from './errors.js';
import { cachedPolicy } from './cached-policy.js';
import type { TurnCodec, RolloutLimits } from './rollout.js';
import { rollout, scorerPolicy } from './rollout.js';
import type { ParamValues, PolicyScorer } from './score.js';
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
  /**
   * Play only tasks [from, to) of the seeded selection (an evaluation in parts, each stored when done);
   * each task keeps its index's rng, so the parts merged by `mergeEvaluations` equal the whole.
   */
  range?: { from: number; to: number };
  /**
   * The split's tasks to sample from instead of the suite's own (e.g. imported real games, already
   * registered with the source's engine); the seeded selection of `tasks` is made among them.
   */
  games?: readonly TaskRef[];
}

export function evalTasks(env: string, split: string, count: number, seed: number, games?: readonly TaskRef[]): TaskRef[] {
  return selectTasks(env, split, count, seed, games);
}

export async function evaluatePolicy(scorer: PolicyScorer, params: ParamValues, codec: TurnCodec, o: PolicyEvalOptions): Promise<AgentEvaluation> {
  const t0 = performance.now();
  const suite = o.source.suite;
  const all = evalTasks(suite.name, o.split, o.tasks, o.seed, o.games);
  const from = o.range?.from ?? 0;
  const to = Math.min(o.range?.to ?? all.length, all.length);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || from >= to)
    throw new GrpoError('bad_config', `evaluation ${o.label}: range [${from}, ${to}) selects none of its ${all.length} tasks`);
  const tasks = all.slice(from, to);
  const rng = new Rng(o.seed).fork(`eval|${o.label}`);
  const jobs = tasks.map((task, k) => ({ task, groupId: `eval:${from + k}`, env: o.source.makeEnv(), rng: rng.fork(from + k), seed: task.seed }));
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
  const records = episodes.map((e) => episodeRecord(e.task, { messages: [{ role: 'system', content: system }, ...e.messages], actions: e.actions, reward: e.reward, score: e.score, won: e.won }));
  return evaluationOf(records, { env: suite.name, split: o.split, policy: o.label, seed: o.seed }, (performance.now() - t0) / 1000);
}

function evaluationOf(records: AgentEvaluation['records'], id: Pick<AgentSummary, 'env' | 'split' | 'policy' | 'seed'>, wallSeconds: number): AgentEvaluation {
  return {
    records,
    summary: { ...id, overall: summarizeEpisodes(records), byTaskType: summarizeByTaskType(records), workers: 1, wallSeconds, episodesPerSecond: wallSeconds > 0 ? records.length / wallSeconds : 0 },
  };
}

/** One evaluation from its parts (in task order): records concatenated, summaries recomputed, wall times added. */
export function mergeEvaluations(parts: readonly AgentEvaluation[]): AgentEvaluation {
  if (parts.length === 0) throw new GrpoError('bad_config', 'mergeEvaluations: no parts');
  const first = parts[0]!.summary;
  for (const p of parts) {
    const s = p.summary;
    if (s.env !== first.env || s.split !== first.split || s.policy !== first.policy || s.seed !== first.seed)
      throw new GrpoError('bad_config', `mergeEvaluations: part ${s.policy}/${s.split}/${s.seed} differs from ${first.policy}/${first.split}/${first.seed}`);
  }
  return evaluationOf(
    parts.flatMap((p) => p.records),
    { env: first.env, split: first.split, policy: first.policy, seed: first.seed },
    parts.reduce((a, p) => a + p.summary.wallSeconds, 0),
  );
}
