// Replay consistency: a world-model rollout replayed in the real engine. For held-out tasks the
// expert's actions are played in the simulated env (every observation from the world model, fed
// its own earlier predictions as history — no local responder) and in the real engine, in lockstep;
// a simulated transition counts as reproduced when the real engine gives the same observation
// (whitespace-normalised). Also the mean ROUGE-L per transition and how often "done" agrees.
import type { EnvSuite, TaskRef, WorldModel } from '@diffworld/env-core';
import { rougeLScore } from '@diffworld/eval';

export interface ReplayResult {
  tasks: number;
  transitions: number;
  /** Share of simulated transitions the real engine reproduces exactly. */
  reproduced: number;
  rougeL: number;
  doneAgreement: number;
  /** Wall ms per step: the world model's (a generation) and the real engine's. */
  msPerStep: { simulated: number; real: number };
  /** The first differing transitions, for the report. */
  mismatches: { task: string; step: number; action: string; simulated: string; real: string }[];
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export async function replayConsistency(suite: EnvSuite, wm: WorldModel, tasks: readonly TaskRef[], maxSteps: number): Promise<ReplayResult> {
  let transitions = 0,
    same = 0,
    rl = 0,
    doneSame = 0,
    simMs = 0,
    realMs = 0;
  const mismatches: ReplayResult['mismatches'] = [];
  for (const task of tasks) {
    const real = suite.createEnv();
    const sim = suite.createSimulatedEnv(wm, { useResponder: false });
    try {
      await real.reset(task, task.seed);
      await sim.reset(task, task.seed);
      for (const [step, action] of suite.expert(task).slice(0, maxSteps).entries()) {
        const t0 = performance.now();
        const r = await real.step(action);
        const t1 = performance.now();
        const s = await sim.step(action);
        realMs += t1 - t0;
        simMs += performance.now() - t1;
        transitions++;
        const equal = norm(r.observation.text) === norm(s.observation.text);
        if (equal) same++;
        else if (mismatches.length < 5) mismatches.push({ task: task.id, step, action, simulated: s.observation.text.slice(0, 300), real: r.observation.text.slice(0, 300) });
        rl += rougeLScore(s.observation.text, r.observation.text).f;
        if (r.done === s.done) doneSame++;
        if (r.done || s.done) break;
      }
    } finally {
      await real.close?.();
      await sim.close?.();
    }
  }
  const n = transitions || 1;
  return { tasks: tasks.length, transitions, reproduced: same / n, rougeL: rl / n, doneAgreement: doneSame / n, msPerStep: { simulated: simMs / n, real: realMs / n }, mismatches };
}
