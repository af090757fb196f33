// The bucketing of graph steps' logits rows (the rest of the graph-step path is compared with the
// bound-per-pass one in resident-decoder.test.ts, on the CPU without capture).
import { describe, expect, it } from 'vitest';
import { bucketKey, bucketRows } from './resident-graph-step.js';

describe('graph-step buckets', () => {
  it('logits rows round up to a power of two, capped by the pass size but never below the rows wanted', () => {
    expect([0, 1, 2, 3, 5, 33, 64].map((k) => bucketRows(k, 64))).toEqual([1, 1, 2, 4, 8, 64, 64]);
    expect(bucketRows(3, 3)).toBe(3);
    expect(bucketRows(7, 6)).toBe(7);
    // At least the pool's rows: an AR step (K ≤ rows) keeps one bucket whatever K.
    expect([1, 3, 17, 64].map((k) => bucketRows(k, 64, 64))).toEqual([64, 64, 64, 64]);
    expect([1, 5, 9, 40].map((k) => bucketRows(k, 40, 5))).toEqual([5, 8, 16, 40]);
  });

  it('a bucket key names the head and every dim', () => {
    const t = (cap: number) => [
      { name: 'input_ids', dtype: 'int64' as const, dims: [4, 1] },
      { name: 'columns', dtype: 'int64' as const, dims: [1, 1, 1, cap] },
    ];
    expect(bucketKey('greedy', t(128))).not.toBe(bucketKey('greedy', t(192)));
    expect(bucketKey('greedy', t(128))).not.toBe(bucketKey('logits', t(128)));
    expect(bucketKey('greedy', t(128))).toBe(bucketKey('greedy', t(128)));
  });
});
