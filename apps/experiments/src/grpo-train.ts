// `diffworld grpo train` (and `nx run grpo:train:<env>`): the paper's stage 2 for one environment,
// as stages of the one runner (stages/runner.ts) under one run directory:
//   tokenizer → data → train-<objective>        the world model (unless the config names one)
//   policy-base → sft → eval-base, eval-sft     SFT on expert demonstrations, held-out success
//   grpo-world-model → eval-grpo-world-model    GRPO in the world model
//   grpo-real → eval-grpo-real                  the same budget and seed against the real engine
// then report.md / report.html (always rewritten: cheap, and it says which stages were cached).
// A rerun with the same settings skips every finished stage and continues a killed one from its
// checkpoint; changed settings rerun exactly the stages that read them.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';
import { type AgentEvaluation, type MetricsRun, parseMetricsJsonl } from '@diffworld/eval';
import type { ExperimentConfig } from './config/schema.js';
import { ExperimentError } from './errors.js';
import { checkMemoryBudget } from './memory.js';
import { type InitialPolicy, loadInitialPolicy } from './policy-init.js';
import { type PipelineReport, pipelineSummary, renderComparisonHtml, renderPipelineMarkdown } from './report/pipeline-report.js';
import { ExperimentContext } from './stages/context.js';
import { dataStage } from './stages/data.js';
import { type EvaluationArtefact, evaluationStage } from './stages/evaluate.js';
import { type GrpoResult, grpoStage } from './stages/grpo.js';
import { basePolicyStage, policySetup, sftStage } from './stages/policy.js';
import { type StageOutcome, StageRunner } from './stages/runner.js';
import { type TokenizerArtefact, tokenizerStage } from './stages/tokenizer.js';
import { type WorldModelArtefact, trainWorldModels, worldModelArtefact } from './stages/world-model.js';

export interface GrpoTrainOptions {
  config: ExperimentConfig;
  /** The run directory: stages/, metrics.jsonl, config.json, report.md, report.html. */
  out: string;
  log?: (line: string) => void;
}

export interface GrpoTrainResult {
  report: PipelineReport;
  reportMarkdown: string;
  reportHtml: string;
  stages: StageOutcome<unknown>[];
}

/** The policies of one agent pipeline, in report order, with their held-out evaluations. */
export const POLICY_NAMES = { base: 'base', sft: 'sft', 'grpo-world-model': 'sft+rl(world model)', 'grpo-real': 'sft+rl(real)' } as const;

/** The GRPO runs a pipeline can start from the SFT policy, in report order. */
export const GRPO_ARMS = ['world-model', 'real'] as const;
export type GrpoArm = (typeof GRPO_ARMS)[number];

/** What one pipeline runs: which GRPO arms, and whether the untrained policy is evaluated. */
export interface PipelinePlan {
  arms: readonly GrpoArm[];
  evaluateBase: boolean;
}

/** The config's plan: `grpo.arms` (absent: every arm) and `eval.base` (absent: yes). */
export function pipelinePlan(c: ExperimentConfig): PipelinePlan {
  return { arms: GRPO_ARMS.filter((a) => c.grpo.arms?.includes(a) ?? true), evaluateBase: c.eval.base ?? true };
}

export interface AgentPipelineResult {
  evaluations: EvaluationArtefact[];
  /** What each GRPO run's stage recorded (its signal: steps without reward variance, periodic evaluations); the arms that ran. */
  grpo: Partial<Record<GrpoArm, GrpoResult>>;
}

/**
 * SFT, then GRPO in the world model and in the real engine from the SFT policy at the same budget,
 * each policy evaluated on the held-out split. Shared by `grpo train` and repro's RQ2 (one context
 * per seed): stages that do not read the world model are the same stages for every world model.
 * `plan` picks the arms (the world-model arm needs `worldModel`) and whether the base is evaluated.
 */
export async function agentPipeline(
  ctx: ExperimentContext,
  tok: TokenizerArtefact,
  worldModel: WorldModelArtefact | undefined,
  init?: InitialPolicy,
  plan: PipelinePlan = pipelinePlan(ctx.config),
): Promise<AgentPipelineResult> {
  const setup = policySetup(ctx, tok, init);
  const base = await basePolicyStage(ctx, setup, tok);
  const sft = await sftStage(ctx, setup, base);
  const evaluations = [...(plan.evaluateBase ? [await evaluationStage(ctx, setup, base)] : []), await evaluationStage(ctx, setup, sft)];
  const results: AgentPipelineResult['grpo'] = {};
  for (const arm of plan.arms) {
    if (arm === 'world-model' && !worldModel) throw new ExperimentError('bad_config', "grpo.arms: 'world-model' needs a world model, and none was trained or given");
    const source = arm === 'real' ? { kind: 'real' as const } : { kind: 'world-model' as const, model: worldModel! };
    const rl = await grpoStage(ctx, setup, sft, source);
    results[arm] = (rl.ref as { result: GrpoResult }).result;
    evaluations.push(await evaluationStage(ctx, setup, rl));
  }
  return { evaluations, grpo: results };
}

