// What a pool worker runs: a chunk of episodes with a policy rebuilt from its spec.
import type { EpisodeRecord, PromptSet, TaskRef } from '@diffworld/env-core';
import { envSuite } from '@diffworld/envs';
import { playEpisodes } from './episodes.js';
import { localPolicy, type LocalPolicySpec } from './policy.js';

export interface EpisodeChunk {
  env: string;
  tasks: TaskRef[];
  policy: LocalPolicySpec;
  batchSize: number;
  /** Imported games the tasks come from: registered in this worker once before it plays them. */
  gamesFile?: string;
  /** The paper's prompts, passed as data (plain JSON) to the worker. */
  prompts?: PromptSet;
}

const loaded = new Set<string>();

export async function playChunk(chunk: EpisodeChunk): Promise<EpisodeRecord[]> {
  const key = `${chunk.env}|${chunk.gamesFile}`;
  if (chunk.gamesFile !== undefined && !loaded.has(key)) {
    await envSuite(chunk.env).loadGames?.(chunk.gamesFile);
    loaded.add(key);
  }
  return playEpisodes(chunk.env, chunk.tasks, localPolicy(chunk.policy), { batchSize: chunk.batchSize, ...(chunk.prompts ? { prompts: chunk.prompts } : {}) });
}

// A built pool loads this module itself (see workerEntry in @diffworld/dataset), calling its default export.
export default playChunk;
