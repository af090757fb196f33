// The world-model server: OpenAI chat completions (JSON or server-sent events), the paper's proxy
// route, /v1/models, /health and /metrics, over one scheduler: continuous batching for backends
// that decode continuously (AR checkpoints), else the dynamic batcher. Loopback by default; an
// optional bearer token guards everything but /health.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfterAnswerIfUnread, HttpError } from '@diffworld/env-core';
import { cutAtStopStrings, type BackendRequest, type BackendResult, type GenerationBackend, type GenerationParams } from './backend.js';
import { Batcher, type BatchEvent, QueueFullError } from './batcher.js';
import { ContinuousScheduler, type Scheduler } from './continuous.js';
import { parseJson, readBody } from './body.js';
import { parseChatRequest, MAX_SEED, type ChatCompletionRequest } from './chat-request.js';
import { ServerMetrics } from './metrics.js';
import { parseProxyRequest } from './proxy-request.js';
import { FieldError } from './validate.js';

export interface WmServerOptions {
  /** Default 127.0.0.1: a model server is for local trainers unless asked otherwise. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, every route but /health needs `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * 'continuous': iteration-level scheduling over the backend's continuous decoder (an AR
   * checkpoint's) — a request takes a free row at the next step and leaves at the step it ends;
   * 'batch': the dynamic batcher (equal options, a batch waits for its longest row); 'auto'
   * (default): continuous when the backend can, else batch.
   */
  scheduling?: SchedulingMode;
  /** Most sequences per backend call (default 32); 1 turns batching off. Continuous: the rows decoded together. */
  maxBatch?: number;
  /** How long a lone request waits for company (default 5 ms; batch scheduling only). */
  maxWaitMs?: number;
  /** Most sequences queued before 429 (default 1024). */
  maxQueue?: number;
  /** Backend calls running at once (default 1); 2 overlaps one batch's JavaScript work with another's ONNX compute. */
  batchConcurrency?: number;
  /** Largest accepted body (default 4 MiB). */
  maxBodyBytes?: number;
  /** Bodies up to this size are read and discarded after a 413 so the connection survives (default 4 × maxBodyBytes). */
  drainBytes?: number;
  /** Time to receive a whole request, headers and body (default 30 s); slower clients get 408. */
  receiveTimeoutMs?: number;
  /** Time from arrival to the generated answer (default 300 s); later requests get 504. */
  generateTimeoutMs?: number;
  /** How long close() waits for in-flight requests before cutting connections (default 30 s). */
  shutdownGraceMs?: number;
  /** Most choices per request (default 16). */
  maxN?: number;
  /** Most messages per request (default 4096). */
  maxMessages?: number;
  /** Adds prom-client's process metrics (memory, CPU, event loop) to /metrics. */
  processMetrics?: boolean;
  /** One line per notable event (startup, errors, shutdown). */
  log?: (line: string) => void;
}

export const SCHEDULING_MODES = ['auto', 'continuous', 'batch'] as const;
export type SchedulingMode = (typeof SCHEDULING_MODES)[number];

export interface RunningWmServer {
  server: Server;
  url: string;
  port: number;
  /** How this server schedules ('auto' resolved). */
  scheduling: 'continuous' | 'batch';
  scheduler: Scheduler;
  /** The scheduler under its old name (a Batcher under batch scheduling). */
  batcher: Scheduler;
  metrics: ServerMetrics;
  /** Stops accepting, finishes every accepted request, then closes. */
  close(): Promise<void>;
}

type Route = 'chat' | 'proxy' | 'models' | 'health' | 'metrics' | 'other';

const PROXY_PATHS = new Set(['/', '/predict']);

