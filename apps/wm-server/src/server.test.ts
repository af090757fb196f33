// The server against a scripted backend: both routes, streaming, batching, limits, auth, shutdown.
import { afterEach, describe, expect, it } from 'vitest';
import { pyJsonDumps, pyJsonParse } from '@diffworld/dataset';
import { scriptedResult, ScriptedBackend } from './testing.js';
import { startWmServer, type RunningWmServer, type WmServerOptions } from './server.js';

const servers: RunningWmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(backend = new ScriptedBackend(), opts: WmServerOptions = {}) {
  const s = await startWmServer(backend, { maxWaitMs: 2, ...opts });
  servers.push(s);
  return { s, backend };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

const MESSAGES = [
  { role: 'system', content: 'you are a world model' },
  { role: 'user', content: 'State: []\n\nAction: look' },
];

describe('POST /v1/chat/completions', () => {
  it('answers in OpenAI shape with usage; the same seed gives the same text, choice i uses seed + i', async () => {
    const { s, backend } = await start();
    const res = await post(`${s.url}/v1/chat/completions`, { model: 'scripted-wm', messages: MESSAGES, seed: 7, n: 2, temperature: 0.5, max_tokens: 64 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      id: string;
      object: string;
      model: string;
      choices: { index: number; message: { role: string; content: string }; finish_reason: string }[];
      usage: Record<string, number>;
    };
    expect(body.object).toBe('chat.completion');
    expect(body.model).toBe('scripted-wm');
    const again = (await (await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES, seed: 7 })).json()) as { id: string };
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(again.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(again.id).not.toBe(body.id);
    const params = backend.calls[0]!.params;
    expect(params).toMatchObject({ maxTokens: 64, temperature: 0.5, topP: 1, topK: 0, repetitionPenalty: 1 });
    const expected = [7, 8].map((seed) => scriptedResult({ messages: MESSAGES as never, seed }, params));
    expect(body.choices.map((c) => c.message.content)).toEqual(expected.map((e) => e.text));
    expect(body.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(body.usage).toEqual({
      prompt_tokens: expected[0]!.promptTokens,
      completion_tokens: expected[0]!.completionTokens + expected[1]!.completionTokens,
      total_tokens: expected[0]!.promptTokens + expected[0]!.completionTokens + expected[1]!.completionTokens,
    });
  });

  it('cuts at stop strings (finish_reason stop), reports length, passes dLLM extras and anchors', async () => {
    const { s, backend } = await start();
    const a = (await (
      await post(`${s.url}/v1/chat/completions`, {
        messages: MESSAGES,
        seed: 1,
        stop: ['rp='],
        block_length: 8,
        unmasking_strategy: 'low_confidence_static',
        confidence_threshold: 0.9,
        denoising_steps: 4,
        anchors: [{ at: 2, text: 'x' }],
      })
    ).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(a.choices[0]!.message.content).toBe('seed=1 t=1 ');
    expect(a.choices[0]!.finish_reason).toBe('stop');
    expect(backend.calls[0]!.params).toMatchObject({ blockLength: 8, strategy: 'low_confidence_static', threshold: 0.9, denoisingSteps: 4 });
    expect(backend.calls[0]!.requests[0]!.anchors).toEqual([{ at: 2, text: 'x' }]);
    const b = (await (await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES, max_tokens: 5 })).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(b.choices[0]!.message.content).toHaveLength(5);
    expect(b.choices[0]!.finish_reason).toBe('length');
  });

  it('streams server-sent events: role, content, finish, usage, [DONE] — the same text as without stream', async () => {
    const { s } = await start();
    const plain = (await (await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES, seed: 3, n: 2 })).json()) as { choices: { message: { content: string } }[] };
    const res = await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES, seed: 3, n: 2, stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events
      .slice(0, -1)
      .map((e) => JSON.parse(e) as { object: string; choices: { index: number; delta: { content?: string; role?: string }; finish_reason: string | null }[]; usage?: { total_tokens: number } });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    const texts = [0, 1].map((i) => chunks.flatMap((c) => c.choices.filter((x) => x.index === i).map((x) => x.delta.content ?? '')).join(''));
    expect(texts).toEqual(plain.choices.map((c) => c.message.content));
    expect(chunks.filter((c) => c.choices.some((x) => x.finish_reason === 'stop'))).toHaveLength(2);
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
  });

  it('names the field of a bad request (400, OpenAI error with param) and refuses another model (404)', async () => {
    const { s } = await start();
    const bad = await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES, top_p: 0 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'top_p' } });
    const other = await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES, model: 'gpt-4' });
    expect(other.status).toBe(404);
  });

  it('answers 500 with an OpenAI error when the backend throws, and keeps serving', async () => {
    const { s } = await start(new ScriptedBackend({ failOn: 'BOOM' }));
    const r = await post(`${s.url}/v1/chat/completions`, { messages: [{ role: 'user', content: 'BOOM' }] });
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: { type: string } }).error.type).toBe('server_error');
    expect((await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES })).status).toBe(200);
  });
});

