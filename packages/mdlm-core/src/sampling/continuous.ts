// Iteration-level scheduling of left-to-right decoding (vLLM's continuous batching) over a fixed
// number of rows of one open decoder: a submitted request takes a free row at the next step (its
// prompt is prefilled in that step, beside the other rows' single tokens), and a finished one
// leaves the batch at the step it ends, so a short answer never waits for the longest one of its
// batch and a new request never waits for a whole batch to drain. Each request decodes exactly as
// sampleAutoregressive decodes it (its own seed and RNG; a row's logits depend on its own cache
// only), so the results do not depend on what else was running.
//
// A request may bring its own length and token sampling (RowOptions): they act per row (a row's
// own maxNewTokens ends it; chooseToken takes a row's options and RNG), so requests of different
// sampling share the rows and the forwards instead of each kind of request queueing for a
// scheduler of its own. What acts on the model or the vocabulary (stop and banned ids,
// penalizePrompt, greedyInModel) is fixed at open. A request's AbortSignal takes it out: from the
// queue at once, from its row at the end of the step running now (the row is free for the next
// request at the next step).
import { advanceArRow, type ArRow, type AutoregressiveOptions, type AutoregressiveRequest, arResult, checkAutoregressiveOptions, openArRow, tokenChooser } from './autoregressive.js';
import { SamplingError } from './errors.js';
import type { CausalDecoder, CausalItem, CausalModel } from './model.js';
import type { SampleResult } from './request.js';

/** What one request may set for itself (unset: the scheduler's options). */
export type RowOptions = Partial<Pick<AutoregressiveOptions, 'maxNewTokens' | 'temperature' | 'topK' | 'topP' | 'repetitionPenalty'>>;

export interface ContinuousSubmitOptions extends RowOptions {
  /** Aborting withdraws the request (queued) or frees its row after the current step (running); it rejects with the signal's reason. */
  signal?: AbortSignal;
}

interface Job {
  row: ArRow;
  t0: number;
  resolve: (r: SampleResult) => void;
  reject: (e: unknown) => void;
  /** Set when the request was aborted while it held a row: the loop frees the row after the step. */
  cancelled?: { reason: unknown };
}

const ROW_OPTIONS = ['maxNewTokens', 'temperature', 'topK', 'topP', 'repetitionPenalty'] as const;

const WHERE = 'continuous autoregressive';

export class ContinuousAutoregressive {
  /**
   * Steps run (each advances every running row by one token), the most rows one of them carried,
   * and rows summed over steps (rowSteps / steps: mean rows per step). A step is one forward pass,
   * or two when requests joined at it (their prefill runs apart): `passes`.
   */
  steps = 0;
  passes = 0;
  peakRows = 0;
  rowSteps = 0;
  /** Requests aborted while they held a row (their rows were freed early). */
  cancelledRows = 0;
  private readonly slots: (Job | undefined)[];
  /** Rows that carried a sequence before (their cache must be emptied before the next one). */
  private readonly used: boolean[];
  private readonly queue: Job[] = [];
  private readonly stops: ReadonlySet<number>;
  private readonly next: ReturnType<typeof tokenChooser>;
  private running: Promise<void> | undefined;
  private closed = false;

  private constructor(
    private readonly model: CausalModel,
    private readonly decoder: CausalDecoder,
    private readonly options: AutoregressiveOptions,
    rows: number,
    private readonly admitAtLeast: number,
  ) {
    this.slots = new Array<Job | undefined>(rows).fill(undefined);
    this.used = new Array<boolean>(rows).fill(false);
    this.stops = new Set(options.stopIds ?? []);
    this.next = tokenChooser(decoder, options, WHERE, model.vocabSize);
  }

  /**
   * Opens `rows` rows of the model for requests decoded with `options`. `admitAtLeast` (default 1):
   * while rows are decoding, waiting requests join only once that many rows are free (or all of
   * them fit).
   */
  static async open(model: CausalModel, options: AutoregressiveOptions, rows: number, schedule: { admitAtLeast?: number } = {}): Promise<ContinuousAutoregressive> {
    checkAutoregressiveOptions(options, WHERE);
    if (!(Number.isInteger(rows) && rows >= 1)) throw new SamplingError('bad_option', `${WHERE}: rows must be an integer ≥ 1, got ${rows}`);
    const admitAtLeast = schedule.admitAtLeast ?? 1;
    if (!(Number.isInteger(admitAtLeast) && admitAtLeast >= 1 && admitAtLeast <= rows))
      throw new SamplingError('bad_option', `${WHERE}: admitAtLeast must be an integer in [1, rows = ${rows}], got ${admitAtLeast}`);
    const decoder = await model.open(rows);
    if (!decoder.reset) {
      await decoder.close();
      throw new SamplingError('bad_model', `${WHERE}: the model's decoder cannot empty a row (CausalDecoder.reset), so rows could not be reused`);
    }
    return new ContinuousAutoregressive(model, decoder, options, rows, admitAtLeast);
  }

  /** Requests waiting for a row, and rows decoding now. */
  get load(): { waiting: number; running: number } {
    return { waiting: this.queue.length, running: this.slots.filter(Boolean).length };
  }

