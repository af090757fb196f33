// The world-model trainer: chat rows → packed batches → training steps, with held-out loss,
// checkpoints every N steps (kept-last-K), exact resume, a metrics JSONL and a progress line.
// A run is a directory:
//   train_config.json      the resolved settings (checked again on --resume)
//   metrics.jsonl          one line per logged step / eval
//   checkpoint-000050/     HF directory + optimizer.safetensors + trainer_state.json
//   model/                 the final model (HF directory, loadable by transformers)
// Batch k and the noise of micro-batch k are pure functions of (data, seed, k), and checkpoints
// keep float32 parameters and moments, so a killed run resumes to the same final weights, bit for bit.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetError, type ReadOptions, Rng, type WorldModelLayout, contentHash, fitEpisodeWindow, parseEpisodeRow, readRows, worldModelLayoutOf, writeFileAtomic } from '@diffworld/dataset';
import type { ChatMessage, Tokenizer } from '@diffworld/tokenizer';
import { checkpointDirName, latestCheckpoint, loadCheckpoint, pruneCheckpoints, saveCheckpoint, splitSnapshot, sweepStaleTemp, weightArrays } from '../checkpoint/index.js';
import { type ModelConfig, parseHfConfig, toHfConfig } from '../nn/config.js';
import { transformerParams } from '../nn/transformer.js';
import { type Schedule, constant, constantWithWarmup, cosineWithWarmup } from '../optim/index.js';
import { type ProviderName, selectProvider } from '../runtime/index.js';
import { type TrainConfig, resumeMismatches } from './config.js';
import { BatchPlan, type DropReason, type ExampleOptions, type TrainExample, chatExample, eosPadId, materialize } from './data.js';
import { type ObjectiveSpec, objectiveFeeds, objectiveStepSpec } from './objective.js';
import { type Precision, type ScalerState, StepRunner, type StepResult, boundStepSupport } from './runner.js';

export interface TrainRunOptions {
  config: TrainConfig;
  /** Chat-row files (.jsonl / .parquet); or `examples`. */
  data?: readonly string[];
  evalData?: readonly string[];
  /**
   * Token-level training examples instead of chat-row files: the ids and target mask a caller
   * already holds (the agent's demonstrations as its rollouts recorded them, so SFT trains the
   * exact ids the policy sees). ar objective only (the diffusion objectives' block padding is laid
   * out from chat rows); longer than seqLength: dropped and counted; no held-out split
   * (evalFraction does not apply).
   */
  examples?: readonly TrainExample[];
  tokenizer: Tokenizer;
  /** The tokenizer.json text, copied into every checkpoint. */
  tokenizerJson: string;
  out: string;
  /** Start from this HF checkpoint directory instead of random weights. */
  init?: string;
  /** Continue the run in `out` (true: it must exist; 'auto': when it exists, else start it). */
  resume?: boolean | 'auto';
  provider?: ProviderName;
  /**
   * Optimizer steps per ORT call (a Loop graph; results are the same). 'auto' (default): 1, or 16 on
   * the CUDA provider when its IO-bound step is unavailable (the state would otherwise cross host
   * memory every step). Calls end at every log, eval and checkpoint step, so what the run writes
   * does not depend on it.
   */
  stepsPerCall?: number | 'auto';
  /**
   * Run the steps through ORT's C API with the state in session-owned buffers (StepRunnerOptions
   * .ioBinding; CUDA graphs on CUDA). Default: on for the CUDA provider with one step per call.
   * `true` on the CPU runs the same path without graphs (what the tests check it with).
   */
  ioBinding?: boolean;
  /** CUDA graphs for the IO-bound CUDA step (default true); false for steps CUDA cannot capture. */
  cudaGraph?: boolean;
  /**
   * 'bfloat16' / 'float16': mixed precision (half MatMuls, float32 state and checkpoints); default
   * float32. float16 adds dynamic loss scaling; its state is saved in trainer_state.json.
   */
  precision?: Precision;
  /** float16's loss scaler: initial scale (2^16) and growth interval (2000 steps). */
  lossScaling?: { initScale?: number; growthInterval?: number };
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /** Stop after this optimizer step (tests; the run stays resumable). */
  stopAfter?: number;
  /** Each step's metrics record (what metrics.jsonl gets), for a caller's own metrics. */
  onStep?: (record: Readonly<Record<string, number>>) => void | Promise<void>;
}

