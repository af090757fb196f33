// runGrpoPipeline: issue 13's stage 2 end to end, as stages in one run directory. Each stage
// writes its result atomically and is skipped when that result exists, so `resume` continues a
// killed run where it stopped (GRPO stages from their last step checkpoint):
//   tokenizer/tokenizer.json          (a) trained on the env's corpus unless the config names one
//   world-model/corpus.jsonl, world-model/run/model/   (b) corpus rows + trainWorldModel (bd3)
//   policy/base/, policy/sft/         (c) initial policy, SFT on expert demonstrations
//   eval/base.json, eval/sft.json     (d) real-engine evaluation on the held-out split
//   grpo-world-model/                 (e) GRPO in the world model, periodic real-engine evaluation
//   grpo-real/                        (f) the same budget and seed against the real engine
//   report.md, report.html            (g) base / SFT / SFT+RL(WM) / SFT+RL(real), sim-to-real gap
//   metrics.jsonl, timings.json       one line per logged step; seconds per stage
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile, appendFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { Rng, writeFileAtomic, type ChatRow } from '@diffworld/dataset';
import type { EnvSuite, TaskRef } from '@diffworld/env-core';
import { type AgentEvaluation, parseMetricsJsonl, renderHtmlReport } from '@diffworld/eval';
import { envSuite } from '@diffworld/envs';
import {
  type ModelConfig,
  type ProviderName,
  clearSessionCache,
  constant,
  constantWithWarmup,
  initialWeights,
  latestCheckpoint,
  parseHfConfig,
  pruneCheckpoints,
  checkpointDirName,
  resolveTrainConfig,
  trainWorldModel,
} from '@diffworld/mdlm-core';
import { Tokenizer, trainTokenizer, chatTrainingTexts } from '@diffworld/tokenizer';
import { ChatTurnCodec } from '../chat-codec.js';
import { GrpoError } from '../errors.js';
import { type Episode, demonstration } from '../rollout.js';
import { PolicyScorer } from '../score.js';
import { SftTrainer } from '../sft.js';
import { GrpoTrainer, type GrpoConfig, type GrpoStepMetrics } from '../trainer.js';
import type { PipelineConfig } from './config.js';
import { evalTasks, evaluatePolicy, mergeEvaluations } from './evaluate.js';
import { loadPolicy, savePolicy } from './policy-store.js';
import { type PipelineReport, pipelineSummary, renderComparisonHtml, renderPipelineMarkdown } from './report.js';
import { type RolloutSource, applySuiteReward, realEngineSource, worldModelSource } from './sources.js';
import { EnvPool } from './env-pool.js';
import { checkMemoryBudget } from './memory.js';
import { TEMPLATE_TOKENS, fitWorldModelRow } from './wm-budget.js';
import { type WorldModelSpec, openWorldModel } from './world-model.js';

export interface PipelineOptions {
  config: PipelineConfig;
  out: string;
  /** Continue the run in `out` (its pipeline_config.json must equal `config`). */
  resume?: boolean;
  /** Relative paths of the config (tokenizer.path, worldModel.path) resolve against this directory. */
  configDir?: string;
  log?: (line: string) => void;
}

export interface PipelineResult {
  report: PipelineReport;
  reportMarkdown: string;
  reportHtml: string;
  timings: Record<string, number>;
}

