// `policy.init`: the agent pipeline's policy starts from a pretrained checkpoint — a directory (relative
// to the config file's) or a Hub model `org/name[@revision]` fetched into the huggingface_hub cache —
// with its own config and tokenizer instead of random weights of `policy.model` on the run's
// tokenizer. The rollout codec is ChatML, so the tokenizer must have <|im_start|> / <|im_end|>
// (Qwen, LFM2 and DiffWorld's own do).
import { join, resolve } from 'node:path';
import { type ModelConfig, hubProgressLogger, isHubModelSpec, loadCheckpoint, parseHfConfig, resolveModelDir, transformerParams, weightArrays } from '@diffworld/mdlm-core';
import { SPECIAL_TOKENS, Tokenizer } from '@diffworld/tokenizer';
import { ExperimentError } from './errors.js';

export interface InitialPolicy {
  /** The checkpoint directory (a cache snapshot for Hub models). */
  dir: string;
  model: ModelConfig;
  /** Its config.json, for the memory estimate. */
  config: Record<string, unknown>;
  tokenizer: Tokenizer;
  tokenizerJson: string;
  params: Record<string, Float32Array>;
}

/** Loads the checkpoint `policy.init` names, checking that the rollout codec can use its tokenizer. */
export async function loadInitialPolicy(spec: string, log: (line: string) => void = () => {}): Promise<InitialPolicy> {
  // A path in a config file was made absolute against that file when it was read (config/resolve.ts).
  const dir = isHubModelSpec(spec) ? (await resolveModelDir(spec, { log, onProgress: hubProgressLogger(log) })).dir : resolve(spec);
  const ck = await loadCheckpoint(dir, { optimizer: false });
  const tied = parseHfConfig(ck.config, join(dir, 'config.json')).tieEmbeddings === true;
  // The policy graphs train a separate LM head: a tied checkpoint starts with a copy of its embeddings there.
  const config = tied ? { ...ck.config, tie_word_embeddings: false } : ck.config;
  const model = parseHfConfig(config, join(dir, 'config.json'));
  if (ck.tokenizerJson === undefined) throw new ExperimentError('bad_config', `policy.init ${spec}: ${dir} has no tokenizer.json (the policy needs its own tokenizer)`);
  const tokenizer = Tokenizer.fromJson(JSON.parse(ck.tokenizerJson), join(dir, 'tokenizer.json'));
  for (const t of [SPECIAL_TOKENS.imStart, SPECIAL_TOKENS.imEnd]) {
    if (tokenizer.tokenToId(t) === undefined)
      throw new ExperimentError('bad_config', `policy.init ${spec}: its tokenizer has no ${t}; the rollouts use the ChatML turn format (Qwen, LFM2 and DiffWorld tokenizers have it)`);
  }
  if (tokenizer.vocabSize > model.vocabSize) throw new ExperimentError('bad_config', `policy.init ${spec}: the tokenizer has ${tokenizer.vocabSize} ids, the model's vocab_size is ${model.vocabSize}`);
  const params = weightArrays(ck.weights);
  if (tied && !params['lm_head.weight'] && params['model.embed_tokens.weight']) params['lm_head.weight'] = params['model.embed_tokens.weight'].slice();
  const missing = transformerParams(model).filter((p) => !(p.name in params));
  if (missing.length) throw new ExperimentError('bad_config', `policy.init ${spec}: ${dir} lacks ${missing.length} parameters of its config (${missing[0]!.name} first)`);
  log(`policy.init ${spec}: ${model.modelType} ${model.nLayers}×${model.dModel} from ${dir}${tied ? ' (tied embeddings: the LM head starts as their copy)' : ''}`);
  return { dir, model, config, tokenizer, tokenizerJson: ck.tokenizerJson, params };
}
