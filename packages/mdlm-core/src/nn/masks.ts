// Additive attention masks of fixed layouts, computed on the host and stored as constants.

/** 0 where query i may attend to key j, `negative` elsewhere; [T, T] row-major. */
export function additiveMask(t: number, allowed: (i: number, j: number) => boolean, negative = -1e9): Float64Array {
  const m = new Float64Array(t * t);
  for (let i = 0; i < t; i++) for (let j = 0; j < t; j++) m[i * t + j] = allowed(i, j) ? 0 : negative;
  return m;
}

export const causalMask = (t: number, negative?: number) => additiveMask(t, (i, j) => j <= i, negative);

/** Block-causal (SDAR / block diffusion): full attention within a block and to earlier blocks. */
export const blockCausalMask = (t: number, block: number, negative?: number) => additiveMask(t, (i, j) => Math.floor(j / block) <= Math.floor(i / block), negative);

export const fullMask = (t: number) => new Float64Array(t * t);