export async function startWmServer(backend: GenerationBackend, opts: WmServerOptions = {}): Promise<RunningWmServer> {
  const maxBody = opts.maxBodyBytes ?? 4 << 20;
  const drainCap = Math.max(maxBody, opts.drainBytes ?? 4 * maxBody);
  const generateTimeoutMs = opts.generateTimeoutMs ?? 300_000;
  const receiveTimeoutMs = opts.receiveTimeoutMs ?? 30_000;
  const limits = { maxTokensLimit: backend.maxTokensLimit, maxN: opts.maxN ?? 16, maxMessages: opts.maxMessages ?? 4096 };
  const tokenDigest = opts.token === undefined ? undefined : digest(opts.token);
  if (opts.token !== undefined && opts.token.length < 8) throw new RangeError('wm-server: a bearer token must be at least 8 characters');
  const log = opts.log ?? (() => {});

  let metrics: ServerMetrics | undefined;
  const onBatch = (e: BatchEvent) => {
    metrics?.batch(e);
    if (e.error !== undefined) log(`backend call of ${e.size} failed: ${errorText(e.error)}`);
  };
  const asked = opts.scheduling ?? 'auto';
  if (!(SCHEDULING_MODES as readonly string[]).includes(asked)) throw new RangeError(`wm-server: scheduling must be one of ${SCHEDULING_MODES.join(', ')}, got "${String(asked)}"`);
  if (asked === 'continuous' && !backend.openContinuous)
    throw new RangeError(`wm-server: scheduling "continuous" needs a backend that decodes continuously (an ar checkpoint); ${backend.modelId} does not — use "batch" or "auto"`);
  const scheduling = asked === 'batch' || !backend.openContinuous ? 'batch' : 'continuous';
  const maxBatch = opts.maxBatch ?? 32;
  const maxQueue = opts.maxQueue ?? 1024;
  const continuous = scheduling === 'continuous' ? await ContinuousScheduler.open(backend.openContinuous!.bind(backend), { rows: maxBatch, maxQueue }, onBatch) : undefined;
  const batcher: Scheduler = continuous ?? new Batcher(backend, { maxBatch, maxWaitMs: opts.maxWaitMs ?? 5, maxQueue, concurrency: opts.batchConcurrency ?? 1 }, onBatch);
  metrics = new ServerMetrics(
    { queued: () => batcher.queued, generating: () => batcher.generating, ...(continuous ? { rowsPerStep: () => continuous.rowsPerStep } : {}) },
    { processMetrics: opts.processMetrics },
  );
  const m = metrics;

  let draining = false;
  let active = 0;
  let onQuiet: (() => void) | undefined;
  const created = Math.floor(Date.now() / 1000);
  // Completion ids: a random per-server prefix and a counter — unique without a getrandom call per request.
  const idPrefix = `chatcmpl-${randomBytes(8).toString('hex')}`;
  let completions = 0;
  const nextCompletionId = () => `${idPrefix}${(completions++).toString(16).padStart(8, '0')}`;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const t0 = performance.now();
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routeOf(path);
    active++;
    res.on('close', () => {
      // 499 (nginx's "client closed request") for an answer the client did not wait for.
      m.request(route, res.writableFinished ? res.statusCode : 499, (performance.now() - t0) / 1000);
      if (--active === 0) onQuiet?.();
    });
    try {
      if (draining) {
        res.setHeader('connection', 'close');
        m.reject('draining');
        throw new HttpError(503, 'the server is shutting down');
      }
      if (route !== 'health' && tokenDigest && !authorized(req, tokenDigest)) {
        m.reject('unauthorized');
        res.setHeader('www-authenticate', 'Bearer');
        throw new HttpError(401, 'missing or wrong bearer token (Authorization: Bearer <token>)');
      }
      const method = req.method ?? 'GET';
      const expect = route === 'chat' || route === 'proxy' ? 'POST' : route === 'other' ? undefined : 'GET';
      if (expect === undefined) throw new HttpError(404, `no route ${method} ${path}; try POST /v1/chat/completions, POST / (proxy), GET /v1/models, /health, /metrics`);
      if (method !== expect) {
        res.setHeader('allow', expect);
        throw new HttpError(405, `${path} takes ${expect}, not ${method}`);
      }
      switch (route) {
        case 'health':
          return sendText(res, 200, 'ok');
        case 'metrics': {
          const { contentType, body } = await m.text();
          res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
          res.end(body);
          return;
        }
        case 'models':
          return sendJson(res, 200, { object: 'list', data: [{ id: backend.modelId, object: 'model', created, owned_by: 'diffworld', max_model_len: backend.maxTokensLimit }] });
        case 'chat': {
          const text = (await readBody(req, maxBody, drainCap)).toString('utf8');
          const chat = parseChatRequest(parseJson(text), limits);
          if (chat.model !== undefined && chat.model !== backend.modelId) throw new HttpError(404, `model "${chat.model}" is not served here; this server serves "${backend.modelId}"`);
          return await answerChat(chat, res);
        }
        case 'proxy': {
          const text = (await readBody(req, maxBody, drainCap)).toString('utf8');
          const p = parseProxyRequest(parseJson(text), text, backend.maxTokensLimit);
          return await answerProxy(p.messages, p.params, p.seed, res);
        }
      }
    } catch (e) {
      // An answer before the body was read: close rather than make Node read and drop the rest.
      closeAfterAnswerIfUnread(req, res, e);
      sendError(res, route, e);
    }
  };

  /** Generates n choices, withdrawn when the client leaves and failed with 504 past the deadline. */
  /** Throws at once (before a stream starts) for invalid requests and a full queue. */
  const generate = (requests: BackendRequest[], params: GenerationParams, res: ServerResponse): Promise<BackendResult[]> => {
    for (const r of requests) backend.validate?.(r, params);
    return generateChecked(requests, params, res).then((results) => {
      const rejected = results.find((r) => r.rejected)?.rejected;
      if (rejected) throw new FieldError(rejected.field, rejected.message);
      return results;
    });
  };

  const generateChecked = (requests: BackendRequest[], params: GenerationParams, res: ServerResponse): Promise<BackendResult[]> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new HttpError(504, `generation did not finish within ${generateTimeoutMs} ms`)), generateTimeoutMs);
    const onClose = () => {
      if (!res.writableFinished) controller.abort(new HttpError(499, 'the client closed the connection'));
    };
    res.on('close', onClose);
    let pending: Promise<BackendResult[]>;
    try {
      pending = batcher.submit(requests, params, controller.signal);
    } catch (e) {
      clearTimeout(timer);
      res.off('close', onClose);
      throw e;
    }
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
    return Promise.race([pending, aborted]).finally(() => {
      clearTimeout(timer);
      res.off('close', onClose);
      pending.catch(() => {}); // a late failure of a race already lost
    });
  };

  const answerChat = async (chat: ChatCompletionRequest, res: ServerResponse): Promise<void> => {
    const base = chat.seed ?? randomInt(0, MAX_SEED - 64);
    const requests = Array.from({ length: chat.n }, (_, i) => ({ messages: chat.messages, seed: (base + i) % (MAX_SEED + 1), anchors: chat.anchors }));
    const id = nextCompletionId();
    const results = generate(requests, chat.params, res);
    if (!chat.stream) {
      const choices = (await results).map((r, index) => finishChoice(r, chat.stop, index));
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created: now(),
        model: backend.modelId,
        choices: choices.map((c) => ({ index: c.index, message: { role: 'assistant', content: c.text }, logprobs: null, finish_reason: c.finish })),
        usage: usage(await results),
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    // A client that left mid-stream is not written to (its batch still finishes for the others).
    const write = (text: string) => void (res.destroyed || res.write(text));
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: now(), model: backend.modelId, choices, ...extra })}\n\n`);
    for (let index = 0; index < chat.n; index++) chunk([{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    // Comments keep proxies and clients from timing out an idle stream while the batch runs.
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), 10_000);
    try {
      const done = await results;
      for (const c of done.map((r, index) => finishChoice(r, chat.stop, index))) {
        if (c.text) chunk([{ index: c.index, delta: { content: c.text }, logprobs: null, finish_reason: null }]);
        chunk([{ index: c.index, delta: {}, logprobs: null, finish_reason: c.finish }]);
      }
      if (chat.includeUsage) chunk([], { usage: usage(done) });
    } catch (e) {
      if (res.destroyed) return;
      write(`data: ${JSON.stringify(openAiError(e))}\n\n`);
    } finally {
      clearInterval(heartbeat);
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  };

  const answerProxy = async (messages: BackendRequest['messages'], params: GenerationParams, seed: number | undefined, res: ServerResponse): Promise<void> => {
    let results: BackendResult[];
    try {
      results = await generate([{ messages, seed: seed ?? randomInt(0, MAX_SEED) }], params, res);
    } catch (e) {
      // The reference proxy answers generation failures with 200 and an "error" field; client
      // mistakes (4xx) and a full queue keep their status so that callers can tell them apart.
      if (e instanceof HttpError || e instanceof QueueFullError) throw e;
      log(`proxy generation failed: ${errorText(e)}`);
      return sendJson(res, 200, { generated_text: '', error: errorText(e) });
    }
    return sendJson(res, 200, { generated_text: results[0]!.text, usage: usage(results) });
  };

  const server = createServer(
    { requestTimeout: receiveTimeoutMs, headersTimeout: Math.min(receiveTimeoutMs, 60_000), connectionsCheckingInterval: Math.max(50, Math.min(1000, receiveTimeoutMs / 4)) },
    (req, res) => {
      void handle(req, res);
    },
  );
  server.on('clientError', (err, socket) => {
    // Malformed HTTP: answer 400 when the socket can still take it, never crash.
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (!socket.writable || code.startsWith('ECONN')) return void socket.destroy();
    const status = code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log(
    scheduling === 'continuous'
      ? `serving ${backend.modelId} on ${url} (continuous batching, ${maxBatch} rows, queue ${maxQueue})`
      : `serving ${backend.modelId} on ${url} (max batch ${maxBatch}, max wait ${opts.maxWaitMs ?? 5} ms, queue ${maxQueue})`,
  );

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const quiet = active === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onQuiet = resolve));
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all([quiet, batcher.idle()]), new Promise((resolve) => (grace = setTimeout(resolve, opts.shutdownGraceMs ?? 30_000)))]);
      clearTimeout(grace);
      server.closeAllConnections();
      await closed;
      // The continuous decoder's rows (it waits for sequences still decoding past the grace).
      await batcher.close?.();
      log('stopped');
    })());

  return { server, url, port, scheduling, scheduler: batcher, batcher, metrics: m, close };

  function sendError(res: ServerResponse, route: Route, e: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (e instanceof QueueFullError) {
      m.reject('queue_full');
      res.setHeader('retry-after', String(e.retryAfterS));
    }
    if (e instanceof HttpError && e.status === 504) m.reject('timeout');
    const status = statusOf(e);
    if (status >= 500) log(`${route}: ${errorText(e)}`);
    if (route === 'proxy') sendJson(res, status, { generated_text: '', error: errorText(e) });
    else if (route === 'chat' || route === 'models') sendJson(res, status, openAiError(e));
    else sendJson(res, status, { error: errorText(e) });
  }
}

function routeOf(path: string): Route {
  if (path === '/v1/chat/completions') return 'chat';
  if (path === '/v1/models') return 'models';
  if (path === '/health') return 'health';
  if (path === '/metrics') return 'metrics';
  if (PROXY_PATHS.has(path)) return 'proxy';
  return 'other';
}

function finishChoice(r: BackendResult, stop: readonly string[], index: number): { index: number; text: string; finish: 'stop' | 'length' } {
  const cut = cutAtStopStrings(r.text, stop);
  return { index, text: cut.text, finish: cut.stopped ? 'stop' : r.finishReason };
}

/** The prompt is counted once however many choices share it, as OpenAI does. */
function usage(results: readonly BackendResult[]): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = results[0]?.promptTokens ?? 0;
  const completion = results.reduce((a, r) => a + r.completionTokens, 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function statusOf(e: unknown): number {
  if (e instanceof QueueFullError) return 429;
  if (e instanceof HttpError) return e.status;
  return 500;
}

function openAiError(e: unknown): { error: { message: string; type: string; param: string | null; code: string | null } } {
  const status = statusOf(e);
  const type =
    status === 401
      ? 'authentication_error'
      : status === 404
        ? 'not_found_error'
        : status === 429
          ? 'rate_limit_error'
          : status === 504
            ? 'timeout_error'
            : status >= 500
              ? 'server_error'
              : 'invalid_request_error';
  return { error: { message: errorText(e), type, param: e instanceof FieldError ? e.field : null, code: status === 429 ? 'queue_full' : null } };
}

function errorText(e: unknown): string {
  if (e instanceof HttpError || e instanceof QueueFullError) return e.message;
  return `internal error: ${e instanceof Error ? e.message : String(e)}`;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!.trim()), expected);
}

const now = () => Math.floor(Date.now() / 1000);
