// What the `diffworld env …` commands need from each environment package, wired in one place.
import type { ChatRow } from '@diffworld/dataset';
import type { EnvSuite, EpisodeRecord, RunningServer, TaskRef } from '@diffworld/env-core';
import { alfworldSuite, corpusRows as alfworldCorpusRows, expertDemo, playedEpisodeRecord, startAlfworldServer } from '@diffworld/alfworld';
import { UsageError } from '../../command.js';

export interface CorpusRequest {
  split: string;
  episodes: number;
  seed: number;
}

export interface EnvAdapter {
  suite: EnvSuite;
  /** One episode record of the expert solving the task, framed as the agent would see it. */
  expertRecord(task: TaskRef): EpisodeRecord | Promise<EpisodeRecord>;
  /** World-model training rows from expert and perturbed episodes. */
  corpusRows(req: CorpusRequest): Iterable<ChatRow> | AsyncIterable<ChatRow>;
  serve(opts: { host: string; port: number }): Promise<RunningServer>;
  defaultPort: number;
}

export const ENVS: Readonly<Record<string, EnvAdapter>> = {
  alfworld: {
    suite: alfworldSuite,
    expertRecord: (task) => playedEpisodeRecord(expertDemo(task)),
    corpusRows: (req) => alfworldCorpusRows({ split: req.split, episodes: req.episodes, seed: req.seed }),
    serve: (opts) => startAlfworldServer(opts),
    defaultPort: 30003,
  },
};

export function envAdapter(name: string | undefined): EnvAdapter {
  if (!name) throw new UsageError(`missing environment name: one of ${Object.keys(ENVS).join(', ')}`);
  const adapter = ENVS[name];
  if (!adapter) throw new UsageError(`unknown environment "${name}": one of ${Object.keys(ENVS).join(', ')}`);
  return adapter;
}

export function splitTasks(adapter: EnvAdapter, split: string): TaskRef[] {
  if (!adapter.suite.splits.includes(split)) throw new UsageError(`unknown split "${split}" for ${adapter.suite.name}: one of ${adapter.suite.splits.join(', ')}`);
  return adapter.suite.tasks(split);
}
