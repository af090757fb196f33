// Load test of wm-server on a tiny trained model, loopback only, bounded in count and time:
// N requests at concurrency C with dynamic batching, the same with batching off (maxBatch 1), and
// an overload phase with a small queue where only explicit 429s may fail. With --compare continuous
// the model is a tiny AR one and the two phases are continuous batching (maxBatch rows) against
// dynamic batching (max batch maxBatch) on the same backend, the ratio printed the same way. The clients run in a
// child process (load-client.ts), so the server's CPU seconds and event loop are its own. On a
// shared machine the load of others swings within a minute, so the on and off phases run in
// --rounds interleaved slices and the median of the per-round ratios is reported beside the pooled one.
// Reports throughput, p50/p99 latency, failures by status and the server's peak RSS; exits 1 on
// any failure other than a 429 or a peak RSS over --max-rss-mb. CPU seconds (the server process, all threads) are reported next
// to wall time because a shared machine makes wall-clock throughput noisy. Usage (from apps/wm-server):
//   npx tsx --conditions=@diffworld/source src/bench/load.bench.ts [--requests 2000] [--concurrency 64]
//     [--off-requests N (default --requests)] [--max-seconds 120] [--max-batch 32] [--max-tokens 16]
//     [--rounds 3] [--threads N (ONNX Runtime intra-op threads)] [--max-rss-mb 1024] [--warmup 256] [--model DIR]
//     [--compare off|continuous] [--max-tokens 16 or a list, e.g. 4,16,64: request i asks for list[i mod length]]
//     [--provider cpu|cuda (default cpu)] [--rows FILE (chat rows whose prompts the clients send; default
//     test-data/wm/alfworld-eval.jsonl)]
// On a GPU host (tools/gpu/bundle.sh ships it as load.bench.mjs beside load-client.mjs):
//   ./node load.bench.mjs --model <AR checkpoint> --provider cuda --rows heldout.jsonl --concurrency 64 --max-batch 64
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GeneratorBackend } from '../generator-backend.js';
import { startWmServer, type WmServerOptions } from '../server.js';
import type { LoadJob, LoadResult } from './load-client.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string' },
    'off-requests': { type: 'string' },
    concurrency: { type: 'string' },
    'max-seconds': { type: 'string' },
    model: { type: 'string' },
    'max-tokens': { type: 'string' },
    'max-batch': { type: 'string' },
    'batch-concurrency': { type: 'string' },
    'sampler-batch': { type: 'string' },
    threads: { type: 'string' },
    rounds: { type: 'string' },
    'max-rss-mb': { type: 'string' },
    warmup: { type: 'string' },
    compare: { type: 'string' },
    provider: { type: 'string' },
    rows: { type: 'string' },
  },
});
const PROVIDER = values.provider ?? 'cpu';
if (PROVIDER !== 'cpu' && PROVIDER !== 'cuda') throw new Error(`--provider must be cpu or cuda, got "${PROVIDER}"`);
// From source the committed test rows; the bundle has no test-data, so there --rows is needed.
const ROWS = values.rows ?? fileURLToPath(new URL('../../../../test-data/wm/alfworld-eval.jsonl', import.meta.url));
if (!existsSync(ROWS)) throw new Error(`--rows ${ROWS}: no such file (chat rows whose prompts the clients send)`);
/** off: dynamic batching against none; continuous: continuous batching against dynamic batching (an AR model). */
const COMPARE = values.compare ?? 'off';
if (COMPARE !== 'off' && COMPARE !== 'continuous') throw new Error(`--compare must be off or continuous, got "${COMPARE}"`);
const REQUESTS = Number(values.requests ?? 2000);
const OFF_REQUESTS = Number(values['off-requests'] ?? REQUESTS);
const CONCURRENCY = Number(values.concurrency ?? 64);
const MAX_SECONDS = Number(values['max-seconds'] ?? 120);
const MAX_TOKENS = (values['max-tokens'] ?? '16').split(',').map(Number);
const MAX_BATCH = Number(values['max-batch'] ?? 32);
const SAMPLER_BATCH = values['sampler-batch'] === undefined ? undefined : Number(values['sampler-batch']);
const BATCH_CONCURRENCY = Number(values['batch-concurrency'] ?? 1);
const THREADS = values.threads === undefined ? undefined : Number(values.threads);
const ROUNDS = Number(values.rounds ?? 3);
/** Memory bound: the server's peak RSS in any phase (the queue is bounded, so it must not grow with the load). */
const MAX_RSS_MB = Number(values['max-rss-mb'] ?? 1024);
/** Requests of the unmeasured warm-up with batching (a quarter of it without). */
const WARMUP = Number(values.warmup ?? 256);

