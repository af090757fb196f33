// What a pool worker runs: a chunk of episodes with a policy rebuilt from its spec.
import type { EpisodeRecord, TaskRef } from '@diffworld/env-core';
import { playEpisodes } from './episodes.js';
import { localPolicy, type LocalPolicySpec } from './policy.js';

export interface EpisodeChunk {
  env: string;
  tasks: TaskRef[];
  policy: LocalPolicySpec;
  batchSize: number;
}

export function playChunk(chunk: EpisodeChunk): Promise<EpisodeRecord[]> {
  return playEpisodes(chunk.env, chunk.tasks, localPolicy(chunk.policy), { batchSize: chunk.batchSize });
}
