// Continuous batching end to end: the server on a tiny AR checkpoint (random weights, so answers
// run to their max_tokens unless they hit a stop id) schedules per iteration — concurrent requests
// of different lengths, seeds and sampling each get exactly what the same request gets alone, a
// short request finishes while a long one submitted earlier still decodes, and a client that
// aborts frees its row for the next request. Each of these fails on the dynamic batcher.
import { ChatGenerator } from '@diffworld/mdlm-core';
import { saveTinyQwen3 } from '@diffworld/mdlm-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContinuousScheduler } from './continuous.js';
import { GeneratorBackend } from './generator-backend.js';
import { startWmServer, type RunningWmServer, type WmServerOptions } from './server.js';
import { ScriptedBackend } from './testing.js';

let dir: string;
let backend: GeneratorBackend;
let alone: ChatGenerator;
const servers: RunningWmServer[] = [];

beforeAll(async () => {
  dir = await saveTinyQwen3({ seed: 3, generationConfig: { objective: 'ar' } });
  backend = await GeneratorBackend.load(dir, { provider: 'cpu', modelId: 'tiny-ar' });
  // The reference: the same checkpoint in its own generator, one request per generate() call.
  alone = await ChatGenerator.load(dir, { provider: 'cpu' });
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function start(opts: WmServerOptions = {}): Promise<RunningWmServer> {
  const s = await startWmServer(backend, opts);
  servers.push(s);
  return s;
}

interface Body {
  max_tokens: number;
  seed: number;
  temperature: number;
  top_k?: number;
  top_p?: number;
  repetition_penalty?: number;
}
interface Answer {
  choices: { message: { content: string }; finish_reason: string }[];
  usage: { completion_tokens: number };
}

const messages = (i: number) => [
  { role: 'system', content: `Room ${i % 3}` },
  { role: 'user', content: `Action: open cabinet ${i}` },
];
const post = (s: RunningWmServer, i: number, body: Body, signal?: AbortSignal) =>
  fetch(`${s.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: messages(i), ...body }), ...(signal ? { signal } : {}) });
const answer = async (s: RunningWmServer, i: number, body: Body): Promise<Answer> => {
  const res = await post(s, i, body);
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};
/** What the request gets decoded alone, in process. */
const reference = async (i: number, b: Body) =>
  (
    await alone.generate([{ messages: messages(i) as never, seed: b.seed }], {
      maxNewTokens: b.max_tokens,
      temperature: b.temperature,
      ...(b.top_k !== undefined ? { topK: b.top_k } : {}),
      ...(b.top_p !== undefined ? { topP: b.top_p } : {}),
      ...(b.repetition_penalty !== undefined ? { repetitionPenalty: b.repetition_penalty } : {}),
    })
  )[0]!;
const until = async (what: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 2));
  }
};

describe('continuous batching in wm-server (tiny AR checkpoint)', () => {
  it('is the automatic choice for an ar backend, not for others; asking for it without support fails at start', async () => {
    const s = await start({ maxBatch: 2 });
    expect(s.scheduling).toBe('continuous');
    expect((await start({ scheduling: 'batch' })).scheduling).toBe('batch');
    const scripted = await startWmServer(new ScriptedBackend(), {});
    expect(scripted.scheduling).toBe('batch');
    await scripted.close();
    await expect(startWmServer(new ScriptedBackend(), { scheduling: 'continuous' })).rejects.toThrow(/needs a backend that decodes continuously/);
  });

  it('concurrent requests of different lengths, seeds and sampling each return exactly what the request returns alone', async () => {
    const s = await start({ maxBatch: 4 });
    const bodies: Body[] = [
      { max_tokens: 30, seed: 1, temperature: 0 },
      { max_tokens: 7, seed: 2, temperature: 0.8, top_k: 20 },
      { max_tokens: 18, seed: 3, temperature: 1, top_p: 0.9, repetition_penalty: 1.3 },
      { max_tokens: 3, seed: 4, temperature: 0 },
      { max_tokens: 25, seed: 5, temperature: 1.1 },
      { max_tokens: 12, seed: 6, temperature: 0, repetition_penalty: 1.5 },
      { max_tokens: 40, seed: 7, temperature: 0.7, top_k: 5 },
      { max_tokens: 9, seed: 8, temperature: 1 },
      { max_tokens: 22, seed: 9, temperature: 0 },
    ];
    const served = await Promise.all(bodies.map((b, i) => answer(s, i, b)));
    const want = [];
    for (const [i, b] of bodies.entries()) want.push(await reference(i, b));
    expect(served.map((a) => a.choices[0]!.message.content)).toEqual(want.map((w) => w.text));
    expect(served.map((a) => a.usage.completion_tokens)).toEqual(want.map((w) => w.stats.generatedTokens));
    expect(served.map((a) => a.choices[0]!.finish_reason)).toEqual(want.map((w) => (w.finishReason === 'stop' ? 'stop' : 'length')));
    // Not trivially equal: the answers differ, and rows of different options shared passes.
    expect(new Set(want.map((w) => w.text)).size).toBe(bodies.length);
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    expect(Number(/^wm_decode_rows_per_step (\S+)/m.exec(metrics)?.[1])).toBeGreaterThan(1.5);
  }, 60_000);

  it('a short request finishes while a long one submitted before it still decodes (scheduling per iteration)', async () => {
    const s = await start({ maxBatch: 4 });
    const longBody: Body = { max_tokens: 400, seed: 11, temperature: 0 };
    const order: string[] = [];
    const long = answer(s, 1, longBody).then((a) => (order.push('long'), a));
    await until(() => s.scheduler.generating === 1 && (s.scheduler as ContinuousScheduler).steps > 5);
    const short = await answer(s, 2, { max_tokens: 4, seed: 12, temperature: 0.9 });
    order.push('short');
    const l = await long;
    // The long answer really ran on past the short one (no early stop id).
    expect(l.usage.completion_tokens).toBe(400);
    expect(short.usage.completion_tokens).toBeLessThanOrEqual(4);
    expect(order).toEqual(['short', 'long']);
  }, 60_000);

  it('an aborted request frees its row at the next step: the next request runs long before the aborted one would have ended', async () => {
    const s = await start({ maxBatch: 1 });
    const sched = s.scheduler as ContinuousScheduler;
    const ctl = new AbortController();
    const gone = post(s, 3, { max_tokens: 500, seed: 13, temperature: 0 }, ctl.signal).catch((e: unknown) => e);
    await until(() => sched.generating === 1 && sched.steps > 5);
    ctl.abort();
    expect(await gone).toBeInstanceOf(Error);
    const stepsAtAbort = sched.steps;
    const next = await answer(s, 4, { max_tokens: 6, seed: 14, temperature: 0 });
    expect(next.choices[0]!.message.content).toBe((await reference(4, { max_tokens: 6, seed: 14, temperature: 0 })).text);
    // One row: the next request ran in the aborted one's row, after at most the step in flight.
    expect(sched.steps).toBeLessThan(stepsAtAbort + 1 + 7 + 5);
    expect(sched.steps).toBeLessThan(500);
    await until(() => sched.generating === 0);
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    expect(metrics).toMatch(/^wm_requests_total\{route="chat",status="499"\} 1$/m);
  }, 60_000);
});
