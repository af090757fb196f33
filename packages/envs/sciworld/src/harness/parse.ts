// The reference SciWorld action parser: strip think blocks, code fences, tags and chat markers,
// quotes; take the first line; drop an "Action:"/"Command:"/">" prefix; reject numbers-only answers
// (except while an ambiguity prompt waits), over-long text and narrative that is not an action.
import { stripThink } from '@diffworld/env-core';
import { GRAMMAR } from '../world/grammar.js';

const KNOWN_PREFIXES = [...new Set(GRAMMAR.flatMap((t) => t.patterns.map((p) => p.split(' {')[0]!)).concat(['task', 'help', 'objects']))];
const NARRATIVE = /\b(success|succeed|fail|failed|i need|i will|i should|let me|let's|step \d+|the task|my goal|i have|first,|next,)\b/i;

export function parseSciworldAction(completion: string, opts: { allowNumber?: boolean } = {}): string | undefined {
  let text = stripThink(completion)
    .replace(/```[a-z]*\n?/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/\[(INST|\/INST|TOOL_CALLS|TOOL_RESULTS)\]/g, '');
  text = text.replace(/["'`]/g, (q) => (q === "'" ? "'" : ''));
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '');
  if (!line) return undefined;
  let action = line.replace(/^(action|command)\s*:\s*/i, '').replace(/^>\s*/, '').replace(/^'+|'+$/g, '').trim();
  action = action.replace(/[.!]+$/, '').trim();
  if (action === '') return undefined;
  if (/^\d+$/.test(action)) return opts.allowNumber ? action : undefined;
  if (action.length > 200) return undefined;
  const lower = action.toLowerCase();
  const known = KNOWN_PREFIXES.some((p) => lower === p || lower.startsWith(`${p} `));
  if (!known && NARRATIVE.test(action)) return undefined;
  return action;
}
