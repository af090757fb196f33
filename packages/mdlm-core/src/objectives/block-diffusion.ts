// Block-diffusion (BD3-LM / SDAR) training layout: one forward pass over [x_t ; x_0] of length 2L,
// where noisy block b sees itself (bidirectionally) and the clean blocks before it, and the clean
// stream is block-causal. Index rules: shared/reference/mdlm-algorithms.md §1.7.

/** Whether query position q may attend to key position k in the 2L-long training sequence. */
export function blockDiffusionAllowed(q: number, k: number, length: number, block: number): boolean {
  const qClean = q >= length;
  const kClean = k >= length;
  const qb = Math.floor((qClean ? q - length : q) / block);
  const kb = Math.floor((kClean ? k - length : k) / block);
  if (qb === kb && qClean === kClean) return true; // same block, same stream
  if (!qClean && kClean) return qb > kb; // noisy block → earlier clean blocks
  if (qClean && kClean) return qb >= kb; // clean stream: block-causal
  return false; // clean never sees noisy
}

/** The additive mask [2L, 2L]: 0 where allowed, `negative` elsewhere. */
export function blockDiffusionMask(length: number, block: number, negative = -1e9): Float64Array {
  if (!Number.isInteger(length) || !Number.isInteger(block) || block < 1 || length % block !== 0)
    throw new RangeError(`blockDiffusionMask: length ${length} must be a positive multiple of block ${block}`);
  const n = 2 * length;
  const m = new Float64Array(n * n);
  for (let q = 0; q < n; q++) for (let k = 0; k < n; k++) m[q * n + k] = blockDiffusionAllowed(q, k, length, block) ? 0 : negative;
  return m;
}

/** Both halves use the same positions 0..L−1 (SDAR, dllm): RoPE tables of L rows, stacked twice. */
export function repeatedPositionTables(table: Float64Array, length: number, width: number): Float64Array {
  if (table.length !== length * width) throw new RangeError(`repeatedPositionTables: table has ${table.length} values, expected ${length}×${width}`);
  const out = new Float64Array(2 * length * width);
  out.set(table, 0);
  out.set(table, length * width);
  return out;
}