const fmt = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s` : `${s.toFixed(0)}s`);

class Run {
  readonly suite: EnvSuite;
  readonly timings: Record<string, number> = {};
  constructor(
    readonly o: PipelineOptions,
    readonly c: PipelineConfig,
  ) {
    this.suite = envSuite(c.env);
  }
  get provider(): ProviderName | undefined {
    return this.c.provider as ProviderName | undefined;
  }
  path(...p: string[]): string {
    return join(this.o.out, ...p);
  }
  log(line: string): void {
    this.o.log?.(line);
  }
  private pool: EnvPool | undefined;
  scorer: Promise<PolicyScorer> | undefined;
  /**
   * Releases every compiled graph (mdlm-core's session cache) once a training stage is over: ONNX
   * Runtime's CPU arena keeps a session's peak activations until the session goes, so without this
   * the world model's training graph, SFT's and GRPO's would all stay resident to the end.
   */
  async releaseGraphs(): Promise<void> {
    this.scorer = undefined;
    await clearSessionCache();
  }
  /** The real engine for rollouts and evaluations: in this thread, or in a pool of envWorkers threads. */
  realSource(): RolloutSource {
    const workers = this.c.envWorkers ?? 1;
    if (workers > 1) this.pool ??= EnvPool.open(this.c.env, workers);
    return realEngineSource(this.suite, this.pool);
  }
  async closePool(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }
  async metric(row: Record<string, unknown>): Promise<void> {
    await appendFile(this.path('metrics.jsonl'), `${JSON.stringify(row)}\n`);
  }
  /** Runs a stage unless `done()` says its result exists; records its wall time. */
  async stage<T>(name: string, done: () => boolean, run: () => Promise<void>, load: () => Promise<T>): Promise<T> {
    if (done()) {
      this.log(`[${name}] done already, reusing ${this.o.out}`);
    } else {
      const t0 = performance.now();
      this.log(`[${name}] start`);
      await run();
      this.timings[name] = (performance.now() - t0) / 1000;
      await this.saveTimings();
      this.log(`[${name}] done in ${fmt(this.timings[name]!)} · rss ${(process.memoryUsage.rss() / 1e9).toFixed(2)} GB`);
    }
    return load();
  }
  async saveTimings(): Promise<void> {
    const file = this.path('timings.json');
    const old = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, number>) : {};
    writeFileAtomic(file, `${JSON.stringify({ ...old, ...this.timings }, null, 2)}\n`);
  }
}

const resolveFrom = (dir: string | undefined, p: string) => (isAbsolute(p) || !dir ? resolve(p) : resolve(dir, p));

async function collectRows(suite: EnvSuite, episodes: number, seed: number): Promise<ChatRow[]> {
  const rows: ChatRow[] = [];
  for await (const r of suite.corpusRows({ split: suite.splits[0]!, episodes, seed })) rows.push(r);
  return rows;
}

// (a) the tokenizer: the given file, or byte-level BPE trained on the env's corpus and agent prompts.
async function tokenizerStage(run: Run): Promise<{ tok: Tokenizer; json: string }> {
  const c = run.c;
  const file = c.tokenizer.path ? resolveFrom(run.o.configDir, c.tokenizer.path) : run.path('tokenizer', 'tokenizer.json');
  return run.stage(
    'tokenizer',
    () => existsSync(file),
    async () => {
      const rows = await collectRows(run.suite, c.tokenizer.episodes, c.seed);
      const texts = [run.suite.agent.system(), ...rows.flatMap((r) => chatTrainingTexts(r.messages))];
      for (const t of run.suite.tasks(run.suite.splits[0]!).slice(0, c.tokenizer.episodes)) {
        const env = run.suite.createEnv();
        texts.push(run.suite.agent.firstUserTurn(await env.reset(t)), ...run.suite.expert(t).map((a) => run.suite.agent.formatAction(a)));
        await env.close?.();
      }
      const { json, stats } = await trainTokenizer(texts, { vocabSize: c.tokenizer.vocabSize });
      await mkdir(run.path('tokenizer'), { recursive: true });
      writeFileAtomic(file, `${JSON.stringify(json)}\n`);
      run.log(`[tokenizer] vocab ${stats.vocabSize} from ${(stats.chars / 1e6).toFixed(2)} M chars`);
    },
    async () => {
      const json = await readFile(file, 'utf8');
      return { tok: Tokenizer.fromJson(JSON.parse(json), file), json };
    },
  );
}

// (b) the world model: corpus rows (middle-truncated to the row budget) and trainWorldModel.
async function worldModelStage(run: Run, tok: Tokenizer, tokJson: string): Promise<string> {
  const c = run.c.worldModel;
  const train = resolveTrainConfig(c.train, { seed: run.c.seed, seqLength: Math.ceil(c.maxRowTokens / (c.train.blockLength ?? 4)) * (c.train.blockLength ?? 4) }, 'worldModel.train');
  if (c.path) {
    return resolveFrom(run.o.configDir, c.path);
  }
  const corpus = run.path('world-model', 'corpus.jsonl');
  const runDir = run.path('world-model', 'run');
  const modelDir = join(runDir, 'model');
  await run.stage(
    'world-model',
    () => existsSync(join(modelDir, 'config.json')),
    async () => {
      await mkdir(run.path('world-model'), { recursive: true });
      if (!existsSync(corpus)) {
        const count = (s: string) => tok.encodeIds(s, { addSpecialTokens: false }).length;
        // Every row within maxRowTokens (template included): records and history cut, or dropped.
        const outcomes = { fits: 0, shortened: 0, dropped: 0 };
        const rows = (await collectRows(run.suite, c.episodes, run.c.seed)).flatMap((r) => {
          const f = fitWorldModelRow(r, { maxTokens: c.maxRowTokens, count, seed: run.c.seed });
          outcomes[f.outcome]++;
          return f.row ? [f.row] : [];
        });
        if (rows.length === 0)
          throw new GrpoError(
            'bad_config',
            `worldModel.maxRowTokens ${c.maxRowTokens}: no ${run.c.env} corpus row fits (${outcomes.dropped} dropped: the target, action and the history's head alone are longer); raise it`,
          );
        writeFileAtomic(corpus, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
        run.log(`[world-model] corpus: ${rows.length} rows within ${c.maxRowTokens} tokens (${outcomes.fits} as played, ${outcomes.shortened} shortened, ${outcomes.dropped} dropped)`);
        await run.metric({ stage: 'world-model-corpus', maxRowTokens: c.maxRowTokens, ...outcomes });
      }
      const summary = await trainWorldModel({
        config: train,
        data: [corpus],
        tokenizer: tok,
        tokenizerJson: tokJson,
        out: runDir,
        resume: existsSync(join(runDir, 'train_config.json')),
        ...(run.provider ? { provider: run.provider } : {}),
        log: (l) => run.log(`[world-model] ${l}`),
      });
      await run.metric({
        stage: 'world-model',
        steps: summary.steps,
        loss: summary.finalLoss,
        evalLoss: summary.evalLoss ?? null,
        examples: summary.examples.train,
        dropped: summary.examples.dropped,
      });
    },
    async () => undefined,
  );
  return modelDir;
}

