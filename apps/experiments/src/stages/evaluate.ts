// Evaluation of a policy on the held-out split in the real engine (eval.tasks seeded games, the
// engine's own or eval.games' imported ones; the rollout code of training), as one stage per
// policy. With eval.chunk the games are played chunk by chunk, each stored when done, so a long
// evaluation continues over several invocations; the merged result equals one pass.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';
import type { AgentEvaluation, AgentSummary } from '@diffworld/eval';
import { evalTasks, evaluatePolicy, mergeEvaluations } from '@diffworld/grpo';
import type { ExperimentContext } from './context.js';
import type { Params, PolicyArtefact, PolicySetup } from './policy.js';
import type { StageOutcome } from './runner.js';

export interface EvaluationArtefact {
  label: string;
  outcome: StageOutcome<AgentSummary>;
  evaluation(): AgentEvaluation;
}

const pct = (x: number) => (x * 100).toFixed(1);

/** Plays the evaluation of `params` into `dir` (evaluation.json, and part files with eval.chunk). */
export async function playEvaluation(ctx: ExperimentContext, setup: PolicySetup, label: string, params: Params, dir: string): Promise<AgentEvaluation> {
  const c = ctx.config;
  const file = join(dir, `${label}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as AgentEvaluation;
  const split = ctx.evalSplit;
  const games = (await ctx.heldoutGames(split))?.tasks;
  const opts = {
    source: ctx.realSource(),
    split,
    tasks: c.eval.tasks,
    seed: c.seed,
    temperature: c.eval.temperature,
    limits: c.rollout,
    label,
    cache: c.rollout.cache,
    ...ctx.providerOption,
    ...(games ? { games } : {}),
  };
  const total = evalTasks(c.env, split, c.eval.tasks, c.seed, games).length;
  const chunk = c.eval.chunk ?? total;
  const parts: AgentEvaluation[] = [];
  for (let from = 0; from < total; from += chunk) {
    const to = Math.min(from + chunk, total);
    const part = join(dir, `${label}.part-${String(from).padStart(5, '0')}.json`);
    if (chunk < total && existsSync(part)) {
      parts.push(JSON.parse(readFileSync(part, 'utf8')) as AgentEvaluation);
      continue;
    }
    const ev = await evaluatePolicy(await setup.scorer(), params, setup.codec, chunk >= total ? opts : { ...opts, range: { from, to } });
    if (chunk < total) {
      writeFileAtomic(part, JSON.stringify(ev));
      ctx.log(`[eval:${label}] games ${from + 1}–${to} of ${total}: ${ev.summary.overall.wins} won`);
    }
    parts.push(ev);
  }
  const ev = mergeEvaluations(parts);
  writeFileAtomic(file, JSON.stringify(ev));
  const s = ev.summary.overall;
  await ctx.metric({ stage: 'eval', policy: label, success: s.successRate, ci95: s.successCI95, meanScore: s.meanScore, episodes: s.episodes });
  ctx.log(`[eval:${label}] success ${s.wins}/${s.episodes} = ${pct(s.successRate)}% (95% CI ${pct(s.successCI95[0])}–${pct(s.successCI95[1])}%) mean score ${s.meanScore.toFixed(3)}`);
  return ev;
}

/** The held-out evaluation of a stored policy, as a stage of its own. */
export async function evaluationStage(ctx: ExperimentContext, setup: PolicySetup, policy: PolicyArtefact, label = policy.label): Promise<EvaluationArtefact> {
  const c = ctx.config;
  // The imported games count by content, not by path.
  const games = (await ctx.heldoutGames(ctx.evalSplit))?.sha256 ?? null;
  const inputs = { policy: policy.ref, label, env: c.env, seed: c.seed, eval: { ...ctx.evalInputs, games }, rollout: c.rollout, provider: c.provider ?? null };
  const s = await ctx.runner.run(`eval-${label}`, inputs, async (dir) => (await playEvaluation(ctx, setup, label, await policy.params(), dir)).summary);
  return { label, outcome: s, evaluation: () => JSON.parse(readFileSync(join(s.dir, `${label}.json`), 'utf8')) as AgentEvaluation };
}
