// evaluateAgent: a policy against the real engine on one split, summarised overall and per task
// type with Wilson 95% intervals. Local policies (expert, random) run in a piscina pool when
// workers > 1; a remote policy stays in the main thread, where its own concurrency limit applies.
import { workerEntry, workerExecArgv } from '@diffworld/dataset';
import { Piscina } from 'piscina';
import { Rng, checkSplit, summarizeEpisodes, type EpisodeRecord, type EpisodeSummary, type PromptSet, type TaskRef } from '@diffworld/env-core';
import { EvalError } from '../errors.js';
import { envSuite } from '@diffworld/envs';
import { playEpisodes } from './episodes.js';
import type { Policy } from './policy.js';
import type { EpisodeChunk } from './worker-task.js';

export interface EvaluateAgentOptions {
  /** A key of ENV_SUITES: alfworld, sciworld, appworld. */
  env: string;
  policy: Policy;
  split: string;
  /** Worker threads for local policies; 1 plays in the main thread. */
  workers?: number;
  /** Picks the tasks when `limit` is set; the random policy carries its own seed. */
  seed?: number;
  /** Play this many tasks of the split (a seeded sample, kept in split order); all when unset. */
  limit?: number;
  /** Play the imported real games of this file (`diffworld env import`) that belong to the split, instead of the split's generated tasks. */
  gamesFile?: string;
  /** The paper's prompts (`diffworld env prompts extract` output, loaded): the agent's system prompt comes from it. */
  prompts?: PromptSet;
  /** Episodes advanced in lockstep per policy batch. */
  batchSize?: number;
  onProgress?: (done: number, total: number, record: EpisodeRecord) => void;
}

export interface AgentSummary {
  env: string;
  split: string;
  policy: string;
  seed: number;
  overall: EpisodeSummary;
  /** Per task type, in the order types first appear in the split. */
  byTaskType: Record<string, EpisodeSummary>;
  workers: number;
  wallSeconds: number;
  episodesPerSecond: number;
}

export interface AgentEvaluation {
  records: EpisodeRecord[];
  summary: AgentSummary;
}

/** The split's tasks (or the given ones, e.g. imported games), or a seeded sample of `limit` of them in order. */
export function selectTasks(env: string, split: string, limit: number | undefined, seed: number, from?: readonly TaskRef[]): TaskRef[] {
  const all = from ? [...from] : envSuite(env).tasks(split);
  if (limit === undefined || limit >= all.length) return all;
  if (!Number.isInteger(limit) || limit < 1) throw new EvalError('bad_option', `limit must be a positive integer, got ${limit}`, 'evaluateAgent');
  const picked = new Rng(seed).fork(`${env}|${split}`).sample(
    all.map((_, i) => i),
    limit,
  );
  return picked.sort((a, b) => a - b).map((i) => all[i]!);
}

/** The imported games of a file that belong to `split` (registered in this thread). */
async function importedTasks(env: string, split: string, file: string): Promise<TaskRef[]> {
  const suite = envSuite(env);
  checkSplit(suite, split);
  if (!suite.loadGames) throw new EvalError('bad_option', `${env} has no imported games: only alfworld imports the paper's rows`, 'evaluateAgent');
  const all = await suite.loadGames(file);
  const tasks = all.filter((t) => t.split === split);
  if (tasks.length === 0) throw new EvalError('bad_option', `${file} holds no ${split} games (its splits: ${[...new Set(all.map((t) => t.split))].join(', ') || 'none'})`, 'evaluateAgent');
  return tasks;
}

export function summarizeByTaskType(records: readonly EpisodeRecord[]): Record<string, EpisodeSummary> {
  const groups = new Map<string, EpisodeRecord[]>();
  for (const r of records) {
    const g = groups.get(r.task_type);
    if (g) g.push(r);
    else groups.set(r.task_type, [r]);
  }
  return Object.fromEntries([...groups].map(([type, rs]) => [type, summarizeEpisodes(rs)]));
}

const WORKER = workerEntry(import.meta.url, { source: './worker.mjs', built: './worker-task.js' });

async function playInPool(opts: EvaluateAgentOptions, tasks: TaskRef[], workers: number, batchSize: number): Promise<EpisodeRecord[]> {
  const spec = opts.policy.workerSpec!;
  // Small chunks balance the load (episode lengths vary); chunks never cross worker boundaries mid-episode.
  const chunkSize = Math.max(1, Math.min(batchSize, Math.ceil(tasks.length / (workers * 4))));
  const pool = new Piscina<EpisodeChunk, EpisodeRecord[]>({ filename: WORKER, minThreads: workers, maxThreads: workers, execArgv: workerExecArgv(import.meta.url) });
  const records: EpisodeRecord[] = new Array(tasks.length);
  let done = 0;
  try {
    const jobs: Promise<void>[] = [];
    for (let start = 0; start < tasks.length; start += chunkSize) {
      const chunk: EpisodeChunk = {
        env: opts.env,
        tasks: tasks.slice(start, start + chunkSize),
        policy: spec,
        batchSize,
        ...(opts.gamesFile === undefined ? {} : { gamesFile: opts.gamesFile }),
        ...(opts.prompts ? { prompts: opts.prompts } : {}),
      };
      jobs.push(
        pool.run(chunk).then((rs) => {
          rs.forEach((r, i) => {
            records[start + i] = r;
            opts.onProgress?.(++done, tasks.length, r);
          });
        }),
      );
    }
    await Promise.all(jobs);
  } finally {
    await pool.destroy();
  }
  return records;
}

export async function evaluateAgent(opts: EvaluateAgentOptions): Promise<AgentEvaluation> {
  const seed = opts.seed ?? 0;
  const workers = opts.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) throw new EvalError('bad_option', `workers must be a positive integer, got ${workers}`, 'evaluateAgent');
  const batchSize = opts.batchSize ?? 16;
  const tasks = selectTasks(opts.env, opts.split, opts.limit, seed, opts.gamesFile === undefined ? undefined : await importedTasks(opts.env, opts.split, opts.gamesFile));
  const usePool = workers > 1 && opts.policy.workerSpec !== undefined && tasks.length > 1;
  const t0 = performance.now();
  let done = 0;
  const records = usePool
    ? await playInPool(opts, tasks, workers, batchSize)
    : await playEpisodes(opts.env, tasks, opts.policy, { batchSize, ...(opts.prompts ? { prompts: opts.prompts } : {}), onEpisode: (_i, r) => opts.onProgress?.(++done, tasks.length, r) });
  const wallSeconds = (performance.now() - t0) / 1000;
  return {
    records,
    summary: {
      env: opts.env,
      split: opts.split,
      policy: opts.policy.name,
      seed,
      overall: summarizeEpisodes(records),
      byTaskType: summarizeByTaskType(records),
      workers: usePool ? workers : 1,
      wallSeconds,
      episodesPerSecond: wallSeconds > 0 ? records.length / wallSeconds : 0,
    },
  };
}
