// The real-env HTTP server with the reference's endpoints (alfworld_env_server.py); the routes are
// ALFWORLD_SERVER_PROTOCOL below (what `env serve --help` prints). As the real server: `goal` keeps its final period; `score` is a float (`1.0`); a missing action
// is the empty command (`Nothing happens.`); a step after the episode is over answers its last
// state again; close answers {"status": "closed"} whether or not the episode was live. Bodies are
// Python's json.dumps text, as the reference's clients parse them.
// `task_id` names the episode (clients pick it, e.g. "par-<hex>"); episodes are isolated by id.
// `game_file` is a task id of the split ("train/pick_and_place_simple/0042"), its index there, or
// the path of an imported paper game (`games`); without it the game is chosen by hashing task_id
// (the reference's game_file is optional too, so its clients run unchanged; the first such reset is logged).
// Bad requests answer 4xx (or HTTP 200 with {"error": …}, the reference's convention).
import { pyFloat, pyJsonDumps, type PyJsonValue } from '@diffworld/dataset';
import { EpisodeStore, HttpError, RawJson, hashSeed, optionalString, requireString, startJsonServer, type PromptSet, type RunningServer, type TaskRef } from '@diffworld/env-core';
import { AlfworldEnv } from './env.js';
import { MAX_STEPS, cachedGame, isSplit, registerGames, splitTasks } from './engine/splits.js';
import { agentSystemPrompt, worldModelSystemPrompt } from './harness/prompt-set.js';
import { bakeScene } from './harness/scene-prompt.js';
import { paperGameKey, type ImportedGame } from './paper/import.js';
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
  /** Imported paper games (`diffworld env import alfworld`), playable by their `game_file` path. */
  games?: readonly ImportedGame[];
  /** The paper's prompts (a loaded prompt file) that `POST /prompts` answers with. */
  prompts?: PromptSet;
  /** Says, once, which game a reset without `game_file` plays; silent when absent. */
  log?: (line: string) => void;
}

export const ALFWORLD_SERVER_PROTOCOL = `POST /reset {task_id, game_file?, split?="train"} → {obs, admissible, goal, gamefile}
    task_id names the episode (the client picks it, e.g. "par-1a2b"); game_file picks the game: a task
    id ("train/pick_and_place_simple/0042"), its index in the split ("42"), or an imported game's path
    (--games). Without game_file the server plays a game of the split (train unless split says
    otherwise) chosen by hashing task_id, as the reference's optional game_file allows; the answer's
    gamefile names it and the first such reset is logged to stderr.
POST /step {task_id, action?} → {obs, admissible, won, done, score}
    a missing action is the empty command ("Nothing happens."); score is a float (1.0); a step after
    the end answers the last state again
POST /prompts {task_id} → {system_prompt, wm_system_prompt}
    the episode's agent and world-model system prompts (ours, or the paper's with --prompts; not a
    route of the reference server)
DELETE /close {task_id} → {status: "closed"}   (any path; also for an episode that is not live)
GET /health → ok
Errors: HTTP 200 with {"error": "…"}, as the reference server answers them.`;

interface Live {
  task: TaskRef;
  env: AlfworldEnv;
  steps: number;
  done: boolean;
  /** The last step's answer, repeated for steps after the end. */
  last?: string;
}

const json = (value: PyJsonValue) => new RawJson(pyJsonDumps(value));

