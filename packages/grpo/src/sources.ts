// Rollout sources behind one interface. Rollouts send the policy's completion text to a TextEnv
// and read back the next user turn; AgentFramedEnv puts the env's paper harness in between, as
// eval's episode runner does: the first observation becomes the harness's first user turn, the
// completion goes through the harness parser (an unparseable one costs the turn and gets the
// harness's invalid-action message without stepping the engine), and each result becomes the
// harness's next user turn. The same wrapper frames the real engine and the world-model env, so a
// policy cannot tell them apart and the reward is the suite's reward over the same message list.
import type { EnvSuite, Observation, SampleOptions, StepResult, TaskRef, TextEnv, WorldModel, WorldModelRequest } from '@diffworld/env-core';
import { type Episode, type RolloutLimits, type TurnCodec, demonstration } from './rollout.js';

export class AgentFramedEnv implements TextEnv {
  readonly name: string;
  private lastObservation = '';
  private admissible: string[] | undefined;
  private turns = 0;
  private score = 0;

  constructor(
    private readonly suite: EnvSuite,
    private readonly inner: TextEnv,
    /** Called once per action that reaches the inner env (a transition; invalid turns are the harness's). */
    private readonly onTransition?: () => void,
  ) {
    this.name = inner.name;
  }

  async reset(task: TaskRef, seed?: number): Promise<Observation> {
    const obs = await this.inner.reset(task, seed);
    this.lastObservation = obs.text;
    this.admissible = obs.admissible;
    this.turns = 0;
    this.score = 0;
    return { ...obs, text: this.suite.agent.firstUserTurn(obs) };
  }

  async step(completion: string): Promise<StepResult> {
    this.turns++;
    const action = this.suite.agent.parse(completion, this.lastObservation);
    const outOfTurns = this.turns >= this.suite.maxSteps;
    if (action === undefined) {
      const text = this.suite.agent.invalidTurn(this.admissible);
      return { observation: { text, ...(this.admissible ? { admissible: this.admissible } : {}) }, reward: 0, done: outOfTurns, info: { score: this.score, won: false, valid: false } };
    }
    this.onTransition?.();
    const r = await this.inner.step(action);
    this.lastObservation = r.observation.text;
    this.admissible = r.observation.admissible;
    this.score = r.info.score;
    return { ...r, done: r.done || outOfTurns, observation: { ...r.observation, text: this.suite.agent.nextUserTurn(r) } };
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}

/** Where rollouts are played: a name for logs and reports, and a fresh env per episode. */
export interface RolloutSource {
  readonly name: string;
  readonly suite: EnvSuite;
  makeEnv(): TextEnv;
  /** Frees what the source holds (a world model's sessions and GPU memory) once its rollouts are done. */
  close?(): Promise<void>;
}

/**
 * The real engine of the suite, framed by its agent harness; in this thread, or in the workers of
 * an env pool (EnvPool: the same framed envs, each living in one worker thread).
 */
export function realEngineSource(suite: EnvSuite, pool?: { makeEnv(): TextEnv }): RolloutSource {
  return { name: 'real', suite, makeEnv: pool ? () => pool.makeEnv() : () => new AgentFramedEnv(suite, suite.createEnv()) };
}

/**
 * The expert's demonstrations of `tasks` in the real engine behind the agent harness, recorded as
 * rollouts record episodes (`demonstration`): what SFT trains on, and under a config's limits the
 * policy's ceiling (an episode ends at the turn limit or when the window is full).
 */
export async function expertDemonstrations(suite: EnvSuite, tasks: readonly TaskRef[], codec: TurnCodec & { encodeTurn(text: string): number[] }, limits: RolloutLimits): Promise<Episode[]> {
  const real = realEngineSource(suite);
  const out: Episode[] = [];
  for (const t of tasks) {
    const env = real.makeEnv();
    out.push(
      await demonstration(
        env,
        t,
        suite.expert(t).map((a) => suite.agent.formatAction(a)),
        codec,
        limits,
        t.seed,
      ),
    );
    await env.close?.();
  }
  return out;
}

/** The transitions a world-model source played, and how many of them the world model itself answered (the rest came from the env's local responder). */
export interface TransitionCounts {
  transitions: number;
  worldModelAnswers: number;
}

export interface WorldModelSource extends RolloutSource {
  /** Running totals over every env this source made. */
  readonly counts: TransitionCounts;
}

/**
 * The world model behind the suite's TextEnv face; with `useResponder` (the paper's default) the
 * env's deterministic local responder answers the transitions whose outcome is certain.
 */
export function worldModelSource(suite: EnvSuite, wm: WorldModel, opts: { useResponder: boolean } = { useResponder: true }): WorldModelSource {
  const counts: TransitionCounts = { transitions: 0, worldModelAnswers: 0 };
  const counted: WorldModel = {
    predict: (req, o) => {
      counts.worldModelAnswers++;
      return wm.predict(req, o);
    },
    ...(wm.predictBatch
      ? {
          predictBatch: (reqs: WorldModelRequest[], o?: SampleOptions) => {
            counts.worldModelAnswers += reqs.length;
            return wm.predictBatch!(reqs, o);
          },
        }
      : {}),
  };
  return {
    name: 'world-model',
    suite,
    counts,
    close: async () => {
      await wm.close?.();
    },
    makeEnv: () =>
      new AgentFramedEnv(suite, suite.createSimulatedEnv(counted, { useResponder: opts.useResponder }), () => {
        counts.transitions++;
      }),
  };
}

/**
 * The paper's reward functions are computed after the rollout from the message list (an ORM in
 * ms-swift); the episode's reward is replaced by the suite's reward over the harness conversation.
 */
export function applySuiteReward(suite: EnvSuite, system: string, episodes: Episode[]): Episode[] {
  for (const e of episodes) e.reward = suite.reward([{ role: 'system', content: system }, ...e.messages], e.task);
  return episodes;
}
