import type { TaskRef, WorldModel, WorldModelRequest } from '@diffworld/env-core';
import { describe, expect, it } from 'vitest';
import { AlfworldEnv } from './env.js';
import { SimulatedAlfworldEnv } from './simulated-env.js';
import { alfworldSuite } from './suite.js';
import { parseBakedScene } from './harness/scene-prompt.js';
import { AlfworldGame } from './engine/game.js';
import { runOracle } from './engine/oracle.js';
import { gameForTask } from './engine/splits.js';

/** A world model that answers from a real engine replaying the same actions (a perfect WM). */
function oracle(): WorldModel & { calls: WorldModelRequest[]; real: AlfworldEnv } {
  const real = new AlfworldEnv();
  const calls: WorldModelRequest[] = [];
  return { calls, real, predict: async (req) => (calls.push(req), { text: real.stepSync(req.action).observation.text }) };
}

describe('SimulatedAlfworldEnv', () => {
  const tasks = alfworldSuite.tasks('eval_in_distribution').filter((_, i) => i % 10 === 0);

  // The responder defers what depends on which receptacles share a spot (a walk from shelf 1 to
  // shelf 2, and what follows it there) and `examine`: the world model answers those.
  const plays: [string, (task: TaskRef) => string[], number][] = [
    ['oracle', (task) => runOracle(new AlfworldGame(gameForTask(task))), 0.95],
    ['searching expert', (task) => alfworldSuite.expert(task), 0.8],
  ];
  it.each(plays)("wins the %s's episodes, the responder answering most steps and the world model the rest", async (name, play, share) => {
    let local = 0;
    let asked = 0;
    for (const task of tasks) {
      const wm = oracle();
      await wm.real.reset(task);
      const sim = new SimulatedAlfworldEnv(wm);
      const obs = await sim.reset(task);
      expect(obs.text).toContain('Your task is to: ');
      let last;
      for (const a of play(task)) last = await sim.step(a);
      expect(last).toMatchObject({ done: true, reward: 1, info: { won: true, score: 1 } });
      local += sim.counts.local;
      asked += wm.calls.length;
    }
    console.log(`${name}: responder answered ${local}/${local + asked} steps`);
    expect(local / (local + asked)).toBeGreaterThan(share);
  });

  it('sends every action to the world model when the responder is off, with the agent history and grounded prompt', async () => {
    const task = tasks[3]!;
    const wm = oracle();
    await wm.real.reset(task);
    const sim = new SimulatedAlfworldEnv(wm, { useResponder: false });
    await sim.reset(task);
    const plan = alfworldSuite.expert(task);
    let last;
    for (const a of plan) last = await sim.step(a);
    expect(wm.calls).toHaveLength(plan.length);
    expect(last?.info.won).toBe(true);
    const req = wm.calls[1]!;
    expect(req.action).toBe(plan[1]);
    expect(req.history.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(req.system).toBe(alfworldSuite.worldModelPrompt(task));
    expect(parseBakedScene(req.system)).toBeDefined();
    expect(sim.counts).toEqual({ local: 0, wm: plan.length });
  });

  it('uses the per-step state prompt on request and treats empty WM output as "Nothing happens."', async () => {
    const calls: WorldModelRequest[] = [];
    const sim = new SimulatedAlfworldEnv({ predict: async (r) => (calls.push(r), { text: '  ' }) }, { prompt: 'step' });
    await sim.reset(tasks[0]!);
    const r = await sim.step('examine cabinet 1');
    expect(r.observation.text).toBe('Nothing happens.');
    expect(r.info).toMatchObject({ via: 'wm', valid: false, won: false });
    expect(calls[0]!.system).toContain('Active action (verbatim, lowercase): examine cabinet 1');
    await expect(new SimulatedAlfworldEnv({ predict: async () => ({ text: '' }) }).step('look')).rejects.toThrow(/before reset/);
  });

  it("the suite's simulated env ends an episode at the step limit, like the real one", async () => {
    const sim = alfworldSuite.createSimulatedEnv({ predict: async () => ({ text: 'Nothing happens.' }) }, { useResponder: false });
    await sim.reset(tasks[0]!);
    let last;
    for (let i = 0; i < alfworldSuite.maxSteps; i++) last = await sim.step('examine cabinet 1');
    expect(last).toMatchObject({ done: true, info: { truncated: true } });
  });
});