interface PolicySetup {
  model: ModelConfig;
  codec: ChatTurnCodec;
  /** The evaluation scorer, built again after Run.releaseGraphs. */
  scorer(): Promise<PolicyScorer>;
}

// (c) SFT of the policy on expert demonstrations played in the real engine (assistant tokens only).
async function sftStage(run: Run, setup: PolicySetup, tokJson: string): Promise<Record<string, Float32Array>> {
  const c = run.c;
  const baseDir = run.path('policy', 'base');
  const sftDir = run.path('policy', 'sft');
  if (!existsSync(join(baseDir, 'config.json'))) await savePolicy(baseDir, setup.model, tokJson, initialWeights(setup.model, c.policy.seed));
  return run.stage(
    'sft',
    () => existsSync(join(sftDir, 'config.json')),
    async () => {
      const base = (await loadPolicy(baseDir)).params;
      const rng = new Rng(c.seed).fork('sft');
      const pool = run.suite.tasks(run.suite.splits[0]!);
      const tasks = rng.sample(pool, Math.min(c.sft.demos, pool.length));
      const real = realEngineSource(run.suite);
      const demos: Episode[] = [];
      for (const t of tasks) {
        const env = real.makeEnv();
        demos.push(
          await demonstration(
            env,
            t,
            run.suite.expert(t).map((a) => run.suite.agent.formatAction(a)),
            setup.codec,
            c.rollout,
            t.seed,
          ),
        );
        await env.close?.();
      }
      const trainer = await SftTrainer.create(
        { model: setup.model, batch: c.sft.batch, seqLen: c.rollout.maxSeqLen, schedule: constant(c.sft.lr), clipNorm: 1, ...(run.provider ? { provider: run.provider } : {}) },
        base,
      );
      // With sft.saveEvery, checkpoints hold weights, AdamW moments and the rest of the data order
      // (epoch orders are forks keyed by step, so a resumed run draws the same rows as an uninterrupted one).
      const ckptDir = run.path('policy', 'sft-checkpoints');
      let first = 0;
      let order: number[] = [];
      const latest = c.sft.saveEvery ? await latestCheckpoint(ckptDir) : undefined;
      if (latest) {
        const saved = await loadPolicy(latest.path);
        const st = saved.trainerState as { step: number; nextOptimizerStep: number; order: number[] };
        trainer.restore({ optimizer: saved.optimizer!, nextOptimizerStep: st.nextOptimizerStep });
        first = st.step;
        order = st.order;
        run.log(`[sft] resumed at step ${first} from ${latest.path}`);
      }
      const t0 = performance.now();
      for (let s = first; s < c.sft.steps; s++) {
        if (order.length < c.sft.batch) order = [...order, ...rng.fork(`epoch${s}`).shuffle(demos.map((_, i) => i))];
        const rows = order.splice(0, c.sft.batch).map((i) => demos[i]!);
        const r = await trainer.step(rows);
        await run.metric({ stage: 'sft', step: s + 1, loss: r.loss, gradNorm: r.gradNorm, lr: r.lr });
        if ((s + 1) % 10 === 0 || s + 1 === c.sft.steps) {
          const el = (performance.now() - t0) / 1000;
          run.log(`[sft] step ${s + 1}/${c.sft.steps} loss ${r.loss.toFixed(4)} · ${fmt(el)} elapsed, eta ${fmt((el / (s + 1 - first)) * (c.sft.steps - s - 1))}`);
        }
        if (c.sft.saveEvery && (s + 1) % c.sft.saveEvery === 0 && s + 1 < c.sft.steps) {
          const st = trainer.state();
          await savePolicy(join(ckptDir, checkpointDirName(s + 1)), setup.model, tokJson, trainer.params(), {
            optimizer: st.optimizer,
            trainerState: { step: s + 1, nextOptimizerStep: st.nextOptimizerStep, order },
          });
          await pruneCheckpoints(ckptDir, 2);
          run.log(`[sft] checkpoint step ${s + 1} saved`);
        }
      }
      await savePolicy(sftDir, setup.model, tokJson, trainer.params());
    },
    async () => (await loadPolicy(sftDir)).params,
  );
}

