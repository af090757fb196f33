// Iteration-level scheduling of left-to-right decoding (vLLM's continuous batching) over a fixed
// number of rows of one open decoder: a submitted request takes a free row at the next step (its
// prompt is prefilled in that step, beside the other rows' single tokens), and a finished one
// leaves the batch at the step it ends, so a short answer never waits for the longest one of its
// batch and a new request never waits for a whole batch to drain. Each request decodes exactly as
// sampleAutoregressive decodes it (its own seed and RNG; a row's logits depend on its own cache
// only), so the results do not depend on what else was running.
import { advanceArRow, type ArRow, type AutoregressiveOptions, type AutoregressiveRequest, arResult, checkAutoregressiveOptions, openArRow, tokenChooser } from './autoregressive.js';
import { SamplingError } from './errors.js';
import type { CausalDecoder, CausalItem, CausalModel } from './model.js';
import type { SampleResult } from './request.js';

interface Job {
  row: ArRow;
  t0: number;
  resolve: (r: SampleResult) => void;
  reject: (e: unknown) => void;
}

const WHERE = 'continuous autoregressive';

export class ContinuousAutoregressive {
  /** Forward passes run, and the most rows one of them carried. */
  steps = 0;
  peakRows = 0;
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
  ) {
    this.slots = new Array<Job | undefined>(rows).fill(undefined);
    this.used = new Array<boolean>(rows).fill(false);
    this.stops = new Set(options.stopIds ?? []);
    this.next = tokenChooser(decoder, options, WHERE, model.vocabSize);
  }

  /** Opens `rows` rows of the model for requests decoded with `options`. */
  static async open(model: CausalModel, options: AutoregressiveOptions, rows: number): Promise<ContinuousAutoregressive> {
    checkAutoregressiveOptions(options, WHERE);
    if (!(Number.isInteger(rows) && rows >= 1)) throw new SamplingError('bad_option', `${WHERE}: rows must be an integer ≥ 1, got ${rows}`);
    const decoder = await model.open(rows);
    if (!decoder.reset) {
      await decoder.close();
      throw new SamplingError('bad_model', `${WHERE}: the model's decoder cannot empty a row (CausalDecoder.reset), so rows could not be reused`);
    }
    return new ContinuousAutoregressive(model, decoder, options, rows);
  }

  /** Requests waiting for a row, and rows decoding now. */
  get load(): { waiting: number; running: number } {
    return { waiting: this.queue.length, running: this.slots.filter(Boolean).length };
  }

  /** Decodes one request; resolves when it ends (a bad request rejects at once, naming what is wrong). */
  submit(req: AutoregressiveRequest): Promise<SampleResult> {
    if (this.closed) return Promise.reject(new SamplingError('bad_option', `${WHERE}: submitted after close()`));
    let row: ArRow;
    try {
      row = openArRow(req, this.options, WHERE, this.model.vocabSize, this.stops);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<SampleResult>((resolve, reject) => {
      const job = { row, t0: performance.now(), resolve, reject };
      if (row.done) return resolve(arResult(row)); // its forced prefix is the whole answer
      this.queue.push(job);
      this.running ??= this.loop().finally(() => (this.running = undefined));
    });
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
      const items: CausalItem[] = active.map(({ job, row }) => ({ row, tokens: job.row.next }));
      let tokens: number[];
      try {
        tokens = await this.next(
          items,
          active.map(({ job }) => job.row),
        );
      } catch (e) {
        this.failAll(e);
        return;
      }
      this.steps++;
      this.peakRows = Math.max(this.peakRows, active.length);
      for (const [n, { job, row }] of active.entries()) {
        advanceArRow(job.row, tokens[n]!, this.stops, this.options.maxNewTokens, job.t0);
        if (!job.row.done) continue;
        this.slots[row] = undefined;
        job.resolve(arResult(job.row));
      }
    }
  }

  /** Waiting requests into free rows, oldest first. */
  private admit(): void {
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
