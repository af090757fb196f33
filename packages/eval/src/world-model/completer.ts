// What `wm generate` / `eval wm` need from a model: one completion per chat prompt, or an error
// for that prompt. Two sources: a checkpoint in this process (ChatGenerator) and any
// OpenAI-compatible chat endpoint (the agent evaluation's remote client, reused as is).
import type { ChatMessage } from '@diffworld/dataset';
import type { ChatGenerator, GenerateOptions } from '@diffworld/mdlm-core';
import { remotePolicy, type RemotePolicyOptions } from '../agent/remote.js';

export interface CompletionRequest {
  messages: ChatMessage[];
  seed: number;
}

export type Completion =
  | {
      text: string;
      finishReason: 'stop' | 'length' | 'overlong' | 'unknown';
      /** Generated tokens and forward passes, when the model runs here. */
      tokens?: number;
      forwards?: number;
    }
  | { error: string };

export interface ChatCompleter {
  /** Shown in summaries, e.g. "runs/wm/model (bd3)" or "http://127.0.0.1:8000/v1/chat/completions (model m)". */
  readonly name: string;
  /** The sampling settings, recorded in the evaluation summary. */
  readonly settings: Readonly<Record<string, string | number | boolean>>;
  complete(requests: readonly CompletionRequest[]): Promise<Completion[]>;
}

/** The reference's error text: "ERROR: <Type>: <message>". */
export function errorText(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  return `ERROR: ${err.name}: ${err.message}`;
}

/** A checkpoint in this process. A failing batch fails every row in it, as eval_generate.py does. */
export function localCompleter(generator: ChatGenerator, options: GenerateOptions = {}): ChatCompleter {
  const settings: Record<string, string | number | boolean> = { objective: generator.objective };
  for (const [k, v] of Object.entries(options)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') settings[k] = v;
  if (generator.blockLength !== undefined) settings['blockLength'] = generator.blockLength;
  return {
    name: `${generator.source} (${generator.objective})`,
    settings,
    async complete(requests) {
      try {
        const out = await generator.generate(requests, options);
        return out.map((g) => ({ text: g.text, finishReason: g.finishReason, tokens: g.stats.generatedTokens, forwards: g.stats.forwards }));
      } catch (e) {
        const text = errorText(e);
        return requests.map(() => ({ error: text }));
      }
    },
  };
}

/**
 * An OpenAI-compatible endpoint (retries, timeouts and concurrency as in remotePolicy). A request
 * that fails for good becomes an error for that row only, as llm_training/evaluate.py does.
 */
export function remoteCompleter(options: RemotePolicyOptions): ChatCompleter {
  const policy = remotePolicy(options);
  return {
    name: policy.name,
    settings: { temperature: options.temperature ?? 0, maxTokens: options.maxTokens ?? 512 },
    async complete(requests) {
      const settled = await Promise.allSettled(
        requests.map((r, i) => policy.act(r.messages, { env: 'world-model', task: { env: 'world-model', split: 'test', id: `prompt-${i}`, taskType: 'world-model', seed: r.seed }, turn: 0 })),
      );
      return settled.map((s) => (s.status === 'fulfilled' ? { text: s.value, finishReason: 'unknown' as const } : { error: errorText(s.reason) }));
    },
  };
}
