// test-data/dataset/sample.jsonl was written by Python (tools/golden/dataset_sample.py): its user
// turns are the golden bytes of upstream's proxy turn, and its system prompts the section layout.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJsonlRows } from '../corpus/jsonl.js';
import type { ChatRow } from '../rows.js';
import { buildGroundingPrompt, parseGroundingPrompt } from './sections.js';
import { decodeAction, parseWorldModelUserTurn, worldModelUserTurn } from './worldmodel.js';

const sample = fileURLToPath(new URL('../../../../test-data/dataset/sample.jsonl', import.meta.url));

describe('Python-built world-model rows', async () => {
  const rows: ChatRow[] = [];
  for await (const r of readJsonlRows(sample)) rows.push(r);

  it('re-encodes every proxy user turn byte-identically', () => {
    expect(rows.length).toBe(41);
    let jsonActions = 0;
    for (const r of rows) {
      const user = r.messages[1]!.content;
      const parsed = parseWorldModelUserTurn(user)!;
      expect(Array.isArray(parsed.history)).toBe(true);
      expect(worldModelUserTurn(parsed.history, parsed.action)).toBe(user);
      if (decodeAction(parsed.action).encoding === 'assistant-json') jsonActions++;
    }
    expect(jsonActions).toBe(15);
  });

  it('parses every grounding prompt and rebuilds it exactly', () => {
    for (const r of rows) {
      const g = parseGroundingPrompt(r.messages[0]!.content);
      expect(g.ok).toBe(true);
      if (g.ok) expect(buildGroundingPrompt(g.value)).toBe(r.messages[0]!.content);
    }
  });
});
