import { describe, expect, it } from 'vitest';
import { parseJsonl, formatJsonl } from './jsonl.js';
import { pyJsonDumps } from './pyjson.js';
import { scoreRows } from './score.js';

const ROWS = [
  { index: 0, prediction_raw: '<think>x</think>{"b": 1, "a": 2.0}', reference: '<tool_response>\n{"a":2.0,"b":1}\n</tool_response>' },
  { index: 0, prediction_raw: 'duplicate index, dropped', reference: 'x' },
  { index: 1, prediction_raw: 'ERROR: RuntimeError', reference: 'y' },
  { index: 2, prediction_raw: 'anything', reference: '<think>all thought</think>' },
  { index: 3, prediction_raw: '{"a": 1}', reference: '{"a": true}' },
  { index: 4, predicted: 'The door is open.', expected: 'The door is closed.', skipped_overlong: true },
].map((r) => JSON.stringify(r));

describe('scoreRows in the sdar reference shape', () => {
  const rows = parseJsonl(ROWS.join('\n'), 'test');

  it('filters with counts and computes exact / semantic / ROUGE-L as the reference does', () => {
    const r = scoreRows(rows);
    const s = r.summary;
    expect(s.get('num_samples')).toBe(3);
    expect(s.get('num_dropped_errors')).toBe(1);
    expect(s.get('num_empty_ref_dropped')).toBe(1);
    // row 0 exact; row 3 semantic only (1 == True); row 4 neither.
    expect(Number(s.get('exact_match'))).toBeCloseTo(1 / 3, 15);
    expect(Number(s.get('semantic_match'))).toBeCloseTo(2 / 3, 15);
    expect([...s.keys()].slice(0, 6)).toEqual(['num_samples', 'exact_match', 'semantic_match', 'rouge_l_f1', 'num_dropped_errors', 'num_empty_ref_dropped']);
    const first = r.rows[0]!;
    expect(pyJsonDumps(first.get('prediction_clean')!)).toBe('"{\\"a\\":2.0,\\"b\\":1}"');
    expect(first.get('match')).toBe(true);
    expect(formatJsonl([first]).startsWith('{"index": 0, "prediction_raw": "<think>x</think>{\\"b\\": 1, \\"a\\": 2.0}", "prediction_clean": "{\\"a\\":2.0,\\"b\\":1}", "reference_raw"')).toBe(true);
  });

  it('wedlm drops overlong rows and keeps ERROR rows; llm_training filters nothing', () => {
    const w = scoreRows(rows, { normalization: 'wedlm' });
    expect(w.summary.get('num_skipped_overlong')).toBe(1);
    expect(w.summary.get('num_samples')).toBe(5);
    const l = scoreRows(rows, { normalization: 'llm_training' });
    expect(l.summary.get('num_samples')).toBe(6);
    expect(l.summary.has('num_empty_ref_dropped')).toBe(false);
    expect(l.rows[0]!.has('reference_raw')).toBe(false);
  });

  it('rejects a non-string prediction with the row number', () => {
    expect(() => scoreRows(parseJsonl('{"index": 9, "prediction_raw": 5, "reference": "x"}', 'f.jsonl'))).toThrow(/row 1: prediction must be a string/);
    expect(() => parseJsonl('{"a": 1}\n{oops}', 'f.jsonl')).toThrow(/f.jsonl:2/);
  });
});
