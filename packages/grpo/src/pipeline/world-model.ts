// An in-process world model from a trained checkpoint directory (trainWorldModel's `model/`): the
// request becomes the chat the corpus rows were trained on — [system: grounded prompt, user:
// "State: <json history>\n\nAction: <action>"] plus the assistant header — and the reply is
// sampled with the objective's sampler (block diffusion for bd3, AR for ar) with the paper proxy's
// settings. Histories longer than the prompt budget are cut in the middle as the corpus rows were.
// Stop-gap until eval's LocalWorldModel lands; the pipeline only sees the env-core WorldModel face.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng, truncateMiddle, worldModelUserTurn } from '@diffworld/dataset';
import type { ChatMessage, WorldModel, WorldModelRequest, WorldModelResponse } from '@diffworld/env-core';
import {
  OnnxBlockDiffusionModel, OnnxCausalModel, type ProviderName, leftPadToBlock, loadCheckpoint, parseHfConfig, sampleAutoregressive, sampleBlockDiffusion, weightArrays,
} from '@diffworld/mdlm-core';
import { SPECIAL_TOKENS, Tokenizer, encodeChat } from '@diffworld/tokenizer';
import { GrpoError } from '../errors.js';

export interface WorldModelSampling {
  temperature: number;
  topP: number;
  repetitionPenalty: number;
  maxNewTokens: number;
  threshold: number;
}

export interface CheckpointWorldModelOptions {
  /** 'bd3' | 'mdlm' sample by block diffusion (blockLength from the run), 'ar' autoregressively. */
  objective: string;
  blockLength: number;
  sampling: WorldModelSampling;
  maxPromptTokens: number;
  provider?: ProviderName;
}

/** Messages of a world-model request with the history cut in the middle to fit `maxTokens`. */
export function worldModelMessages(tok: Tokenizer, req: WorldModelRequest, maxTokens: number): ChatMessage[] {
  const count = (s: string) => tok.encodeIds(s, { addSpecialTokens: false }).length;
  const fixed = count(req.system) + count(req.action) + 16;
  const cut = truncateMiddle(req.history, { maxTokens, fixedTokens: fixed, rng: new Rng(0), turnTokens: (m) => count(m.content) + 8 });
  return [
    { role: 'system', content: req.system },
    { role: 'user', content: worldModelUserTurn(cut.messages, req.action) },
  ];
}

export async function checkpointWorldModel(dir: string, o: CheckpointWorldModelOptions): Promise<WorldModel> {
  const ckpt = await loadCheckpoint(dir, { optimizer: false });
  const config = parseHfConfig(ckpt.config, join(dir, 'config.json'));
  const tok = Tokenizer.fromJson(JSON.parse(ckpt.tokenizerJson ?? readFileSync(join(dir, 'tokenizer.json'), 'utf8')), join(dir, 'tokenizer.json'));
  const weights = weightArrays(ckpt.weights);
  const stopIds = [tok.requireId(SPECIAL_TOKENS.imEnd), ...(tok.tokenToId('<|endoftext|>') === undefined ? [] : [tok.tokenToId('<|endoftext|>')!])];
  const s = o.sampling;
  const token = { temperature: s.temperature, topP: s.topP, repetitionPenalty: s.repetitionPenalty };
  const opts = o.provider ? { provider: o.provider } : {};
  const ar = o.objective === 'ar';
  const maskId = tok.maskId;
  if (!ar && maskId === undefined) throw new GrpoError('bad_config', `world model ${dir}: objective ${o.objective} needs a mask token in its tokenizer`);
  const padId = tok.padId ?? stopIds[0]!;
  const model = ar ? await OnnxCausalModel.create(config, weights, opts) : await OnnxBlockDiffusionModel.create(config, weights, o.blockLength, opts);
  let calls = 0;
  const predictBatch = async (reqs: WorldModelRequest[]): Promise<WorldModelResponse[]> => {
    const requests = reqs.map((r) => {
      const prompt = encodeChat(tok, worldModelMessages(tok, r, o.maxPromptTokens), { addGenerationPrompt: true }).ids;
      return { prompt: ar ? prompt : leftPadToBlock(prompt, o.blockLength, padId), seed: calls++ };
    });
    const results = ar
      ? await sampleAutoregressive(model as OnnxCausalModel, requests, { ...token, maxNewTokens: s.maxNewTokens, stopIds, ...(maskId === undefined ? {} : { bannedIds: [maskId] }) })
      : await sampleBlockDiffusion(model as OnnxBlockDiffusionModel, requests, { ...token, maskId: maskId!, maxNewTokens: s.maxNewTokens, stopIds, threshold: s.threshold });
    return results.map((x) => ({ text: tok.decode(x.tokens, { skipSpecialTokens: true }).trim() }));
  };
  return { predict: async (req) => (await predictBatch([req]))[0]!, predictBatch };
}
