import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEpisodeRecord } from '@diffworld/env-core';
import { main } from '../main.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('diffworld env', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-env-'));

  it('expert writes one valid, winning episode record per task', async () => {
    const c = capture();
    const file = join(dir, 'demos.jsonl');
    expect(await main(['env', 'expert', 'alfworld', '--split', 'eval_out_of_distribution', '--limit', '6', '--out', file], c.io)).toBe(0);
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => parseEpisodeRecord(JSON.parse(l)));
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.value).toMatchObject({ env: 'alfworld', split: 'eval_out_of_distribution', won: true });
    }
    expect(c.out.join('\n')).toContain('expert won 6 (100.0%)');
  });

  it('corpus writes world-model rows in the proxy format', async () => {
    const c = capture();
    const file = join(dir, 'corpus.jsonl');
    expect(await main(['env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '3', '--out', file], c.io)).toBe(0);
    const rows = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(row.messages[1].content).toMatch(/^State: \[.*\]\n\nAction: .+$/s);
    }
  });

  it('rejects an unknown environment or split with exit 2 and the valid names', async () => {
    const c = capture();
    expect(await main(['env', 'expert', 'nethack', '--split', 'train', '--out', join(dir, 'x.jsonl')], c.io)).toBe(2);
    expect(c.err.join('\n')).toContain('unknown environment "nethack"');
    const d = capture();
    expect(await main(['env', 'expert', 'alfworld', '--split', 'dev', '--out', join(dir, 'x.jsonl')], d.io)).toBe(2);
    expect(d.err.join('\n')).toContain('unknown split "dev" for alfworld: one of train, eval_in_distribution, eval_out_of_distribution');
  });
});

describe('diffworld env appworld', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-env-aw-'));
  it('expert wins every dev task and corpus rows use the proxy format', async () => {
    const c = capture();
    const file = join(dir, 'demos.jsonl');
    expect(await main(['env', 'expert', 'appworld', '--split', 'dev', '--out', file], c.io)).toBe(0);
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.won === true && r.env === 'appworld')).toBe(true);
    const corpus = join(dir, 'corpus.jsonl');
    expect(await main(['env', 'corpus', 'appworld', '--split', 'train', '--episodes', '2', '--out', corpus], capture().io)).toBe(0);
    const rows = readFileSync(corpus, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows[0].messages[1].content).toMatch(/^State: \[.*\]\n\nAction: /s);
  });
});
