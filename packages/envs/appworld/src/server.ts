// The HTTP env server on 127.0.0.1: the reset/step protocol of the env servers, plus the AppWorld
// env-server form of the paper's SFT script (POST {task_id, tool_name, tool_args} → raw text).
import { randomUUID } from 'node:crypto';
import { EpisodeStore, HttpError, requireString, startJsonServer, type JsonRequest, type RunningServer } from '@diffworld/env-core';
import { AppworldEnv } from './env.js';
import { renderResult, type ToolRunner } from './harness/tool-call.js';
import { findTask, startEpisode, taskRef } from './world/tasks/catalog.js';
import type { AppWorldSession } from './engine/world.js';

export async function startAppworldServer(opts: { port?: number; host?: string; maxEpisodes?: number } = {}): Promise<RunningServer> {
  const episodes = new EpisodeStore<AppworldEnv>({ maxEpisodes: opts.maxEpisodes ?? 256, onEvict: (env) => void env.close() });
  const byTask = new EpisodeStore<{ session: AppWorldSession; runner: ToolRunner }>({ maxEpisodes: opts.maxEpisodes ?? 256, onEvict: (e) => e.session.close() });
  const taskOf = (id: string) => {
    try {
      return findTask(id);
    } catch (e) {
      throw new HttpError(404, (e as Error).message);
    }
  };
  const handler = async (req: JsonRequest) => {
    const { method, path, body } = req;
    if (method === 'GET' && path === '/health') return { body: 'ok' };
    if (method === 'POST' && path === '/reset') {
      const task = taskOf(requireString(body, 'task_id'));
      const env = new AppworldEnv();
      const observation = await env.reset(taskRef(task));
      const id = randomUUID();
      episodes.set(id, env);
      return { body: { episode_id: id, observation: observation.text, goal: observation.goal } };
    }
    if (method === 'POST' && path === '/step') {
      const env = episodes.get(requireString(body, 'episode_id'));
      try {
        const r = await env.step(requireString(body, 'action'));
        return { body: { observation: r.observation.text, reward: r.reward, done: r.done, info: r.info } };
      } catch (e) {
        throw new HttpError(409, (e as Error).message);
      }
    }
    if (method === 'POST' && path === '/close') return { body: { closed: episodes.delete(requireString(body, 'episode_id')) } };
    if (path === '/' && method === 'POST') {
      const id = requireString(body, 'task_id');
      let ep: { session: AppWorldSession; runner: ToolRunner };
      try {
        ep = byTask.get(id);
      } catch {
        byTask.set(id, (ep = startEpisode(taskOf(id))));
      }
      const args = (body as Record<string, unknown>).tool_args ?? {};
      return { body: renderResult(ep.runner.run({ name: requireString(body, 'tool_name'), parameters: args })) };
    }
    if (path === '/' && method === 'DELETE') return { body: { deleted: byTask.delete(requireString(body, 'task_id')) } };
    throw new HttpError(404, `no route ${method} ${path}; use GET /health, POST /reset|/step|/close, or POST|DELETE / with task_id`);
  };
  return startJsonServer(handler, { host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
}
