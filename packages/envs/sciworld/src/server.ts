// The reference's ScienceWorld env server protocol on 127.0.0.1: POST (any path) {task_id, action}
// creates the episode on first sight of task_id ("{task}_v{variation}" with an optional "_gen…"
// suffix) and always executes the action; DELETE {task_id} closes it; GET /health answers "ok".
import { EpisodeStore, HttpError, optionalString, requireString, startJsonServer, type RunningServer } from '@diffworld/env-core';
import { loadTask } from './world/tasks/setup.js';
import type { Game } from './engine/game.js';
import { visibleObjects, qualifiedName } from './engine/parser.js';

export interface SciworldServerOptions {
  port?: number;
  host?: string;
  maxEpisodes?: number;
  /** 'ok-with-error' (default, as the reference server): errors are HTTP 200 with {"error"}; 'http': 4xx/5xx. */
  errors?: 'http' | 'ok-with-error';
}

/** Parses "boil_v12" or "boil_v12_gen3fa9c1" into (task, variation); 400 otherwise. */
export function parseTaskId(taskId: string): { task: string; variation: number } {
  const m = /^(.+?)_v(\d+)(?:_gen.*)?$/.exec(taskId);
  if (!m) throw new HttpError(400, `task_id "${taskId}" must look like "<task-name>_v<variation>" (e.g. "boil_v3"), optionally with a "_gen…" suffix`);
  return { task: m[1]!, variation: Number(m[2]) };
}

export async function startSciworldServer(opts: SciworldServerOptions = {}): Promise<RunningServer> {
  const store = new EpisodeStore<Game>({ maxEpisodes: opts.maxEpisodes ?? 256 });
  return startJsonServer(
    async (req) => {
      if (req.method === 'GET' && req.path === '/health') return { body: 'ok' };
      if (req.method === 'DELETE') {
        const id = requireString(req.body, 'task_id');
        store.delete(id);
        return { body: { status: 'closed' } };
      }
      if (req.method !== 'POST') throw new HttpError(405, `use POST {task_id, action}, DELETE {task_id} or GET /health (got ${req.method})`);
      const id = requireString(req.body, 'task_id');
      const action = optionalString(req.body, 'action') ?? 'look around';
      let game: Game;
      try {
        game = store.get(id);
      } catch {
        const { task, variation } = parseTaskId(id);
        try {
          game = loadTask(task, variation, 'easy').game;
        } catch (e) {
          throw new HttpError(400, (e as Error).message);
        }
        store.set(id, game);
      }
      if (game.done) throw new HttpError(409, `episode "${id}" has ended; DELETE it and start again`);
      const r = game.step(action);
      const objects = [...new Set(visibleObjects(game.w, false).map((o) => qualifiedName(game.w, o)))];
      return {
        body: { observation: r.observation, score: r.score, reward: r.reward, done: r.done, valid_actions: game.validActions().slice(0, 20), valid_objects: objects.slice(0, 20) },
      };
    },
    { host: opts.host ?? '127.0.0.1', port: opts.port ?? 0, errors: opts.errors ?? 'ok-with-error' },
  );
}
