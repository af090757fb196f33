// Multi-turn rollouts as ms-swift / TRL / verl run them (grpo-and-metrics.md A7): one token
// sequence per episode — the prompt, then policy turns (loss mask 1) interleaved with injected
// observation tokens (mask 0). Token ids are kept end to end: observations are encoded once and
// appended, the conversation is never re-tokenised, so the ids the loss sees are the ids sampled.
// Episodes advance in lockstep: one batched policy forward per generated token for every episode
// still generating, then every episode whose turn ended steps its env concurrently.
import type { Rng } from '@diffworld/dataset';
import type { ChatMessage, Observation, StepResult, TaskRef, TextEnv } from '@diffworld/env-core';
import { type TokenSampling, checkTokenSampling, chooseToken } from '@diffworld/mdlm-core';
import { GrpoError } from './errors.js';
import type { ParamValues, PolicyScorer } from './score.js';

/** How turns become tokens and policy tokens become actions. */
export interface TurnCodec {
  /** Ids that open the episode (system text, first observation, the cue for the first policy turn). */
  encodePrompt(observation: Observation, task: TaskRef): number[];
  /** Ids appended after a policy turn for the env's reply, including the cue for the next turn. */
  encodeObservation(observation: Observation): number[];
  /** The id that ends a policy turn; it is part of the turn (mask 1). */
  readonly endOfTurn: number;
  /** The text of a policy turn (its ids without the end-of-turn id). */
  decodeTurn(ids: readonly number[]): string;
}

export interface RolloutLimits {
  maxTurns: number;
  maxTokensPerTurn: number;
  /** Total tokens of an episode (prompt, turns, observations); the scorer's window. */
  maxSeqLen: number;
}

export interface Episode {
  /** The prompt the episode belongs to: advantages are computed within a group. */
  groupId: string;
  task: TaskRef;
  ids: number[];
  /** 1 on policy tokens, 0 on prompt and observation tokens; same length as ids. */
  lossMask: (0 | 1)[];
  /** The conversation as text (user observations, assistant turns). */
  messages: ChatMessage[];
  actions: string[];
  /** Sum of the env's step rewards. */
  reward: number;
  won: boolean;
  /** The env's native score at the end. */
  score: number;
  turns: number;
  /** Stopped by a limit (turns, window) rather than by the env. */
  truncated: boolean;
  policyTokens: number;
}

/** A policy that maps rows of token ids to next-token logits (the scorer with fixed weights). */
export interface NextTokenPolicy {
  readonly batch: number;
  nextLogits(rows: readonly (readonly number[])[]): Promise<Float64Array[]>;
}

/** The scorer's next-token graph with one set of weights, as a rollout policy. */
export function scorerPolicy(scorer: PolicyScorer, params: ParamValues): NextTokenPolicy {
  return { batch: scorer.opts.batch, nextLogits: (rows) => scorer.nextLogits(params, rows) };
}

export interface RolloutJob {
  task: TaskRef;
  groupId: string;
  env: TextEnv;
  /** This episode's own random stream (token draws), so episodes do not depend on each other. */
  rng: Rng;
  /** Seed passed to env.reset. */
  seed?: number;
}

interface Live {
  job: RolloutJob;
  ep: Episode;
  turn: number[];
  generating: boolean;
}

function validateLimits(l: RolloutLimits): void {
  for (const k of ['maxTurns', 'maxTokensPerTurn', 'maxSeqLen'] as const)
    if (!Number.isInteger(l[k]) || l[k] < 1) throw new GrpoError('bad_config', `rollout: ${k} must be a positive integer, got ${l[k]}`);
}

function newEpisode(task: TaskRef, groupId: string, obs: Observation, ids: number[]): Episode {
  return {
    groupId,
    task,
    ids,
    lossMask: ids.map(() => 0 as const),
    messages: [{ role: 'user', content: obs.text }],
    actions: [],
    reward: 0,
    won: false,
    score: 0,
    turns: 0,
    truncated: false,
    policyTokens: 0,
  };
}

function encodePrompt(codec: TurnCodec, obs: Observation, task: TaskRef, limits: RolloutLimits): number[] {
  const ids = codec.encodePrompt(obs, task);
  if (ids.length >= limits.maxSeqLen) throw new GrpoError('bad_batch', `rollout: the prompt of task ${task.id} has ${ids.length} tokens, the window is ${limits.maxSeqLen}`);
  return ids;
}

