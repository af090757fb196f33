// runRepro: the paper's two questions at small scale, as content-addressed stages under one
// directory (cache.ts): data (corpus from the real engine, length diversification, tokenizer,
// rows fitted to the row budget) → train a bd3 and an ar world model of the same architecture,
// data and step budget → per model: fidelity and diversity on held-out transitions, the
// anchor-steering test, replay consistency against the real engine → RQ2 over seeds (rq2.ts) →
// results.json, report.md, report.html. Each stage writes its result as JSON; a rerun skips every
// stage whose inputs are unchanged, and a killed stage continues where it stopped.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diversifyRow, writeFileAtomic, type ChatRow, type DiversifyCounts } from '@diffworld/dataset';
import { evaluateWorldModel, localCompleter, selectTasks, type PyDict } from '@diffworld/eval';
import { envSuite } from '@diffworld/envs';
import { ChatGenerator, clearSessionCache, resolveTrainConfig, trainWorldModel, type ProviderName } from '@diffworld/mdlm-core';
import { Tokenizer, chatTrainingTexts, trainTokenizer } from '@diffworld/tokenizer';
import { GrpoError } from '../errors.js';
import { defaultPipelineConfig } from '../pipeline/config.js';
import { TEMPLATE_TOKENS, fitWorldModelRow } from '../pipeline/wm-budget.js';
import { openWorldModel } from '../pipeline/world-model.js';
import { cachedStage, type StageOutcome } from './cache.js';
import { REPRO_OBJECTIVES, type ReproConfig, type ReproObjective } from './config.js';
import { replayConsistency, type ReplayResult } from './replay.js';
import { renderReproHtml, renderReproMarkdown } from './report.js';
import { runRq2, type Rq2Result } from './rq2.js';
import { steeringArms, steeringTest, type SteeringResult } from './steering.js';

export interface DataResult {
  trainRows: number;
  heldoutRows: number;
  heldoutSplit: string;
  diversify: DiversifyCounts | null;
  fit: { train: Record<string, number>; heldout: Record<string, number> };
  vocabSize: number;
}

export interface TrainResult {
  objective: ReproObjective;
  steps: number;
  finalLoss: number;
  evalLoss: number | null;
  trainExamples: number;
  tokensPerSecond: number;
  provider: string;
  parameters: number;
  architecture: string;
}

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
  config: ReproConfig;
  data: DataResult;
  train: Record<ReproObjective, TrainResult>;
  fidelity: Record<ReproObjective, FidelityResult>;
  steering: Record<ReproObjective, SteeringResult>;
  replay: Record<ReproObjective, ReplayResult>;
  rq2: Rq2Result;
  stages: { stage: string; hash: string; cached: boolean; seconds: number }[];
}

