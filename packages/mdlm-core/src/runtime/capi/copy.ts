// Copies between bound tensors through a small Identity session on the same provider: host
// staging buffers in, device buffers out (or back). ORT moves the bytes with its own data transfer
// (cudaMemcpy on CUDA), so no CUDA runtime needs loading here, and the CPU path is the same code.
import type { DType } from '../../dtype.js';
import { encodeModel } from '../../onnx/model.js';
import { type BoundProvider, BoundSession, type BoundTensor } from './session.js';

/** The dtype and rank of one tensor a copier moves (its dims may change from call to call). */
export interface CopySlot {
  dtype: DType;
  rank: number;
}

/** Copies a fixed group of tensors (dtype and rank each) in one ORT run. */
export class Copier {
  private constructor(
    private readonly session: BoundSession,
    readonly slots: readonly CopySlot[],
  ) {}

  static create(provider: BoundProvider, slots: readonly CopySlot[]): Copier {
    const shape = (i: number, rank: number) => Array.from({ length: rank }, (_, j) => `d${i}_${j}`);
    const bytes = encodeModel({
      graphName: 'diffworld_copy',
      opset: 18,
      inputs: slots.map((s, i) => ({ name: `in_${i}`, dtype: s.dtype, shape: shape(i, s.rank) })),
      outputs: slots.map((s, i) => ({ name: `out_${i}`, dtype: s.dtype, shape: shape(i, s.rank) })),
      initializers: [],
      nodes: slots.map((_, i) => ({ opType: 'Identity', inputs: [`in_${i}`], outputs: [`out_${i}`] })),
    });
    return new Copier(BoundSession.create(bytes, { provider }), slots);
  }

  /** The slots of a group of tensors, for `create`. */
  static slotsOf(tensors: readonly BoundTensor[]): CopySlot[] {
    return tensors.map((t) => ({ dtype: t.dtype, rank: t.dims.length }));
  }

  /** Copies from[i] into to[i]; pairs must match the copier's slots and each other's dims. */
  copy(from: readonly BoundTensor[], to: readonly BoundTensor[]): void {
    const n = this.slots.length;
    if (from.length !== n || to.length !== n) throw new RangeError(`Copier: ${n} pairs expected, got ${from.length} → ${to.length}`);
    const inputs: Record<string, BoundTensor> = {};
    const outputs: Record<string, BoundTensor> = {};
    this.slots.forEach(({ dtype, rank }, i) => {
      const a = from[i]!,
        b = to[i]!;
      const shape = (t: BoundTensor) => `${t.dtype}[${t.dims.join(', ')}]`;
      if (a.dtype !== dtype || b.dtype !== dtype || a.dims.length !== rank) throw new RangeError(`Copier: pair ${i} is ${shape(a)} → ${shape(b)}, the copier's slot is ${dtype} of rank ${rank}`);
      if (a.dims.join() !== b.dims.join()) throw new RangeError(`Copier: pair ${i} copies ${shape(a)} into ${shape(b)}`);
      inputs[`in_${i}`] = a;
      outputs[`out_${i}`] = b;
    });
    // A binding per call: ORT copies a host input to the device when it is bound, not when it runs,
    // so a binding kept from step to step fed the CUDA step its first batch every time (measured).
    const binding = this.session.bind(inputs, outputs);
    try {
      this.session.runSync(binding);
    } finally {
      binding.release();
    }
  }

  release(): void {
    this.session.release();
  }
}