  /**
   * Decodes one request with the scheduler's options, overridden by the request's own (`own`);
   * resolves when it ends. A bad request or option rejects at once, naming what is wrong.
   */
  submit(req: AutoregressiveRequest, own: ContinuousSubmitOptions = {}): Promise<SampleResult> {
    if (this.closed) return Promise.reject(new SamplingError('bad_option', `${WHERE}: submitted after close()`));
    const { signal } = own;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    let row: ArRow;
    try {
      row = openArRow(req, this.rowOptions(own), WHERE, this.model.vocabSize, this.stops);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<SampleResult>((resolve, reject) => {
      if (row.done) return resolve(arResult(row)); // its forced prefix is the whole answer
      const job: Job = { row, t0: performance.now(), resolve, reject };
      if (signal) {
        const abort = () => this.cancel(job, abortReason(signal));
        signal.addEventListener('abort', abort, { once: true });
        job.resolve = (r) => (signal.removeEventListener('abort', abort), resolve(r));
        job.reject = (e) => (signal.removeEventListener('abort', abort), reject(e));
      }
      this.queue.push(job);
      this.running ??= this.loop().finally(() => (this.running = undefined));
    });
  }

  /** The scheduler's options with a request's own over them, checked when it brings any. */
  private rowOptions(own: RowOptions): AutoregressiveOptions {
    const set = ROW_OPTIONS.filter((k) => own[k] !== undefined);
    if (set.length === 0) return this.options;
    const o: AutoregressiveOptions = { ...this.options };
    for (const k of set) (o as unknown as Record<string, number>)[k] = own[k]!;
    checkAutoregressiveOptions(o, `${WHERE} (a request's own options)`);
    return o;
  }

  /** A queued job leaves at once; a running one is marked, and the loop frees its row after the step in flight. */
  private cancel(job: Job, reason: unknown): void {
    const q = this.queue.indexOf(job);
    if (q >= 0) {
      this.queue.splice(q, 1);
      job.reject(reason);
    } else if (this.slots.includes(job)) job.cancelled = { reason };
  }

  /** Waits for every submitted request, then frees the decoder's rows. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running) await this.running;
    await this.decoder.close();
  }

  private async loop(): Promise<void> {
    // One turn of the event loop first, so that requests submitted together start together.
    await Promise.resolve();
    for (;;) {
      this.admit();
      const active: { job: Job; row: number }[] = [];
      this.slots.forEach((job, row) => job && active.push({ job, row }));
      if (active.length === 0) return;
      // Rows that just joined (their prompt) run in a pass apart from the single-token rows: a pass
      // is padded to its longest item, so a prefill beside 31 one-token rows made each of them
      // compute the whole prompt's length (on the 2-core CPU, continuous batching of 16-token
      // answers ran at half the dynamic batcher's throughput that way). Each row's result depends
      // on its own cache only, so the split changes no token.
      const groups = [active.filter(({ job }) => job.row.next.length > 1), active.filter(({ job }) => job.row.next.length === 1)].filter((g) => g.length > 0);
      const tokens = new Map<Job, number>();
      try {
        for (const group of groups) {
          const items: CausalItem[] = group.map(({ job, row }) => ({ row, tokens: job.row.next }));
          const picks = await this.next(
            items,
            group.map(({ job }) => job.row),
          );
          this.passes++;
          group.forEach(({ job }, n) => tokens.set(job, picks[n]!));
        }
      } catch (e) {
        this.failAll(e);
        return;
      }
      this.steps++;
      this.peakRows = Math.max(this.peakRows, active.length);
      this.rowSteps += active.length;
      for (const { job, row } of active) {
        advanceArRow(job.row, tokens.get(job)!, this.stops, job.t0);
        if (job.row.done) {
          this.slots[row] = undefined;
          job.resolve(arResult(job.row));
        } else if (job.cancelled) {
          // Its row is reset when the next request takes it (admit).
          this.slots[row] = undefined;
          this.cancelledRows++;
          job.reject(job.cancelled.reason);
        }
      }
    }
  }

  /**
   * Waiting requests into free rows, oldest first — once at least admitAtLeast rows are free (or
   * every waiting request fits, or nothing runs): each admission costs a prefill pass of its own
   * and, on the host decoder, a re-assembly of the batch's past, so under load joining in groups
   * is cheaper than one request per step.
   */
  private admit(): void {
    const free = this.slots.filter((j) => !j).length;
    const running = this.slots.length - free;
    if (running > 0 && free < Math.min(this.admitAtLeast, this.queue.length)) return;
    for (let s = 0; s < this.slots.length && this.queue.length; s++) {
      if (this.slots[s]) continue;
      if (this.used[s]) this.decoder.reset!(s);
      this.used[s] = true;
      this.slots[s] = this.queue.shift();
    }
  }

  /** A failed forward fails every request in it and every one waiting (the rows' caches are unknown now). */
  private failAll(e: unknown): void {
    for (const [s, job] of this.slots.entries()) {
      job?.reject(e);
      this.slots[s] = undefined;
    }
    for (const job of this.queue.splice(0)) job.reject(e);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new SamplingError('bad_input', `${WHERE}: the request was aborted`);
}
