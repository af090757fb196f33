// RoPE rows of absolute positions for a decoder's new tokens, in the compute dtype: the float32
// values of ropeTablesAt (exact in float64 too), grown by doubling since plain RoPE does not
// depend on the sequence length. Shared by the host-cache and the device-cache decoders so both
// rotate a token at position p by the same numbers.
import { type RopeTables, ropeTablesAt } from '../nn/rope.js';
import { headDimOf, type TransformerConfig } from '../nn/transformer.js';
import { SamplingError } from './errors.js';

type FloatArray = Float32Array | Float64Array;

export class RopeRows {
  private cos: FloatArray;
  private sin: FloatArray;
  private readonly hd: number;

  constructor(
    private readonly config: TransformerConfig,
    private readonly Arr: Float32ArrayConstructor | Float64ArrayConstructor,
  ) {
    // Dynamic RoPE rescales with the sequence length, so rows of one table would not be reusable.
    if (config.ropeScaling?.type === 'dynamic') throw new SamplingError('bad_option', 'decoder: dynamic RoPE scaling is not supported by the cached decoder');
    this.hd = headDimOf(config);
    this.cos = new Arr(0);
    this.sin = new Arr(0);
  }

  /** Writes position `pos`'s cos and sin rows at element offset `at` of the two buffers. */
  write(pos: number, cos: FloatArray, sin: FloatArray, at: number): void {
    if (!Number.isInteger(pos) || pos < 0) throw new SamplingError('bad_input', `decoder: position ${pos} is not a non-negative integer`);
    const hd = this.hd;
    if ((pos + 1) * hd > this.cos.length) {
      const n = Math.max(2 * (this.cos.length / hd), pos + 1, 64);
      const t: RopeTables = ropeTablesAt(
        this.config,
        Array.from({ length: n }, (_, i) => i),
      );
      this.cos = this.Arr.from(t.cos);
      this.sin = this.Arr.from(t.sin);
    }
    cos.set(this.cos.subarray(pos * hd, (pos + 1) * hd), at);
    sin.set(this.sin.subarray(pos * hd, (pos + 1) * hd), at);
  }
}