export interface TrainSummary {
  steps: number;
  finalLoss: number;
  evalLoss: number | undefined;
  /**
   * skippedRows: `file:line: what is wrong` for each malformed row left out (config skipBadRows).
   * windowed: episode-layout rows over the length, trained as the window of their latest steps that fits.
   */
  examples: { train: number; eval: number; dropped: Record<DropReason, number>; windowed: number; skippedRows: string[] };
  /** The world-model layout of the training rows, when they all share one (recorded in generation_config.json). */
  layout: WorldModelLayout | undefined;
  tokensPerSecond: number;
  provider: ProviderName;
  modelDir: string;
}

export class TrainError extends Error {
  override readonly name = 'TrainError';
}

interface Corpus {
  train: TrainExample[];
  eval: TrainExample[];
  dropped: Record<DropReason, number>;
  windowed: number;
  /** Training rows per world-model layout ('other' for rows in neither). */
  layouts: Record<WorldModelLayout | 'other', number>;
  skippedRows: string[];
}

/**
 * The example of a too-long episode-layout row: the window of its latest steps that fits (the
 * system prompt and first user turn kept, the oldest steps dropped whole, as the world model's
 * prompts are windowed), or undefined when the row is not one or not even its last step fits.
 */
function windowedExample(tok: Tokenizer, messages: readonly ChatMessage[], opts: ExampleOptions): TrainExample | undefined {
  const view = parseEpisodeRow(messages);
  if (!view || view.steps.length < 2) return undefined;
  return fitEpisodeWindow(view, (m) => {
    const ex = chatExample(tok, m, opts);
    return typeof ex === 'string' ? undefined : ex;
  })?.value;
}

/** The layout the rows share, or undefined when they mix layouts or are not world-model rows. */
function sharedLayout(c: Corpus): WorldModelLayout | undefined {
  const seen = (Object.keys(c.layouts) as (keyof Corpus['layouts'])[]).filter((k) => c.layouts[k] > 0);
  return seen.length === 1 && seen[0] !== 'other' ? seen[0] : undefined;
}

/** What a strict read's error tells the trainer's user to do (the dataset's own hint names `data`'s flags). */
const BAD_ROW_HINT = 'fix the row, or pass --skip-bad (train config "skipBadRows": true) to skip and list malformed rows';

async function loadExamples(
  files: readonly string[],
  tok: Tokenizer,
  cfg: TrainConfig,
  eosId: number,
  sink: Corpus,
  route: (key: string) => 'train' | 'eval',
  log: (line: string) => void,
): Promise<void> {
  const policy: ReadOptions = cfg.skipBadRows
    ? {
        policy: 'skip',
        onIssue: (m) => {
          sink.skippedRows.push(m);
          log(`skipped ${m}`);
        },
      }
    : { policy: 'strict' };
  for (const file of files) {
    try {
      for await (const row of readRows(file, policy)) {
        const opts: ExampleOptions = { objective: cfg.objective, blockLength: cfg.blockLength, maxLength: cfg.seqLength, eosId };
        let ex = chatExample(tok, row.messages, opts);
        if (ex === 'too_long') {
          const w = windowedExample(tok, row.messages, opts);
          if (w) (ex = w), sink.windowed++;
        }
        const where = route(contentHash(row));
        if (where === 'train') sink.layouts[worldModelLayoutOf(row.messages) ?? 'other']++;
        if (typeof ex === 'string') sink.dropped[ex]++;
        else sink[where].push(ex);
      }
    } catch (e) {
      // Same `file:line: what is wrong` text as `data validate`; only the hint is the trainer's.
      if (e instanceof DatasetError && e.badInput && (e.issue.code === 'malformed_line' || e.issue.code === 'invalid_row')) throw new DatasetError({ ...e.issue, hint: BAD_ROW_HINT });
      throw e;
    }
  }
}

