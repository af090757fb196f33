// Continuous batching for backends that decode one token per row per step (AR checkpoints): each
// sequence is handed to the backend's continuous decoder on its own, takes a free row at the next
// step and leaves at the step it ends, so a short answer never waits for a long one that shares
// its batch, a new request never waits for a whole batch to drain, and requests of different
// sampling options share the same forwards (the dynamic batcher can only merge equal options).
// The surface is the batcher's (Scheduler): a bounded queue (429 past maxQueue), withdrawal on a
// client's abort (here also from a running row, which is freed after the step in flight).
import type { BackendRequest, BackendResult, ContinuousGeneration, GenerationParams } from './backend.js';
import { type BatchEvent, QueueFullError } from './batcher.js';

/** What the server needs of a scheduler: the dynamic Batcher and the ContinuousScheduler both are one. */
export interface Scheduler {
  /** Queues all of `requests` (one request's n choices) or none (QueueFullError); resolves in order. `signal` withdraws them. */
  submit(requests: readonly BackendRequest[], params: GenerationParams, signal?: AbortSignal): Promise<BackendResult[]>;
  /** Sequences waiting. */
  readonly queued: number;
  /** Sequences being generated. */
  readonly generating: number;
  /** Resolves when nothing is queued or generating. */
  idle(): Promise<void>;
  /** Seconds a client turned away should wait. */
  retryAfterS(): number;
  /** Frees what the scheduler holds (after idle). */
  close?(): Promise<void>;
}

export interface ContinuousSchedulerOptions {
  /** Rows decoded together (the server's maxBatch). */
  rows: number;
  /** Most sequences waiting for a row before 429. */
  maxQueue: number;
}

export class ContinuousScheduler implements Scheduler {
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  /** Recent time per sequence from submission to its end (EMA), for Retry-After. */
  private sequenceMsAvg = 0;

  private constructor(
    private readonly decoder: ContinuousGeneration,
    private readonly opts: ContinuousSchedulerOptions,
    private readonly onSequence: (e: BatchEvent) => void,
  ) {}

  /** Opens the backend's continuous decoder over `rows` rows. `onSequence` gets one event per finished sequence (size 1). */
  static async open(open: (rows: number) => Promise<ContinuousGeneration>, opts: ContinuousSchedulerOptions, onSequence: (e: BatchEvent) => void = () => {}): Promise<ContinuousScheduler> {
    for (const [k, v] of [
      ['rows', opts.rows],
      ['maxQueue', opts.maxQueue],
    ] as const) {
      if (!Number.isInteger(v) || v < 1) throw new RangeError(`continuous scheduler: ${k} must be an integer ≥ 1, got ${v}`);
    }
    return new ContinuousScheduler(await open(opts.rows), opts, onSequence);
  }

  get queued(): number {
    return this.decoder.load.waiting;
  }

  get generating(): number {
    return this.decoder.load.running;
  }

  /** Forward passes run so far. */
  get steps(): number {
    return this.decoder.steps.steps;
  }

  /** Mean rows per forward pass so far (0 before the first). */
  get rowsPerStep(): number {
    const s = this.decoder.steps;
    return s.steps ? s.rowSteps / s.steps : 0;
  }

  submit(requests: readonly BackendRequest[], params: GenerationParams, signal?: AbortSignal): Promise<BackendResult[]> {
    const waiting = this.decoder.load.waiting;
    if (waiting + requests.length > this.opts.maxQueue) throw new QueueFullError(this.retryAfterS(), waiting);
    return Promise.all(requests.map((r) => this.one(r, params, signal)));
  }

  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The queue ahead of a client, drained `rows` at a time at the recent pace per sequence. */
  retryAfterS(): number {
    const rounds = Math.ceil((this.decoder.load.waiting + 1) / this.opts.rows);
    return Math.max(1, Math.ceil((rounds * (this.sequenceMsAvg || 1000)) / 1000));
  }

  close(): Promise<void> {
    return this.decoder.close();
  }

  private async one(request: BackendRequest, params: GenerationParams, signal: AbortSignal | undefined): Promise<BackendResult> {
    this.pending++;
    const t0 = performance.now();
    try {
      const r = await this.decoder.submit(request, params, signal);
      const ms = performance.now() - t0;
      this.sequenceMsAvg = this.sequenceMsAvg === 0 ? ms : 0.8 * this.sequenceMsAvg + 0.2 * ms;
      this.onSequence({ size: 1, ms, promptTokens: r.promptTokens, completionTokens: r.completionTokens });
      return r;
    } catch (e) {
      // A withdrawn sequence is the client's doing, not a backend failure.
      if (!signal?.aborted) this.onSequence({ size: 1, ms: performance.now() - t0, promptTokens: 0, completionTokens: 0, error: e });
      throw e;
    } finally {
      if (--this.pending === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const w of waiters) w();
      }
    }
  }
}
