// Decoding benchmark on trained world-model checkpoints: the same prompt ids decoded greedily by
// AR and BD3 (dynamic at 0.85 and static) at several batch sizes, through the resident decoder
// (caches in the session's memory) and, for the ratio in the same run, the host-cache decoder.
// Resident variants (half precision, CUDA-graph decode steps) run side by side, each answer
// compared with the float32 resident decoder's. Prints generated tokens/s, tokens per forward and
// exact match against the rows' targets, and — given the transformers reference of
// tools/gpu/hf_generate.py on the same ids — its tokens/s and how many of our AR answers equal its
// greedy ones token for token.
//   npx nx run mdlm-core:bench-decode                      (tiny committed model, CPU, 2-core figures)
//   node decode.bench.mjs --ar run-ar/model --bd3 run-bd3/model --rows eval.jsonl --n 64 \
//     --provider cuda --batches 1,16,64 --write-prompts prompts.json --reference hf.json --out decode.json
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type ChatMessage, encodeChat, Tokenizer } from '@diffworld/tokenizer';
import { loadCheckpoint, weightArrays } from '../checkpoint/index.js';
import { parseHfConfig } from '../nn/index.js';
import { decoderVariant, variantOptions } from './decoder-variants.js';
import type { ProviderName } from '../runtime/index.js';
import {
  ContinuousAutoregressive,
  OnnxBlockDiffusionModel,
  OnnxCausalModel,
  type ResidentDecoder,
  sampleAutoregressive,
  sampleBlockDiffusion,
  type SampleRequest,
  type SampleResult,
} from '../sampling/index.js';

const HELP = `Usage: decode.bench --ar DIR [--bd3 DIR] (--rows FILE.jsonl | --prompts FILE.json) [options]

  --ar DIR            AR checkpoint directory (a wm train run's model/)
  --bd3 DIR           BD3 checkpoint directory (same tokenizer)
  --rows FILE         chat rows ({"messages": [...]}); the last message is the target
  --prompts FILE      prompt ids written earlier by --write-prompts (the reference's input)
  --n N               prompts to decode (default 64)
  --batches LIST      batch sizes (default 1,16,64); batch 1 decodes the first --single prompts
  --single N          prompts decoded one at a time for batch 1 (default 8)
  --max-new N         new tokens at most (default 128)
  --ignore-stops      decode exactly --max-new tokens a prompt (stop ids unused), so that the decode
                      steps over a long prompt's cache are measured, not mostly its prefill
  --provider NAME     cpu | cuda (default cpu)
  --decoders LIST     resident,host (default resident,host); host runs only at --host-batches.
                      Resident variants: resident-f16, resident-bf16 (half-precision weights, KV
                      pool and GEMMs; bf16 on CUDA only), resident-graph (decode steps replayed as
                      CUDA graphs), resident-f16-graph, resident-bf16-graph; each row reports how
                      many answers equal the float32 resident decoder's (run "resident" with them)
  --host-batches LIST batch sizes the host decoder runs at (default 1,16)
  --continuous ROWS   also AR through continuous batching (ContinuousAutoregressive) on ROWS rows:
                      all --n prompts submitted at once, prompt i asking for --max-new × (1 + i mod 4) / 4
                      new tokens, so rows finish at different steps and waiting prompts join mid-flight
  --reference FILE    tools/gpu/hf_generate.py output for the same prompt ids
  --write-prompts F   write the prompt ids (and target texts) for the reference
  --out FILE          results as JSON (atomic write)
`;

