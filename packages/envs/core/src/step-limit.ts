// A wrapper that ends episodes after a fixed number of steps (TextWorld's Limit wrapper).
import type { Observation, StepResult, TaskRef, TextEnv } from './types.js';

export function withStepLimit(env: TextEnv, maxSteps: number): TextEnv {
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new RangeError(`withStepLimit: maxSteps must be a positive integer, got ${maxSteps}`);
  let steps = 0;
  const wrapped: TextEnv = {
    name: env.name,
    async reset(task: TaskRef, seed?: number): Promise<Observation> {
      steps = 0;
      return env.reset(task, seed);
    },
    async step(action: string): Promise<StepResult> {
      if (steps >= maxSteps) throw new Error(`${env.name}: step() after the episode ended at the ${maxSteps}-step limit; call reset()`);
      const result = await env.step(action);
      steps++;
      if (steps >= maxSteps && !result.done) return { ...result, done: true, info: { ...result.info, truncated: true } };
      return result;
    },
  };
  if (env.admissibleActions) wrapped.admissibleActions = () => env.admissibleActions!();
  if (env.close) wrapped.close = () => env.close!();
  return wrapped;
}
