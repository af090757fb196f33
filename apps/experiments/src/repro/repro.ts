// runRepro: the paper's two questions at small scale, as stages of the one runner under one
// directory: tokenizer → data (corpus rows from the real engine, length diversification, rows held
// to the sequence length) → a bd3 and an ar world model of the same architecture, data and step
// budget → per model: fidelity and diversity on held-out transitions, the anchor-steering test,
// replay consistency against the real engine → RQ2 over seeds (the agent pipeline of `grpo train`,
// once per seed and world model) → results.json, report.md, report.html. A rerun skips every stage
// whose inputs are unchanged, and a killed stage continues where it stopped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatRow, writeFileAtomic } from '@diffworld/dataset';
import { type PyDict, evaluateWorldModel, localCompleter, selectTasks } from '@diffworld/eval';
import { ChatGenerator } from '@diffworld/mdlm-core';
import type { ExperimentConfig } from '../config/schema.js';
import { checkMemoryBudget } from '../memory.js';
import { loadInitialPolicy } from '../policy-init.js';
import { ExperimentContext } from '../stages/context.js';
import { type DataResult, dataStage } from '../stages/data.js';
import { StageRunner, artefact } from '../stages/runner.js';
import { tokenizerStage } from '../stages/tokenizer.js';
import { type TrainResult, localWorldModelSpec, trainWorldModels, trainedModelDir } from '../stages/world-model.js';
import { openWorldModel } from '../world-model.js';
import { type ReplayResult, replayConsistency } from './replay.js';
import { renderReproHtml, renderReproMarkdown } from './report.js';
import { type Rq2Result, runRq2 } from './rq2.js';
import { type SteeringResult, steeringArms, steeringTest } from './steering.js';

export const REPRO_OBJECTIVES = ['bd3', 'ar'] as const;
export type ReproObjective = (typeof REPRO_OBJECTIVES)[number];

export interface FidelityResult {
  rows: number;
  exactMatch: number;
  semanticMatch: number;
  rougeL: number;
  bleu1: number;
  mauve: number | null;
  /** Among each prompt's K samples, mean over prompts. */
  samples: number;
  selfBleu3: number;
  distinct1: number;
  distinct2: number;
  /** Wall ms per generated transition (all samples) and the sampler's forwards per token. */
  msPerTransition: number;
  forwardsPerToken: number | null;
  tokensPerSecond: number | null;
}

export interface ReproResults {
  env: string;
  config: ExperimentConfig;
  data: DataResult;
  vocabSize: number;
  train: Record<ReproObjective, TrainResult>;
  fidelity: Record<ReproObjective, FidelityResult>;
  steering: Record<ReproObjective, SteeringResult>;
  replay: Record<ReproObjective, ReplayResult>;
  rq2: Rq2Result;
  stages: { stage: string; hash: string; cached: boolean; seconds: number; host: string; session: string | null; finishedAt: string }[];
}

export interface ReproOptions {
  config: ExperimentConfig;
  out: string;
  log?: (line: string) => void;
}

export interface ReproRun {
  results: ReproResults;
  reportMarkdown: string;
  reportHtml: string;
  paths: { results: string; markdown: string; html: string };
}

const readRows = (file: string): ChatRow[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ChatRow);

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === undefined || v === null ? null : Number(v));

function fidelityOf(summary: PyDict, generation: { generated: number; seconds: number }[]): FidelityResult {
  const div = summary.get('sample_diversity') as PyDict | undefined;
  const gen = summary.get('generation') as PyDict;
  const mauve = summary.get('mauve') as PyDict | undefined;
  const rows = generation.reduce((a, g) => a + g.generated, 0),
    secs = generation.reduce((a, g) => a + g.seconds, 0);
  return {
    rows: num(summary.get('num_samples')),
    exactMatch: num(summary.get('exact_match')),
    semanticMatch: num(summary.get('semantic_match')),
    rougeL: num(summary.get('rouge_l_f1')),
    bleu1: num(summary.get('bleu1_corpus')),
    mauve: mauve ? numOrNull(mauve.get('mauve')) : null,
    samples: div ? num(div.get('samples_per_prompt')) : 1,
    selfBleu3: div ? num(div.get('self_bleu_3')) : NaN,
    distinct1: div ? num(div.get('distinct_1')) : NaN,
    distinct2: div ? num(div.get('distinct_2')) : NaN,
    msPerTransition: rows > 0 ? (1000 * secs) / rows : NaN,
    forwardsPerToken: numOrNull(gen.get('forwards_per_token')),
    tokensPerSecond: numOrNull(gen.get('tokens_per_second')),
  };
}

