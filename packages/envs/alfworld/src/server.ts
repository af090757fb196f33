// The real-env HTTP server with the reference's endpoints (alfworld_env_server.py):
//   POST /reset {task_id, game_file?, split?="train"} → {obs, admissible, goal, gamefile}
//   POST /step  {task_id, action}                     → {obs, admissible, won, done, score}
//   DELETE /close (any path) {task_id}                → {status: "closed"}
//   GET /health                                       → ok
// `task_id` names the episode (clients pick it, e.g. "par-<hex>"); episodes are isolated by id.
// `game_file` is a task id of the split ("train/pick_and_place_simple/0042") or its index there;
// without it the game is chosen by hashing task_id. Bad requests answer 4xx with {"error": …}.
import { EpisodeStore, HttpError, hashSeed, optionalString, requireString, startJsonServer, type RunningServer, type TaskRef } from '@diffworld/env-core';
import { AlfworldEnv } from './env.js';
import { MAX_STEPS, isSplit, splitTasks } from './engine/splits.js';
import { SPLITS } from './world/tasks.js';
import type { Grammar } from './world/text.js';

export interface AlfworldServerOptions {
  host?: string;
  port?: number;
  grammar?: Grammar;
  maxEpisodes?: number;
  maxSteps?: number;
  /** 'ok-with-error' (default, as the reference server): errors are HTTP 200 with {"error"}; 'http': 4xx/5xx. */
  errors?: 'http' | 'ok-with-error';
}

interface Live {
  env: AlfworldEnv;
  steps: number;
  done: boolean;
}

function pickTask(split: string, gameFile: string | undefined, episodeId: string): TaskRef {
  if (!isSplit(split)) throw new HttpError(400, `unknown split "${split}"; valid: ${SPLITS.join(', ')}`);
  const tasks = splitTasks(split);
  if (gameFile === undefined) return tasks[hashSeed(episodeId) % tasks.length]!;
  if (/^\d+$/.test(gameFile)) {
    const i = Number(gameFile);
    if (i >= tasks.length) throw new HttpError(400, `game_file index ${i} is out of range: split ${split} has ${tasks.length} games`);
    return tasks[i]!;
  }
  const task = tasks.find((t) => t.id === gameFile) ?? (gameFile.includes('/') && isSplit(gameFile.split('/')[0]!) ? splitTasks(gameFile.split('/')[0]!).find((t) => t.id === gameFile) : undefined);
  if (!task) throw new HttpError(400, `unknown game_file "${gameFile}": use a task id such as "${tasks[0]!.id}" or an index 0–${tasks.length - 1}`);
  return task;
}

/** Starts the server (127.0.0.1 and a free port unless told otherwise). */
export async function startAlfworldServer(opts: AlfworldServerOptions = {}): Promise<RunningServer> {
  const store = new EpisodeStore<Live>({ maxEpisodes: opts.maxEpisodes ?? 1024 });
  const maxSteps = opts.maxSteps ?? MAX_STEPS;
  return startJsonServer(
    async ({ method, path, body }) => {
      if (method === 'GET' && path === '/health') return { body: 'ok' };
      if (method === 'DELETE') {
        const id = requireString(body, 'task_id');
        if (!store.delete(id)) throw new HttpError(404, `no live episode "${id}"`);
        return { body: { status: 'closed' } };
      }
      if (method !== 'POST') throw new HttpError(405, `${method} ${path}: use POST /reset, POST /step or DELETE /close`);
      if (path === '/reset') {
        const id = requireString(body, 'task_id');
        const task = pickTask(optionalString(body, 'split') ?? 'train', optionalString(body, 'game_file'), id);
        const env = new AlfworldEnv({ grammar: opts.grammar ?? 'current' });
        const obs = await env.reset(task);
        store.set(id, { env, steps: 0, done: false });
        return { body: { obs: obs.text, admissible: obs.admissible, goal: obs.goal, gamefile: task.id } };
      }
      if (path === '/step') {
        const id = requireString(body, 'task_id');
        const action = (body as Record<string, unknown>)['action'];
        if (typeof action !== 'string') throw new HttpError(400, 'field "action" must be a string');
        const live = store.get(id);
        if (live.done) throw new HttpError(409, `episode "${id}" is over (won or ${maxSteps} steps); call /reset`);
        const r = await live.env.step(action);
        live.steps++;
        live.done = r.done || live.steps >= maxSteps;
        return { body: { obs: r.observation.text, admissible: r.observation.admissible, won: r.info.won, done: live.done, score: r.info.score } };
      }
      throw new HttpError(404, `unknown path ${path}: use /reset, /step or /close`);
    },
    { host: opts.host ?? '127.0.0.1', port: opts.port ?? 0, errors: opts.errors ?? 'ok-with-error' },
  );
}
