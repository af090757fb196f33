// Type tests of the workspace's suite table (checked by tsc in the typecheck target): every env's
// suite is an EnvSuite, and its engine answers steps with env-core's StepResult.
import type { EnvSuite, StepResult, TextEnv } from '@diffworld/env-core';
import { describe, expectTypeOf, it } from 'vitest';
import { ENV_NAMES, type ENV_SUITES, type EnvName, envSuite } from './registry.js';

type Suites = typeof ENV_SUITES;
type StepOf<N extends EnvName> = Awaited<ReturnType<ReturnType<Suites[N]['createEnv']>['step']>>;

describe('ENV_SUITES (types)', () => {
  it('names the three envs and nothing else', () => {
    expectTypeOf<EnvName>().toEqualTypeOf<'alfworld' | 'sciworld' | 'appworld'>();
    expectTypeOf(ENV_NAMES).toEqualTypeOf<EnvName[]>();
    expectTypeOf(envSuite).returns.toEqualTypeOf<EnvSuite>();
  });

  it('holds an EnvSuite under every name', () => {
    expectTypeOf<Suites[EnvName]>().toExtend<EnvSuite>();
    // ALFWorld's suite adds a grammar-aware engine factory on top of the contract.
    expectTypeOf<Suites['alfworld']['createEnvWith']>().toBeFunction();
  });

  it("answers every suite's steps with env-core's StepResult, real and simulated", () => {
    expectTypeOf<StepOf<'alfworld'>>().toEqualTypeOf<StepResult>();
    expectTypeOf<StepOf<'sciworld'>>().toEqualTypeOf<StepResult>();
    expectTypeOf<StepOf<'appworld'>>().toEqualTypeOf<StepResult>();
    expectTypeOf<ReturnType<Suites[EnvName]['createSimulatedEnv']>>().toEqualTypeOf<TextEnv>();
  });
});
