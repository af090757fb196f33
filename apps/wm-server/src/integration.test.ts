// End to end on a real (tiny) model: the server on a loopback port driven through both routes, and
// the served world model giving exactly what the in-process generator gives for the same seed.
import { ChatGenerator } from '@diffworld/mdlm-core';
import { alfworldRowsFile, tinyWmModel, trainTinyWorldModel } from '@diffworld/mdlm-core/testing';
import { LocalWorldModel, RemoteWorldModel, worldModelMessages } from '@diffworld/eval';
import type { WorldModelRequest } from '@diffworld/env-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeneratorBackend } from './generator-backend.js';
import { startWmServer, type RunningWmServer } from './server.js';

let generator: ChatGenerator;
let server: RunningWmServer;
let backend: GeneratorBackend;

beforeAll(async () => {
  const dir = await trainTinyWorldModel({ data: alfworldRowsFile(32), settings: { model: tinyWmModel(64) } });
  generator = await ChatGenerator.load(dir, { provider: 'cpu' });
  // The server gets its own generator (own ONNX session), as a separate process would.
  backend = await GeneratorBackend.load(dir, { provider: 'cpu', modelId: 'tiny-bd3' });
  server = await startWmServer(backend, { maxBatch: 8, maxWaitMs: 20 });
}, 180_000);

/** The ONNX session key of a generator's decoder (its ORT options as JSON); white-box, for the server's defaults. */
const sessionKey = (g: ChatGenerator) => (g as unknown as { backend: { model: { decoder: { session: { key: string } } } } }).backend.model.decoder.session.key;
afterAll(() => server?.close());

const REQS: WorldModelRequest[] = [
  { system: '## INITIAL SCENE\n- cabinet 1 (closed)\n- fridge 1 (closed)', history: [{ role: 'user', content: 'You are in the middle of a room.' }], action: 'go to fridge 1' },
  { system: '## INITIAL SCENE\n- drawer 2 (closed)', history: [], action: 'open drawer 2' },
  {
    system: '## INITIAL SCENE\n- countertop 1',
    history: [
      { role: 'user', content: 'Your task is to: put a clean mug in coffeemachine. ünïcode' },
      { role: 'assistant', content: 'go to countertop 1' },
    ],
    action: 'take mug 1 from countertop 1',
  },
];
const SAMPLING = { temperature: 0.9, topK: 20, repetitionPenalty: 1.3, maxNewTokens: 24 };

describe('wm-server on a tiny trained model', () => {
  it('the served model runs ONNX Runtime without intra-op spinning (the in-process one with it: numerics equal below)', () => {
    expect(sessionKey(backend.generator)).toContain('"session.intra_op.allow_spinning":"0"');
    expect(sessionKey(generator)).not.toContain('allow_spinning');
  });

  it('chat completions equal in-process generation for the same seed, whatever the batch', async () => {
    const local = await generator.generate(
      REQS.map((r, i) => ({ messages: worldModelMessages(r), seed: 40 + i })),
      { ...SAMPLING, temperature: 0.9 },
    );
    const served = await Promise.all(
      REQS.map(async (r, i) => {
        const res = await fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ model: 'tiny-bd3', messages: worldModelMessages(r), seed: 40 + i, temperature: 0.9, top_k: 20, repetition_penalty: 1.3, max_tokens: 24 }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { choices: { message: { content: string }; finish_reason: string }[]; usage: { prompt_tokens: number; completion_tokens: number } };
      }),
    );
    // Not a trivial equality: the texts differ between requests.
    expect(new Set(local.map((l) => l.text)).size).toBe(REQS.length);
    expect(served.map((s) => s.choices[0]!.message.content)).toEqual(local.map((l) => l.text));
    expect(served.map((s) => s.usage.prompt_tokens)).toEqual(local.map((l) => l.stats.promptTokens));
    expect(served.map((s) => s.usage.completion_tokens)).toEqual(local.map((l) => l.stats.generatedTokens));
    expect(served.map((s) => s.choices[0]!.finish_reason)).toEqual(local.map((l) => (l.finishReason === 'stop' ? 'stop' : 'length')));
  }, 60_000);

  it('RemoteWorldModel over both routes equals the in-process LocalWorldModel, greedy and seeded, either action encoding', async () => {
    for (const actionEncoding of ['raw', 'assistant-json'] as const) {
      const localWm = new LocalWorldModel(generator, { actionEncoding });
      for (const opts of [
        { ...SAMPLING, temperature: 0, seed: 0 },
        { ...SAMPLING, seed: 1234 },
      ]) {
        const local = await localWm.predictBatch(REQS, opts);
        expect(local.every((r) => r.text.length > 0)).toBe(true);
        for (const protocol of ['openai', 'proxy'] as const) {
          const wm = new RemoteWorldModel({ urls: server.url, protocol, actionEncoding });
          const remote = await wm.predictBatch(REQS, opts);
          expect(
            remote.map((r) => r.text),
            `${protocol} ${actionEncoding} T=${opts.temperature}`,
          ).toEqual(local.map((l) => l.text));
          expect(remote.map((r) => r.stats?.completionTokens)).toEqual(local.map((l) => l.stats?.completionTokens));
        }
      }
    }
  }, 120_000);

  it('streams the same text, honours anchors as the generator does, and refuses what the model cannot do', async () => {
    const messages = worldModelMessages(REQS[0]!);
    const body = { messages, seed: 3, temperature: 0.9, max_tokens: 16, anchors: [{ at: 4, text: 'fridge' }] };
    const plain = (await (await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(body) })).json()) as { choices: { message: { content: string } }[] };
    const local = await generator.generate([{ messages, seed: 3, anchors: [{ at: 4, text: 'fridge' }] }], { temperature: 0.9, maxNewTokens: 16 });
    expect(plain.choices[0]!.message.content).toBe(local[0]!.text);
    expect(local[0]!.text).toContain('fridge');
    const sse = await (await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ ...body, stream: true }) })).text();
    const streamed = sse
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => (JSON.parse(e.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(streamed).toBe(local[0]!.text);
    const wrongBlock = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages, block_length: 8 }) });
    expect(wrongBlock.status).toBe(400);
    expect(await wrongBlock.json()).toMatchObject({ error: { param: 'block_length' } });
    const long = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'go to cabinet 1 '.repeat(200) }], max_tokens: 32 }) });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { param: 'messages' } });
    expect(await (await fetch(`${server.url}/v1/models`)).json()).toMatchObject({ data: [{ id: 'tiny-bd3', max_model_len: 511 }] });
  }, 60_000);
});