describe("the paper's proxy route", () => {
  it('builds the user turn as Python does (json.dumps, key order, 1.0, \\u escapes) with the proxy defaults', async () => {
    const { s, backend } = await start();
    const text =
      '{"input": {"system_prompt": "SYS", "state": [{"role": "user", "content": "caf\\u00e9 \\ud83d\\ude00"}, {"role": "assistant", "content": "go", "x": 1.0}], "action": [{"role": "assistant", "content": "", "tool_calls": [{"10": 1, "2": 2.50}]}], "max_tokens": 100, "num_diffusion_steps": 4}}';
    const res = await post(`${s.url}/predict`, text);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { generated_text: string; usage: { completion_tokens: number } };
    const call = backend.calls[0]!;
    const input = (pyJsonParse(text, { objects: 'map' }) as Map<string, Map<string, never>>).get('input')!;
    const user = `State: ${pyJsonDumps(input.get('state')!)}\n\nAction: ${pyJsonDumps(input.get('action')!)}`;
    expect(user).toBe(
      'State: [{"role": "user", "content": "caf\\u00e9 \\ud83d\\ude00"}, {"role": "assistant", "content": "go", "x": 1.0}]\n\nAction: [{"role": "assistant", "content": "", "tool_calls": [{"10": 1, "2": 2.5}]}]',
    );
    expect(call.requests[0]!.messages).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: user },
    ]);
    expect(call.params).toMatchObject({ maxTokens: 100, temperature: 0, repetitionPenalty: 1.3, denoisingSteps: 4 });
    expect(body.generated_text).toBe(scriptedResult(call.requests[0]!, call.params).text);
    expect(body.usage.completion_tokens).toBe(body.generated_text.length);
  });

  it('takes top-level fields on /, a string state and a raw action as they are, and names bad fields', async () => {
    const { s, backend } = await start();
    const ok = await post(`${s.url}/`, { state: 'raw state', action: 'open door', temperature: 0.7, seed: 5 });
    expect(ok.status).toBe(200);
    expect(backend.calls[0]!.requests[0]).toMatchObject({ seed: 5, messages: [{ role: 'user', content: 'State: raw state\n\nAction: open door' }] });
    expect(backend.calls[0]!.params.temperature).toBe(0.7);
    const missing = await post(`${s.url}/`, { input: { state: [] } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toContain('"input.action"');
    const wrong = await post(`${s.url}/`, { input: { state: [], action: 'x', max_tokens: 'many' } });
    expect(((await wrong.json()) as { error: string }).error).toContain('"input.max_tokens"');
  });

  it('answers a generation failure with 200 and an error, as the reference proxy does', async () => {
    const { s } = await start(new ScriptedBackend({ failOn: 'BOOM' }));
    const r = await post(`${s.url}/`, { state: [], action: 'BOOM' });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ generated_text: '', error: expect.stringContaining('scripted failure') });
  });
});

