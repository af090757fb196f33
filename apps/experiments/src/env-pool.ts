// Real-engine env steps in a piscina worker pool. Rollouts advance episodes in lockstep and step
// every episode whose turn ended at once; with a pool those steps run on several threads. Each
// worker runs one long shard task that owns its envs (episode state never moves between threads);
// the main thread holds proxies that send reset / step / close over the shard's MessagePort.
// Envs are deterministic given task and seed, so a pooled rollout equals the in-process one (tested).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { workerExecArgv } from '@diffworld/dataset';
import { Piscina } from 'piscina';
import type { Observation, StepResult, TaskRef, TextEnv } from '@diffworld/env-core';
import { ExperimentError } from './errors.js';

export type EnvRequest =
  | { id: number; env: number; op: 'reset'; task: TaskRef; seed?: number }
  | { id: number; env: number; op: 'step'; completion: string }
  | { id: number; env: number; op: 'close' };

export type EnvReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface ShardTask {
  env: string;
  port: MessagePort;
  /** Imported games each worker registers with its engine before serving (the suite's loadGames). */
  gamesFile?: string;
}

const WORKER = new URL('./env-worker.mjs', import.meta.url);

class Shard {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  constructor(
    readonly index: number,
    readonly port: MessagePort,
    readonly done: Promise<number>,
  ) {
    port.on('message', (r: EnvReply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.ok) p.resolve(r.value);
      else p.reject(new ExperimentError('env', `env pool shard ${index}: ${r.error}`));
    });
  }

  request<T>(req: Omit<EnvRequest, 'id'> & Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ ...req, id });
    });
  }

  failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

/** A TextEnv whose engine lives in a pool worker. */
class PooledEnv implements TextEnv {
  constructor(
    readonly name: string,
    private readonly shard: Shard,
    private readonly id: number,
  ) {}

  reset(task: TaskRef, seed?: number): Promise<Observation> {
    return this.shard.request<Observation>({ env: this.id, op: 'reset', task, ...(seed === undefined ? {} : { seed }) });
  }

  step(completion: string): Promise<StepResult> {
    return this.shard.request<StepResult>({ env: this.id, op: 'step', completion });
  }

  async close(): Promise<void> {
    await this.shard.request({ env: this.id, op: 'close' });
  }
}

export class EnvPool {
  private nextEnv = 0;
  private closed = false;

  private constructor(
    readonly env: string,
    private readonly pool: Piscina<ShardTask, number>,
    private readonly shards: Shard[],
  ) {}

  /** `workers` threads, each serving one shard of the envs made from the suite `env` (and the games of `gamesFile`). */
  static open(env: string, workers: number, gamesFile?: string): EnvPool {
    if (!Number.isInteger(workers) || workers < 1) throw new ExperimentError('bad_config', `env pool: workers must be a positive integer, got ${workers}`);
    const pool = new Piscina<ShardTask, number>({ filename: WORKER.href, minThreads: workers, maxThreads: workers, execArgv: workerExecArgv(import.meta.url) });
    const shards: Shard[] = [];
    for (let i = 0; i < workers; i++) {
      const { port1, port2 } = new MessageChannel();
      const done = pool.run({ env, port: port2, ...(gamesFile ? { gamesFile } : {}) }, { transferList: [port2] });
      const shard = new Shard(i, port1, done);
      // A worker that dies fails its pending requests instead of leaving the rollout waiting.
      done.catch((e: Error) => shard.failAll(new ExperimentError('env', `env pool shard ${i} failed: ${e.message}`)));
      shards.push(shard);
    }
    return new EnvPool(env, pool, shards);
  }

  /** A new env on the next shard (round robin, so a group's episodes spread over the workers). */
  makeEnv(): TextEnv {
    if (this.closed) throw new ExperimentError('env', 'env pool: makeEnv after close');
    const id = this.nextEnv++;
    return new PooledEnv(this.env, this.shards[id % this.shards.length]!, id);
  }

  /** Shuts every shard down (closing its envs) and destroys the pool; returns requests served per shard. */
  async close(): Promise<number[]> {
    if (this.closed) return [];
    this.closed = true;
    for (const s of this.shards) s.port.postMessage({ op: 'shutdown' });
    // A shard whose worker died has already failed its requests; count it as having served none.
    const served = (await Promise.allSettled(this.shards.map((s) => s.done))).map((r) => (r.status === 'fulfilled' ? r.value : 0));
    for (const s of this.shards) s.port.close();
    await this.pool.destroy();
    return served;
  }
}
