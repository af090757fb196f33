// World-model rows: system = grounding prompt, user = the proxy turn
// `State: <json.dumps(history)>\n\nAction: <action>`, assistant = the next observation.
import { pyJsonDumps } from '../pyjson/dumps.js';
import { pyJsonParse } from '../pyjson/parse.js';
import { ROLES, type ChatMessage, type ChatRow, type Role } from '../rows.js';
import { buildGroundingPrompt, type Grounding } from './sections.js';

const ACTION_SEPARATOR = '\n\nAction: ';
const STATE_PREFIX = 'State: ';

/**
 * The proxy user turn, byte-identical to upstream's wm_proxy: a string state is used as is,
 * anything else is Python `json.dumps` with its defaults (ASCII escapes, ", " / ": ").
 */
export function worldModelUserTurn(history: readonly ChatMessage[] | string, action: string): string {
  const state = typeof history === 'string' ? history : pyJsonDumps(history.map((m) => ({ role: m.role, content: m.content })));
  return `${STATE_PREFIX}${state}${ACTION_SEPARATOR}${action}`;
}

export interface ParsedUserTurn {
  /** The decoded history when the state is a JSON list of {role, content}; else the raw state text. */
  history: ChatMessage[] | string;
  action: string;
}

/**
 * Splits a proxy user turn. json.dumps never writes a raw newline, so the first
 * "\n\nAction: " after a JSON state is the separator. Returns undefined for other texts.
 */
export function parseWorldModelUserTurn(text: string): ParsedUserTurn | undefined {
  if (!text.startsWith(STATE_PREFIX)) return undefined;
  const at = text.indexOf(ACTION_SEPARATOR);
  if (at < 0) return undefined;
  const state = text.slice(STATE_PREFIX.length, at);
  const action = text.slice(at + ACTION_SEPARATOR.length);
  return { history: asMessages(state) ?? state, action };
}

const ROLE_SET: ReadonlySet<string> = new Set(ROLES);

function asMessages(state: string): ChatMessage[] | undefined {
  if (!state.startsWith('[')) return undefined;
  let v: unknown;
  try {
    v = pyJsonParse(state);
  } catch {
    return undefined;
  }
  if (!Array.isArray(v)) return undefined;
  const out: ChatMessage[] = [];
  for (const m of v) {
    if (typeof m !== 'object' || m === null) return undefined;
    const { role, content } = m as Record<string, unknown>;
    if (typeof role !== 'string' || !ROLE_SET.has(role) || typeof content !== 'string' || Object.keys(m).length !== 2) return undefined;
    out.push({ role: role as Role, content });
  }
  return out;
}

/** How the action text is written after "Action: ": raw (ALFWorld) or as a one-message JSON list (SciWorld). */
export type ActionEncoding = 'raw' | 'assistant-json';

export function encodeAction(action: string, encoding: ActionEncoding): string {
  return encoding === 'raw' ? action : pyJsonDumps([{ role: 'assistant', content: action }]);
}

/** The inverse of encodeAction: what encoding a user-turn action uses, and the action text. */
export function decodeAction(text: string): { encoding: ActionEncoding; action: string } {
  if (text.startsWith('[{"role": "assistant"')) {
    try {
      const v = pyJsonParse(text);
      if (Array.isArray(v) && v.length === 1) {
        const m = v[0] as Record<string, unknown>;
        if (typeof m['content'] === 'string' && Object.keys(m).length === 2) return { encoding: 'assistant-json', action: m['content'] };
      }
    } catch {
      // not JSON after all: a raw action that happens to start like one
    }
  }
  return { encoding: 'raw', action: text };
}

export interface Trajectory {
  /** The grounded WM system prompt, as text or as sections. */
  grounding: string | Grounding;
  /** The agent conversation, including the agent's own system prompt. */
  messages: readonly ChatMessage[];
  dataset?: string;
}

/** Is messages[k] an action whose outcome is the next message (a tool-call boundary)? */
export function isActionBoundary(messages: readonly ChatMessage[], k: number): boolean {
  const next = messages[k + 1];
  return messages[k]?.role === 'assistant' && next !== undefined && (next.role === 'user' || next.role === 'tool');
}

/**
 * One world-model row per agent action that got an observation: the history before the action,
 * the action, and the observation that followed it.
 *
 * @example
 * trajectoryToWorldModelRows({ grounding: '## ENVIRONMENT STATE\n…', messages: [sys, task, act, obs] })
 * // [{ messages: [{system: grounding}, {user: 'State: [sys, task]\n\nAction: act'}, {assistant: obs}] }]
 */
export function trajectoryToWorldModelRows(traj: Trajectory, options: { actionEncoding?: ActionEncoding } = {}): ChatRow[] {
  const system = typeof traj.grounding === 'string' ? traj.grounding : buildGroundingPrompt(traj.grounding);
  const encoding = options.actionEncoding ?? 'raw';
  const rows: ChatRow[] = [];
  for (let k = 0; k < traj.messages.length; k++) {
    if (!isActionBoundary(traj.messages, k)) continue;
    const row: ChatRow = {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: worldModelUserTurn(traj.messages.slice(0, k), encodeAction(traj.messages[k]!.content, encoding)) },
        { role: 'assistant', content: traj.messages[k + 1]!.content },
      ],
    };
    if (traj.dataset !== undefined) row.dataset = traj.dataset;
    rows.push(row);
  }
  return rows;
}
