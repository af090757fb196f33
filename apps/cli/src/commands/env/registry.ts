// What the `diffworld env …` commands need from each environment package, wired in one place.
import type { ChatRow } from '@diffworld/dataset';
import { type ChatMessage, type EnvSuite, type EpisodeRecord, type RunningServer, type TaskRef, episodeRecord } from '@diffworld/env-core';
import { alfworldSuite, corpusRows as alfworldCorpusRows, expertDemo, playedEpisodeRecord, startAlfworldServer } from '@diffworld/alfworld';
import { appworldSuite, episodeActions, episodeRows, resolveTask, startAppworldServer } from '@diffworld/appworld';
import { expertEpisode, sciworldCorpusRows, sciworldSuite, startSciworldServer } from '@diffworld/sciworld';
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

/**
 * The expert's actions played in the real engine, framed as the agent sees them: the first
 * observation and each response as user turns, each action as an assistant turn.
 */
export async function playExpert(suite: EnvSuite, task: TaskRef): Promise<EpisodeRecord> {
  const env = suite.createEnv();
  const first = await env.reset(task);
  const messages: ChatMessage[] = [{ role: 'user', content: first.text }];
  const actions: string[] = [];
  let reward = 0;
  let score = 0;
  let won = false;
  for (const action of suite.expert(task)) {
    const r = await env.step(action);
    actions.push(action);
    messages.push({ role: 'assistant', content: action }, { role: 'user', content: r.observation.text });
    reward += r.reward;
    score = r.info.score;
    won = r.info.won;
    if (r.done) break;
  }
  await env.close?.();
  return episodeRecord(task, { messages, actions, reward, score, won });
}

/** Cycles through a split's tasks: the first pass plays the expert, later passes perturbed copies. */
function* roundRobin<T>(items: readonly T[], count: number): Generator<[T, number]> {
  for (let i = 0; i < count; i++) yield [items[i % items.length]!, Math.floor(i / items.length)];
}

export const ENVS: Readonly<Record<string, EnvAdapter>> = {
  alfworld: {
    suite: alfworldSuite,
    expertRecord: (task) => playedEpisodeRecord(expertDemo(task)),
    corpusRows: (req) => alfworldCorpusRows({ split: req.split, episodes: req.episodes, seed: req.seed }),
    serve: (opts) => startAlfworldServer(opts),
    defaultPort: 30003,
  },
  sciworld: {
    suite: sciworldSuite,
    expertRecord: (task) => expertEpisode(task),
    corpusRows: (req) => sciworldCorpusRows({ tasks: sciworldSuite.tasks(req.split), episodes: req.episodes, seed: req.seed }),
    serve: (opts) => startSciworldServer(opts),
    // The reference's SciWorld server hard-codes 30003 (ALFWorld's port too); its clients use 30004.
    defaultPort: 30004,
  },
  appworld: {
    suite: appworldSuite,
    expertRecord: (task) => playExpert(appworldSuite, task),
    *corpusRows(req) {
      const tasks = appworldSuite.tasks(req.split).map(resolveTask);
      for (const [task, pass] of roundRobin(tasks, req.episodes)) yield* episodeRows(task, episodeActions(task, pass + req.seed * tasks.length));
    },
    serve: (opts) => startAppworldServer(opts),
    defaultPort: 30002,
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
