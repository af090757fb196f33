// Fixed-shape decode steps of the resident decoder, ready for CUDA-graph replay. A step over a
// pool whose rows and capacity stay has the same shapes pass after pass (a token per row for AR, a
// block per row for BD3), so each such shape — a bucket — gets its own device buffers for every
// per-pass input and output, bound once with the weights and the pool's key/value buffers, and its
// own CUDA graph id: the first runs capture the step, later ones replay it, and a step is one
// graph launch plus small host↔device copies of token ids, positions and counts. On the CPU the
// same buffers and copies run without capture (the path the tests compare with the bound-per-pass
// one). Prefill passes and pool growth never come here: their shapes change from call to call.
import type { DType } from '../dtype.js';
import { type Binding, type BoundSession, type BoundTensor, Copier, hostStaging } from '../runtime/capi/index.js';

/** One per-pass input or output of a step: name, dtype and fixed dims. */
export interface StepTensor {
  name: string;
  dtype: DType;
  dims: readonly number[];
}

/**
 * Passes with at most this many new tokens per row run as graph steps (AR's token, BD3's commit and
 * query block); longer segments on cached rows (a long continuation) stay bound per pass, so that
 * their many distinct shapes do not each capture a graph.
 */
export const GRAPH_MAX_NEW = 32;

/**
 * The logits rows of a bucket: K rounded up to a power of two, at least `floor` (the pool's rows)
 * and at most `max` (every new token of the pass), the rows past K pointing at row 0's first token
 * and discarded. Rows finishing one by one then reuse the graph of a full step instead of capturing
 * one per count: an AR step always has one bucket per capacity (K ≤ rows = floor), a BD3 step a
 * few; the LM head over a few more rows costs far less than a capture.
 */
export function bucketRows(k: number, max: number, floor = 1): number {
  let b = 1;
  while (b < k) b *= 2;
  return Math.max(1, k, Math.min(Math.max(b, floor), max));
}

/** The key of a bucket: every dim a captured graph depends on. */
export const bucketKey = (head: string, tensors: readonly StepTensor[]): string => `${head}|${tensors.map((t) => `${t.name}:${t.dims.join('x')}`).join('|')}`;

/** Copiers by tensor signature (dtype and rank of each slot), shared by a decoder's steps. */
export class Copiers {
  private readonly byKey = new Map<string, Copier>();

  constructor(private readonly provider: BoundSession['provider']) {}

  for(tensors: readonly BoundTensor[]): Copier {
    const slots = Copier.slotsOf(tensors);
    const key = slots.map((s) => `${s.dtype}:${s.rank}`).join(',');
    let c = this.byKey.get(key);
    if (!c) this.byKey.set(key, (c = Copier.create(this.provider, slots)));
    return c;
  }

  release(): void {
    for (const c of this.byKey.values()) c.release();
    this.byKey.clear();
  }
}

/** One bucket: device buffers and their host twins, bound once to the session, replayed as graph `graphId`. */
export class GraphStep {
  /** Runs so far (the first ones capture on CUDA). */
  runs = 0;
  /** What the host twin of an input was last filled from (the banned lists), so it is refilled only when that changes. */
  readonly filledFrom = new Map<string, unknown>();
  private readonly device = new Map<string, BoundTensor>();
  private readonly host = new Map<string, BoundTensor>();
  private readonly binding: Binding;

  constructor(
    private readonly session: BoundSession,
    /** Tensors the step binds as they are: the weights, the pool's keys/values (inputs and outputs). */
    fixed: { inputs: Readonly<Record<string, BoundTensor>>; outputs: Readonly<Record<string, BoundTensor>> },
    private readonly inputs: readonly StepTensor[],
    private readonly outputs: readonly StepTensor[],
    readonly graphId: number,
    private readonly copiers: Copiers,
  ) {
    try {
      for (const t of [...inputs, ...outputs]) {
        this.device.set(t.name, session.allocate(t.dtype, t.dims));
        this.host.set(t.name, hostStaging(t.dtype, t.dims));
      }
      const bound = (list: readonly StepTensor[]) => Object.fromEntries(list.map((t) => [t.name, this.device.get(t.name)!]));
      this.binding = session.bind({ ...fixed.inputs, ...bound(inputs) }, { ...fixed.outputs, ...bound(outputs) });
    } catch (e) {
      this.releaseBuffers();
      throw e;
    }
  }

  /** The host twin of an input (to fill before `run`) or output (to read after). */
  tensor(name: string): BoundTensor {
    const t = this.host.get(name);
    if (!t) throw new RangeError(`graph step: no input or output "${name}"`);
    return t;
  }

  /** Host inputs to the device, the step (captured or replayed on CUDA), outputs back to the host twins. */
  async run(): Promise<void> {
    const move = (list: readonly StepTensor[], from: Map<string, BoundTensor>, to: Map<string, BoundTensor>) => {
      const src = list.map((t) => from.get(t.name)!);
      this.copiers.for(src).copy(
        src,
        list.map((t) => to.get(t.name)!),
      );
    };
    move(this.inputs, this.host, this.device);
    await this.session.run(this.binding, this.graphId);
    this.runs++;
    move(this.outputs, this.device, this.host);
  }

  release(): void {
    this.binding.release();
    this.releaseBuffers();
  }

  private releaseBuffers(): void {
    for (const t of [...this.device.values(), ...this.host.values()]) t.release();
    this.device.clear();
    this.host.clear();
  }
}

/** A pool's graph steps by bucket key; dropped whole when the pool's buffers are replaced (growth) or released. */
export class GraphSteps {
  private readonly byKey = new Map<string, GraphStep>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: string, make: () => GraphStep): GraphStep {
    let s = this.byKey.get(key);
    if (!s) this.byKey.set(key, (s = make()));
    return s;
  }

  release(): void {
    for (const s of this.byKey.values()) s.release();
    this.byKey.clear();
  }
}