interface PhaseResult extends LoadResult {
  name: string;
  peakRssMb: number;
  cpuSeconds: number;
  batchMean: number;
}

/** Runs one phase's load from a child process; resolves with its results. */
function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // From source the client is load-client.ts (tsx passes its loader on); bundled, load-client.mjs beside this file.
    const client = import.meta.url.endsWith('.mjs') ? './load-client.mjs' : './load-client.ts';
    const child = fork(new URL(client, import.meta.url), { stdio: 'inherit' });
    child.once('message', (r) => resolve(r as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load client exited with ${code}`)));
    child.send(job);
  });
}

async function phase(name: string, backend: GeneratorBackend, opts: WmServerOptions, first: number, count: number): Promise<PhaseResult> {
  const server = await startWmServer(backend, opts);
  if (opts.scheduling && server.scheduling !== opts.scheduling) throw new Error(`${name}: the server runs ${server.scheduling} scheduling, not ${opts.scheduling}`);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 200);
  const cpu0 = process.cpuUsage();
  const r = await load({ url: server.url, first, count, concurrency: CONCURRENCY, maxSeconds: MAX_SECONDS, maxTokens: MAX_TOKENS, rowsFile: ROWS });
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const batches = Number(/^wm_batch_size_count (\d+)/m.exec(metrics)?.[1] ?? 0);
  const sequences = Number(/^wm_batch_size_sum (\d+)/m.exec(metrics)?.[1] ?? 0);
  // Continuous scheduling has no batches: its "batch" is the mean rows per forward pass.
  const rowsPerStep = /^wm_decode_rows_per_step (\S+)/m.exec(metrics)?.[1];
  await server.close();
  const batchMean = rowsPerStep !== undefined ? Number(rowsPerStep) : batches ? sequences / batches : 0;
  return { name, ...r, latencies: r.latencies.sort((a, b) => a - b), peakRssMb: peakRss / 2 ** 20, cpuSeconds: (cpu.user + cpu.system) / 1e6, batchMean };
}

const rate = (r: PhaseResult) => r.ok / r.seconds;
const perCpu = (r: PhaseResult) => r.ok / r.cpuSeconds;

/** One phase's slices as one result: counts and times summed, latencies pooled, the peak RSS the highest. */
function merge(parts: PhaseResult[]): PhaseResult {
  const sum = (f: (p: PhaseResult) => number) => parts.reduce((a, p) => a + f(p), 0);
  const statuses: Record<string, number> = {};
  for (const p of parts) for (const [k, n] of Object.entries(p.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  // Weighted by requests (for continuous phases this averages rows per pass the same way).
  const batches = sum((p) => (p.batchMean ? p.ok / p.batchMean : 0));
  return {
    name: parts[0]!.name,
    sent: sum((p) => p.sent),
    ok: sum((p) => p.ok),
    statuses,
    seconds: sum((p) => p.seconds),
    latencies: parts.flatMap((p) => p.latencies).sort((a, b) => a - b),
    completionTokens: sum((p) => p.completionTokens),
    peakRssMb: Math.max(...parts.map((p) => p.peakRssMb)),
    cpuSeconds: sum((p) => p.cpuSeconds),
    batchMean: batches ? sum((p) => p.ok) / batches : 0,
  };
}

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);

function report(r: PhaseResult): string {
  return `${r.name.padEnd(22)} ${String(r.ok).padStart(5)}/${String(r.sent).padEnd(5)} ok in ${r.seconds.toFixed(1).padStart(5)} s  ${(r.ok / r.seconds).toFixed(1).padStart(6)} req/s  ${(r.completionTokens / r.seconds).toFixed(0).padStart(6)} tok/s  ${(r.ok / r.cpuSeconds).toFixed(1).padStart(6)} req/CPU-s  p50 ${pct(r.latencies, 50).toFixed(0).padStart(5)} ms  p99 ${pct(r.latencies, 99).toFixed(0).padStart(5)} ms  mean batch ${r.batchMean.toFixed(1).padStart(4)}  peak RSS ${r.peakRssMb.toFixed(0)} MB  statuses ${JSON.stringify(r.statuses)}`;
}

const t0 = performance.now();
const objective = COMPARE === 'continuous' ? 'ar' : 'bd3';
// The tiny model is trained from the committed test data, so its helpers load only without --model (the GPU bundle has no test-data).
const dir: string =
  values.model ?? (await import('@diffworld/mdlm-core/testing').then((t) => t.trainTinyWorldModel({ data: t.alfworldRowsFile(32), settings: { model: t.tinyWmModel(64), objective } })));
const backend = await GeneratorBackend.load(dir, {
  provider: PROVIDER,
  modelId: `tiny-${objective}`,
  ...(SAMPLER_BATCH ? { samplerBatch: SAMPLER_BATCH } : {}),
  ...(THREADS ? { intraOpThreads: THREADS } : {}),
});
const batching: WmServerOptions = { scheduling: 'batch', maxBatch: MAX_BATCH, maxWaitMs: 5, batchConcurrency: BATCH_CONCURRENCY };
// The measured pair: A against B, "A / B" below.
const [nameA, optsA, nameB, optsB]: [string, WmServerOptions, string, WmServerOptions] =
  COMPARE === 'continuous'
    ? [`continuous (${MAX_BATCH} rows)`, { scheduling: 'continuous', maxBatch: MAX_BATCH }, `batching (max ${MAX_BATCH})`, batching]
    : [`batching (max ${MAX_BATCH})`, batching, 'batching off', { scheduling: 'batch', maxBatch: 1 }];
console.log(
  `model ${dir} (${backend.generator.objective}, trained/loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s); ${REQUESTS} requests at concurrency ${CONCURRENCY} (${nameB}: ${OFF_REQUESTS}), max_tokens ${MAX_TOKENS.join(',')}, prompts from ${ROWS}, provider ${PROVIDER}, ONNX Runtime threads ${THREADS ?? 'default'}, loopback, clients in a child process`,
);
// Unmeasured warm-up of both modes: JIT compilation, ONNX Runtime's first runs of each shape and
// the sampler's greedy-head session would otherwise land in the first measured phase (A's).
await phase(`warm-up (${nameA})`, backend, optsA, REQUESTS, WARMUP);
await phase(`warm-up (${nameB})`, backend, optsB, REQUESTS, COMPARE === 'continuous' ? WARMUP : Math.ceil(WARMUP / 4));
const slices: { on: PhaseResult; off: PhaseResult }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const share = (total: number) => [Math.floor((total * r) / ROUNDS), Math.floor((total * (r + 1)) / ROUNDS) - Math.floor((total * r) / ROUNDS)] as const;
  const on = await phase(nameA, backend, optsA, ...share(REQUESTS));
  const off = await phase(nameB, backend, optsB, ...share(OFF_REQUESTS));
  slices.push({ on, off });
  console.log(
    `round ${r + 1}/${ROUNDS}: ${(rate(on) / rate(off)).toFixed(2)}× per wall second, ${(perCpu(on) / perCpu(off)).toFixed(2)}× per CPU second (${rate(on).toFixed(1)} vs ${rate(off).toFixed(1)} req/s)`,
  );
}
const results = [merge(slices.map((s) => s.on)), merge(slices.map((s) => s.off)), await phase('overload (queue 16)', backend, { ...optsA, maxBatch: 16, maxQueue: 16 }, 0, Math.min(REQUESTS, 500))];
for (const r of results) console.log(report(r));
const [on, off] = results;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `throughput ${nameA} / ${nameB}: ${(rate(on!) / rate(off!)).toFixed(2)}× per wall second, ${(perCpu(on!) / perCpu(off!)).toFixed(2)}× per CPU second pooled; median of ${ROUNDS} interleaved rounds ${median(slices.map((s) => rate(s.on) / rate(s.off))).toFixed(2)}× wall, ${median(slices.map((s) => perCpu(s.on) / perCpu(s.off))).toFixed(2)}× CPU (the machine is shared: CPU seconds are the steadier figure)`,
);
const bad = results.flatMap((r) =>
  Object.entries(r.statuses)
    .filter(([s]) => s !== '200' && s !== '429')
    .map(([s, n]) => `${r.name}: ${n} × ${s}`),
);
const short = results.filter((r) => r.sent < (r === on ? REQUESTS : r === off ? OFF_REQUESTS : Math.min(REQUESTS, 500))).map((r) => `${r.name}: ${r.sent} sent before --max-seconds`);
if (short.length) console.log(`NOT FINISHED (${short.join('; ')}): figures cover what was sent`);
const heavy = results.filter((r) => r.peakRssMb > MAX_RSS_MB).map((r) => `${r.name}: peak RSS ${r.peakRssMb.toFixed(0)} MB over ${MAX_RSS_MB} MB`);
bad.push(...heavy);
if (bad.length) {
  console.error(`FAILED (requests other than 429, or memory): ${bad.join('; ')}`);
  process.exit(1);
}
