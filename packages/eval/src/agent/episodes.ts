// Plays episodes against the real engines, advancing a window of episodes in lockstep so that the
// policy answers one batch per turn. Used in the main thread and inside pool workers alike.
import { episodeRecord, type ChatMessage, type EnvSuite, type EpisodeRecord, type PromptSet, type TaskRef, type TextEnv } from '@diffworld/env-core';
import { envSuite } from '@diffworld/envs';
import type { Policy, PolicyAnswer, PolicyRequest } from './policy.js';

interface Running {
  index: number;
  task: TaskRef;
  env: TextEnv;
  messages: ChatMessage[];
  actions: string[];
  turn: number;
  reward: number;
  score: number;
  won: boolean;
  lastObservation: string;
  admissible: string[] | undefined;
  /** Why the policy could not answer, when that ended the episode. */
  truncated?: string;
}

async function start(suite: EnvSuite, task: TaskRef, index: number, prompts: PromptSet | undefined): Promise<Running> {
  // Every suite's createEnv caps steps already (the runner also counts invalid turns itself).
  const env = suite.createEnv();
  const obs = await env.reset(task);
  return {
    index,
    task,
    env,
    messages: [
      { role: 'system', content: suite.agent.system(prompts) },
      { role: 'user', content: suite.agent.firstUserTurn(obs) },
    ],
    actions: [],
    turn: 0,
    reward: 0,
    score: 0,
    won: false,
    lastObservation: obs.text,
    admissible: obs.admissible,
  };
}

/**
 * One turn: the completion is parsed with the env's harness parser; a parseable action steps the
 * engine, an unparseable one costs the turn and gets the harness's invalid-action message.
 * Returns true when the episode is over (the env said done, the turn limit was reached, or the
 * policy could not answer).
 */
async function advance(suite: EnvSuite, ep: Running, answer: PolicyAnswer): Promise<boolean> {
  if (typeof answer !== 'string') {
    // The policy cannot go on with this conversation (e.g. it outgrew a served model's context).
    ep.truncated = answer.truncated;
    return true;
  }
  const completion = answer;
  ep.messages.push({ role: 'assistant', content: completion });
  ep.turn++;
  const action = suite.agent.parse(completion, ep.lastObservation);
  if (action === undefined) {
    ep.messages.push({ role: 'user', content: suite.agent.invalidTurn(ep.admissible) });
    return ep.turn >= suite.maxSteps;
  }
  const r = await ep.env.step(action);
  ep.actions.push(action);
  ep.reward += r.reward;
  ep.score = r.info.score;
  ep.won = r.info.won;
  ep.lastObservation = r.observation.text;
  ep.admissible = r.observation.admissible;
  ep.messages.push({ role: 'user', content: suite.agent.nextUserTurn(r) });
  return r.done || ep.turn >= suite.maxSteps;
}

export interface PlayOptions {
  /** Episodes advanced together (one policy batch per turn). */
  batchSize?: number;
  /** Called after each finished episode with its position in `tasks`. */
  onEpisode?: (index: number, record: EpisodeRecord) => void;
  /** The paper's prompts (a loaded prompt file): the agent's system prompt comes from it. */
  prompts?: PromptSet;
}

/** Plays one episode per task with the policy; records come back in the order of `tasks`. */
export async function playEpisodes(envName: string, tasks: readonly TaskRef[], policy: Policy, opts: PlayOptions = {}): Promise<EpisodeRecord[]> {
  const suite = envSuite(envName);
  const batchSize = Math.max(1, opts.batchSize ?? 16);
  const records: EpisodeRecord[] = new Array(tasks.length);
  let next = 0;
  let active: Running[] = [];
  while (next < tasks.length || active.length > 0) {
    while (active.length < batchSize && next < tasks.length) {
      active.push(await start(suite, tasks[next]!, next, opts.prompts));
      next++;
    }
    const requests: PolicyRequest[] = active.map((ep) => ({
      messages: ep.messages.slice(),
      context: {
        env: envName,
        task: ep.task,
        turn: ep.turn,
        ...(policy.needsAdmissible ? { admissible: ep.admissible ?? ep.env.admissibleActions?.() ?? [] } : {}),
      },
    }));
    const answers = await policy.actBatch(requests);
    if (answers.length !== active.length) throw new Error(`[eval.agent] policy ${policy.name} gave ${answers.length} answers for ${active.length} requests`);
    const still: Running[] = [];
    for (let i = 0; i < active.length; i++) {
      const ep = active[i]!;
      if (await advance(suite, ep, answers[i]!)) {
        await ep.env.close?.();
        const record = episodeRecord(ep.task, { messages: ep.messages, actions: ep.actions, reward: ep.reward, score: ep.score, won: ep.won, truncated: ep.truncated });
        records[ep.index] = record;
        opts.onEpisode?.(ep.index, record);
      } else still.push(ep);
    }
    active = still;
  }
  return records;
}
