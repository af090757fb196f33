// ROUGE-L against PyPI `rouge` 1.0.1 itself, run under CPython 3.11 by
// tools/golden/eval_rouge_pltrdy.py (inputs.json's pairs plus edge cases, incl. RecursionError).
import { describe, expect, it } from 'vitest';
import { rougeLPltrdy } from './rouge.js';
import { readGolden } from './testing.js';

interface Golden {
  cases: { pred: string; ref: string; rouge_l: { f: number; p: number; r: number } }[];
}
const golden = readGolden<Golden>('eval_metrics/pltrdy_rouge.json', 'PLTRDY_ROUGE_PATH=… python3 tools/golden/eval_rouge_pltrdy.py');

describe('rougeLPltrdy equals PyPI rouge 1.0.1', () => {
  it.each(golden.cases.map((c, i) => [i, c]))('case %i', (_i, c) => {
    const got = rougeLPltrdy(c.pred, c.ref);
    expect(got.f).toBe(c.rouge_l.f);
    expect(got.p).toBe(c.rouge_l.p);
    expect(got.r).toBe(c.rouge_l.r);
  });
});
