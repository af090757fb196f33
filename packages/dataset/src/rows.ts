// Chat rows, the unit every corpus file holds: {messages:[{role,content}…], dataset?, meta?}.
import { DatasetError, type Result } from './errors.js';

export const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
export type Role = (typeof ROLES)[number];

export interface ChatMessage {
  role: Role;
  content: string;
}

export interface ChatRow {
  messages: ChatMessage[];
  /** Source corpus name, e.g. `coderforge` (the Hugging Face `dataset` column). */
  dataset?: string;
  /** Free-form data that travels with the row (JSON-serialisable). */
  meta?: Record<string, unknown>;
}

/** A validation problem at a JSON path inside one row, e.g. `messages[2].role`. */
export interface RowIssue {
  path: string;
  message: string;
}

const ROW_KEYS = new Set(['messages', 'dataset', 'meta']);
const MESSAGE_KEYS = new Set(['role', 'content']);
const ROLE_SET: ReadonlySet<string> = new Set(ROLES);

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks that `value` is a chat row and returns it typed, or every problem found with its path.
 * Unknown keys are problems too: upstream drops them silently, we make the user decide.
 *
 * @example
 * validateRow({ messages: [{ role: 'user', content: 'hi' }] }).ok // true
 */
export function validateRow(value: unknown): Result<ChatRow, RowIssue> {
  const issues: RowIssue[] = [];
  if (!isPlainObject(value)) {
    return { ok: false, issues: [{ path: '', message: `a row must be an object, got ${describe(value)}` }] };
  }
  for (const key of Object.keys(value)) {
    if (!ROW_KEYS.has(key)) issues.push({ path: key, message: `unknown key (allowed: messages, dataset, meta)` });
  }
  const messages = value['messages'];
  if (!Array.isArray(messages)) {
    issues.push({ path: 'messages', message: messages === undefined ? 'is missing' : `must be an array, got ${describe(messages)}` });
  } else if (messages.length === 0) {
    issues.push({ path: 'messages', message: 'must hold at least one message' });
  } else {
    messages.forEach((m, i) => checkMessage(m, `messages[${i}]`, issues));
  }
  const dataset = value['dataset'];
  if (dataset !== undefined && dataset !== null && typeof dataset !== 'string') {
    issues.push({ path: 'dataset', message: `must be a string, got ${describe(dataset)}` });
  }
  if (typeof dataset === 'string') checkText(dataset, 'dataset', issues);
  const meta = value['meta'];
  if (meta !== undefined && !isPlainObject(meta)) issues.push({ path: 'meta', message: `must be an object, got ${describe(meta)}` });
  else if (meta !== undefined) checkMeta(meta, issues);
  if (issues.length > 0) return { ok: false, issues };
  const row: ChatRow = { messages: messages as ChatMessage[] };
  if (typeof dataset === 'string') row.dataset = dataset;
  if (meta !== undefined) row.meta = meta as Record<string, unknown>;
  return { ok: true, value: row };
}

function checkMessage(m: unknown, path: string, issues: RowIssue[]): void {
  if (!isPlainObject(m)) {
    issues.push({ path, message: `a message must be an object, got ${describe(m)}` });
    return;
  }
  for (const key of Object.keys(m)) {
    if (!MESSAGE_KEYS.has(key)) issues.push({ path: `${path}.${key}`, message: 'unknown key (a message has only role and content)' });
  }
  const role = m['role'];
  if (role === undefined) issues.push({ path: `${path}.role`, message: 'is missing' });
  else if (typeof role !== 'string' || !ROLE_SET.has(role)) {
    issues.push({ path: `${path}.role`, message: `must be one of ${ROLES.join('|')}, got ${describe(role)}` });
  }
  const content = m['content'];
  if (content === undefined) issues.push({ path: `${path}.content`, message: 'is missing' });
  else if (typeof content !== 'string') issues.push({ path: `${path}.content`, message: `must be a string, got ${describe(content)}` });
  else checkText(content, `${path}.content`, issues);
}

/**
 * Deepest nesting of objects/arrays accepted in `meta`. Python's json stops near 1,000 (its
 * recursion limit); real metadata is a few levels deep. The bound keeps every recursive consumer
 * (Python-JSON dumps, the Parquet meta column) far from the stack limit.
 */
export const MAX_META_DEPTH = 256;

/**
 * A lone UTF-16 surrogate (JSON's "\ud800") has no UTF-8 form, so a Parquet file cannot hold it
 * and a UTF-8 JSONL file can only hold it escaped: rows with one are rejected wherever they come
 * from, rather than changed to U+FFFD on the way to Parquet.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkText(text: string, path: string, issues: RowIssue[]): void {
  const m = LONE_SURROGATE.exec(text);
  if (!m) return;
  issues.push({ path, message: `holds a lone surrogate \\u${m[0].charCodeAt(0).toString(16)} (UTF-16 offset ${m.index}), which no UTF-8 file can store` });
}

/**
 * meta travels as JSON: bounded nesting, strings (keys too) without lone surrogates, and finite
 * numbers. JSON.parse reads 1e400 as Infinity (Python's json.loads as inf), which JSON.stringify
 * would write back as null and Python as the non-JSON token Infinity: rejected, so a row never
 * changes silently between JSONL and Parquet. Iterative, so depth itself cannot overflow the stack.
 */
function checkMeta(meta: Record<string, unknown>, issues: RowIssue[]): void {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: meta, path: 'meta', depth: 1 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') checkText(v, path, issues);
    else if (typeof v === 'number' && !Number.isFinite(v)) issues.push({ path, message: `${v} is not a finite number (a JSON literal beyond ±1.8e308 overflows float64)` });
    else if (typeof v === 'object' && v !== null) {
      if (depth > MAX_META_DEPTH) {
        issues.push({ path: 'meta', message: `nests deeper than ${MAX_META_DEPTH} levels` });
        return;
      }
      const entries = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x] as const) : Object.entries(v).map(([k, x]) => [`.${k}`, x] as const);
      for (const [key, x] of entries) {
        if (!Array.isArray(v)) checkText(key.slice(1), `${path}${key} (key)`, issues);
        stack.push({ v: x, path: `${path}${key}`, depth: depth + 1 });
      }
    }
    if (issues.length >= 8) return; // enough to fix the row; a hostile row could list millions
  }
}

/** `messages[2].role: must be one of …; dataset: must be a string` */
export function formatRowIssues(issues: readonly RowIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/**
 * For writers: the checks reading applies to text and meta (no lone surrogates, bounded meta
 * depth, finite numbers), so a row built in code is never written as something that reads back
 * differently (UTF-8 would turn a lone surrogate into U+FFFD, JSON.stringify Infinity into null).
 */
export function assertWritable(row: ChatRow, where: string): void {
  const issues: RowIssue[] = [];
  row.messages.forEach((m, i) => checkText(m.content, `messages[${i}].content`, issues));
  if (row.dataset !== undefined) checkText(row.dataset, 'dataset', issues);
  if (row.meta !== undefined) checkMeta(row.meta, issues);
  if (issues.length > 0) throw new DatasetError({ code: 'not_serializable', where, message: formatRowIssues(issues) });
}
