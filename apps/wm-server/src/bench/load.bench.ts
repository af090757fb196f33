// Load test of wm-server on a tiny trained model, loopback only, bounded in count and time:
// N requests at concurrency C with dynamic batching, the same with batching off (maxBatch 1, cut
// at --max-seconds), and an overload phase with a small queue where only explicit 429s may fail.
// Reports throughput, p50/p99 latency, failures by status and peak RSS; exits 1 on any failure
// other than a 429. CPU seconds (this process, all threads) are reported next to wall time because
// a shared machine makes wall-clock throughput noisy. Usage (from apps/wm-server):
//   npx tsx --conditions=@diffworld/source src/bench/load.bench.ts [--requests 2000] [--concurrency 64] [--max-seconds 15] [--batched-max-seconds 90] [--max-batch 32] [--max-tokens 16] [--model DIR]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GeneratorBackend } from '../generator-backend.js';
import { startWmServer, type WmServerOptions } from '../server.js';
import { trainTinyWorldModel } from '../tiny-model.js';

const { values } = parseArgs({ options: { requests: { type: 'string' }, concurrency: { type: 'string' }, 'max-seconds': { type: 'string' }, model: { type: 'string' }, 'max-tokens': { type: 'string' }, 'max-batch': { type: 'string' }, 'batch-concurrency': { type: 'string' }, 'sampler-batch': { type: 'string' }, 'batched-max-seconds': { type: 'string' } } });
const REQUESTS = Number(values.requests ?? 2000);
const CONCURRENCY = Number(values.concurrency ?? 64);
const MAX_SECONDS = Number(values['max-seconds'] ?? 15);
const BATCHED_MAX_SECONDS = Number(values['batched-max-seconds'] ?? 90);
const MAX_TOKENS = Number(values['max-tokens'] ?? 16);
const MAX_BATCH = Number(values['max-batch'] ?? 32);
const SAMPLER_BATCH = values['sampler-batch'] === undefined ? undefined : Number(values['sampler-batch']);
const BATCH_CONCURRENCY = Number(values['batch-concurrency'] ?? 1);

const rows = readFileSync(new URL('../../../../test-data/wm/alfworld-eval.jsonl', import.meta.url), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { messages: { role: string; content: string }[] }).messages.slice(0, -1));

interface PhaseResult {
  name: string;
  sent: number;
  ok: number;
  statuses: Record<string, number>;
  seconds: number;
  latencies: number[];
  completionTokens: number;
  peakRssMb: number;
  cpuSeconds: number;
  batchMean: number;
}

async function phase(name: string, backend: GeneratorBackend, opts: WmServerOptions, count: number, maxSeconds: number): Promise<PhaseResult> {
  const server = await startWmServer(backend, opts);
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let next = 0, ok = 0, completionTokens = 0, peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + maxSeconds * 1000;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      const start = performance.now();
      let status: string;
      try {
        const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: rows[i % rows.length], seed: i, temperature: 0, max_tokens: MAX_TOKENS }) });
        const body = (await res.json()) as { usage?: { completion_tokens: number } };
        status = String(res.status);
        if (res.status === 200) {
          ok++;
          completionTokens += body.usage!.completion_tokens;
          latencies.push(performance.now() - start);
        }
      } catch (e) {
        status = `error: ${(e as Error).message}`;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const batches = Number(/^wm_batch_size_count (\d+)/m.exec(metrics)?.[1] ?? 0);
  const sequences = Number(/^wm_batch_size_sum (\d+)/m.exec(metrics)?.[1] ?? 0);
  await server.close();
  return { name, sent: next, ok, statuses, seconds, latencies: latencies.sort((a, b) => a - b), completionTokens, peakRssMb: peakRss / 2 ** 20, cpuSeconds: (cpu.user + cpu.system) / 1e6, batchMean: batches ? sequences / batches : 0 };
}

const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);

function report(r: PhaseResult): string {
  return `${r.name.padEnd(22)} ${String(r.ok).padStart(5)}/${String(r.sent).padEnd(5)} ok in ${r.seconds.toFixed(1).padStart(5)} s  ${(r.ok / r.seconds).toFixed(1).padStart(6)} req/s  ${(r.completionTokens / r.seconds).toFixed(0).padStart(6)} tok/s  ${(r.ok / r.cpuSeconds).toFixed(1).padStart(6)} req/CPU-s  p50 ${pct(r.latencies, 50).toFixed(0).padStart(5)} ms  p99 ${pct(r.latencies, 99).toFixed(0).padStart(5)} ms  mean batch ${r.batchMean.toFixed(1).padStart(4)}  peak RSS ${r.peakRssMb.toFixed(0)} MB  statuses ${JSON.stringify(r.statuses)}`;
}

const t0 = performance.now();
const dir = values.model ?? (await trainTinyWorldModel());
const backend = await GeneratorBackend.load(dir, { provider: 'cpu', modelId: 'tiny-bd3', ...(SAMPLER_BATCH ? { samplerBatch: SAMPLER_BATCH } : {}) });
console.log(`model ${dir} (trained/loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s); ${REQUESTS} requests at concurrency ${CONCURRENCY}, max_tokens ${MAX_TOKENS}, loopback`);
const results = [
  await phase(`batching (max ${MAX_BATCH})`, backend, { maxBatch: MAX_BATCH, maxWaitMs: 5, batchConcurrency: BATCH_CONCURRENCY }, REQUESTS, BATCHED_MAX_SECONDS),
  await phase('batching off', backend, { maxBatch: 1 }, REQUESTS, MAX_SECONDS),
  await phase('overload (queue 16)', backend, { maxBatch: 16, maxWaitMs: 5, maxQueue: 16 }, Math.min(REQUESTS, 500), MAX_SECONDS),
];
for (const r of results) console.log(report(r));
const [on, off] = results;
console.log(`throughput with batching / without: ${(on!.ok / on!.seconds / (off!.ok / off!.seconds)).toFixed(2)}× per wall second, ${(on!.ok / on!.cpuSeconds / (off!.ok / off!.cpuSeconds)).toFixed(2)}× per CPU second (the machine is shared: CPU seconds are the steadier figure)`);
const bad = results.flatMap((r) => Object.entries(r.statuses).filter(([s]) => s !== '200' && s !== '429').map(([s, n]) => `${r.name}: ${n} × ${s}`));
if (bad.length) {
  console.error(`FAILED requests other than 429: ${bad.join('; ')}`);
  process.exit(1);
}
