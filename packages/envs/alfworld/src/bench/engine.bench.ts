// Benchmark: engine steps/s single-threaded (admissible list + step per action), and expert
// episodes/s single-threaded vs a piscina pool. Prints figures; asserts nothing.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { Rng } from '@diffworld/env-core';
import { AlfworldGame } from '../engine/game.js';
import { gameForTask, splitTasks } from '../engine/splits.js';
import { playEpisodes } from './episodes.js';

function timeIt<T>(fn: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const out = fn();
  return [out, Number(process.hrtime.bigint() - t0) / 1e9];
}

// 1. Raw engine steps: random admissible play (an agent reads the list every step).
const tasks = splitTasks('train');
const specs = tasks.slice(0, 400).map(gameForTask);
const rng = new Rng(1);
const [steps, engineSec] = timeIt(() => {
  let n = 0;
  for (const spec of specs) {
    const g = new AlfworldGame(spec);
    for (let i = 0; i < 50 && !g.won; i++) {
      g.step(rng.pick(g.admissibleCommands()));
      n++;
    }
  }
  return n;
});
console.log(`engine: ${steps} steps in ${engineSec.toFixed(2)} s = ${Math.round(steps / engineSec)} steps/s (single thread, admissible list + step)`);

// 2. Generation alone.
const [, genSec] = timeIt(() => tasks.slice(0, 2000).forEach((t) => gameForTask(t)));
console.log(`generation: ${Math.round(2000 / genSec)} games/s`);

// 3. Expert episodes (generate + solve), single thread vs pool.
const N = 3553;
const indices = Array.from({ length: N }, (_, i) => i);
const [single, singleSec] = timeIt(() => playEpisodes({ split: 'train', indices }));
console.log(`expert episodes, 1 thread: ${Math.round(N / singleSec)} episodes/s (${Math.round(single.steps / singleSec)} steps/s, wins ${single.wins}/${N})`);

const threads = Math.max(1, Math.min(availableParallelism(), 2));
// Workers resolve @diffworld/* to their sources through the export condition, as the CLI does.
const execArgv = [...process.execArgv.filter((a) => a !== '--conditions=@diffworld/source'), '--conditions=@diffworld/source'];
const pool = new Piscina({ filename: new URL('./worker.mjs', import.meta.url).href, minThreads: threads, maxThreads: threads, execArgv });
const chunk = 128;
const batches = [];
for (let i = 0; i < N; i += chunk) batches.push({ split: 'train', indices: indices.slice(i, i + chunk) });
await Promise.all(Array.from({ length: threads }, () => pool.run({ split: 'train', indices: [0] }))); // warm: tsx compile per worker
const t0 = process.hrtime.bigint();
const results = await Promise.all(batches.map((b) => pool.run(b) as Promise<{ episodes: number; steps: number; wins: number }>));
const poolSec = Number(process.hrtime.bigint() - t0) / 1e9;
const wins = results.reduce((s, r) => s + r.wins, 0);
console.log(`expert episodes, piscina ${threads} threads: ${Math.round(N / poolSec)} episodes/s (wins ${wins}/${N}); speed-up ×${(singleSec / poolSec).toFixed(2)} over 1 thread`);
await pool.destroy();