// (d) and the periodic evaluations: a stored AgentEvaluation per (policy, step).
async function evalStage(run: Run, setup: PolicySetup, name: string, params: Record<string, Float32Array>): Promise<AgentEvaluation> {
  const file = run.path('eval', `${name}.json`);
  return run.stage(
    `eval:${name}`,
    () => existsSync(file),
    async () => {
      const split = run.c.eval.split ?? run.suite.splits[1]!;
      const opts = {
        source: run.realSource(),
        split,
        tasks: run.c.eval.tasks,
        seed: run.c.seed,
        temperature: run.c.eval.temperature,
        limits: run.c.rollout,
        label: name,
        cache: run.c.rollout.cache,
        ...(run.provider ? { provider: run.provider } : {}),
      };
      await mkdir(run.path('eval'), { recursive: true });
      // With eval.chunk, the games are played chunk by chunk, each stored when done, so a long
      // evaluation continues over several invocations; the merged result equals one pass.
      const total = evalTasks(run.c.env, split, run.c.eval.tasks, run.c.seed).length;
      const chunk = run.c.eval.chunk ?? total;
      const parts: AgentEvaluation[] = [];
      for (let from = 0; from < total; from += chunk) {
        if (chunk >= total) {
          parts.push(await evaluatePolicy(await setup.scorer(), params, setup.codec, opts));
          break;
        }
        const part = run.path('eval', `${name}.part-${String(from).padStart(5, '0')}.json`);
        if (existsSync(part)) {
          parts.push(JSON.parse(await readFile(part, 'utf8')) as AgentEvaluation);
          continue;
        }
        const ev = await evaluatePolicy(await setup.scorer(), params, setup.codec, { ...opts, range: { from, to: Math.min(from + chunk, total) } });
        writeFileAtomic(part, JSON.stringify(ev));
        parts.push(ev);
        run.log(`[eval:${name}] games ${from + 1}–${Math.min(from + chunk, total)} of ${total}: ${ev.summary.overall.wins} won`);
      }
      const ev = mergeEvaluations(parts);
      writeFileAtomic(file, JSON.stringify(ev));
      const s = ev.summary.overall;
      await run.metric({ stage: 'eval', policy: name, success: s.successRate, ci95: s.successCI95, meanScore: s.meanScore, episodes: s.episodes });
      run.log(
        `[eval:${name}] success ${s.wins}/${s.episodes} = ${(s.successRate * 100).toFixed(1)}% (95% CI ${(s.successCI95[0] * 100).toFixed(1)}–${(s.successCI95[1] * 100).toFixed(1)}%) mean score ${s.meanScore.toFixed(3)}`,
      );
    },
    async () => JSON.parse(await readFile(file, 'utf8')) as AgentEvaluation,
  );
}