/** The world model of the world-model arm: served, given, or trained here on the data stage's rows. */
export async function worldModelStages(ctx: ExperimentContext, tok: TokenizerArtefact): Promise<WorldModelArtefact> {
  const w = ctx.config.worldModel;
  if (w.urls || w.path) return worldModelArtefact(ctx, tok);
  const data = await dataStage(ctx, tok);
  // bd3 adapted from an ar model trained first (worldModel.bd3Init 'ar', the default), or from scratch.
  const trained = await trainWorldModels(ctx, data, tok, [w.train.objective]);
  return worldModelArtefact(ctx, tok, trained[w.train.objective]);
}

export async function runGrpoTrain(o: GrpoTrainOptions): Promise<GrpoTrainResult> {
  const c = o.config;
  const log = o.log ?? (() => {});
  // A pretrained policy (policy.init) is read first: its config decides the memory estimate.
  const init = c.policy.init ? await loadInitialPolicy(c.policy.init, (l) => log(`[policy] ${l}`)) : undefined;
  // Refuse a config whose training graphs would not fit in memory before spending any time on it.
  const estimates = checkMemoryBudget(init ? { ...c, policy: { ...c.policy, model: init.config } } : c);
  mkdirSync(o.out, { recursive: true });
  writeFileAtomic(join(o.out, 'config.json'), `${JSON.stringify(c, null, 2)}\n`);
  log(`[memory] estimated peaks: ${estimates.map((e) => `${e.what.split(' (')[0]} ${(e.bytes / 1e9).toFixed(1)} GB`).join(', ')}`);
  const runner = new StageRunner(o.out, log);
  const ctx = new ExperimentContext(c, runner, log);
  try {
    const tok = await tokenizerStage(ctx);
    const plan = pipelinePlan(c);
    // Without the world-model arm nothing reads a world model: none is trained or opened.
    const wm = plan.arms.includes('world-model') ? await worldModelStages(ctx, tok) : undefined;
    await ctx.releaseGraphs();
    const agents = await agentPipeline(ctx, tok, wm, init, plan);
    const evals: Record<string, AgentEvaluation> = {};
    for (const e of agents.evaluations) evals[POLICY_NAMES[e.label as keyof typeof POLICY_NAMES]] = e.evaluation();
    const trained = wm?.trained?.result;
    const report = pipelineSummary(c, evals, {
      timings: runner.timings(),
      grpoRuns: plan.arms.map((k) => ({ name: `GRPO in the ${k === 'real' ? 'real engine' : 'world model'}`, ...pick(agents.grpo[k]!) })),
      worldModel: !wm
        ? undefined
        : trained
          ? { source: 'trained here', objective: trained.objective, evalLoss: trained.evalLoss, finalLoss: trained.finalLoss, parameters: trained.parameters }
          : { source: c.worldModel.urls ? `served at ${c.worldModel.urls}` : `loaded from ${c.worldModel.path}` },
    });
    const reportMarkdown = renderPipelineMarkdown(report);
    const reportHtml = await renderComparisonHtml(report, trainingCurves(o.out));
    writeFileAtomic(join(o.out, 'report.md'), reportMarkdown);
    writeFileAtomic(join(o.out, 'report.html'), reportHtml);
    log(`[report] ${join(o.out, 'report.md')}`);
    return { report, reportMarkdown, reportHtml, stages: runner.outcomes };
  } finally {
    await ctx.close();
  }
}

const pick = (g: GrpoResult) => ({ steps: g.steps, skippedSteps: g.skippedSteps, zeroStdShare: g.zeroStdShare, ...(g.worldModelShare === undefined ? {} : { worldModelShare: g.worldModelShare }) });

/** One curve set per training stage (SFT loss, GRPO reward/success/KL…) from the run's metrics.jsonl. */
export function trainingCurves(out: string): MetricsRun[] {
  let text = '';
  try {
    text = readFileSync(join(out, 'metrics.jsonl'), 'utf8');
  } catch {
    return [];
  }
  // Only the curves a reader compares: JSON of other stages' rows (evaluations, data) is left out.
  const fields = ['step', 'loss', 'gradNorm', 'rewardMean', 'rewardStd', 'success', 'kl', 'entropy', 'zeroStdShare', 'turns'];
  return ['sft', 'grpo-world-model', 'grpo-real']
    .map((stage) => ({
      stage,
      lines: text
        .split('\n')
        .filter((l) => l.includes(`"stage":"${stage}"`))
        .map((l) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(l) as Record<string, unknown>).filter(([k]) => fields.includes(k)))))
        .join('\n'),
    }))
    .filter((r) => r.lines !== '')
    .map((r) => parseMetricsJsonl(r.lines, r.stage));
}
