// A policy served by any OpenAI-compatible chat endpoint (vLLM, lmdeploy, SGLang, DiffWorld's
// wm-server): POST {url}/v1/chat/completions, retried with exponential backoff on 5xx, 429,
// network errors and timeouts, at most `concurrency` requests in flight. A 400 or 413 refuses this
// conversation (servers answer so when it outgrew the model's context): the episode ends as
// truncated. A 401, 403 or 404 is the caller's setting (token, model name, URL) and fails at once.
import type { ChatMessage } from '@diffworld/env-core';
import { mapBatch, PolicyLimitError, type Policy, type PolicyContext } from './policy.js';

export interface RemotePolicyOptions {
  /** Base URL of the server, e.g. http://127.0.0.1:8000 (a trailing /v1 is accepted). */
  url: string;
  model: string;
  /** Sampling temperature; 0 (greedy) by default, as agent evaluations usually run. */
  temperature?: number;
  maxTokens?: number;
  /** Per-request timeout in ms (each retry gets a fresh one). */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  retries?: number;
  /** First backoff in ms; doubles on each retry. */
  backoffMs?: number;
  /** Most requests in flight at once. */
  concurrency?: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * A request that failed for good: names the endpoint, the status (or the network error) and the
 * attempts. `badInput` (the CLI's exit code 2) when the caller's settings are wrong: URL, model, token.
 */
export class RemotePolicyError extends Error {
  override readonly name = 'RemotePolicyError';
  constructor(
    readonly endpoint: string,
    readonly status: number | undefined,
    message: string,
    readonly badInput = false,
  ) {
    super(`[eval.agent] ${endpoint}: ${message}`);
  }
}

/** Statuses that refuse this conversation (too long for the model, or too large a body), not the server as a whole. */
const REFUSED_CONVERSATION = new Set([400, 413]);
/** Statuses that mean the caller's settings are wrong: every request would get the same answer. */
const WRONG_SETTINGS: Readonly<Record<number, (endpoint: string) => string>> = {
  401: () => 'the server wants a token',
  403: () => 'the server refuses this client',
  404: (endpoint) => `a model name the server does not serve, or a wrong URL; GET ${endpoint.replace(/\/chat\/completions$/, '/models')} lists the served models`,
};

/** The server's own words from an error body: OpenAI's {error: {message}}, {error: "…"}, {message}, or the text. */
export function serverMessage(raw: string): string {
  let text = raw;
  try {
    const body = JSON.parse(raw) as { error?: unknown; message?: unknown } | null;
    const error = body?.error;
    const message = typeof error === 'string' ? error : typeof (error as { message?: unknown } | undefined)?.message === 'string' ? (error as { message: string }).message : body?.message;
    if (typeof message === 'string') text = message;
  } catch {
    // not JSON: the text as it came
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** A counting semaphore: `run` waits for a free slot. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function chatCompletionsEndpoint(url: string): string {
  let base = url.trim().replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base)) throw new RemotePolicyError(url, undefined, 'expected an http:// or https:// URL');
  if (base.endsWith('/v1/chat/completions')) return base;
  if (base.endsWith('/v1')) base = base.slice(0, -3);
  return `${base}/v1/chat/completions`;
}

/** The completion text of a chat-completions response body, or a RemotePolicyError naming what is missing. */
function completionText(endpoint: string, body: unknown): string {
  const choices = (body as { choices?: unknown } | null)?.choices;
  const first = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined) : undefined;
  const content = first?.message?.content;
  if (typeof content === 'string') return content;
  if (content === null) return '';
  throw new RemotePolicyError(endpoint, 200, `response has no choices[0].message.content: ${JSON.stringify(body).slice(0, 200)}`);
}

export function remotePolicy(opts: RemotePolicyOptions): Policy {
  const endpoint = chatCompletionsEndpoint(opts.url);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const retries = opts.retries ?? 4;
  const backoffMs = opts.backoffMs ?? 500;
  const concurrency = opts.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RemotePolicyError(endpoint, undefined, `concurrency must be a positive integer, got ${concurrency}`);
  const doFetch = opts.fetch ?? fetch;
  const limiter = new Limiter(concurrency);

  const attempt = async (messages: ChatMessage[]): Promise<{ text: string } | { retry: string }> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await doFetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: opts.model, messages, temperature: opts.temperature ?? 0, max_tokens: opts.maxTokens ?? 512 }),
        signal: controller.signal,
      });
      const raw = await res.text();
      if (res.status >= 500 || res.status === 429) return { retry: `HTTP ${res.status}: ${raw.slice(0, 200)}` };
      if (REFUSED_CONVERSATION.has(res.status)) throw new PolicyLimitError(`${endpoint} answered HTTP ${res.status}: ${serverMessage(raw)}`);
      const wrong = WRONG_SETTINGS[res.status];
      if (wrong !== undefined) throw new RemotePolicyError(endpoint, res.status, `HTTP ${res.status} for model "${opts.model}": ${serverMessage(raw)} (${wrong(endpoint)})`, true);
      if (!res.ok) throw new RemotePolicyError(endpoint, res.status, `HTTP ${res.status}: ${raw.slice(0, 300)}`);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        throw new RemotePolicyError(endpoint, res.status, `response is not JSON: ${raw.slice(0, 200)}`);
      }
      return { text: completionText(endpoint, body) };
    } catch (e) {
      if (e instanceof RemotePolicyError || e instanceof PolicyLimitError) throw e;
      if (controller.signal.aborted) return { retry: `timed out after ${timeoutMs} ms` };
      return { retry: `request failed: ${(e as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  };

  const act = (messages: ChatMessage[], _ctx?: PolicyContext): Promise<string> =>
    limiter.run(async () => {
      let last = '';
      for (let i = 0; i <= retries; i++) {
        if (i > 0) await sleep(backoffMs * 2 ** (i - 1));
        const r = await attempt(messages);
        if ('text' in r) return r.text;
        last = r.retry;
      }
      const status = /^HTTP (\d+)/.exec(last)?.[1];
      throw new RemotePolicyError(endpoint, status ? Number(status) : undefined, `gave up after ${retries + 1} attempts; last: ${last}`);
    });

  return { name: `${endpoint} (model ${opts.model})`, act, actBatch: mapBatch(act) };
}
