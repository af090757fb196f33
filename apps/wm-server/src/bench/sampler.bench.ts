// The sampler's own batch scaling, without the server: ChatGenerator.generate on the load bench's
// prompts (test-data/wm/alfworld-eval.jsonl) at several batch sizes, greedy, on the tiny model.
// Requests are cut into batches in arrival order, one generate() call per batch, as the server's
// batcher does (prompts of mixed lengths share a call). This is the ceiling of the server's gain. Usage (from apps/wm-server):
//   npx tsx --conditions=@diffworld/source src/bench/sampler.bench.ts [--requests 64] [--batches 1,8,32] [--max-tokens 16] [--model DIR] [--rounds 1] [--threads N (ONNX Runtime intra-op threads; default every core)]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ChatGenerator, type ChatRequest } from '@diffworld/mdlm-core';
import { alfworldRowsFile, tinyWmModel, trainTinyWorldModel } from '@diffworld/mdlm-core/testing';

const { values } = parseArgs({
  options: { requests: { type: 'string' }, batches: { type: 'string' }, 'max-tokens': { type: 'string' }, model: { type: 'string' }, rounds: { type: 'string' }, threads: { type: 'string' } },
});
const N = Number(values.requests ?? 64);
const BATCHES = (values.batches ?? '1,8,32').split(',').map(Number);
const MAX_TOKENS = Number(values['max-tokens'] ?? 16);
const ROUNDS = Number(values.rounds ?? 1);

const rows = readFileSync(new URL('../../../../test-data/wm/alfworld-eval.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { messages: { role: 'system' | 'user' | 'assistant'; content: string }[] }).messages.slice(0, -1));
const requests: ChatRequest[] = Array.from({ length: N }, (_, i) => ({ messages: rows[i % rows.length]!, seed: i }));

const dir = values.model ?? (await trainTinyWorldModel({ data: alfworldRowsFile(32), settings: { model: tinyWmModel(64) } }));
const gen = await ChatGenerator.load(dir, { provider: 'cpu', ...(values.threads ? { intraOpThreads: Number(values.threads) } : {}) });
await gen.generate(requests.slice(0, 8), { maxNewTokens: MAX_TOKENS, batchSize: 8 }); // warm-up
let reference: string[] | undefined;
const rate: Record<number, number> = {};
for (const batch of BATCHES) {
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const out = [];
    for (let at = 0; at < N; at += batch) out.push(...(await gen.generate(requests.slice(at, at + batch), { maxNewTokens: MAX_TOKENS, batchSize: batch })));
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const texts = out.map((g) => g.text);
    if (reference && texts.some((t, i) => t !== reference![i])) throw new Error(`batch ${batch} changed an answer`);
    reference ??= texts;
    const forwards = out.reduce((a, g) => a + g.stats.forwards, 0) / N;
    best = Math.max(best, N / s);
    console.log(
      `batch ${String(batch).padStart(3)}: ${(N / s).toFixed(1).padStart(6)} req/s  ${(N / ((cpu.user + cpu.system) / 1e6)).toFixed(1).padStart(6)} req/CPU-s  ${forwards.toFixed(1)} forwards/request`,
    );
  }
  rate[batch] = best;
}
console.log(
  `model ${dir}; ${N} requests, max_tokens ${MAX_TOKENS}; speed-up over batch ${BATCHES[0]}: ${BATCHES.slice(1)
    .map((b) => `${b}: ${(rate[b]! / rate[BATCHES[0]!]!).toFixed(2)}×`)
    .join(', ')}`,
);