const { values } = parseArgs({
  options: {
    ar: { type: 'string' },
    bd3: { type: 'string' },
    rows: { type: 'string' },
    prompts: { type: 'string' },
    n: { type: 'string', default: '64' },
    batches: { type: 'string', default: '1,16,64' },
    single: { type: 'string', default: '8' },
    'max-new': { type: 'string', default: '128' },
    'ignore-stops': { type: 'boolean', default: false },
    provider: { type: 'string', default: 'cpu' },
    decoders: { type: 'string', default: 'resident,host' },
    'host-batches': { type: 'string', default: '1,16' },
    continuous: { type: 'string', default: '0' },
    reference: { type: 'string' },
    'write-prompts': { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help || !values.ar || (!values.rows && !values.prompts)) {
  process.stdout.write(HELP);
  process.exit(values.help ? 0 : 2);
}
const list = (s: string) => s.split(',').map((x) => Number(x.trim()));
const N = Number(values.n),
  ONE = Number(values.single),
  MAX_NEW = Number(values['max-new']);
const provider = values.provider as ProviderName;
const stopsOf = (m: { stops: number[] }) => (values['ignore-stops'] ? [] : m.stops);
const decoders = values.decoders.split(',').map(decoderVariant);
const hostBatches = new Set(list(values['host-batches']));

interface PromptSet {
  ids: number[][];
  targets: string[];
}

async function loadModel(dir: string) {
  const ck = await loadCheckpoint(dir, { optimizer: false });
  const config = parseHfConfig(ck.config, `${dir}/config.json`);
  const gc = ck.generationConfig ?? {};
  if (ck.tokenizerJson === undefined) throw new Error(`${dir}: no tokenizer.json`);
  const tokenizer = Tokenizer.fromJson(JSON.parse(ck.tokenizerJson), `${dir}/tokenizer.json`);
  const stops = [gc['eos_token_id'], tokenizer.tokenToId('<|im_end|>'), tokenizer.tokenToId('<|endoftext|>')].flat().filter((x): x is number => Number.isInteger(x));
  // A BD3 model adapted from AR predicts token i at position i−1: decoded unshifted it writes noise
  // (the 3 Dec H200 bench read 0% exact and 1.2 tokens a forward for a model `eval wm` scored 57.6%).
  const tokenShift = gc['token_shift'] === true;
  return { config, weights: weightArrays(ck.weights), tokenizer, stops: [...new Set(stops)], blockLength: Number(gc['block_length'] ?? 4), maskId: tokenizer.maskId, tokenShift };
}

const ar = await loadModel(values.ar);
const bd3 = values.bd3 ? await loadModel(values.bd3) : undefined;

function promptSet(): PromptSet {
  if (values.prompts) return JSON.parse(readFileSync(values.prompts, 'utf8')) as PromptSet;
  const set: PromptSet = { ids: [], targets: [] };
  for (const line of readFileSync(values.rows!, 'utf8').split('\n')) {
    if (!line.trim() || set.ids.length >= N) continue;
    const messages = (JSON.parse(line) as { messages: ChatMessage[] }).messages;
    set.ids.push(encodeChat(ar.tokenizer, messages.slice(0, -1), { addGenerationPrompt: true }).ids);
    set.targets.push(messages[messages.length - 1]!.content);
  }
  return set;
}
const prompts = promptSet();
if (values['write-prompts']) writeAtomic(values['write-prompts'], JSON.stringify({ ...prompts, stops: ar.stops, maxNewTokens: MAX_NEW }));
const n = Math.min(N, prompts.ids.length);
const meanLen = prompts.ids.slice(0, n).reduce((s, p) => s + p.length, 0) / n;
console.log(`${n} prompts, ${meanLen.toFixed(0)} tokens on average, up to ${MAX_NEW} new; provider ${provider}`);

function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

interface Measure {
  method: string;
  /** The --decoders variant. */
  decoder: string;
  batch: number;
  prompts: number;
  tokensPerSecond: number;
  tokensPerForward: number;
  exact: number;
  /** ms in prefill passes (into empty caches) and in steps over cached rows (host work included), and host work alone. */
  timing?: { prefillMs: number; stepMs: number; stepPasses: number; hostMs: number };
  /** AR only: answers equal to the reference's greedy tokens. */
  sameAsReference?: number;
  /** Resident variants: answers equal to the float32 resident decoder's at the same method and batch. */
  sameAsFloat32?: number;
  /** Passes that ran as graph steps (resident-*-graph). */
  graphPasses?: number;
  tokens: number[][];
}

type Decode = (rq: SampleRequest[]) => Promise<SampleResult[]>;

/** Decodes `count` prompts in batches of `batch`; generated tokens/s (a stop token counts, a forward made it). */
type Timing = ResidentDecoder['timing'];

/** What a measure reads off the model's decoder: its timing and, resident, its graph-step count. */
type Counters = { timing: Timing; graphPasses?: number };

async function measure(method: string, decoder: string, batch: number, decode: Decode, counters?: Counters): Promise<Measure> {
  const timing = counters?.timing;
  const count = batch === 1 ? Math.min(ONE, n) : Math.min(batch, n);
  const rq = prompts.ids.slice(0, count).map((prompt, i) => ({ prompt, seed: i }));
  await decode(rq.slice(0, Math.min(batch, 2))); // sessions compiled, buffers allocated
  const before = timing ? { ...timing } : undefined;
  const graphBefore = counters?.graphPasses ?? 0;
  const t0 = performance.now();
  const results: SampleResult[] = [];
  for (let i = 0; i < count; i += batch) results.push(...(await decode(rq.slice(i, i + batch))));
  const s = (performance.now() - t0) / 1000;
  const generated = results.reduce((a, r) => a + r.tokens.length + (r.finish === 'stop' ? 1 : 0), 0);
  const forwards = results.reduce((a, r) => a + r.stats.forwards, 0);
  const texts = results.map((r) => ar.tokenizer.decode(r.tokens).trim());
  const exact = texts.filter((t, i) => t === prompts.targets[i]?.trim()).length / count;
  const spent =
    timing && before
      ? { prefillMs: timing.prefillMs - before.prefillMs, stepMs: timing.stepMs - before.stepMs, stepPasses: timing.stepPasses - before.stepPasses, hostMs: timing.hostMs - before.hostMs }
      : undefined;
  return {
    method,
    decoder,
    batch,
    prompts: count,
    tokensPerSecond: generated / s,
    tokensPerForward: generated / forwards,
    exact,
    ...(spent ? { timing: spent } : {}),
    ...(counters?.graphPasses !== undefined ? { graphPasses: counters.graphPasses - graphBefore } : {}),
    tokens: results.map((r) => r.tokens),
  };
}

/** AR through continuous batching on `rowsN` rows: every prompt submitted at once, staggered lengths (see --continuous). */
async function measureContinuous(
  model: OnnxCausalModel,
  decoder: string,
  rowsN: number,
  opts: { temperature: number; maxNewTokens: number; stopIds: number[] },
  counters?: Counters,
): Promise<Measure> {
  const timing = counters?.timing;
  const wanted = (i: number) => Math.max(1, Math.round((MAX_NEW * (1 + (i % 4))) / 4));
  const run = async (count: number) => {
    const server = await ContinuousAutoregressive.open(model, opts, rowsN);
    try {
      return await Promise.all(prompts.ids.slice(0, count).map((prompt, i) => server.submit({ prompt, seed: i }, { maxNewTokens: wanted(i) })));
    } finally {
      await server.close();
    }
  };
  await run(Math.min(2, n)); // sessions compiled, buffers allocated
  const before = timing ? { ...timing } : undefined;
  const t0 = performance.now();
  const results = await run(n);
  const s = (performance.now() - t0) / 1000;
  const generated = results.reduce((a, r) => a + r.tokens.length + (r.finish === 'stop' ? 1 : 0), 0);
  const forwards = results.reduce((a, r) => a + r.stats.forwards, 0);
  const spent =
    timing && before
      ? { prefillMs: timing.prefillMs - before.prefillMs, stepMs: timing.stepMs - before.stepMs, stepPasses: timing.stepPasses - before.stepPasses, hostMs: timing.hostMs - before.hostMs }
      : undefined;
  return {
    method: `ar continuous`,
    decoder,
    batch: rowsN,
    prompts: n,
    tokensPerSecond: generated / s,
    tokensPerForward: generated / forwards,
    exact: 0,
    ...(spent ? { timing: spent } : {}),
    tokens: results.map((r) => r.tokens),
  };
}

const rows: Measure[] = [];
const continuousRows = Number(values.continuous);
const batches = list(values.batches);
/** Variants that failed (a provider without bfloat16 kernels, a graph that would not capture): reported, the others still run. */
const failures: { decoder: string; error: string }[] = [];
for (const v of decoders) {
  try {
    const decoder = v.name;
    const at = (b: number) => v.kind === 'resident' || hostBatches.has(b);
    const modelOpts = variantOptions(v, provider);
    const arModel = await OnnxCausalModel.create(ar.config, ar.weights, modelOpts);
    const arOpts = { temperature: 0, maxNewTokens: MAX_NEW, stopIds: stopsOf(ar) };
    // A getter, so that each measure reads the counters before and after it.
    const countersOf = (m: { decoder: { timing: Timing; graphPasses?: number } }): Counters => ({
      timing: m.decoder.timing,
      get graphPasses() {
        return m.decoder.graphPasses;
      },
    });
    for (const b of batches.filter(at)) rows.push(await measure('ar', decoder, b, (rq) => sampleAutoregressive(arModel, rq, arOpts), countersOf(arModel)));
    if (continuousRows > 0) rows.push(await measureContinuous(arModel, decoder, continuousRows, arOpts, countersOf(arModel)));
    // Each variant's sessions (and the GPU memory their arenas hold) go before the next one's come.
    await arModel.release();
    if (!bd3) continue;
    const bdModel = await OnnxBlockDiffusionModel.create(bd3.config, bd3.weights, bd3.blockLength, modelOpts);
    for (const unmasking of ['low_confidence_dynamic', 'low_confidence_static'] as const) {
      const o = { temperature: 0, maxNewTokens: MAX_NEW, stopIds: stopsOf(bd3), maskId: bd3.maskId!, unmasking, threshold: 0.85, ...(bd3.tokenShift ? { tokenShift: true } : {}) };
      for (const b of batches.filter(at))
        rows.push(await measure(unmasking === 'low_confidence_dynamic' ? 'bd3 dynamic 0.85' : 'bd3 static', decoder, b, (rq) => sampleBlockDiffusion(bdModel, rq, o), countersOf(bdModel)));
    }
    await bdModel.release();
  } catch (e) {
    const error = (e as Error).message.split('\n')[0]!;
    failures.push({ decoder: v.name, error });
    console.error(`${v.name}: ${error}`);
  }
}

interface Reference {
  runs: { dtype: string; batch: number; tokensPerSecond: number }[];
  tokens: number[][];
}
const reference = values.reference ? (JSON.parse(readFileSync(values.reference, 'utf8')) as Reference) : undefined;
if (reference)
  for (const r of rows.filter((r) => r.method === 'ar'))
    r.sameAsReference = r.tokens.filter((t, i) => reference.tokens[i] !== undefined && t.join() === reference.tokens[i]!.filter((x) => !ar.stops.includes(x)).join()).length / r.tokens.length;

// Each variant's answers against the float32 resident decoder's (same method, batch, prompts).
for (const r of rows) {
  const base = r.decoder.startsWith('resident-') ? rows.find((x) => x.decoder === 'resident' && x.method === r.method && x.batch === r.batch) : undefined;
  if (base) r.sameAsFloat32 = r.tokens.filter((t, i) => base.tokens[i] !== undefined && t.join() === base.tokens[i]!.join()).length / r.tokens.length;
}

const pad = (s: string, w: number) => s.padEnd(w);
const pct = (x: number | undefined) => (x === undefined ? '' : (100 * x).toFixed(1));
const w = Math.max(10, ...rows.map((r) => r.decoder.length + 2));
console.log(
  `\n${pad('method', 18)}${pad('decoder', w)}${pad('batch', 7)}${pad('tok/s', 10)}${pad('tok/fwd', 9)}${pad('exact', 8)}${pad('same as HF', 12)}${pad('same as f32', 13)}${pad('graph', 7)}prefill / steps / host ms (ms per step)`,
);
for (const r of rows)
  console.log(
    `${pad(r.method, 18)}${pad(r.decoder, w)}${pad(String(r.batch), 7)}${pad(r.tokensPerSecond.toFixed(0), 10)}${pad(r.tokensPerForward.toFixed(2), 9)}${pad(pct(r.exact), 8)}${pad(pct(r.sameAsReference), 12)}${pad(pct(r.sameAsFloat32), 13)}${pad(r.graphPasses ? String(r.graphPasses) : '', 7)}${r.timing ? `${r.timing.prefillMs.toFixed(0)} / ${r.timing.stepMs.toFixed(0)} / ${r.timing.hostMs.toFixed(0)} (${(r.timing.stepMs / Math.max(1, r.timing.stepPasses)).toFixed(2)})` : ''}`,
  );
if (reference) {
  for (const x of reference.runs) console.log(`transformers generate ${x.dtype} batch ${x.batch}: ${x.tokensPerSecond.toFixed(0)} tok/s`);
  const hf = (dtype: string, b: number) => reference.runs.find((x) => x.dtype === dtype && x.batch === b)?.tokensPerSecond;
  const best1 = Math.max(...reference.runs.filter((x) => x.batch === 1).map((x) => x.tokensPerSecond));
  const h64 = hf('bfloat16', 64);
  for (const v of decoders.filter((d) => d.kind === 'resident')) {
    const ours = (b: number) => rows.find((r) => r.method === 'ar' && r.decoder === v.name && r.batch === b)?.tokensPerSecond;
    const b64 = ours(64),
      o1 = ours(1);
    if (b64 && h64) console.log(`AR ${v.name} / transformers bf16 at batch 64: ${(b64 / h64).toFixed(2)}×`);
    if (o1 && Number.isFinite(best1)) console.log(`AR ${v.name} batch 1 / transformers' best batch 1: ${(o1 / best1).toFixed(2)}×`);
  }
}
const dyn = rows.find((r) => r.method === 'bd3 dynamic 0.85' && r.decoder === 'resident' && r.batch === 64);
const arRes = rows.find((r) => r.method === 'ar' && r.decoder === 'resident' && r.batch === 64);
if (dyn && arRes) console.log(`BD3 dynamic / AR (resident, batch 64): ${(dyn.tokensPerSecond / arRes.tokensPerSecond).toFixed(2)}×`);
for (const f of failures) console.log(`${f.decoder} failed: ${f.error}`);
if (values.out)
  writeAtomic(
    values.out,
    JSON.stringify({ provider, prompts: n, meanPromptTokens: meanLen, maxNewTokens: MAX_NEW, rows: rows.map(({ tokens: _, ...r }) => r), reference: reference?.runs, failures }, null, 1),
  );
