import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pyJsonDumps, type PyDict, type PyJson } from '../pyjson.js';
import { exactByStateChanges, readStateChanges, stateChangeBucket } from './breakdown.js';

const dir = mkdtempSync(join(tmpdir(), 'breakdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scored = (index: number, match: boolean): PyDict =>
  new Map<string, PyJson>([
    ['index', index],
    ['match', match],
  ]);

describe('exact match by state facts changed', () => {
  it('reads meta.state_changes by row index up to the limit, skipping rows without a count', async () => {
    const msgs = [
      { role: 'user', content: 'Action: look' },
      { role: 'assistant', content: 'x' },
    ];
    const rows = [{ messages: msgs, meta: { state_changes: 0 } }, { messages: msgs }, { messages: msgs, meta: { state_changes: 4 } }, { messages: msgs, meta: { state_changes: 2 } }];
    const file = join(dir, 'rows.jsonl');
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    expect([...(await readStateChanges(file))]).toEqual([
      [0, 0],
      [2, 4],
      [3, 2],
    ]);
    expect([...(await readStateChanges(file, 3))]).toEqual([
      [0, 0],
      [2, 4],
    ]);
  });

  it('tallies rows and exact match per bucket (0, 1, 2, 3+), in order, and gives nothing without counts', () => {
    expect([0, 1, 2, 3, 7].map(stateChangeBucket)).toEqual(['0', '1', '2', '3+', '3+']);
    const changes = new Map([
      [0, 1],
      [1, 1],
      [2, 0],
      [3, 5],
      [4, 3],
    ]);
    const split = exactByStateChanges([scored(0, true), scored(1, false), scored(2, true), scored(3, false), scored(4, true), scored(9, true)], changes)!;
    expect(pyJsonDumps(split)).toBe('{"0": {"rows": 1, "exact_match": 1.0}, "1": {"rows": 2, "exact_match": 0.5}, "3+": {"rows": 2, "exact_match": 0.5}}');
    expect(exactByStateChanges([scored(0, true)], new Map())).toBeUndefined();
  });
});
