// Chat rows, the unit every corpus file holds: {messages:[{role,content}…], dataset?, meta?}.
import type { Result } from './errors.js';

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
  const meta = value['meta'];
  if (meta !== undefined && !isPlainObject(meta)) issues.push({ path: 'meta', message: `must be an object, got ${describe(meta)}` });
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
}

/** `messages[2].role: must be one of …; dataset: must be a string` */
export function formatRowIssues(issues: readonly RowIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}
