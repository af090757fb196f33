// A trained world model running in this process: env-core's WorldModel on a ChatGenerator. A
// request becomes the training row's prompt, in the layout the model was trained on (its
// generation_config.json `world_model_layout`, written by wm train; 'transition' when absent):
// transition [system: grounding, user: `State: <json history>\n\nAction: <action>`], or episode
// [system, user: first turn + action 1, assistant: observation 1, …, user: `Action: <action>`] —
// built by the dataset's worldModelPromptMessages, the function the corpus rows come from — and the
// generator writes the assistant turn (the next observation). An episode prompt longer than the
// prompt budget keeps its latest steps (the same window wm train takes of a long episode).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WORLD_MODEL_LAYOUTS, episodeView, fitEpisodeWindow, worldModelPromptMessages, type ActionEncoding, type ChatMessage, type WorldModelLayout } from '@diffworld/dataset';
import type { SampleOptions, WorldModel, WorldModelRequest, WorldModelResponse } from '@diffworld/env-core';
import { ChatGenerator, type GenerateOptions, type Generation, type GeneratorLoadOptions, type UnmaskingStrategy } from '@diffworld/mdlm-core';
import { EvalError } from '../errors.js';

export interface LocalWorldModelOptions {
  /** Sampling defaults; per-call SampleOptions override them. */
  defaults?: GenerateOptions;
  /** Transition layout: how the action is written after "Action: " (default 'raw', ALFWorld's; SciWorld rows use 'assistant-json'). */
  actionEncoding?: ActionEncoding;
  /** The prompt layout; default: the checkpoint's `world_model_layout` (load), else 'transition'. */
  layout?: WorldModelLayout;
}

/** The world-model prompt of a request, exactly as the corpus rows of `layout` (default 'transition') write it. */
export function worldModelMessages(req: WorldModelRequest, actionEncoding: ActionEncoding = 'raw', layout: WorldModelLayout = 'transition'): ChatMessage[] {
  return worldModelPromptMessages(req, { layout, actionEncoding });
}

/** The `world_model_layout` a checkpoint directory records (generation_config.json), if any. */
export async function checkpointLayout(dir: string): Promise<WorldModelLayout | undefined> {
  const path = join(dir, 'generation_config.json');
  if (!existsSync(path)) return undefined;
  const v = (JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>)['world_model_layout'];
  if (v === undefined) return undefined;
  if (!(WORLD_MODEL_LAYOUTS as readonly unknown[]).includes(v))
    throw new EvalError('bad_option', `${path}: world_model_layout must be one of ${WORLD_MODEL_LAYOUTS.join(', ')}, got ${JSON.stringify(v)}`);
  return v as WorldModelLayout;
}

const num = (o: SampleOptions, key: string): number | undefined => {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new EvalError('bad_option', `world model: sample option ${key} must be a finite number, got ${JSON.stringify(v)}`);
  return v;
};

/**
 * env-core's SampleOptions as generator options: temperature, topP, topK, maxNewTokens, seed, and
 * the extra keys repetitionPenalty, threshold, denoisingSteps, unmasking (others are ignored).
 */
export function generateOptionsOf(o: SampleOptions = {}): GenerateOptions {
  const out: GenerateOptions = {};
  for (const k of ['temperature', 'topP', 'topK', 'maxNewTokens', 'seed', 'repetitionPenalty', 'threshold', 'denoisingSteps'] as const) {
    const v = num(o, k);
    if (v !== undefined) out[k] = v;
  }
  if (o['unmasking'] !== undefined) {
    if (typeof o['unmasking'] !== 'string') throw new EvalError('bad_option', `world model: sample option unmasking must be a strategy name, got ${JSON.stringify(o['unmasking'])}`);
    out.unmasking = o['unmasking'] as UnmaskingStrategy; // the generator checks the name
  }
  return out;
}

function response(g: Generation): WorldModelResponse {
  return { text: g.text, stats: { promptTokens: g.stats.promptTokens, completionTokens: g.stats.generatedTokens, forwardPasses: g.stats.forwards, latencyMs: g.stats.ms } };
}

export class LocalWorldModel implements WorldModel {
  private readonly defaults: GenerateOptions;
  private readonly actionEncoding: ActionEncoding;
  readonly layout: WorldModelLayout;

  constructor(
    readonly generator: ChatGenerator,
    options: LocalWorldModelOptions = {},
  ) {
    this.defaults = options.defaults ?? {};
    this.actionEncoding = options.actionEncoding ?? 'raw';
    this.layout = options.layout ?? 'transition';
  }

  /** Loads a checkpoint directory (a run's model/); the prompt layout is the one it was trained on unless `layout` says otherwise. */
  static async load(dir: string, options: LocalWorldModelOptions & GeneratorLoadOptions = {}): Promise<LocalWorldModel> {
    const layout = options.layout ?? (await checkpointLayout(dir));
    return new LocalWorldModel(await ChatGenerator.load(dir, options), { ...options, ...(layout ? { layout } : {}) });
  }

  /** The prompt of a request; an episode prompt over `maxPromptTokens` keeps the latest steps that fit. */
  messages(req: WorldModelRequest, maxPromptTokens: number | undefined): ChatMessage[] {
    const full = worldModelMessages(req, this.actionEncoding, this.layout);
    const fits = (m: ChatMessage[]) => (this.generator.promptIds(m).length <= maxPromptTokens! ? m : undefined);
    if (this.layout !== 'episode' || maxPromptTokens === undefined || fits(full)) return full;
    // Not even the bare action fits: the full prompt goes, and the generator reports it overlong.
    return fitEpisodeWindow(episodeView(req), fits)?.value ?? full;
  }

  async predict(req: WorldModelRequest, opts?: SampleOptions): Promise<WorldModelResponse> {
    return (await this.predictBatch([req], opts))[0]!;
  }

  /** Frees the generator's model (on CUDA its resident decoder's GPU memory). */
  close(): Promise<void> {
    return this.generator.release();
  }

  /** One batched generation; each response depends only on its request and the seed. */
  async predictBatch(reqs: WorldModelRequest[], opts?: SampleOptions): Promise<WorldModelResponse[]> {
    const options = { ...this.defaults, ...generateOptionsOf(opts) };
    const maxNew = options.maxNewTokens ?? Math.max(1, Math.min(256, Math.floor(this.generator.config.maxPositions / 2))); // the generator's default
    const maxPrompt = options.maxPromptTokens ?? this.generator.config.maxPositions - maxNew;
    const out = await this.generator.generate(
      reqs.map((r) => ({ messages: this.messages(r, maxPrompt) })),
      options,
    );
    return out.map(response);
  }
}
