// The world-model stages: train one model per objective on the data stage's rows (the trainer's own
// settings, worldModel.train), or use the model the config names (a directory or served URLs), and
// the spec rollouts open it with — requests held to the budget the model was trained on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Objective, trainWorldModel } from '@diffworld/mdlm-core';
import { TEMPLATE_TOKENS } from '../wm-budget.js';
import type { WorldModelSpec } from '../world-model.js';
import type { ExperimentContext } from './context.js';
import type { DataArtefact } from './data.js';
import { type StageOutcome, artefact } from './runner.js';
import type { TokenizerArtefact } from './tokenizer.js';

export interface TrainResult {
  objective: Objective;
  steps: number;
  finalLoss: number;
  evalLoss: number | null;
  trainExamples: number;
  tokensPerSecond: number;
  provider: string;
  parameters: number;
  architecture: string;
}

/** A world model to roll out in: its spec, and what downstream stages hash of it. */
export interface WorldModelArtefact {
  spec: WorldModelSpec;
  ref: unknown;
  /** The training stage, when this run trained it. */
  trained?: StageOutcome<TrainResult>;
}

/** Parameters of a LLaMA-family HF config (embeddings counted once when tied). */
export function parameterCount(cfg: Record<string, number | boolean | string>): number {
  const d = Number(cfg['hidden_size']);
  const L = Number(cfg['num_hidden_layers']);
  const ff = Number(cfg['intermediate_size']);
  const V = Number(cfg['vocab_size']);
  const h = Number(cfg['num_attention_heads']);
  const kv = Number(cfg['num_key_value_heads'] ?? h);
  const hd = Number(cfg['head_dim'] ?? d / h);
  const attn = d * h * hd + 2 * d * kv * hd + h * hd * d;
  const layer = attn + 3 * d * ff + 2 * d + (cfg['model_type'] === 'qwen3' ? 2 * hd : 0);
  return V * d * (cfg['tie_word_embeddings'] === false ? 2 : 1) + L * layer + d;
}

/**
 * Trains a world model with `objective` on the data stage's rows (held-out rows for its eval loss),
 * from random weights or, with `init`, from the model another training stage wrote (bd3 from ar).
 */
export async function trainStage(ctx: ExperimentContext, data: DataArtefact, tok: TokenizerArtefact, objective: Objective, init?: StageOutcome<TrainResult>): Promise<StageOutcome<TrainResult>> {
  const c = ctx.config;
  const config = { ...c.worldModel.train, objective };
  const key = { data: artefact(data.outcome), config, precision: c.worldModel.precision, provider: c.provider ?? null, ...(init ? { init: artefact(init) } : {}) };
  const s = await ctx.runner.run(`train-${objective}`, key, async (dir) => {
    const r = await trainWorldModel({
      config,
      data: [data.train],
      evalData: [data.heldout],
      tokenizer: tok.tok,
      tokenizerJson: tok.json,
      out: join(dir, 'run'),
      ...(init ? { init: trainedModelDir(init) } : {}),
      resume: 'auto',
      precision: c.worldModel.precision,
      ...ctx.providerOption,
      log: (l) => ctx.log(`[train-${objective}] ${l}`),
    });
    const hf = JSON.parse(readFileSync(join(r.modelDir, 'config.json'), 'utf8')) as Record<string, number | boolean | string>;
    await ctx.releaseGraphs();
    return {
      objective,
      steps: r.steps,
      finalLoss: r.finalLoss,
      evalLoss: r.evalLoss ?? null,
      trainExamples: r.examples.train,
      tokensPerSecond: r.tokensPerSecond,
      provider: r.provider,
      parameters: parameterCount(hf),
      architecture: `${String(hf['model_type'])} ${String(hf['num_hidden_layers'])}×${String(hf['hidden_size'])}`,
    } satisfies TrainResult;
  });
  await ctx.metric({ stage: `train-${objective}`, steps: s.result.steps, loss: s.result.finalLoss, evalLoss: s.result.evalLoss, examples: s.result.trainExamples });
  return s;
}

export const trainedModelDir = (s: StageOutcome<TrainResult>) => join(s.dir, 'run', 'model');

/**
 * The world models of `objectives`, trained in an order that lets bd3 adapt from ar: with
 * worldModel.bd3Init 'ar' (the default) an ar model is trained first (whether or not ar is asked
 * for) and bd3 starts from its weights; with 'scratch' each objective trains from random weights.
 */
export async function trainWorldModels<O extends Objective>(
  ctx: ExperimentContext,
  data: DataArtefact,
  tok: TokenizerArtefact,
  objectives: readonly O[],
): Promise<Record<O, StageOutcome<TrainResult>>> {
  const out = {} as Record<O, StageOutcome<TrainResult>>;
  const fromAr = ctx.config.worldModel.bd3Init === 'ar' && objectives.includes('bd3' as O);
  const ar = fromAr || objectives.includes('ar' as O) ? await trainStage(ctx, data, tok, 'ar') : undefined;
  for (const objective of objectives) out[objective] = objective === 'ar' ? ar! : await trainStage(ctx, data, tok, objective, objective === 'bd3' && fromAr ? ar : undefined);
  return out;
}

/**
 * The world model rollouts talk to: served URLs, a given directory, or `trained` (a training stage of
 * this run). Local requests are held to the trained row budget less the answer and the template.
 */
export function worldModelArtefact(ctx: ExperimentContext, tok: TokenizerArtefact, trained?: StageOutcome<TrainResult>): WorldModelArtefact {
  const w = ctx.config.worldModel;
  if (w.urls) return { spec: { kind: 'remote', urls: w.urls, protocol: w.protocol }, ref: { urls: w.urls, protocol: w.protocol } };
  const dir = w.path ?? (trained ? trainedModelDir(trained) : undefined);
  if (!dir) throw new Error('worldModelArtefact: no world model (neither urls, path nor a trained stage)');
  return { spec: localWorldModelSpec(ctx, tok, dir, w.sampling.maxNewTokens), ref: trained ? artefact(trained) : { path: dir }, ...(trained ? { trained } : {}) };
}

/** A checkpoint directory as a rollout world model: requests held to its row budget less `maxNewTokens` and the template. */
export function localWorldModelSpec(ctx: ExperimentContext, tok: TokenizerArtefact, dir: string, maxNewTokens: number): WorldModelSpec {
  const w = ctx.config.worldModel;
  const count = (s: string) => tok.tok.encodeIds(s, { addSpecialTokens: false }).length;
  return { kind: 'local', dir, maxPromptTokens: w.maxPromptTokens, ...ctx.providerOption, budget: { maxPromptTokens: w.train.seqLength - TEMPLATE_TOKENS - maxNewTokens, count } };
}