describe('dynamic batching', () => {
  it('merges concurrent requests with equal options into one backend call and keeps the others apart', async () => {
    const { s, backend } = await start(new ScriptedBackend({ baseMs: 30 }), { maxBatch: 8, maxWaitMs: 20 });
    const bodies = Array.from({ length: 16 }, (_, i) => ({ messages: [{ role: 'user', content: `q${i}` }], seed: i, temperature: i % 2 }));
    const out = await Promise.all(
      bodies.map(async (b) => ((await (await post(`${s.url}/v1/chat/completions`, b)).json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content),
    );
    expect(out).toEqual(
      bodies.map((b) => scriptedResult({ messages: b.messages as never, seed: b.seed }, { maxTokens: 256, temperature: b.temperature, topP: 1, topK: 0, repetitionPenalty: 1 }).text),
    );
    expect(Math.max(...backend.batchSizes)).toBeGreaterThan(1);
    for (const c of backend.calls) expect(new Set(c.requests.map((r) => r.seed % 2)).size).toBe(1);
    expect(backend.batchSizes.reduce((a, b) => a + b, 0)).toBe(16);
  });

  it('a request that breaks its batch fails alone: its neighbours are answered; a rejected one gets 400', async () => {
    const { s, backend } = await start(new ScriptedBackend({ baseMs: 20, failOn: 'BOOM', rejectOn: 'LONG' }), { maxBatch: 8, maxWaitMs: 30 });
    const contents = ['a', 'BOOM', 'b', 'LONG', 'c'];
    const res = await Promise.all(contents.map((c) => post(`${s.url}/v1/chat/completions`, { messages: [{ role: 'user', content: c }] })));
    expect(res.map((r) => r.status)).toEqual([200, 500, 200, 400, 200]);
    expect(((await res[3]!.json()) as { error: { param: string } }).error.param).toBe('messages');
    expect(backend.batchSizes[0]).toBe(5);
  });

  it('with maxBatch 1 every call holds one sequence', async () => {
    const { s, backend } = await start(new ScriptedBackend({ baseMs: 5 }), { maxBatch: 1 });
    await Promise.all(Array.from({ length: 6 }, () => post(`${s.url}/v1/chat/completions`, { messages: MESSAGES })));
    expect(backend.batchSizes).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('answers 429 with Retry-After beyond the queue bound, never queues without limit', async () => {
    const { s } = await start(new ScriptedBackend({ baseMs: 200 }), { maxBatch: 2, maxQueue: 4, maxWaitMs: 0 });
    const res = await Promise.all(Array.from({ length: 12 }, () => post(`${s.url}/v1/chat/completions`, { messages: MESSAGES })));
    const statuses = res.map((r) => r.status);
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(4);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(0);
    expect(statuses.every((x) => x === 200 || x === 429)).toBe(true);
    const r429 = res.find((r) => r.status === 429)!;
    expect(Number(r429.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await r429.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'queue_full' } });
  });

  it('withdraws a queued request whose client left, survives a stream client leaving, and keeps serving', async () => {
    const { s, backend } = await start(new ScriptedBackend({ baseMs: 150 }), { maxBatch: 1, maxWaitMs: 0 });
    const busy = post(`${s.url}/v1/chat/completions`, { messages: MESSAGES });
    await new Promise((r) => setTimeout(r, 20));
    const gone = new AbortController();
    const left = fetch(`${s.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'never generated' }] }), signal: gone.signal }).catch(
      () => 'aborted',
    );
    const streamGone = new AbortController();
    const streamLeft = fetch(`${s.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: MESSAGES, stream: true }), signal: streamGone.signal })
      .then((r) => r.text())
      .catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 40));
    gone.abort();
    streamGone.abort();
    expect(await left).toBe('aborted');
    expect(await streamLeft).toBe('aborted');
    expect((await busy).status).toBe(200);
    await s.batcher.idle();
    expect(backend.calls.flatMap((c) => c.requests.map((r) => r.messages.at(-1)!.content))).not.toContain('never generated');
    expect((await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES })).status).toBe(200);
    expect(await (await fetch(`${s.url}/metrics`)).text()).toMatch(/wm_requests_total\{route="chat",status="499"\} 2/);
  });

  it('answers 504 past the generation deadline', async () => {
    const { s } = await start(new ScriptedBackend({ baseMs: 400 }), { generateTimeoutMs: 100 });
    const r = await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES });
    expect(r.status).toBe(504);
  });
});

describe('models, health, metrics, auth, shutdown', () => {
  it('lists the model, answers health, and exposes Prometheus metrics', async () => {
    const { s } = await start(new ScriptedBackend(), { processMetrics: true });
    expect(await (await fetch(`${s.url}/v1/models`)).json()).toMatchObject({ object: 'list', data: [{ id: 'scripted-wm', object: 'model' }] });
    expect(await (await fetch(`${s.url}/health`)).text()).toBe('ok');
    await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES });
    const m = await fetch(`${s.url}/metrics`);
    expect(m.headers.get('content-type')).toContain('text/plain');
    const text = await m.text();
    expect(text).toMatch(/wm_requests_total\{route="chat",status="200"\} 1/);
    expect(text).toMatch(/wm_batch_size_count 1/);
    expect(text).toMatch(/wm_tokens_total\{kind="completion"\} \d+/);
    expect(text).toContain('wm_queue_depth 0');
    expect(text).toContain('wm_request_duration_seconds_bucket');
    expect(text).toContain('wm_process_resident_memory_bytes');
    expect((await post(`${s.url}/v1/models`, {})).status).toBe(405);
    expect((await fetch(`${s.url}/nope`)).status).toBe(404);
  });

  it('requires the bearer token everywhere but /health', async () => {
    const { s } = await start(new ScriptedBackend(), { token: 'sekrit-token' });
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    expect((await fetch(`${s.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer wrong-token' } })).status).toBe(401);
    const ok = await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES }, { authorization: 'Bearer sekrit-token' });
    expect(ok.status).toBe(200);
  });

  it('binds 127.0.0.1 by default', async () => {
    const { s } = await start();
    expect(s.url.startsWith('http://127.0.0.1:')).toBe(true);
  });

  it('finishes in-flight requests on close and refuses new ones', async () => {
    const backend = new ScriptedBackend({ baseMs: 300 });
    const s = await startWmServer(backend, { maxWaitMs: 0 });
    const inflight = post(`${s.url}/v1/chat/completions`, { messages: MESSAGES });
    await new Promise((r) => setTimeout(r, 50));
    const closed = s.close();
    const late = await post(`${s.url}/v1/chat/completions`, { messages: MESSAGES }).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(late === 503 || late === 'refused').toBe(true);
    expect((await inflight).status).toBe(200);
    await closed;
    expect(backend.batchSizes).toEqual([1]);
  });
});