export async function runRepro(o: ReproOptions): Promise<ReproRun> {
  const c = o.config;
  const log = o.log ?? (() => {});
  checkMemoryBudget(c, undefined, { bothObjectives: true });
  const runner = new StageRunner(o.out, log);
  const ctx = new ExperimentContext(c, runner, log);
  writeFileAtomic(join(o.out, 'config.json'), `${JSON.stringify(c, null, 2)}\n`);
  try {
    // 1. Data: a tokenizer, corpus rows from the real engine, every row within the sequence length.
    const tok = await tokenizerStage(ctx);
    const data = await dataStage(ctx, tok);
    const heldoutRows = readRows(data.heldout);
    const heldoutSplit = data.outcome.result.heldoutSplit;

    // 2. Two world models: same architecture, data, seed and steps; only the objective differs.
    //    bd3 adapted from the ar model (worldModel.bd3Init 'ar', the default: ar trains first), or from scratch.
    const trained = await trainWorldModels(ctx, data, tok, REPRO_OBJECTIVES);

    // 3. Per model: fidelity and diversity, anchor steering, replay consistency.
    const fidelity = {} as Record<ReproObjective, FidelityResult>;
    const steering = {} as Record<ReproObjective, SteeringResult>;
    const replay = {} as Record<ReproObjective, ReplayResult>;
    for (const obj of REPRO_OBJECTIVES) {
      const upstream = { data: artefact(data.outcome), model: artefact(trained[obj]) };
      const model = trainedModelDir(trained[obj]);
      const f = c.fidelity;
      fidelity[obj] = (
        await runner.run(`fidelity-${obj}`, { ...upstream, fidelity: f, seed: c.seed }, async (dir) => {
          const generator = await ChatGenerator.load(model, ctx.providerOption);
          const completer = localCompleter(generator, { temperature: f.temperature, maxNewTokens: f.maxNewTokens, batchSize: f.batchSize, seed: c.seed });
          const ev = await evaluateWorldModel({
            completer,
            data: data.heldout,
            outDir: dir,
            name: 'heldout',
            samples: f.samples,
            limit: f.rows,
            seed: c.seed,
            batchSize: f.batchSize,
            mauveDims: f.mauveDims,
            workers: 0,
            log: (l) => log(`[fidelity-${obj}] ${l}`),
          });
          // Each stage loads its model: freed here, or on CUDA every model of the run stays resident.
          await generator.release();
          await ctx.releaseGraphs();
          return fidelityOf(ev.summary, ev.generation);
        })
      ).result;
      steering[obj] = (
        await runner.run(`steering-${obj}`, { ...upstream, steering: c.steering, seed: c.seed, arms: steeringArms(obj) }, async () => {
          const generator = await ChatGenerator.load(model, ctx.providerOption);
          const r = await steeringTest(generator, tok.tok, heldoutRows, c.steering, c.seed);
          await generator.release();
          await ctx.releaseGraphs();
          return r;
        })
      ).result;
      replay[obj] = (
        await runner.run(`replay-${obj}`, { ...upstream, replay: c.replay, heldoutSplit, seed: c.seed }, async () => {
          const sampling = { ...c.worldModel.sampling, maxNewTokens: c.replay.maxNewTokens };
          const wm = await openWorldModel(c.env, localWorldModelSpec(ctx, tok, model, c.replay.maxNewTokens), sampling);
          const r = await replayConsistency(ctx.suite, wm, selectTasks(c.env, heldoutSplit, c.replay.tasks, c.seed), c.replay.maxSteps);
          await wm.close?.();
          await ctx.releaseGraphs();
          log(`[replay-${obj}] ${(r.reproduced * 100).toFixed(1)}% of ${r.transitions} simulated transitions reproduced by the real engine`);
          return r;
        })
      ).result;
    }

    // 4. RQ2 over seeds: the agent pipeline per seed, GRPO in each world model and in the real engine.
    const init = c.policy.init ? await loadInitialPolicy(c.policy.init, (l) => log(`[policy] ${l}`)) : undefined;
    const rq2 = await runRq2(runner, c, tok, { bd3: trained.bd3, ar: trained.ar }, log, init);

    // 5. Results and the report (always rewritten: cheap, and it lists which stages were cached).
    const results: ReproResults = {
      env: c.env,
      config: c,
      data: data.outcome.result,
      vocabSize: tok.tok.vocabSize,
      train: { bd3: trained.bd3.result, ar: trained.ar.result },
      fidelity,
      steering,
      replay,
      rq2,
      stages: runner.outcomes.map((s) => ({ stage: s.name, hash: s.hash, cached: s.cached, seconds: s.seconds, host: s.host, session: s.session, finishedAt: s.finishedAt })),
    };
    const paths = { results: join(o.out, 'results.json'), markdown: join(o.out, 'report.md'), html: join(o.out, 'report.html') };
    const reportMarkdown = renderReproMarkdown(results);
    const reportHtml = await renderReproHtml(results);
    writeFileAtomic(paths.results, `${JSON.stringify(results, null, 2)}\n`);
    writeFileAtomic(paths.markdown, reportMarkdown);
    writeFileAtomic(paths.html, reportHtml);
    log(`[report] ${paths.markdown}`);
    return { results, reportMarkdown, reportHtml, paths };
  } finally {
    await ctx.close();
  }
}
