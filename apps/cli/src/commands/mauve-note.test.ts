import type { PyDict } from '@diffworld/eval';
import { describe, expect, it } from 'vitest';
import { mauveLine } from './mauve-note.js';

const entry = (n: number, buckets: number): PyDict =>
  new Map<string, unknown>([
    ['mauve', 0.97],
    [
      'signature',
      new Map<string, unknown>([
        ['featurizer', 'hashing-v1(dims=64,word1+word2+char3)'],
        ['n_p', n],
        ['n_q', n],
        ['dims', 64],
        ['buckets', buckets],
      ]),
    ],
  ]) as PyDict;

describe('mauveLine', () => {
  it('calls MAUVE over fewer than 1,000 rows rough and says what it was computed over', () => {
    expect(mauveLine(entry(82, 8))).toBe(
      "MAUVE 0.9700 over 82 predictions vs 82 references (64-dim hashed n-grams, 8 buckets); rough: fewer than 1,000 rows, not a headline figure (nor the paper's GPT-2-feature MAUVE)",
    );
  });

  it('drops the row caveat from 1,000 rows on', () => {
    expect(mauveLine(entry(1000, 100))).toBe("MAUVE 0.9700 over 1000 predictions vs 1000 references (64-dim hashed n-grams, 100 buckets); not the paper's GPT-2-feature MAUVE");
  });
});