/**
 * Token examples into the corpus (all training rows): checked against the vocabulary and the ar
 * objective's one rule (a sample's first token has nothing before it to predict it from).
 */
function addTokenExamples(examples: readonly TrainExample[], cfg: TrainConfig, vocab: number, sink: Corpus): void {
  if (cfg.objective !== 'ar') throw new TrainError(`token examples train with the ar objective; ${cfg.objective} needs chat rows (its block padding is laid out from them)`);
  examples.forEach((ex, i) => {
    if (ex.ids.length !== ex.target.length) throw new TrainError(`token example ${i}: ${ex.ids.length} ids but ${ex.target.length} target flags`);
    if (ex.target[0]) throw new TrainError(`token example ${i}: its first token is a target, which nothing before it predicts`);
    const bad = ex.ids.findIndex((id) => !(id >= 0 && id < vocab));
    if (bad >= 0) throw new TrainError(`token example ${i}: id ${ex.ids[bad]} at ${bad} is outside the tokenizer's vocabulary of ${vocab}`);
    if (ex.ids.length > cfg.seqLength) sink.dropped.too_long++;
    else if (!ex.target.some((t) => t === 1)) sink.dropped.no_target++;
    else {
      sink.train.push(ex);
      sink.layouts.other++;
    }
  });
}

function scheduleOf(c: TrainConfig): Schedule {
  const warmup = Math.round(c.warmupRatio * c.steps);
  switch (c.schedule) {
    case 'constant':
      return constant(c.lr);
    case 'constant_with_warmup':
      return constantWithWarmup(c.lr, warmup);
    case 'cosine':
      return cosineWithWarmup({ lr: c.lr, warmup: Math.min(warmup, c.steps - 1), total: c.steps, minLr: c.lr * c.minLrRatio });
  }
}

/**
 * Whether an --init checkpoint predicts token i at position i−1: an AR model (objective ar, or a
 * pretrained causal LM without our generation_config objective) or a bd3 model trained shifted —
 * not an SDAR checkpoint or an unshifted diffusion model.
 */
function initPredictsNext(generationConfig: Readonly<Record<string, unknown>> | undefined, model: ModelConfig): boolean {
  if (model.blockDiffusion) return false;
  const objective = generationConfig?.['objective'];
  if (objective === 'bd3' || objective === 'mdlm') return generationConfig?.['token_shift'] === true;
  return true;
}

/** N(0, 0.02²) weights (transformers' initializer_range), ones for norms, zeros for biases; seeded per parameter. */
export function initialWeights(model: ModelConfig, seed: number): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  const root = new Rng(seed);
  for (const p of transformerParams(model)) {
    const n = p.shape.reduce((a, b) => a * b, 1);
    if (p.name.endsWith('norm.weight')) out[p.name] = new Float32Array(n).fill(1);
    else if (p.name.endsWith('.bias')) out[p.name] = new Float32Array(n);
    else {
      const r = root.fork(p.name);
      const a = new Float32Array(n);
      for (let i = 0; i < n; i += 2) {
        const u = 1 - r.float(),
          v = r.float(); // Box–Muller
        const m = 0.02 * Math.sqrt(-2 * Math.log(u));
        a[i] = m * Math.cos(2 * Math.PI * v);
        if (i + 1 < n) a[i + 1] = m * Math.sin(2 * Math.PI * v);
      }
      out[p.name] = a;
    }
  }
  return out;
}

