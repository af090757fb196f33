// The HTTP env server on 127.0.0.1: the reset/step protocol of the env servers, plus the paper's
// AppWorld env server (its SFT script's client): POST {task_id, tool_name, tool_args} → bare JSON
// text, DELETE {task_id}.
import { randomUUID } from 'node:crypto';
import { EpisodeStore, HttpError, RawJson, requireString, startJsonServer, type JsonRequest, type RunningServer } from '@diffworld/env-core';
import { AppworldEnv } from './env.js';
import { runPaperCall, TASK_ID_PATTERN } from './harness/paper-protocol.js';
import { pyJsonDumps } from './harness/py-json.js';
import type { ToolRunner } from './harness/tool-call.js';
import { findTask, knownTask, openTaskId, startEpisode, taskRef } from './world/tasks/catalog.js';
import type { AppWorldSession } from './engine/world.js';

export const DEFAULT_APPWORLD_PORT = 30002;

export const APPWORLD_SERVER_PROTOCOL = `POST /reset {task_id} → {episode_id, observation, goal}
    task_id is a task id of this world's catalogue (AppWorld's form, e.g. "3e78ffd_1"; the task_id of
    the records \`diffworld env expert appworld\` writes); episode_id names the episode from then on
POST /step {episode_id, action} → {observation, reward, done, info}
    action is the agent's completion, holding one tool call (e.g. [{"name": …, "parameters": {…}}]);
    info holds score and won (and the task's test counts when the episode ends)
POST /close {episode_id} → {closed}
POST / {task_id, tool_name, tool_args?} → the tool's answer, as JSON text
    the paper's AppWorld server (its SFT client): the first call of a task_id opens its world
DELETE / {task_id} → {deleted}
GET /health → ok
Errors: HTTP status with {"error": "…"}: 400 a malformed field (named), 404 an unknown task or
episode, 409 a step after the episode ended, 413 a body over 1 MiB, 429 too many live episodes.`;

export async function startAppworldServer(opts: { port?: number; host?: string; maxEpisodes?: number; maxBodyBytes?: number } = {}): Promise<RunningServer> {
  const episodes = new EpisodeStore<AppworldEnv>({ maxEpisodes: opts.maxEpisodes ?? 256, onEvict: (env) => void env.close() });
  const byTask = new EpisodeStore<{ session: AppWorldSession; runner: ToolRunner }>({ maxEpisodes: opts.maxEpisodes ?? 256, onEvict: (e) => e.session.close() });
  const taskOf = (id: string) => {
    try {
      return findTask(id);
    } catch (e) {
      throw new HttpError(404, (e as Error).message);
    }
  };
  // The paper's client names AppWorld task ids; ids of this world's catalogue open their task, other
  // well-formed ids (real AppWorld tasks, whose databases are not here) open this world for a
  // supervisor fixed by the id, so the client's flow runs unchanged.
  const paperEpisode = (id: string) => {
    if (!TASK_ID_PATTERN.test(id)) throw new HttpError(404, `task_id "${id.slice(0, 100)}" is not an AppWorld task id (<7 hex>_<1|2|3>, e.g. 692c77d_1)`);
    const known = knownTask(id);
    return known ? startEpisode(known) : openTaskId(id);
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
      const action = requireString(body, 'action'); // a malformed request is a 400, not a conflict
      try {
        const r = await env.step(action);
        return { body: { observation: r.observation.text, reward: r.reward, done: r.done, info: r.info } };
      } catch (e) {
        // 409: the episode cannot take this step (it is over); the request itself was well formed.
        if (e instanceof HttpError) throw e;
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
        byTask.set(id, (ep = paperEpisode(id)));
      }
      const args = (body as Record<string, unknown>).tool_args ?? {};
      return { body: new RawJson(runPaperCall(ep.runner, { name: requireString(body, 'tool_name'), parameters: args }).text) };
    }
    if (path === '/' && method === 'DELETE') return { body: new RawJson(pyJsonDumps({ deleted: byTask.delete(requireString(body, 'task_id')) })) };
    throw new HttpError(404, `no route ${method} ${path}; use GET /health, POST /reset|/step|/close, or POST|DELETE / with task_id`);
  };
  return startJsonServer(handler, { host: opts.host ?? '127.0.0.1', port: opts.port ?? 0, ...(opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {}) });
}
