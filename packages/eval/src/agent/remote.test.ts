import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateAgent } from './runner.js';
import { PolicyLimitError } from './policy.js';
import { chatCompletionsEndpoint, remotePolicy, RemotePolicyError, serverMessage } from './remote.js';

type Handler = (body: { model: string; messages: { role: string; content: string }[]; temperature: number; max_tokens: number }, res: ServerResponse, req: IncomingMessage) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections(); // the slow handlers' sockets would otherwise hold close() open
      return new Promise((r) => s.close(r));
    }),
  );
});

/** A chat-completions server on 127.0.0.1 answering with `handler`; returns its base URL. */
async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      handler(JSON.parse(raw), res, req);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const reply = (res: ServerResponse, content: string) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));

const ctx = { env: 'alfworld', task: { env: 'alfworld', split: 'train', id: 't', taskType: 'x', seed: 0 }, turn: 0 };

describe('remotePolicy', () => {
  it('posts model, messages, temperature and max_tokens, and returns the completion', async () => {
    const seen: unknown[] = [];
    const url = await serve((body, res) => {
      seen.push(body);
      reply(res, 'Action: look');
    });
    const policy = remotePolicy({ url, model: 'm1', temperature: 0.7, maxTokens: 64 });
    const out = await policy.act([{ role: 'user', content: 'hi' }], ctx);
    expect(out).toBe('Action: look');
    expect(seen).toEqual([{ model: 'm1', messages: [{ role: 'user', content: 'hi' }], temperature: 0.7, max_tokens: 64 }]);
  });

  it('retries a 500 and succeeds on the next 200', async () => {
    let calls = 0;
    const url = await serve((_b, res) => {
      calls++;
      if (calls === 1) res.writeHead(500).end('overloaded');
      else reply(res, 'ok');
    });
    const out = await remotePolicy({ url, model: 'm', backoffMs: 5 }).act([{ role: 'user', content: 'x' }], ctx);
    expect(out).toBe('ok');
    expect(calls).toBe(2);
  });

  it('times a slow request out, retries it, and gives up naming the URL', async () => {
    let calls = 0;
    const url = await serve((_b, res) => {
      calls++;
      if (calls === 1) setTimeout(() => reply(res, 'late'), 1000);
      else reply(res, 'fast');
    });
    expect(await remotePolicy({ url, model: 'm', timeoutMs: 100, backoffMs: 5 }).act([{ role: 'user', content: 'x' }], ctx)).toBe('fast');
    expect(calls).toBe(2);

    const slow = await serve((_b, res) => setTimeout(() => reply(res, 'late'), 1000));
    const err = await remotePolicy({ url: slow, model: 'm', timeoutMs: 50, retries: 1, backoffMs: 5 })
      .act([], ctx)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemotePolicyError);
    expect((err as Error).message).toContain(`${slow}/v1/chat/completions`);
    expect((err as Error).message).toMatch(/gave up after 2 attempts; last: timed out after 50 ms/);
  });

  it('fails at once on a 404 as bad input, naming the URL, the model, the server message and where the models are listed', async () => {
    let calls = 0;
    const url = await serve((_b, res) => {
      calls++;
      res.writeHead(404).end('{"error":{"message":"model \\"nope\\" is not served here","type":"not_found_error"}}');
    });
    const err = (await remotePolicy({ url, model: 'nope', backoffMs: 5 })
      .act([], ctx)
      .catch((e: unknown) => e)) as RemotePolicyError;
    expect(err).toBeInstanceOf(RemotePolicyError);
    expect(err.status).toBe(404);
    expect(err.badInput).toBe(true);
    expect(err.message).toBe(
      `[eval.agent] ${url}/v1/chat/completions: HTTP 404 for model "nope": model "nope" is not served here (a model name the server does not serve, or a wrong URL; GET ${url}/v1/models lists the served models)`,
    );
    expect(calls).toBe(1);
  });

  it('fails at once on another 4xx (not bad input: the request itself was refused as malformed)', async () => {
    const url = await serve((_b, res) => res.writeHead(422).end('unprocessable'));
    const err = (await remotePolicy({ url, model: 'm', backoffMs: 5 })
      .act([], ctx)
      .catch((e: unknown) => e)) as RemotePolicyError;
    expect(err.status).toBe(422);
    expect(err.badInput).toBe(false);
  });

  it('a 400 or 413 refuses that conversation only: act throws PolicyLimitError, actBatch answers { truncated } for it and text for the rest', async () => {
    let calls = 0;
    const url = await serve((body, res) => {
      calls++;
      const text = body.messages[0]!.content;
      if (text === 'long') res.writeHead(400).end(JSON.stringify({ error: { message: "This model's maximum context length is 32 tokens", type: 'invalid_request_error' } }));
      else if (text === 'huge') res.writeHead(413).end('payload too large');
      else reply(res, `echo ${text}`);
    });
    const policy = remotePolicy({ url, model: 'm', backoffMs: 5 });
    const err = await policy.act([{ role: 'user', content: 'long' }], ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyLimitError);
    const answers = await policy.actBatch(['a', 'long', 'b', 'huge'].map((content) => ({ messages: [{ role: 'user' as const, content }], context: ctx })));
    expect(answers).toEqual([
      'echo a',
      { truncated: `${url}/v1/chat/completions answered HTTP 400: This model's maximum context length is 32 tokens` },
      'echo b',
      { truncated: `${url}/v1/chat/completions answered HTTP 413: payload too large` },
    ]);
    expect(calls).toBe(5); // never retried
  });

  it('serverMessage reads OpenAI, {error: string}, {message} and plain-text error bodies', () => {
    expect(serverMessage('{"error":{"message":"too long"}}')).toBe('too long');
    expect(serverMessage('{"error":"no such model"}')).toBe('no such model');
    expect(serverMessage('{"message":"bad"}')).toBe('bad');
    expect(serverMessage('  plain\n text ')).toBe('plain text');
    expect(serverMessage('{"detail":"x"}')).toBe('{"detail":"x"}');
  });

  it('gives up after the retries on a persistent 503, with the status', async () => {
    const url = await serve((_b, res) => res.writeHead(503).end('down'));
    const err = (await remotePolicy({ url, model: 'm', retries: 2, backoffMs: 1 })
      .act([], ctx)
      .catch((e: unknown) => e)) as RemotePolicyError;
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/gave up after 3 attempts; last: HTTP 503: down/);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const url = await serve((body, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        reply(res, body.messages[0]!.content);
      }, 20);
    });
    const policy = remotePolicy({ url, model: 'm', concurrency: 3 });
    const reqs = Array.from({ length: 10 }, (_, i) => ({ messages: [{ role: 'user' as const, content: `q${i}` }], context: ctx }));
    expect(await policy.actBatch(reqs)).toEqual(reqs.map((r) => r.messages[0]!.content));
    expect(peak).toBe(3);
  });

  it('rejects a response without choices[0].message.content', async () => {
    const url = await serve((_b, res) => res.writeHead(200).end('{"choices":[]}'));
    await expect(remotePolicy({ url, model: 'm' }).act([], ctx)).rejects.toThrow(/no choices\[0\]\.message\.content/);
  });

  it('normalises base URLs', () => {
    expect(chatCompletionsEndpoint('http://h:1/')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsEndpoint('http://h:1/v1')).toBe('http://h:1/v1/chat/completions');
    expect(chatCompletionsEndpoint('http://h:1/v1/chat/completions')).toBe('http://h:1/v1/chat/completions');
    expect(() => chatCompletionsEndpoint('h:1')).toThrow(/expected an http/);
  });

  it('plays ALFWorld episodes through the runner against a server that answers the first admissible command', async () => {
    const url = await serve((body, res) => {
      const last = body.messages.at(-1)!.content;
      reply(res, `Action: ${/Admissible commands:\n- (.*)/.exec(last)![1]}`);
    });
    const { records, summary } = await evaluateAgent({ env: 'alfworld', policy: remotePolicy({ url, model: 'm', concurrency: 4 }), split: 'train', limit: 2, workers: 2 });
    expect(summary.workers).toBe(1);
    expect(records).toHaveLength(2);
    for (const r of records) expect(r.steps).toBe(50);
  });

  it('an episode whose conversation the server refuses (400) ends as truncated and the run goes on', async () => {
    // The server refuses a conversation once it holds more than 3 assistant turns, as a model with a small context would.
    const url = await serve((body, res) => {
      if (body.messages.filter((m) => m.role === 'assistant').length >= 3) res.writeHead(400).end('{"error":{"message":"maximum context length exceeded"}}');
      else reply(res, `Action: ${/Admissible commands:\n- (.*)/.exec(body.messages.at(-1)!.content)![1]}`);
    });
    const { records, summary } = await evaluateAgent({ env: 'alfworld', policy: remotePolicy({ url, model: 'm' }), split: 'train', limit: 3 });
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r.steps).toBe(3);
      expect(r.won).toBe(false);
      expect(r.truncated).toBe(`${url}/v1/chat/completions answered HTTP 400: maximum context length exceeded`);
      expect(r.messages.at(-1)!.role).toBe('user'); // the refused turn left no assistant message
    }
    expect(summary.overall).toMatchObject({ episodes: 3, wins: 0, truncated: 3 });
  });
});
