// Exact match split by how many state facts the transition changed (EnvSimBench's "state-change
// cliff": a world model that copies the previous state looks good on steps that change nothing).
// The counts come from the rows (meta.state_changes, written by `env corpus` where the engine knows
// them); rows without one are left out of the split, and data without any gives no split.
import { readRows } from '@diffworld/dataset';
import { pyFloat, type PyDict, type PyJson } from '../pyjson.js';

/** Bucket labels: 0, 1, 2, then everything from 3 up. */
export function stateChangeBucket(n: number): string {
  return n >= 3 ? '3+' : String(n);
}

/** Each row's meta.state_changes by its index in the data (the first `limit` rows), when it is a non-negative integer. */
export async function readStateChanges(data: string, limit?: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  let index = 0;
  for await (const row of readRows(data)) {
    if (limit !== undefined && index >= limit) break;
    const n = row.meta?.['state_changes'];
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) out.set(index, n);
    index++;
  }
  return out;
}

/**
 * Rows and exact match per bucket over scored rows (their `index` and `match`), buckets in order;
 * undefined when no scored row has a count.
 */
export function exactByStateChanges(scored: readonly PyDict[], changes: ReadonlyMap<number, number>): PyDict | undefined {
  const tally = new Map<string, { rows: number; exact: number }>();
  for (const r of scored) {
    const index = r.get('index');
    const n = typeof index === 'number' ? changes.get(index) : undefined;
    if (n === undefined) continue;
    const b = stateChangeBucket(n);
    const t = tally.get(b) ?? { rows: 0, exact: 0 };
    t.rows++;
    if (r.get('match') === true) t.exact++;
    tally.set(b, t);
  }
  if (tally.size === 0) return undefined;
  const order = ['0', '1', '2', '3+'].filter((b) => tally.has(b));
  return new Map<string, PyJson>(
    order.map((b) => {
      const t = tally.get(b)!;
      return [
        b,
        new Map<string, PyJson>([
          ['rows', t.rows],
          ['exact_match', pyFloat(t.exact / t.rows)],
        ]),
      ];
    }),
  );
}