function pickTask(split: string, gameFile: string | undefined, episodeId: string, imported: ReadonlyMap<string, ImportedGame>): TaskRef {
  const paper = gameFile === undefined ? undefined : imported.get(paperGameKey(gameFile));
  if (paper) return paper.task;
  if (!isSplit(split)) throw new HttpError(400, `unknown split "${split}"; valid: ${SPLITS.join(', ')}`);
  const tasks = splitTasks(split);
  if (gameFile === undefined) return tasks[hashSeed(episodeId) % tasks.length]!;
  if (/^\d+$/.test(gameFile)) {
    const i = Number(gameFile);
    if (i >= tasks.length) throw new HttpError(400, `game_file index ${i} is out of range: split ${split} has ${tasks.length} games`);
    return tasks[i]!;
  }
  const task = tasks.find((t) => t.id === gameFile) ?? (gameFile.includes('/') && isSplit(gameFile.split('/')[0]!) ? splitTasks(gameFile.split('/')[0]!).find((t) => t.id === gameFile) : undefined);
  if (!task) {
    const paperHint = imported.size > 0 ? `, an imported game path (${imported.size} loaded)` : ' (paper game paths need imported games: diffworld env import alfworld)';
    throw new HttpError(400, `unknown game_file "${gameFile}": use a task id such as "${tasks[0]!.id}", an index 0–${tasks.length - 1}${paperHint}`);
  }
  return task;
}

/** Starts the server (127.0.0.1 and a free port unless told otherwise). */
export async function startAlfworldServer(opts: AlfworldServerOptions = {}): Promise<RunningServer> {
  const store = new EpisodeStore<Live>({ maxEpisodes: opts.maxEpisodes ?? 1024 });
  const maxSteps = opts.maxSteps ?? MAX_STEPS;
  const imported = new Map((opts.games ?? []).map((g) => [paperGameKey(g.gameFile), g]));
  registerGames(imported.values());
  let toldDefaultGame = false;
  return startJsonServer(
    async ({ method, path, body }) => {
      if (method === 'GET' && path === '/health') return { body: 'ok' };
      if (method === 'DELETE') {
        store.delete(requireString(body, 'task_id'));
        return { body: json({ status: 'closed' }) };
      }
      if (method !== 'POST') throw new HttpError(405, `${method} ${path}: use POST /reset, POST /step or DELETE /close`);
      if (path === '/reset') {
        const id = requireString(body, 'task_id');
        const gameFile = optionalString(body, 'game_file');
        const task = pickTask(optionalString(body, 'split') ?? 'train', gameFile, id, imported);
        if (gameFile === undefined && opts.log && !toldDefaultGame) {
          toldDefaultGame = true;
          opts.log(
            `POST /reset without game_file: episode "${id}" plays ${task.split} game ${task.id}, chosen by hashing task_id (send game_file to pick the game; later resets without one are not logged)`,
          );
        }
        const env = new AlfworldEnv({ grammar: opts.grammar ?? 'current' });
        const obs = await env.reset(task);
        store.set(id, { task, env, steps: 0, done: false });
        const gamefile = [...imported.values()].find((g) => g.task.id === task.id)?.gameFile ?? task.id;
        return { body: json({ obs: obs.text, admissible: obs.admissible ?? [], goal: `${obs.goal ?? ''}.`, gamefile }) };
      }
      if (path === '/step') {
        const id = requireString(body, 'task_id');
        const action = optionalString(body, 'action') ?? '';
        const live = store.get(id);
        if (live.done && live.last !== undefined) return { body: new RawJson(live.last) };
        const r = await live.env.step(action);
        live.steps++;
        live.done = r.done || live.steps >= maxSteps;
        live.last = pyJsonDumps({ obs: r.observation.text, admissible: r.observation.admissible ?? [], won: r.info.won, done: live.done, score: pyFloat(r.info.score) });
        return { body: new RawJson(live.last) };
      }
      if (path === '/prompts') {
        // The prompts a policy and a world model use for this episode (not part of the reference server).
        const { task } = store.get(requireString(body, 'task_id'));
        return { body: json({ system_prompt: agentSystemPrompt(opts.prompts), wm_system_prompt: worldModelSystemPrompt(bakeScene(cachedGame(task)), opts.prompts) }) };
      }
      throw new HttpError(404, `unknown path ${path}: use /reset, /step, /prompts or /close`);
    },
    { host: opts.host ?? '127.0.0.1', port: opts.port ?? 0, errors: opts.errors ?? 'ok-with-error' },
  );
}
