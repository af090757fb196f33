// Type tests of the EnvSuite contract (checked by tsc in the typecheck target): what the trainer,
// the corpus builder, eval and the CLI rely on from every suite without looking inside it.
import { describe, expectTypeOf, it } from 'vitest';
import type { EpisodeRecord } from './episode.js';
import type { RunningServer } from './http.js';
import type { EnvSuite } from './suite.js';
import type { Observation, StepInfo, StepResult, TaskRef, TextEnv } from './types.js';

describe('EnvSuite (types)', () => {
  it('plays real and simulated episodes behind the same TextEnv face', () => {
    expectTypeOf<ReturnType<EnvSuite['createEnv']>>().toEqualTypeOf<TextEnv>();
    expectTypeOf<ReturnType<EnvSuite['createSimulatedEnv']>>().toEqualTypeOf<TextEnv>();
    expectTypeOf<TextEnv['reset']>().parameters.toEqualTypeOf<[task: TaskRef, seed?: number]>();
    expectTypeOf<TextEnv['reset']>().returns.toEqualTypeOf<Promise<Observation>>();
    // Actions are strings; anything else is a type error (and a TypeError at run time).
    expectTypeOf<TextEnv['step']>().parameters.toEqualTypeOf<[action: string]>();
    expectTypeOf<TextEnv['step']>().returns.toEqualTypeOf<Promise<StepResult>>();
  });

  it('gives every step a reward, an end flag and the native score and win flag', () => {
    expectTypeOf<StepResult>().toEqualTypeOf<{ observation: Observation; reward: number; done: boolean; info: StepInfo }>();
    expectTypeOf<StepInfo['score']>().toEqualTypeOf<number>();
    expectTypeOf<StepInfo['won']>().toEqualTypeOf<boolean>();
    expectTypeOf<StepInfo['valid']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Observation['admissible']>().toEqualTypeOf<string[] | undefined>();
  });

  it('parses completions to an action, or undefined when there is none', () => {
    expectTypeOf<EnvSuite['parseAction']>().toEqualTypeOf<(completion: string) => string | undefined>();
    expectTypeOf<EnvSuite['agent']['parse']>().returns.toEqualTypeOf<string | undefined>();
  });

  it('lists tasks, the expert and its record, rewards and the server', () => {
    expectTypeOf<EnvSuite['tasks']>().returns.toEqualTypeOf<TaskRef[]>();
    expectTypeOf<EnvSuite['expert']>().returns.toEqualTypeOf<string[]>();
    expectTypeOf<EnvSuite['expertRecord']>().returns.toEqualTypeOf<EpisodeRecord | Promise<EpisodeRecord>>();
    expectTypeOf<NonNullable<EnvSuite['expertAction']>>().returns.toEqualTypeOf<string | undefined>();
    expectTypeOf<EnvSuite['reward']>().returns.toEqualTypeOf<number>();
    expectTypeOf<EnvSuite['server']['start']>().returns.toEqualTypeOf<Promise<RunningServer>>();
    expectTypeOf<EnvSuite['server']['defaultPort']>().toEqualTypeOf<number>();
    expectTypeOf<EnvSuite['server']['protocol']>().toEqualTypeOf<string>();
  });

  it('requires the facts grpo and the harness read of every env, so an env that forgets one fails to compile', () => {
    expectTypeOf<EnvSuite['paperMaxTurns']>().toEqualTypeOf<number>();
    expectTypeOf<EnvSuite['actionEncoding']>().toEqualTypeOf<'raw' | 'assistant-json'>();
    const declare = (suite: EnvSuite) => suite;
    const { paperMaxTurns: _turns, actionEncoding: _encoding, ...forgetful } = {} as EnvSuite;
    // @ts-expect-error a suite without paperMaxTurns and actionEncoding is not an EnvSuite
    expectTypeOf(declare).toBeCallableWith(forgetful);
    expectTypeOf(declare).toBeCallableWith({ ...forgetful, paperMaxTurns: 30, actionEncoding: 'raw' });
  });

  it('keeps the env-specific parts optional, so a suite without them is still a suite', () => {
    type Optional = { [K in keyof EnvSuite]-?: undefined extends EnvSuite[K] ? K : never }[keyof EnvSuite];
    expectTypeOf<Optional>().toEqualTypeOf<'randomAction' | 'prompts' | 'loadGames' | 'expertAction' | 'generatesGames'>();
  });
});