function grpoConfig(c: PipelineConfig, model: ModelConfig, provider: ProviderName | undefined): GrpoConfig {
  const g = c.grpo;
  return {
    model,
    loss: { epsilonLow: g.epsilon, ...(g.epsilonHigh === undefined ? {} : { epsilonHigh: g.epsilonHigh }), beta: g.beta, aggregation: g.aggregation, temperature: g.temperature },
    groupSize: g.groupSize,
    microBatch: g.microBatch,
    innerEpochs: g.innerEpochs,
    scaleRewards: g.scaleRewards,
    limits: c.rollout,
    sampling: { temperature: g.temperature, topP: g.topP },
    clipNorm: g.maxGradNorm,
    // ms-swift: constant schedule after a 5 % warmup.
    schedule: constantWithWarmup(g.lr, Math.round(0.05 * g.steps)),
    rolloutCache: c.rollout.cache,
    ...(provider ? { provider } : {}),
  };
}

// (e)/(f) GRPO from the SFT policy against one rollout source; checkpoints every saveEvery steps.
async function grpoStage(
  run: Run,
  setup: PolicySetup,
  tokJson: string,
  stage: 'world-model' | 'real',
  source: () => Promise<RolloutSource>,
  sft: Record<string, Float32Array>,
): Promise<Record<string, Float32Array>> {
  const c = run.c;
  const dir = run.path(`grpo-${stage}`);
  const finalDir = join(dir, 'final');
  return run.stage(
    `grpo:${stage}`,
    () => existsSync(join(finalDir, 'config.json')),
    async () => {
      await mkdir(dir, { recursive: true });
      const src = await source();
      const trainer = await GrpoTrainer.create(grpoConfig(c, setup.model, run.provider), sft, { reference: sft });
      const latest = await latestCheckpoint(dir);
      if (latest) {
        const saved = await loadPolicy(latest.path);
        const st = saved.trainerState as { step: number; nextOptimizerStep: number };
        trainer.restore({ step: st.step, nextOptimizerStep: st.nextOptimizerStep, optimizer: saved.optimizer!, reference: sft });
        run.log(`[grpo:${stage}] resumed at step ${st.step} from ${latest.path}`);
        // A run stopped between a checkpoint and the evaluation due at that step evaluates it now.
        if (c.grpo.evalEvery > 0 && st.step % c.grpo.evalEvery === 0 && st.step < c.grpo.steps)
          await evalStage(run, setup, `${stage}-step${st.step}`, trainer.params() as Record<string, Float32Array>);
      }
      // The task stream is the same for both stages (same seed): step k plays the same tasks.
      const pool = run.suite.tasks(run.suite.splits[0]!);
      const t0 = performance.now();
      const first = trainer.state().step;
      for (let step = first; step < c.grpo.steps; step++) {
        const rng = new Rng(c.seed).fork(`grpo|${step}`);
        const tasks: TaskRef[] = rng.sample(pool, Math.min(c.grpo.tasksPerStep, pool.length));
        const jobs = trainer.jobsFor(tasks, () => src.makeEnv(), rng);
        const m = await stepWithSuiteReward(trainer, jobs, setup.codec, run.suite);
        await Promise.all(jobs.map((j) => j.env.close?.()));
        await run.metric({ stage: `grpo:${stage}`, ...m });
        const el = (performance.now() - t0) / 1000;
        const done = step + 1 - first;
        run.log(
          `[grpo:${stage}] step ${m.step}/${c.grpo.steps} reward ${m.rewardMean.toFixed(3)} success ${(m.success * 100).toFixed(0)}% kl ${Number.isNaN(m.kl) ? '-' : m.kl.toExponential(2)} turns ${m.turns.toFixed(1)} rollout ${(m.rolloutMs / 1000).toFixed(1)}s update ${(m.updateMs / 1000).toFixed(1)}s · eta ${fmt((el / done) * (c.grpo.steps - step - 1))}`,
        );
        // Checkpoint first: a long (chunked) evaluation cut off by a command's time limit then
        // resumes from this step instead of training it again.
        if (m.step % c.grpo.saveEvery === 0 || m.step === c.grpo.steps) {
          const st = trainer.state();
          await savePolicy(join(dir, checkpointDirName(m.step)), setup.model, tokJson, trainer.params(), {
            optimizer: st.optimizer,
            trainerState: { step: st.step, nextOptimizerStep: st.nextOptimizerStep },
          });
          await pruneCheckpoints(dir, 2);
          run.log(`[grpo:${stage}] checkpoint step ${m.step} saved`);
        }
        if (c.grpo.evalEvery > 0 && m.step % c.grpo.evalEvery === 0 && m.step < c.grpo.steps) await evalStage(run, setup, `${stage}-step${m.step}`, trainer.params() as Record<string, Float32Array>);
      }
      await savePolicy(finalDir, setup.model, tokJson, trainer.params());
    },
    async () => (await loadPolicy(finalDir)).params,
  );
}

