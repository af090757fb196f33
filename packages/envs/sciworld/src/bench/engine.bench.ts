// Benchmark: engine steps/s single-threaded (replaying expert plans; random play with valid-action
// lists), episodes/s single-threaded, and episodes/s with a piscina pool. Prints figures only.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { Rng } from '@diffworld/env-core';
import { loadTask } from '../world/tasks/setup.js';
import { expertActions } from '../engine/expert/expert.js';
import { sciworldTasks } from '../world/tasks/split-tasks.js';
import { runEpisodes, type EpisodeJob, type EpisodeTally } from './episodes.js';

const jobs: EpisodeJob[] = sciworldTasks('test').map((t) => ({ task: t.taskType, variation: t.seed }));
const rate = (n: number, ms: number) => ((n / ms) * 1000).toFixed(0);

// 1. Steps/s replaying precomputed expert plans (engine only: parse, act, tick, score).
const plans = jobs.slice(0, 400).map((j) => ({ ...j, actions: expertActions(j.task, j.variation).actions }));
let steps = 0;
let t0 = performance.now();
for (const p of plans) {
  const { game } = loadTask(p.task, p.variation);
  for (const a of p.actions) game.step(a);
  steps += p.actions.length;
}
const replayMs = performance.now() - t0;
console.log(`replay expert plans: ${plans.length} episodes, ${steps} steps in ${replayMs.toFixed(0)} ms → ${rate(steps, replayMs)} steps/s (incl. world build)`);

// 2. Random play with the valid-action list built every step (what an RL explorer pays).
const rng = new Rng(7);
steps = 0;
t0 = performance.now();
for (let i = 0; i < 200; i++) {
  const j = rng.pick(jobs);
  const { game } = loadTask(j.task, j.variation);
  for (let s = 0; s < 30 && !game.done; s++) {
    game.step(rng.pick(game.validActions()));
    steps++;
  }
}
const randomMs = performance.now() - t0;
console.log(`random play with valid actions: ${steps} steps in ${randomMs.toFixed(0)} ms → ${rate(steps, randomMs)} steps/s`);

// 3. Episodes/s single-threaded (expert planning + play), then with a worker pool.
const sample = jobs.filter((_, i) => i % 2 === 0);
t0 = performance.now();
const single = runEpisodes(sample);
const singleMs = performance.now() - t0;
console.log(`single thread: ${single.episodes} episodes (${single.wins} won) in ${singleMs.toFixed(0)} ms → ${rate(single.episodes, singleMs)} episodes/s`);

const threads = Math.max(1, availableParallelism());
// Workers resolve @diffworld/* to their sources through the export condition, as the CLI does.
const execArgv = [...process.execArgv.filter((a) => a !== '--conditions=@diffworld/source'), '--conditions=@diffworld/source'];
const pool = new Piscina({ filename: new URL('./worker.mjs', import.meta.url).href, maxThreads: threads, minThreads: threads, execArgv });
const batches: EpisodeJob[][] = [];
for (let i = 0; i < sample.length; i += 25) batches.push(sample.slice(i, i + 25));
// Warm the workers (tsx compile + JIT) as the main thread is warm by now: on every task type (the
// random play above visited them all), so with episodes spread over the whole split, none of them
// measured below (every 8th job from the second; the measured sample is every 2nd from the first).
const warmup = jobs.filter((_, i) => i % 8 === 1);
await Promise.all(Array.from({ length: threads }, () => pool.run(warmup)));
t0 = performance.now();
const parts = (await Promise.all(batches.map((b) => pool.run(b)))) as EpisodeTally[];
const poolMs = performance.now() - t0;
const total = parts.reduce((s, p) => s + p.episodes, 0);
console.log(`piscina pool (${threads} threads): ${total} episodes in ${poolMs.toFixed(0)} ms → ${rate(total, poolMs)} episodes/s (×${(singleMs / poolMs).toFixed(2)} vs single thread)`);
await pool.destroy();