/** Plays every job to the end with the policy, in lockstep; episodes come back in job order. */
export async function rollout(policy: NextTokenPolicy, jobs: readonly RolloutJob[], codec: TurnCodec, limits: RolloutLimits, sampling: TokenSampling): Promise<Episode[]> {
  validateLimits(limits);
  checkTokenSampling(sampling, 'rollout sampling');
  const lives: Live[] = await Promise.all(
    jobs.map(async (job) => {
      const obs = await job.env.reset(job.task, job.seed);
      return { job, ep: newEpisode(job.task, job.groupId, obs, encodePrompt(codec, obs, job.task, limits)), turn: [], generating: true };
    }),
  );
  for (;;) {
    const active = lives.filter((l) => l.generating);
    if (active.length === 0) break;
    // One token for every generating episode, in chunks of the policy's batch.
    for (let i = 0; i < active.length; i += policy.batch) {
      const chunk = active.slice(i, i + policy.batch);
      const logits = await policy.nextLogits(chunk.map((l) => l.ep.ids));
      chunk.forEach((l, k) => {
        const row = logits[k]!;
        if (row.some((x) => Number.isNaN(x)))
          throw new GrpoError('non_finite', `rollout: the policy's next-token logits are NaN for task ${l.job.task.id} at token ${l.ep.ids.length}; the weights have diverged, the run stops here`);
        const token = chooseToken(row, sampling, l.job.rng).token;
        l.ep.ids.push(token);
        l.ep.lossMask.push(1);
        l.ep.policyTokens++;
        l.turn.push(token);
      });
    }
    // Turns that ended (end-of-turn id, turn budget or window) step their env.
    const ended = active.filter((l) => l.turn[l.turn.length - 1] === codec.endOfTurn || l.turn.length >= limits.maxTokensPerTurn || l.ep.ids.length >= limits.maxSeqLen);
    await Promise.all(
      ended.map(async (l) => {
        l.generating = await finishTurn(l.ep, l.job.env, l.turn, codec, limits);
        l.turn = [];
      }),
    );
  }
  return lives.map((l) => l.ep);
}

/** Sends a finished policy turn to the env and appends its reply; false when the episode ended. */
async function finishTurn(ep: Episode, env: TextEnv, turn: readonly number[], codec: TurnCodec, limits: RolloutLimits): Promise<boolean> {
  const body = turn[turn.length - 1] === codec.endOfTurn ? turn.slice(0, -1) : turn;
  const text = codec.decodeTurn(body);
  ep.messages.push({ role: 'assistant', content: text });
  ep.actions.push(text);
  ep.turns++;
  let r: StepResult;
  try {
    r = await env.step(text);
  } catch (e) {
    throw new GrpoError('env', `rollout: env ${env.name} failed on task ${ep.task.id} at turn ${ep.turns} (action ${JSON.stringify(text)}): ${(e as Error).message}`);
  }
  ep.reward += r.reward;
  ep.score = r.info.score;
  ep.won = ep.won || r.info.won;
  // The reply goes into the conversation before the episode can end: the final observation is
  // where a win shows, and the suite's reward reads the conversation.
  ep.messages.push({ role: 'user', content: r.observation.text });
  if (r.done) return false;
  const obsIds = codec.encodeObservation(r.observation);
  // Room for the observation and at least one policy token, else the window truncates the episode.
  if (ep.turns >= limits.maxTurns || ep.ids.length + obsIds.length + 1 > limits.maxSeqLen) {
    ep.truncated = true;
    return false;
  }
  for (const id of obsIds) {
    ep.ids.push(id);
    ep.lossMask.push(0);
  }
  return true;
}

/**
 * An episode played with fixed action texts (an expert demonstration), recorded exactly as a
 * rollout records one — for SFT on the policy tokens only. Each action is encoded with
 * `encodeTurn` and closed with the end-of-turn id.
 */
export async function demonstration(
  env: TextEnv,
  task: TaskRef,
  actions: readonly string[],
  codec: TurnCodec & { encodeTurn(text: string): number[] },
  limits: RolloutLimits,
  seed?: number,
): Promise<Episode> {
  validateLimits(limits);
  const obs = await env.reset(task, seed);
  const ep = newEpisode(task, task.id, obs, encodePrompt(codec, obs, task, limits));
  for (const action of actions) {
    const turn = [...codec.encodeTurn(action), codec.endOfTurn];
    if (ep.ids.length + turn.length > limits.maxSeqLen) {
      ep.truncated = true;
      break;
    }
    for (const id of turn) {
      ep.ids.push(id);
      ep.lossMask.push(1);
      ep.policyTokens++;
    }
    if (!(await finishTurn(ep, env, turn, codec, limits))) break;
  }
  return ep;
}
