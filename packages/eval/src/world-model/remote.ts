// A world model served over HTTP, by one server or a fleet: DiffWorld's wm-server, lmdeploy, vLLM
// or SGLang (OpenAI chat completions), or the paper's wm_proxy route ({system_prompt, state,
// action} → {generated_text}). The request is the chat the world model was trained on — [system,
// user "State: <json.dumps(history)>\n\nAction: <action>"] — built here for chat servers and by the
// server for the proxy route, byte for byte the same (LocalWorldModel's worldModelMessages).
//
// Fleet behaviour: each request goes to the healthy endpoint with the fewest requests in flight
// (ties in turn); a network error, timeout or 5xx marks an endpoint down for `cooldownMs`, after
// which a GET /health probe brings it back; a 429 waits for its Retry-After and is not held
// against the endpoint. Failed attempts are retried with exponential backoff on the next endpoint.
import type { ActionEncoding, WorldModelLayout } from '@diffworld/dataset';
import type { SampleOptions, WorldModel, WorldModelRequest, WorldModelResponse } from '@diffworld/env-core';
import { Limiter } from '../agent/remote.js';
import { worldModelMessages } from './local.js';

export type RemoteProtocol = 'openai' | 'proxy';

export interface RemoteWorldModelOptions {
  /** Base URLs (http://host:port, a trailing /v1 is accepted), or one string of comma-separated URLs. */
  urls: string | readonly string[];
  /** 'openai' (default): POST /v1/chat/completions. 'proxy': the paper's wm_proxy contract on POST /. */
  protocol?: RemoteProtocol;
  /** How the action is written after "Action: " (default 'raw', ALFWorld's; SciWorld's is 'assistant-json'). */
  actionEncoding?: ActionEncoding;
  /** 'openai' only: the prompt layout the served model was trained on (default 'transition'; the proxy route is always the paper's). */
  layout?: WorldModelLayout;
  /** Chat model id; default: each endpoint's first GET /v1/models entry (as the paper's proxy resolves it). */
  model?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Defaults for every request; per-call SampleOptions override them. The proxy's: greedy, 1.3, 256. */
  sampling?: SampleOptions;
  /** Extra body fields for every request (e.g. chat_template_kwargs for vLLM). */
  extraBody?: Record<string, unknown>;
  /** Per-attempt timeout in ms (default 120 s, the reference proxy's). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 4). */
  retries?: number;
  /** First backoff in ms, doubled per retry up to maxBackoffMs (defaults 250 / 8000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Most requests in flight over all endpoints (default 16). */
  concurrency?: number;
  /** How long a failing endpoint stays out of rotation before a health probe (default 5 s). */
  cooldownMs?: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** A request that failed for good: which endpoint answered last, with what. */
export class RemoteWorldModelError extends Error {
  override readonly name = 'RemoteWorldModelError';
  constructor(
    readonly endpoint: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(`[eval.world-model] ${endpoint}: ${message}`);
  }
}

export interface EndpointState {
  url: string;
  healthy: boolean;
  inFlight: number;
  requests: number;
  failures: number;
}

interface Endpoint extends EndpointState {
  downUntil: number;
  model?: string;
}

/** The proxy's request sampling (upstream-paper-repo.md §3.3): greedy, repetition penalty 1.3, 256 tokens. */
export const PROXY_SAMPLING: Readonly<SampleOptions> = { temperature: 0, repetitionPenalty: 1.3, maxNewTokens: 256 };

/** SampleOptions keys and the request fields they become (both servers read these names). */
const FIELD_OF: Readonly<Record<string, string>> = {
  temperature: 'temperature',
  topP: 'top_p',
  topK: 'top_k',
  maxNewTokens: 'max_tokens',
  seed: 'seed',
  repetitionPenalty: 'repetition_penalty',
  blockLength: 'block_length',
  unmasking: 'unmasking_strategy',
  threshold: 'confidence_threshold',
  denoisingSteps: 'denoising_steps',
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RemoteWorldModel implements WorldModel {
  readonly protocol: RemoteProtocol;
  private readonly endpoints: Endpoint[];
  private readonly limiter: Limiter;
  private readonly doFetch: typeof fetch;
  private turn = 0;

  constructor(private readonly opts: RemoteWorldModelOptions) {
    const urls = (typeof opts.urls === 'string' ? opts.urls.split(',') : [...opts.urls]).map((u) => u.trim()).filter((u) => u !== '');
    if (urls.length === 0) throw new RemoteWorldModelError('(none)', undefined, 'no world-model URL given');
    this.endpoints = urls.map((u) => ({ url: baseUrl(u), healthy: true, inFlight: 0, requests: 0, failures: 0, downUntil: 0 }));
    this.protocol = opts.protocol ?? 'openai';
    if (this.protocol !== 'openai' && this.protocol !== 'proxy') throw new RemoteWorldModelError(urls[0]!, undefined, `protocol must be "openai" or "proxy", got "${String(this.protocol)}"`);
    const concurrency = opts.concurrency ?? 16;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RemoteWorldModelError(urls[0]!, undefined, `concurrency must be a positive integer, got ${concurrency}`);
    this.limiter = new Limiter(concurrency);
    this.doFetch = opts.fetch ?? fetch;
  }

  /** Where each endpoint stands (for logs and tests). */
  state(): EndpointState[] {
    return this.endpoints.map(({ url, healthy, inFlight, requests, failures }) => ({ url, healthy, inFlight, requests, failures }));
  }

  /** Probes GET /health on every endpoint now; returns which answered 2xx. */
  async checkHealth(): Promise<EndpointState[]> {
    await Promise.all(this.endpoints.map((e) => this.probe(e)));
    return this.state();
  }

  async predict(req: WorldModelRequest, opts?: SampleOptions): Promise<WorldModelResponse> {
    return this.limiter.run(() => this.withRetries(req, opts ?? {}));
  }

  /** Sent as separate requests so that the servers batch them with everyone else's. */
  predictBatch(reqs: WorldModelRequest[], opts?: SampleOptions): Promise<WorldModelResponse[]> {
    return Promise.all(reqs.map((r) => this.predict(r, opts)));
  }

  private async withRetries(req: WorldModelRequest, opts: SampleOptions): Promise<WorldModelResponse> {
    const retries = this.opts.retries ?? 4;
    let last: { endpoint: string; status?: number; message: string } = { endpoint: '', message: '' };
    for (let attempt = 0; attempt <= retries; attempt++) {
      const e = await this.pick();
      const r = await this.attempt(e, req, opts);
      if ('text' in r) return r;
      last = { endpoint: e.url, status: r.status, message: r.message };
      if (attempt === retries) break;
      const backoff = Math.min(this.opts.maxBackoffMs ?? 8000, (this.opts.backoffMs ?? 250) * 2 ** attempt);
      await sleep(Math.max(backoff, (r.retryAfterS ?? 0) * 1000));
    }
    throw new RemoteWorldModelError(last.endpoint, last.status, `gave up after ${retries + 1} attempts; last: ${last.message}`);
  }

  /** The healthy endpoint with the fewest requests in flight; a cooled-down one is probed first. */
  private async pick(): Promise<Endpoint> {
    const now = Date.now();
    await Promise.all(this.endpoints.filter((e) => !e.healthy && e.downUntil <= now).map((e) => this.probe(e)));
    const up = this.endpoints.filter((e) => e.healthy);
    // All down: try the one that comes back first rather than failing without asking anyone.
    const pool = up.length > 0 ? up : [this.endpoints.reduce((a, b) => (b.downUntil < a.downUntil ? b : a))];
    const least = Math.min(...pool.map((e) => e.inFlight));
    const ties = pool.filter((e) => e.inFlight === least);
    return ties[this.turn++ % ties.length]!;
  }

  private async probe(e: Endpoint): Promise<void> {
    const ok = await this.request(e, 'GET', '/health', undefined, Math.min(5000, this.opts.timeoutMs ?? 120_000)).then(
      (r) => r.status >= 200 && r.status < 300,
      () => false,
    );
    if (ok) {
      e.healthy = true;
    } else this.markDown(e);
  }

  private markDown(e: Endpoint): void {
    e.healthy = false;
    e.failures++;
    e.downUntil = Date.now() + (this.opts.cooldownMs ?? 5000);
  }

  private async attempt(e: Endpoint, req: WorldModelRequest, opts: SampleOptions): Promise<WorldModelResponse | { status?: number; message: string; retryAfterS?: number }> {
    e.inFlight++;
    e.requests++;
    const t0 = performance.now();
    try {
      const timeoutMs = this.opts.timeoutMs ?? 120_000;
      const path = this.protocol === 'openai' ? '/v1/chat/completions' : '/';
      let res: { status: number; text: string; retryAfter: string | null };
      try {
        const body = this.protocol === 'openai' ? await this.chatBody(e, req, opts) : this.proxyBody(req, opts);
        res = await this.request(e, 'POST', path, body, timeoutMs);
      } catch (err) {
        if (err instanceof RemoteWorldModelError && err.endpoint === '(options)') throw err;
        this.markDown(e);
        return { message: (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? `timed out after ${timeoutMs} ms` : `request failed: ${(err as Error).message}` };
      }
      if (res.status === 429) return { status: 429, message: `HTTP 429: ${res.text.slice(0, 200)}`, retryAfterS: Number(res.retryAfter) || undefined };
      if (res.status >= 500) {
        this.markDown(e);
        return { status: res.status, message: `HTTP ${res.status}: ${res.text.slice(0, 200)}` };
      }
      if (res.status !== 200) throw new RemoteWorldModelError(e.url, res.status, `HTTP ${res.status}: ${res.text.slice(0, 300)}`);
      const answer = parseAnswer(e.url, this.protocol, res.text);
      // The proxy reports a failed generation as 200 + "error": worth another attempt, like a 5xx.
      if ('error' in answer) return { status: 200, message: `the proxy reports: ${answer.error}` };
      return { text: answer.text, stats: { ...answer.usage, latencyMs: performance.now() - t0 } };
    } finally {
      e.inFlight--;
    }
  }

  private async chatBody(e: Endpoint, req: WorldModelRequest, opts: SampleOptions): Promise<Record<string, unknown>> {
    const model = this.opts.model ?? (e.model ??= await this.resolveModel(e));
    return { model, messages: worldModelMessages(req, this.opts.actionEncoding, this.opts.layout), ...this.opts.extraBody, ...samplingFields({ ...PROXY_SAMPLING, ...this.opts.sampling, ...opts }) };
  }

  /** The paper's proxy body: the history as a list of {role, content}; the action as a string, or as the list the proxy json.dumps. */
  private proxyBody(req: WorldModelRequest, opts: SampleOptions): Record<string, unknown> {
    const action = this.opts.actionEncoding === 'assistant-json' ? [{ role: 'assistant', content: req.action }] : req.action;
    return {
      system_prompt: req.system,
      state: req.history.map((m) => ({ role: m.role, content: m.content })),
      action,
      ...this.opts.extraBody,
      ...samplingFields({ ...PROXY_SAMPLING, ...this.opts.sampling, ...opts }),
    };
  }

  private async resolveModel(e: Endpoint): Promise<string> {
    const res = await this.request(e, 'GET', '/v1/models', undefined, this.opts.timeoutMs ?? 120_000);
    const id = res.status === 200 ? (tryJson(res.text) as { data?: { id?: unknown }[] } | undefined)?.data?.[0]?.id : undefined;
    if (typeof id !== 'string') throw new RemoteWorldModelError(e.url, res.status, `cannot resolve the model id from GET /v1/models (HTTP ${res.status}: ${res.text.slice(0, 200)}); pass a model`);
    return id;
  }

  private async request(e: Endpoint, method: string, path: string, body: unknown, timeoutMs: number): Promise<{ status: number; text: string; retryAfter: string | null }> {
    const headers: Record<string, string> = { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {}) };
    const res = await this.doFetch(e.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
  }
}

/** SampleOptions as request fields; unknown keys are refused so a typo does not fall back silently. */
export function samplingFields(o: SampleOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    const field = FIELD_OF[k];
    if (field === undefined) throw new RemoteWorldModelError('(options)', undefined, `sampling option "${k}" has no request field (known: ${Object.keys(FIELD_OF).join(', ')})`);
    out[field] = v;
  }
  return out;
}

function baseUrl(url: string): string {
  let base = url.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(base)) throw new RemoteWorldModelError(url, undefined, 'expected an http:// or https:// URL');
  for (const tail of ['/v1/chat/completions', '/v1', '/predict']) if (base.endsWith(tail)) base = base.slice(0, -tail.length);
  return base;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** choices[0].message.content, or the proxy's generated_text (also under "output", the RunPod shape), with usage. */
function parseAnswer(endpoint: string, protocol: RemoteProtocol, raw: string): { text: string; usage: { promptTokens?: number; completionTokens?: number } } | { error: string } {
  const body = tryJson(raw) as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null) throw new RemoteWorldModelError(endpoint, 200, `response is not a JSON object: ${raw.slice(0, 200)}`);
  const top = protocol === 'proxy' && typeof body['output'] === 'object' && body['output'] !== null ? (body['output'] as Record<string, unknown>) : body;
  const u = top['usage'] as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  const usage = {
    ...(typeof u?.prompt_tokens === 'number' ? { promptTokens: u.prompt_tokens } : {}),
    ...(typeof u?.completion_tokens === 'number' ? { completionTokens: u.completion_tokens } : {}),
  };
  if (protocol === 'proxy') {
    if (typeof top['error'] === 'string' && top['error'] !== '') return { error: top['error'] };
    if (typeof top['generated_text'] !== 'string') throw new RemoteWorldModelError(endpoint, 200, `response has no generated_text: ${raw.slice(0, 200)}`);
    return { text: top['generated_text'], usage };
  }
  const content = (top['choices'] as { message?: { content?: unknown } }[] | undefined)?.[0]?.message?.content;
  if (typeof content === 'string') return { text: content, usage };
  if (content === null) return { text: '', usage };
  throw new RemoteWorldModelError(endpoint, 200, `response has no choices[0].message.content: ${raw.slice(0, 200)}`);
}
