// A deterministic backend for tests and the load bench: its text is a function of the last message,
// the seed and the options, so batching can be checked to change nothing but speed; each call costs
// baseMs + perSequenceMs × size of real waiting, the shape of a batched forward pass.
import type { BackendRequest, BackendResult, GenerationBackend, GenerationParams } from './backend.js';

export interface ScriptedBackendOptions {
  modelId?: string;
  maxTokensLimit?: number;
  baseMs?: number;
  perSequenceMs?: number;
  /** Throws for a request whose last message contains this text (to test error paths). */
  failOn?: string;
  /** Rejects (400) a request whose last message contains this text, as a too-long prompt is. */
  rejectOn?: string;
}

export class ScriptedBackend implements GenerationBackend {
  readonly modelId: string;
  readonly maxTokensLimit: number;
  /** Sizes of every call so far. */
  readonly batchSizes: number[] = [];
  readonly calls: { requests: readonly BackendRequest[]; params: GenerationParams }[] = [];

  constructor(private readonly opts: ScriptedBackendOptions = {}) {
    this.modelId = opts.modelId ?? 'scripted-wm';
    this.maxTokensLimit = opts.maxTokensLimit ?? 2048;
  }

  async generate(requests: readonly BackendRequest[], params: GenerationParams): Promise<BackendResult[]> {
    this.batchSizes.push(requests.length);
    this.calls.push({ requests, params });
    const ms = (this.opts.baseMs ?? 0) + (this.opts.perSequenceMs ?? 0) * requests.length;
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    return requests.map((r) => {
      const last = r.messages[r.messages.length - 1]?.content ?? '';
      if (this.opts.failOn !== undefined && last.includes(this.opts.failOn)) throw new Error(`scripted failure on "${this.opts.failOn}"`);
      if (this.opts.rejectOn !== undefined && last.includes(this.opts.rejectOn)) return { ...scriptedResult(r, params), rejected: { field: 'messages', message: 'is too long for this model' } };
      return scriptedResult(r, params);
    });
  }
}

/** What ScriptedBackend answers for one request: one character is one token. */
export function scriptedResult(r: BackendRequest, params: GenerationParams): BackendResult {
  const last = r.messages[r.messages.length - 1]?.content ?? '';
  const full = `seed=${r.seed} t=${params.temperature} rp=${params.repetitionPenalty} | ${last}`;
  const text = full.slice(0, params.maxTokens);
  const prompt = r.messages.reduce((a, m) => a + m.content.length, 0);
  return { text, finishReason: text.length < full.length ? 'length' : 'stop', promptTokens: prompt, completionTokens: text.length };
}
