// Python's json.dumps for API bodies and histories, through the dataset package's byte-exact
// implementation. Bodies come from SQLite rows and handlers, where an absent optional field is
// `undefined`: it is dropped first, as JSON.stringify drops it (Python never sees such keys).
import { pyJsonDumps as dumps, type PyJsonValue } from '@diffworld/dataset';

export function pyJsonDumps(value: unknown, opts: { sortKeys?: boolean; indent?: number } = {}): string {
  const plain = JSON.parse(JSON.stringify(value ?? null)) as PyJsonValue;
  return dumps(plain, { ...(opts.sortKeys !== undefined ? { sortKeys: opts.sortKeys } : {}), ...(opts.indent !== undefined ? { indent: opts.indent } : {}) });
}
