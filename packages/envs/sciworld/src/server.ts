// The reference's ScienceWorld env server protocol on 127.0.0.1 (SCIWORLD_SERVER_PROTOCOL below,
// what `env serve --help` prints): POST (any path) creates the episode on first sight of task_id and
// always executes the action.
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

export const SCIWORLD_SERVER_PROTOCOL = `POST (any path) {task_id, action?="look around"} → {observation, score, reward, done, valid_actions, valid_objects}
    the first request of a task_id creates its episode: task_id is "<task-name>_v<variation>",
    optionally with a "_gen…" suffix (e.g. "boil_v3"), on the easy simplifications; every request,
    the first included, executes its action; valid_actions and valid_objects list the first 20
DELETE (any path) {task_id} → {status: "closed"}
GET /health → ok
Errors: HTTP 200 with {"error": "…"}, as the reference server answers them (a malformed task_id,
an unknown task or variation, a step after the episode ended).`;

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