const fmtTime = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)}h ${Math.round((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m ${Math.round(s % 60)}s` : `${s.toFixed(0)}s`);

export async function trainWorldModel(o: TrainRunOptions): Promise<TrainSummary> {
  const cfg = o.config;
  const log = o.log ?? (() => {});
  const tok = o.tokenizer;
  const eosId = eosPadId(tok);
  if (eosId === undefined) throw new TrainError('the tokenizer has neither <|endoftext|> nor <|im_end|> (needed as EOS padding)');
  const maskId = tok.maskId;
  if (cfg.objective !== 'ar' && maskId === undefined) throw new TrainError(`objective ${cfg.objective} needs a mask token in the tokenizer (<|mask|>, <|MASK|>, [MASK] or <mask>)`);
  const padId = tok.padId ?? eosId;

  // --- the run directory: new, or resumed
  const configPath = join(o.out, 'train_config.json');
  await mkdir(o.out, { recursive: true });
  await sweepStaleTemp(o.out); // temp dirs of a writer killed mid-checkpoint
  let resumeFrom: string | undefined;
  if (o.resume === true || (o.resume === 'auto' && existsSync(configPath))) {
    if (!existsSync(configPath)) throw new TrainError(`--resume: ${o.out} holds no run (no train_config.json)`);
    const saved = JSON.parse(await readFile(configPath, 'utf8')) as { config: TrainConfig; init?: string };
    const diff = resumeMismatches(saved.config, cfg);
    if (diff.length) throw new TrainError(`--resume: settings differ from the run in ${o.out}: ${diff.join(', ')}`);
    resumeFrom = (await latestCheckpoint(o.out))?.path;
  } else if (existsSync(configPath)) {
    throw new TrainError(`${o.out} already holds a run; pass --resume to continue it or choose another --out`);
  }

  // --- the model
  let model: ModelConfig;
  let init: Record<string, Float32Array>;
  let moments: Record<string, Float32Array> | undefined;
  let scaler: ScalerState | undefined;
  let startStep = 1;
  let tokensSeen = 0;
  /** Whether the weights the run starts from predict token i at position i−1 (tokenShift 'auto'). */
  let shiftedBefore = false;
  if (resumeFrom) {
    const ck = await loadCheckpoint(resumeFrom);
    model = parseHfConfig(ck.config, join(resumeFrom, 'config.json'));
    init = weightArrays(ck.weights);
    if (!ck.optimizer || !ck.trainerState) throw new TrainError(`${resumeFrom} has no optimizer state or trainer_state.json; it cannot be resumed`);
    moments = weightArrays(ck.optimizer);
    const state = ck.trainerState as { step: number; tokens_seen: number; loss_scaler?: SavedScaler };
    startStep = state.step + 1;
    // A float16 run's scaler continues; another precision has none (a fresh one starts if needed).
    if (state.loss_scaler && o.precision === 'float16') scaler = parseScaler(state.loss_scaler, join(resumeFrom, 'trainer_state.json'));
    tokensSeen = state.tokens_seen;
    log(`resuming ${o.out} from ${resumeFrom} (step ${state.step})`);
    shiftedBefore = ck.generationConfig?.['token_shift'] === true;
  } else if (o.init) {
    const ck = await loadCheckpoint(o.init);
    model = parseHfConfig(ck.config, join(o.init, 'config.json'));
    init = weightArrays(ck.weights);
    shiftedBefore = initPredictsNext(ck.generationConfig, model);
  } else {
    model = parseHfConfig({ vocab_size: tok.vocabSize, ...cfg.model }, 'train config "model"');
    init = initialWeights(model, cfg.seed);
  }
  if (model.vocabSize < tok.vocabSize) throw new TrainError(`the model's vocabulary (${model.vocabSize}) is smaller than the tokenizer's (${tok.vocabSize})`);
  if (model.lfm2 && cfg.objective !== 'ar') throw new TrainError(`objective ${cfg.objective}: LFM2 models mix tokens with causal convolutions, so they train with the ar objective only`);
  if (model.blockDiffusion) {
    // An SDAR checkpoint names its mask token; the tokenizer's must be the same one.
    if (maskId !== undefined && maskId !== model.blockDiffusion.maskTokenId)
      throw new TrainError(`the tokenizer's mask token is id ${maskId}, the SDAR checkpoint's mask_token_id ${model.blockDiffusion.maskTokenId}`);
    // What the checkpoints say they were trained with is what they decode with (config.json block_size).
    if (cfg.objective === 'bd3') model = { ...model, blockDiffusion: { ...model.blockDiffusion, blockSize: cfg.blockLength } };
  }
  if (cfg.seqLength > model.maxPositions) throw new TrainError(`seqLength ${cfg.seqLength} exceeds the model's max_position_embeddings ${model.maxPositions}`);

  // --- the data
  const corpus: Corpus = { train: [], eval: [], dropped: { too_long: 0, no_target: 0 }, windowed: 0, layouts: { transition: 0, episode: 0, other: 0 }, skippedRows: [] };
  const holdOut = o.evalData?.length
    ? () => 'train' as const
    : (key: string) => (cfg.evalFraction > 0 && Number.parseInt(key.slice(0, 8), 16) / 2 ** 32 < cfg.evalFraction ? ('eval' as const) : ('train' as const));
  if ((o.data === undefined) === (o.examples === undefined)) throw new TrainError('give the training data either as chat-row files (data) or as token examples (examples), not both or neither');
  if (o.examples) addTokenExamples(o.examples, cfg, tok.vocabSize, corpus);
  else await loadExamples(o.data!, tok, cfg, eosId, corpus, holdOut, log);
  if (o.evalData?.length) await loadExamples(o.evalData, tok, cfg, eosId, corpus, () => 'eval', log);
  if (corpus.train.length === 0)
    throw new TrainError(
      `no training examples in ${o.data ? o.data.join(', ') : `${o.examples!.length} token examples`} (dropped: ${corpus.dropped.too_long} over ${cfg.seqLength} tokens, ${corpus.dropped.no_target} without an assistant last message, ${corpus.skippedRows.length} malformed)`,
    );
  const layout = sharedLayout(corpus);
  const trainedTokens = corpus.train.reduce((a, e) => a + e.target.reduce((x, y) => x + y, 0), 0);
  const allTokens = corpus.train.reduce((a, e) => a + e.ids.length, 0);
  log(
    `data: ${corpus.train.length} train / ${corpus.eval.length} eval examples (${layout ?? 'mixed or non-world-model'} layout; ${trainedTokens.toLocaleString('en-US')} of ${allTokens.toLocaleString('en-US')} train tokens are targets, ${((100 * trainedTokens) / Math.max(allTokens, 1)).toFixed(1)}%); dropped ${corpus.dropped.too_long} over ${cfg.seqLength} tokens, ${corpus.dropped.no_target} without a target${corpus.windowed ? `; ${corpus.windowed} long episode(s) trained on their latest steps` : ''}${corpus.skippedRows.length ? `; ${corpus.skippedRows.length} malformed row(s) skipped (listed above)` : ''}`,
  );
  if (cfg.objective === 'mdlm' && corpus.layouts.episode > 0)
    log(
      `note: mdlm attends the whole row both ways, so on ${corpus.layouts.episode} episode-layout row(s) an observation also sees the turns after it (inference does not have them); ar and bd3 train episode rows as inference sees them`,
    );
  // Written once the run can start: a failed start (bad rows, a model that does not fit) leaves no run to --resume.
  if (!resumeFrom) await writeFileAtomic(configPath, `${JSON.stringify({ config: cfg, init: o.init ?? null }, null, 2)}\n`);

  const tokenShift = cfg.objective === 'bd3' && (cfg.tokenShift === 'on' || (cfg.tokenShift === 'auto' && shiftedBefore));
  if (cfg.tokenShift === 'on' && cfg.objective !== 'bd3') throw new TrainError(`tokenShift on: a bd3 setting, not ${cfg.objective}'s`);
  if (cfg.objective === 'bd3') log(`bd3: token shift ${tokenShift ? 'on (token i predicted at i−1, as the AR model it starts from)' : 'off (token i predicted at i)'}`);
  const spec: ObjectiveSpec = { objective: cfg.objective, model, batch: cfg.batchSize, length: cfg.seqLength, blockLength: cfg.blockLength, maskId: maskId ?? 0, maskRange: cfg.maskRange, tokenShift };
  const stepSpec = objectiveStepSpec(spec, { optimizer: { weightDecay: cfg.weightDecay }, clipNorm: cfg.clipNorm });
  const plan = new BatchPlan(
    corpus.train.map((e) => e.ids.length),
    cfg.seqLength,
    cfg.batchSize,
    cfg.seed,
  );
  const evalPlan = corpus.eval.length
    ? new BatchPlan(
        corpus.eval.map((e) => e.ids.length),
        cfg.seqLength,
        cfg.batchSize,
        cfg.seed,
      )
    : undefined;
  const evalCount = evalPlan ? Math.min(cfg.evalBatches, evalPlan.batchesPerEpoch) : 0;
  const seedRng = new Rng(cfg.seed);

  const provider = o.provider ?? (await selectProvider());
  const stepsPerCall = resolveStepsPerCall(o.stepsPerCall ?? 'auto', provider, cfg.gradAccum);
  const runner = await StepRunner.create(stepSpec, init, {
    provider,
    schedule: scheduleOf(cfg),
    startStep,
    gradAccum: cfg.gradAccum,
    stepsPerCall,
    precision: o.precision ?? 'float32',
    ...(o.ioBinding === undefined ? {} : { ioBinding: o.ioBinding }),
    ...(o.cudaGraph === undefined ? {} : { cudaGraph: o.cudaGraph }),
    ...(moments ? { moments } : {}),
    ...(scaler ? { scaler } : {}),
    ...(o.lossScaling && o.precision === 'float16' ? { lossScaling: o.lossScaling } : {}),
  });
  log(
    `model: ${model.modelType} ${model.nLayers}×${model.dModel}, ${(countParams(model) / 1e6).toFixed(2)}M parameters; objective ${cfg.objective}; ${runner.providerName}${stepsPerCall > 1 ? ` (up to ${stepsPerCall} steps per call)` : runner.path.startsWith('io-binding') ? ` (${runner.path === 'io-binding+cuda-graph' ? 'IO binding + CUDA graphs' : 'IO binding'})` : ''}${o.precision === 'bfloat16' || o.precision === 'float16' ? `; ${o.precision} MatMuls${o.precision === 'float16' ? ' with dynamic loss scaling' : ''}${runner.providerName === 'cuda' ? '' : ' (emulated: no speed-up off CUDA)'}` : ''}; graphs built in ${(runner.buildMs / 1000).toFixed(1)} s, sessions in ${(runner.sessionMs / 1000).toFixed(1)} s`,
  );

  const metricsPath = join(o.out, 'metrics.jsonl');
  await trimMetrics(metricsPath, startStep - 1);
  const metricLines: string[] = [];
  const flushMetrics = async () => {
    if (!metricLines.length) return;
    await writeFile(metricsPath, metricLines.join(''), { flag: 'a' });
    metricLines.length = 0;
  };

  const evaluate = async (): Promise<number | undefined> => {
    if (!evalPlan || evalCount === 0) return undefined;
    let sum = 0;
    for (let i = 0; i < evalCount; i++) {
      const packed = materialize(corpus.eval, evalPlan.batch(i), cfg.seqLength, padId);
      sum += await runner.evaluate(objectiveFeeds(spec, packed, seedRng.fork(`eval:${i}`)));
    }
    return sum / evalCount;
  };

  const saveRun = async (step: number, dir: string, withOptimizer: boolean, dtype: 'float32' | 'bfloat16') => {
    const { weights, optimizer } = splitSnapshot(await runner.snapshot());
    const s = withOptimizer ? await runner.scalerState() : undefined;
    const lossScaler: SavedScaler | undefined = s && { scale: s.scale, good_steps: s.goodSteps, optimizer_step: s.optimizerStep };
    await saveCheckpoint(dir, {
      config: { ...toHfConfig(model), torch_dtype: dtype },
      weights,
      dtype: dtype === 'bfloat16' ? 'BF16' : 'F32',
      tokenizerJson: o.tokenizerJson,
      generationConfig: {
        eos_token_id: eosId,
        pad_token_id: padId,
        ...(maskId !== undefined ? { mask_token_id: maskId } : {}),
        objective: cfg.objective,
        block_length: cfg.blockLength,
        // The sampler reads a shifted model's predictions at i−1 (ChatGenerator reads it).
        ...(tokenShift ? { token_shift: true } : {}),
        // How world-model prompts must be laid out for this model (eval's LocalWorldModel reads it).
        ...(layout ? { world_model_layout: layout } : {}),
      },
      ...(withOptimizer ? { optimizer, trainerState: { step, tokens_seen: tokensSeen, objective: cfg.objective, seed: cfg.seed, ...(lossScaler ? { loss_scaler: lossScaler } : {}) } } : {}),
    });
  };

  // --- the loop
  const t0 = performance.now();
  let windowTokens = 0,
    windowStart = performance.now(),
    lastLoss = Number.NaN,
    lastEval: number | undefined;
  let tokensPerSecond = 0;
  const stopAt = Math.min(cfg.steps, o.stopAfter ?? cfg.steps);
  // A step after which the run logs, evaluates, saves or stops ends an ORT call.
  const endsCall = (s: number) => s % cfg.logEvery === 0 || (cfg.evalEvery > 0 && s % cfg.evalEvery === 0) || (cfg.saveEvery > 0 && s % cfg.saveEvery === 0) || s >= stopAt;
  const modelDir = join(o.out, 'model');
  // The IO-bound step holds GPU buffers outside ORT's session cache: freed when the run ends, or fails.
  try {
    let pending: { r: StepResult; tokens: number }[] = [];
    for (let step = startStep; step <= stopAt; step++) {
      if (pending.length === 0) {
        const calls: ReturnType<typeof objectiveFeeds>[][] = [];
        const tokens: number[] = [];
        for (let s = step; ; s++) {
          const micro = [];
          let real = 0;
          for (let m = 0; m < cfg.gradAccum; m++) {
            const k = (s - 1) * cfg.gradAccum + m;
            const packed = materialize(corpus.train, plan.batch(k), cfg.seqLength, padId);
            for (const seg of packed.segments) real += seg.length;
            micro.push(objectiveFeeds(spec, packed, seedRng.fork(`noise:${k}`)));
          }
          calls.push(micro);
          tokens.push(real);
          if (endsCall(s) || calls.length === stepsPerCall) break;
        }
        const results = stepsPerCall > 1 ? await runner.steps(calls.map((m) => m[0]!)) : [await runner.step(calls[0]!)];
        pending = results.map((r, i) => ({ r, tokens: tokens[i]! }));
      }
      const { r, tokens } = pending.shift()!;
      windowTokens += tokens;
      tokensSeen += tokens;
      if (!Number.isFinite(r.loss)) throw new TrainError(`step ${step}: the loss is ${r.loss} (grad norm ${r.gradNorm}); lower the learning rate or check the data`);
      lastLoss = r.loss;
      const record: Record<string, number> = { step, loss: r.loss, grad_norm: r.gradNorm, lr: r.lr, tokens_seen: tokensSeen };
      if (r.lossScale !== undefined) {
        record['loss_scale'] = r.lossScale;
        if (r.skipped) {
          record['skipped'] = 1;
          log(`step ${step}: gradients not finite at loss scale ${r.lossScale}; update skipped, scale halved to ${r.lossScale / 2}`);
        }
      }
      if (cfg.evalEvery > 0 && (step % cfg.evalEvery === 0 || step === cfg.steps)) {
        const e0 = performance.now();
        lastEval = await evaluate();
        windowStart += performance.now() - e0; // tokens/s counts training time only
        if (lastEval !== undefined) record['eval_loss'] = lastEval;
      }
      if (step % cfg.logEvery === 0 || step === stopAt) {
        const secs = (performance.now() - windowStart) / 1000;
        tokensPerSecond = windowTokens / Math.max(secs, 1e-9);
        record['tokens_per_s'] = tokensPerSecond;
        const eta = ((cfg.steps - step) * (performance.now() - t0)) / 1000 / (step - startStep + 1);
        log(
          `step ${step}/${cfg.steps}  loss ${r.loss.toFixed(4)}${lastEval !== undefined ? `  eval ${lastEval.toFixed(4)}` : ''}  lr ${r.lr.toExponential(2)}  ${Math.round(tokensPerSecond).toLocaleString('en-US')} tok/s  ETA ${fmtTime(eta)}`,
        );
        windowTokens = 0;
        windowStart = performance.now();
      }
      metricLines.push(`${JSON.stringify(record)}\n`);
      await o.onStep?.(record);
      if ((cfg.saveEvery > 0 && step % cfg.saveEvery === 0) || step === cfg.steps) {
        await flushMetrics();
        await saveRun(step, join(o.out, checkpointDirName(step)), true, 'float32');
        await pruneCheckpoints(o.out, cfg.keepLast);
        log(`checkpoint step ${step} saved`);
      }
    }
    await flushMetrics();
    if (stopAt === cfg.steps) {
      if (startStep > cfg.steps) log(`the run already finished at step ${cfg.steps}`);
      else await saveRun(cfg.steps, modelDir, false, cfg.saveDtype);
    }
  } finally {
    runner.release();
  }
  return {
    steps: Math.min(stopAt, cfg.steps),
    finalLoss: lastLoss,
    evalLoss: lastEval,
    examples: { train: corpus.train.length, eval: corpus.eval.length, dropped: corpus.dropped, windowed: corpus.windowed, skippedRows: corpus.skippedRows },
    layout,
    tokensPerSecond,
    provider: runner.providerName,
    modelDir,
  };
}

/** The loss scaler's state as trainer_state.json holds it. */
interface SavedScaler {
  scale: number;
  good_steps: number;
  optimizer_step: number;
}

function parseScaler(v: unknown, where: string): ScalerState {
  const s = v as Partial<SavedScaler> | null;
  const ok = (x: unknown, min: number): x is number => typeof x === 'number' && Number.isFinite(x) && x >= min;
  if (!s || typeof s !== 'object' || !ok(s.scale, Number.MIN_VALUE) || !ok(s.good_steps, 0) || !ok(s.optimizer_step, 1)) {
    throw new TrainError(`${where}: "loss_scaler" must be { scale > 0, good_steps >= 0, optimizer_step >= 1 }, got ${JSON.stringify(v)}`);
  }
  return { scale: s.scale, goodSteps: s.good_steps, optimizerStep: s.optimizer_step };
}

/**
 * Steps per ORT call: a number as given (1 with gradient accumulation); for 'auto', 1 everywhere
 * but on CUDA without the IO-bound step (`bound` false: koffi or the C API missing), where 16 steps
 * per Loop graph keep the state on the GPU within a call.
 */
export function resolveStepsPerCall(v: number | 'auto', provider: ProviderName, gradAccum: number, bound = boundStepSupport() === undefined): number {
  if (v === 'auto') return provider === 'cuda' && gradAccum === 1 && !bound ? 16 : 1;
  if (!Number.isInteger(v) || v < 1) throw new TrainError(`stepsPerCall must be a positive integer or "auto", got ${v}`);
  if (v > 1 && gradAccum > 1) throw new TrainError(`stepsPerCall ${v} needs gradAccum 1 (the config has ${gradAccum})`);
  return v;
}

const countParams = (m: ModelConfig) => transformerParams(m).reduce((a, p) => a + p.shape.reduce((x, y) => x * y, 1), 0);

/** On resume, metrics logged after the checkpoint are dropped: the resumed run logs them again. */
async function trimMetrics(path: string, lastStep: number): Promise<void> {
  if (!existsSync(path)) return;
  const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const kept = lines.filter((l) => {
    try {
      return (JSON.parse(l) as { step: number }).step <= lastStep;
    } catch {
      return false; // a line cut by a kill
    }
  });
  if (kept.length !== lines.length) await writeFileAtomic(path, kept.map((l) => `${l}\n`).join(''));
}