/** A GRPO step whose rewards are the suite's reward functions over each episode's messages. */
async function stepWithSuiteReward(trainer: GrpoTrainer, jobs: ReturnType<GrpoTrainer['jobsFor']>, codec: ChatTurnCodec, suite: EnvSuite): Promise<GrpoStepMetrics> {
  const r0 = performance.now();
  const episodes = applySuiteReward(suite, suite.agent.system(), await trainer.collect(jobs, codec));
  return trainer.stepOn(episodes, performance.now() - r0);
}

function checkRunDir(o: PipelineOptions): void {
  const file = join(o.out, 'pipeline_config.json');
  if (!existsSync(file)) return;
  if (!o.resume) throw new GrpoError('bad_config', `${o.out} already holds a pipeline run; pass --resume to continue it or choose another --out`);
  const saved = readFileSync(file, 'utf8');
  if (saved.trim() !== JSON.stringify(o.config, null, 2).trim())
    throw new GrpoError('bad_config', `${o.out}: the config differs from the one this run started with (${file}); a resumed run must use the same settings`);
}

export async function runGrpoPipeline(o: PipelineOptions): Promise<PipelineResult> {
  checkRunDir(o);
  // Refuse a config whose training graphs would not fit in memory before spending any time on it.
  const estimates = checkMemoryBudget(o.config);
  await mkdir(o.out, { recursive: true });
  writeFileAtomic(join(o.out, 'pipeline_config.json'), `${JSON.stringify(o.config, null, 2)}\n`);
  const run = new Run(o, o.config);
  const c = o.config;
  run.log(`[memory] estimated peaks: ${estimates.map((e) => `${e.what.split(' (')[0]} ${(e.bytes / 1e9).toFixed(1)} GB`).join(', ')}`);
  try {
    const t0 = performance.now();
    const { tok, json: tokJson } = await tokenizerStage(run);
    const wm = c.worldModel.urls ? undefined : await worldModelStage(run, tok, tokJson);
    await run.releaseGraphs();
    const model = parseHfConfig({ ...c.policy.model, vocab_size: tok.vocabSize }, 'policy.model');
    const codec = new ChatTurnCodec(tok, { system: run.suite.agent.system() });
    const setup: PolicySetup = {
      model,
      codec,
      scorer: () => (run.scorer ??= PolicyScorer.create(model, { batch: c.grpo.microBatch, seqLen: c.rollout.maxSeqLen, temperature: 1, ...(run.provider ? { provider: run.provider } : {}) })),
    };
    const sft = await sftStage(run, setup, tokJson);
    await run.releaseGraphs();
    const base = (await loadPolicy(run.path('policy', 'base'))).params;
    const evBase = await evalStage(run, setup, 'base', base);
    const evSft = await evalStage(run, setup, 'sft', sft);
    const spec: WorldModelSpec = c.worldModel.urls
      ? { kind: 'remote', urls: c.worldModel.urls, protocol: c.worldModel.protocol ?? 'openai' }
      : {
          kind: 'local',
          dir: wm!,
          maxPromptTokens: c.worldModel.maxPromptTokens,
          ...(run.provider ? { provider: run.provider } : {}),
          // Requests shaped as the training rows: the row budget less the answer and the template.
          budget: { maxPromptTokens: c.worldModel.maxRowTokens - TEMPLATE_TOKENS - c.worldModel.sampling.maxNewTokens, count: (s: string) => tok.encodeIds(s, { addSpecialTokens: false }).length },
        };
    const wmSource = async () => worldModelSource(run.suite, await openWorldModel(c.env, spec, c.worldModel.sampling));
    const rlWm = await grpoStage(run, setup, tokJson, 'world-model', wmSource, sft);
    await run.releaseGraphs();
    const evWm = await evalStage(run, setup, 'sft+rl-world-model', rlWm);
    const rlReal = await grpoStage(run, setup, tokJson, 'real', async () => run.realSource(), sft);
    await run.releaseGraphs();
    const evReal = await evalStage(run, setup, 'sft+rl-real', rlReal);
    const timings = existsSync(run.path('timings.json')) ? (JSON.parse(await readFile(run.path('timings.json'), 'utf8')) as Record<string, number>) : {};
    timings['total (this invocation)'] = (performance.now() - t0) / 1000;
    const report = pipelineSummary(c, { base: evBase, sft: evSft, 'sft+rl(world model)': evWm, 'sft+rl(real)': evReal }, timings);
    const reportMarkdown = renderPipelineMarkdown(report);
    const metricsText = await readFile(run.path('metrics.jsonl'), 'utf8').catch(() => '');
    const reportHtml = renderHtmlPipeline(report, metricsText);
    await writeFile(run.path('report.md'), reportMarkdown);
    await writeFile(run.path('report.html'), reportHtml);
    run.log(`[report] ${run.path('report.md')}`);
    return { report, reportMarkdown, reportHtml, timings };
  } finally {
    await run.closePool();
  }
}

function renderHtmlPipeline(report: PipelineReport, metricsText: string): string {
  // One curve set per training stage (SFT loss, GRPO reward/success/KL…) from the run's metrics.jsonl.
  const metrics = ['sft', 'grpo:world-model', 'grpo:real']
    .map((stage) => ({
      stage,
      lines: metricsText
        .split('\n')
        .filter((l) => l.includes(`"stage":"${stage}"`))
        .join('\n'),
    }))
    .filter((r) => r.lines !== '')
    .map((r) => parseMetricsJsonl(r.lines, r.stage));
  return renderComparisonHtml(report, metrics.length > 0 ? renderHtmlReport({ title: 'Training curves', metrics }) : '');
}
