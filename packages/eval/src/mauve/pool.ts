// Runs k-means restarts in parallel worker threads (piscina), one restart per task.
import { availableParallelism } from 'node:os';
import { workerEntry, workerExecArgv } from '@diffworld/dataset';
import { Piscina } from 'piscina';
import type { KMeansRun, KMeansTask } from './kmeans.js';

const WORKER = workerEntry(import.meta.url, { source: './kmeans-worker.mjs', built: './kmeans.js' });

export async function kmeansInPool(base: Omit<KMeansTask, 'seed'>, seeds: readonly number[], workers?: number): Promise<KMeansRun[]> {
  const threads = Math.max(1, Math.min(workers ?? availableParallelism(), seeds.length));
  // One shared copy of the data for every worker.
  const shared = new Float64Array(new SharedArrayBuffer(base.data.byteLength));
  shared.set(base.data);
  const pool = new Piscina({ filename: WORKER, minThreads: threads, maxThreads: threads, execArgv: workerExecArgv(import.meta.url) });
  try {
    return await Promise.all(seeds.map((seed) => pool.run({ ...base, data: shared, seed }) as Promise<KMeansRun>));
  } finally {
    await pool.destroy();
  }
}
