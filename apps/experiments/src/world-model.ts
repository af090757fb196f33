// The world model that GRPO rollouts (and repro's replay) talk to: in-process (eval's LocalWorldModel on mdlm-core's ChatGenerator,
// from a checkpoint directory) or remote (eval's RemoteWorldModel: one or more OpenAI-compatible
// URLs — wm-server, lmdeploy, vLLM — or the paper's proxy route). Both are env-core WorldModels, so
// the simulated env and the rest of the pipeline do not know which one they talk to. Sampling is
// the paper proxy's (greedy, repetition penalty 1.3, 256 new tokens) unless the config says otherwise.
import { envSuite } from '@diffworld/envs';
import type { WorldModel } from '@diffworld/env-core';
import { LocalWorldModel, RemoteWorldModel, type RemoteProtocol } from '@diffworld/eval';
import type { ProviderName } from '@diffworld/mdlm-core';
import type { WorldModelSampling } from './config/schema.js';
import { BudgetedWorldModel, type CountTokens } from './wm-budget.js';

export type WorldModelSpec =
  | { kind: 'local'; dir: string; provider?: ProviderName; maxPromptTokens: number; budget?: { maxPromptTokens: number; count: CountTokens } }
  | { kind: 'remote'; urls: string; protocol: RemoteProtocol };

export async function openWorldModel(env: string, spec: WorldModelSpec, sampling: WorldModelSampling): Promise<WorldModel> {
  // How the env's corpus rows write the action: the suite says (an unknown env throws, naming the known ones).
  const { actionEncoding } = envSuite(env);
  const s = { temperature: sampling.temperature, topP: sampling.topP, repetitionPenalty: sampling.repetitionPenalty, maxNewTokens: sampling.maxNewTokens, threshold: sampling.threshold };
  if (spec.kind === 'remote') return new RemoteWorldModel({ urls: spec.urls, protocol: spec.protocol, actionEncoding, sampling: s });
  const local = await LocalWorldModel.load(spec.dir, { actionEncoding, defaults: { ...s, maxPromptTokens: spec.maxPromptTokens }, ...(spec.provider ? { provider: spec.provider } : {}) });
  // The budget cuts a transition prompt's JSON history as fitWorldModelRow cut its rows; an episode
  // model windows its own prompts (latest steps kept, as wm train windows long episodes).
  return spec.budget && local.layout === 'transition' ? new BudgetedWorldModel(local, { ...spec.budget, actionEncoding }) : local;
}