export interface ReproOptions {
  config: ReproConfig;
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
const writeRows = (file: string, rows: readonly ChatRow[]) => writeFileAtomic(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

/** Parameters of a LLaMA-family HF config (embeddings counted once when tied). */
export function parameterCount(cfg: Record<string, number | boolean | string>): number {
  const d = Number(cfg['hidden_size']),
    L = Number(cfg['num_hidden_layers']),
    ff = Number(cfg['intermediate_size']),
    V = Number(cfg['vocab_size']);
  const h = Number(cfg['num_attention_heads']),
    kv = Number(cfg['num_key_value_heads'] ?? h),
    hd = Number(cfg['head_dim'] ?? d / h);
  const attn = d * h * hd + 2 * d * kv * hd + h * hd * d;
  const layer = attn + 3 * d * ff + 2 * d + (cfg['model_type'] === 'qwen3' ? 2 * hd : 0);
  return V * d * (cfg['tie_word_embeddings'] === false ? 2 : 1) + L * layer + d;
}

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

/**
 * What a downstream stage hashes of an upstream one: its hash and its stored result, so a stage
 * that is run again (its result.json removed) and comes out differently invalidates what read it.
 */
const artefact = <T>(s: StageOutcome<T>) => ({ hash: s.hash, result: s.result });

export async function runRepro(o: ReproOptions): Promise<ReproRun> {
  const c = o.config;
  const log = o.log ?? (() => {});
  const suite = envSuite(c.env);
  const provider = c.provider as ProviderName | undefined;
  const heldoutSplit = c.corpus.heldoutSplit ?? suite.splits[1]!;
  mkdirSync(o.out, { recursive: true });
  const stages: ReproResults['stages'] = [];
  const track = <T>(name: string, s: StageOutcome<T>) => {
    stages.push({ stage: name, hash: s.hash, cached: s.cached, seconds: s.seconds });
    return s;
  };

  // 1. Data: corpus rows from the real engine, diversified, a tokenizer, every row within the budget.
  const data = track(
    'data',
    await cachedStage(
      o.out,
      'data',
      { env: c.env, seed: c.seed, corpus: c.corpus, heldoutSplit, tokenizer: c.tokenizer },
      async (dir) => {
        const collect = async (split: string, episodes: number, seed: number) => {
          const rows: ChatRow[] = [];
          for await (const r of suite.corpusRows({ split, episodes, seed })) rows.push(r);
          return rows;
        };
        let train = await collect(suite.splits[0]!, c.corpus.trainEpisodes, c.seed);
        const heldout = await collect(heldoutSplit, c.corpus.heldoutEpisodes, c.seed + 1);
        let counts: DiversifyCounts | null = null;
        if (c.corpus.diversify) {
          counts = { rowsIn: 0, rowsOut: 0, truncated: 0, turnsDropped: 0, subTrajectories: 0 };
          const cnt = counts;
          train = train.flatMap((r) => diversifyRow(r, { maxTokens: c.corpus.maxRowTokens, seed: c.seed, subTrajectoryProb: c.corpus.subTrajectoryProb }, cnt));
        }
        // The tokenizer also sees the agent's prompts and actions: the RQ2 policies share it.
        const texts = [suite.agent.system(), ...train.flatMap((r) => chatTrainingTexts(r.messages))];
        for (const t of suite.tasks(suite.splits[0]!).slice(0, c.corpus.trainEpisodes)) {
          const env = suite.createEnv();
          texts.push(suite.agent.firstUserTurn(await env.reset(t)), ...suite.expert(t).map((a) => suite.agent.formatAction(a)));
          await env.close?.();
        }
        const { json, stats } = await trainTokenizer(texts, { vocabSize: c.tokenizer.vocabSize });
        writeFileAtomic(join(dir, 'tokenizer.json'), `${JSON.stringify(json)}\n`);
        const tok = Tokenizer.fromJson(json, 'repro tokenizer');
        const count = (s: string) => tok.encodeIds(s, { addSpecialTokens: false }).length;
        const fit = (rows: ChatRow[]) => {
          const outcomes: Record<string, number> = { fits: 0, shortened: 0, dropped: 0 };
          const kept = rows.flatMap((r) => {
            const f = fitWorldModelRow(r, { maxTokens: c.corpus.maxRowTokens, count, seed: c.seed });
            outcomes[f.outcome] = (outcomes[f.outcome] ?? 0) + 1;
            return f.row ? [f.row] : [];
          });
          return { kept, outcomes };
        };
        const ft = fit(train),
          fh = fit(heldout);
        if (ft.kept.length === 0 || fh.kept.length < 2)
          throw new GrpoError(
            'bad_config',
            `repro config.corpus.maxRowTokens ${c.corpus.maxRowTokens}: leaves ${ft.kept.length} training and ${fh.kept.length} held-out ${c.env} rows (${ft.outcomes['dropped']} + ${fh.outcomes['dropped']} dropped as too long with a ${stats.vocabSize}-token vocabulary); raise it or tokenizer.vocabSize`,
          );
        writeRows(join(dir, 'train.jsonl'), ft.kept);
        writeRows(join(dir, 'heldout.jsonl'), fh.kept);
        log(`[data] ${ft.kept.length} training rows, ${fh.kept.length} held-out rows (${heldoutSplit}), vocab ${stats.vocabSize}`);
        return {
          trainRows: ft.kept.length,
          heldoutRows: fh.kept.length,
          heldoutSplit,
          diversify: counts,
          fit: { train: ft.outcomes, heldout: fh.outcomes },
          vocabSize: stats.vocabSize,
        } satisfies DataResult;
      },
      log,
    ),
  );
  const tokPath = join(data.dir, 'tokenizer.json');
  const tokJson = readFileSync(tokPath, 'utf8');
  const tok = Tokenizer.fromJson(JSON.parse(tokJson), tokPath);
  const heldoutFile = join(data.dir, 'heldout.jsonl');
  const heldoutRows = readRows(heldoutFile);

  // 2. Two world models: same architecture, data, seed and steps; only the objective differs.
  const trained = {} as Record<ReproObjective, StageOutcome<TrainResult>>;
  for (const objective of REPRO_OBJECTIVES) {
    const block = c.worldModel.train.blockLength ?? 4;
    const config = resolveTrainConfig(c.worldModel.train, { objective, seed: c.seed, seqLength: Math.ceil(c.corpus.maxRowTokens / block) * block }, 'repro worldModel.train');
    trained[objective] = track(
      `train-${objective}`,
      await cachedStage(
        o.out,
        `train-${objective}`,
        { data: artefact(data), config, precision: c.worldModel.precision, provider: c.provider ?? null },
        async (dir) => {
          const s = await trainWorldModel({
            config,
            data: [join(data.dir, 'train.jsonl')],
            evalData: [heldoutFile],
            tokenizer: tok,
            tokenizerJson: tokJson,
            out: join(dir, 'run'),
            resume: 'auto',
            precision: c.worldModel.precision,
            ...(provider ? { provider } : {}),
            log: (l) => log(`[train-${objective}] ${l}`),
          });
          const hf = JSON.parse(readFileSync(join(s.modelDir, 'config.json'), 'utf8')) as Record<string, number | boolean | string>;
          await clearSessionCache();
          return {
            objective,
            steps: s.steps,
            finalLoss: s.finalLoss,
            evalLoss: s.evalLoss ?? null,
            trainExamples: s.examples.train,
            tokensPerSecond: s.tokensPerSecond,
            provider: s.provider,
            parameters: parameterCount(hf),
            architecture: `${String(hf['model_type'])} ${String(hf['num_hidden_layers'])}×${String(hf['hidden_size'])}`,
          } satisfies TrainResult;
        },
        log,
      ),
    );
  }
  const modelDir = (obj: ReproObjective) => join(trained[obj].dir, 'run', 'model');

  // 3. Per model: fidelity and diversity, anchor steering, replay consistency.
  const fidelity = {} as Record<ReproObjective, FidelityResult>;
  const steering = {} as Record<ReproObjective, SteeringResult>;
  const replay = {} as Record<ReproObjective, ReplayResult>;
  for (const obj of REPRO_OBJECTIVES) {
    const upstream = { data: artefact(data), model: artefact(trained[obj]) };
    const f = c.fidelity;
    fidelity[obj] = track(
      `fidelity-${obj}`,
      await cachedStage(
        o.out,
        `fidelity-${obj}`,
        { ...upstream, fidelity: f, seed: c.seed },
        async (dir) => {
          const generator = await ChatGenerator.load(modelDir(obj), provider ? { provider } : {});
          const completer = localCompleter(generator, { temperature: f.temperature, maxNewTokens: f.maxNewTokens, batchSize: f.batchSize, seed: c.seed });
          const ev = await evaluateWorldModel({
            completer,
            data: heldoutFile,
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
          await clearSessionCache();
          return fidelityOf(ev.summary, ev.generation);
        },
        log,
      ),
    ).result;
    steering[obj] = track(
      `steering-${obj}`,
      await cachedStage(
        o.out,
        `steering-${obj}`,
        { ...upstream, steering: c.steering, seed: c.seed, arms: steeringArms(obj) },
        async () => {
          const generator = await ChatGenerator.load(modelDir(obj), provider ? { provider } : {});
          const r = await steeringTest(generator, tok, heldoutRows, c.steering, c.seed);
          await clearSessionCache();
          return r;
        },
        log,
      ),
    ).result;
    replay[obj] = track(
      `replay-${obj}`,
      await cachedStage(
        o.out,
        `replay-${obj}`,
        { ...upstream, replay: c.replay, heldoutSplit, seed: c.seed },
        async () => {
          const sampling = { ...defaultPipelineConfig(c.env).worldModel.sampling, maxNewTokens: c.replay.maxNewTokens };
          const count = (s: string) => tok.encodeIds(s, { addSpecialTokens: false }).length;
          const wm = await openWorldModel(
            c.env,
            {
              kind: 'local',
              dir: modelDir(obj),
              maxPromptTokens: c.corpus.maxRowTokens,
              ...(provider ? { provider } : {}),
              budget: { maxPromptTokens: c.corpus.maxRowTokens - TEMPLATE_TOKENS - c.replay.maxNewTokens, count },
            },
            sampling,
          );
          const r = await replayConsistency(suite, wm, selectTasks(c.env, heldoutSplit, c.replay.tasks, c.seed), c.replay.maxSteps);
          await clearSessionCache();
          log(`[replay-${obj}] ${(r.reproduced * 100).toFixed(1)}% of ${r.transitions} simulated transitions reproduced by the real engine`);
          return r;
        },
        log,
      ),
    ).result;
  }

  // 4. RQ2 over seeds.
  const rq2 = track(
    'rq2',
    await cachedStage(
      o.out,
      'rq2',
      { data: artefact(data), models: { bd3: artefact(trained.bd3), ar: artefact(trained.ar) }, rq2: c.rq2, provider: c.provider ?? null, maxRowTokens: c.corpus.maxRowTokens },
      (dir) => runRq2(dir, c, tokPath, { bd3: modelDir('bd3'), ar: modelDir('ar') }, log),
      log,
    ),
  ).result;

  // 5. Results and the report (always rewritten: cheap, and it lists which stages were cached).
  const results: ReproResults = {
    env: c.env,
    config: c,
    data: data.result,
    train: { bd3: trained.bd3.result, ar: trained.ar.result },
    fidelity,
    steering,
    replay,
    rq2,
    stages,
  };
  const paths = { results: join(o.out, 'results.json'), markdown: join(o.out, 'report.md'), html: join(o.out, 'report.html') };
  const reportMarkdown = renderReproMarkdown(results);
  const reportHtml = renderReproHtml(results);
  writeFileAtomic(paths.results, `${JSON.stringify(results, null, 2)}\n`);
  writeFileAtomic(paths.markdown, reportMarkdown);
  writeFileAtomic(paths.html, reportHtml);
  log(`[report] ${paths.markdown}`);
  return { results, reportMarkdown, reportHtml, paths };
}
