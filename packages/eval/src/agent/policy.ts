// The agent side of evaluation: a Policy turns the conversation so far into a completion, which
// the env's harness parser turns into an action. Two local policies (the env's expert, a seeded
// uniformly random admissible action) and a remote one (remote.ts).
import { hashSeed, Rng, type ChatMessage, type TaskRef } from '@diffworld/env-core';
import { EvalError } from '../errors.js';
import { envSuite } from '@diffworld/envs';

/** What a policy may know about the turn besides the conversation (TextWorld's opt-in infos). */
export interface PolicyContext {
  /** The env's name (a key of ENV_SUITES). */
  env: string;
  task: TaskRef;
  /** 0-based turn index within the episode (invalid turns count). */
  turn: number;
  /** Commands valid now; filled only for policies with `needsAdmissible`, where the engine lists them. */
  admissible?: string[];
}

export interface PolicyRequest {
  messages: ChatMessage[];
  context: PolicyContext;
}

/** A policy that can be rebuilt inside a worker thread from plain data. */
export type LocalPolicySpec = { kind: 'expert' } | { kind: 'random'; seed: number };

/**
 * Thrown by a policy that cannot answer this conversation at all, where asking again cannot help
 * (a served model whose context the conversation outgrew): the episode ends there as truncated and
 * the evaluation goes on. Any other error aborts the evaluation.
 */
export class PolicyLimitError extends Error {
  override readonly name = 'PolicyLimitError';
}

/** A completion, or why the policy could not give one for this conversation (see PolicyLimitError). */
export type PolicyAnswer = string | { truncated: string };

export interface Policy {
  /** Shown in summaries and reports, e.g. "expert", "random(seed=0)", "http://host:8000 (model m)". */
  readonly name: string;
  /** Whether the runner must list the admissible commands in the context (costly on ScienceWorld). */
  readonly needsAdmissible?: boolean;
  /** Set when the policy is deterministic local code that workers can rebuild. */
  readonly workerSpec?: LocalPolicySpec;
  act(messages: ChatMessage[], context: PolicyContext): Promise<string>;
  /**
   * One answer per request, in order; episodes advancing in lockstep call this once per turn. A
   * request the policy cannot answer (PolicyLimitError) answers `{ truncated }` without failing the others.
   */
  actBatch(requests: readonly PolicyRequest[]): Promise<PolicyAnswer[]>;
}

/** actBatch for policies with no cheaper batched form: each request on its own, concurrently. */
export function mapBatch(act: Policy['act']): Policy['actBatch'] {
  return (requests) =>
    Promise.all(
      requests.map((r) =>
        act(r.messages, r.context).catch((e: unknown): PolicyAnswer => {
          if (e instanceof PolicyLimitError) return { truncated: e.message };
          throw e;
        }),
      ),
    );
}

const EXPERT_CACHE_SIZE = 256;

/**
 * Replays `suite.expert(task)`: turn k answers the expert's k-th action written the way the
 * env's parser expects (ALFWorld `Action: …`, ScienceWorld plain text, AppWorld a tool-call array).
 * Past the end of the plan it answers an empty completion (an invalid turn).
 */
export function expertPolicy(): Policy {
  const plans = new Map<string, string[]>();
  const plan = (env: string, task: TaskRef): string[] => {
    const key = `${env}|${task.split}|${task.id}`;
    let actions = plans.get(key);
    if (!actions) {
      actions = envSuite(env).expert(task);
      if (plans.size >= EXPERT_CACHE_SIZE) plans.delete(plans.keys().next().value!);
      plans.set(key, actions);
    }
    return actions;
  };
  const act = async (_messages: ChatMessage[], ctx: PolicyContext): Promise<string> => {
    const action = plan(ctx.env, ctx.task)[ctx.turn];
    return action === undefined ? '' : envSuite(ctx.env).agent.formatAction(action);
  };
  return { name: 'expert', workerSpec: { kind: 'expert' }, act, actBatch: mapBatch(act) };
}

/**
 * A uniformly random admissible command each turn, or, for envs whose engine lists none (AppWorld),
 * a draw from the env's documented random-action generator. The draw depends only on
 * (seed, env, task id, turn), so episodes replay exactly whichever worker plays them.
 */
export function randomPolicy(seed: number): Policy {
  if (!Number.isInteger(seed)) throw new EvalError('bad_option', `seed must be an integer, got ${seed}`, 'randomPolicy');
  const act = async (messages: ChatMessage[], ctx: PolicyContext): Promise<string> => {
    const suite = envSuite(ctx.env);
    const rng = new Rng(hashSeed(`${seed}|${ctx.env}|${ctx.task.id}|${ctx.turn}`));
    if (ctx.admissible && ctx.admissible.length > 0) return suite.agent.formatAction(rng.pick(ctx.admissible));
    if (suite.randomAction) return suite.randomAction(ctx.task, messages, rng);
    throw new EvalError('bad_option', `${ctx.env} listed no admissible commands at turn ${ctx.turn} of ${ctx.task.id} and has no random-action generator`, 'randomPolicy');
  };
  return { name: `random(seed=${seed})`, needsAdmissible: true, workerSpec: { kind: 'random', seed }, act, actBatch: mapBatch(act) };
}

/** Rebuilds a local policy from its spec (in a worker thread). */
export function localPolicy(spec: LocalPolicySpec): Policy {
  switch (spec.kind) {
    case 'expert':
      return expertPolicy();
    case 'random':
      return randomPolicy(spec.seed);
  }
}
