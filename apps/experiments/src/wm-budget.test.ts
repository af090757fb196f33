// World-model prompts within a token budget: AppWorld's real corpus rows (8–10k tokens) cut to a
// few thousand with the grounding's records and the history's middle giving way, the same shaping
// applied to the requests the world model answers, and the memory check that refuses a config
// whose training graphs cannot fit.
import { type ChatRow, approxTokenCount, parseWorldModelUserTurn } from '@diffworld/dataset';
import type { WorldModel, WorldModelRequest } from '@diffworld/env-core';
import { envSuite } from '@diffworld/envs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExperimentError } from './errors.js';
import { loadExperimentConfig } from './config/resolve.js';
import { checkMemoryBudget, estimateTrainingBytes } from './memory.js';
import { BudgetedWorldModel, TEMPLATE_TOKENS, fitWorldModelRow, limitRecords } from './wm-budget.js';

const count = approxTokenCount;
const rowTokens = (r: ChatRow) => TEMPLATE_TOKENS + r.messages.reduce((a, m) => a + count(m.content), 0);
const config = (preset: string, env: string) => loadExperimentConfig(preset, env);

const SYSTEM = [
  '## ENVIRONMENT STATE',
  'Database records:',
  '  songs (3 total):',
  '    - song_id: 7, title: A, liked: True',
  '    - song_id: 12, title: B, liked: False',
  '    - song_id: 379, title: C, liked: True',
  '  albums (45 total, 2 shown):',
  "    - album_id: 1, title: 'X'",
  "    - album_id: 2, title: 'Y'",
  'Active tool call:',
  '## TASK CONTEXT',
].join('\n');

describe('limitRecords', () => {
  it('keeps the first records per section and the ones the action cites, with the env\'s "N total, M shown" header', () => {
    const out = limitRecords(SYSTEM, 1, '[{"name": "spotify__show_song", "arguments": "{\\"song_id\\": 379}"}]');
    expect(out.split('\n')).toEqual([
      '## ENVIRONMENT STATE',
      'Database records:',
      '  songs (3 total, 2 shown):',
      '    - song_id: 7, title: A, liked: True',
      '    - song_id: 379, title: C, liked: True',
      '  albums (45 total, 1 shown):',
      "    - album_id: 1, title: 'X'",
      'Active tool call:',
      '## TASK CONTEXT',
    ]);
    expect(limitRecords(SYSTEM, 3, 'x')).toBe(SYSTEM); // every record already shown: unchanged
    expect(limitRecords('no records here', 0, 'x')).toBe('no records here');
    // 3790 is not song 379.
    expect(limitRecords(SYSTEM, 0, '{"song_id": 3790}')).not.toContain('song_id: 379,');
  });
});

describe('fitWorldModelRow on AppWorld corpus rows', () => {
  const rows: ChatRow[] = [];
  beforeAll(async () => {
    const suite = envSuite('appworld');
    for await (const r of suite.corpusRows({ split: suite.splits[0]!, episodes: 2, seed: 0 })) rows.push(r);
  });

  it('cuts every row to the budget, keeping the target, the history head and the last turns', () => {
    expect(rows.length).toBeGreaterThan(4);
    expect(Math.min(...rows.map(rowTokens))).toBeGreaterThan(6000); // why the budget is needed
    let shortened = 0;
    for (const row of rows) {
      const f = fitWorldModelRow(row, { maxTokens: 3072, count, seed: 0 });
      if (f.outcome === 'dropped') continue;
      shortened++;
      const r = f.row!;
      expect(rowTokens(r)).toBeLessThanOrEqual(3072);
      expect(r.messages[2]).toEqual(row.messages[2]); // the target is never touched
      const before = parseWorldModelUserTurn(row.messages[1]!.content)!;
      const after = parseWorldModelUserTurn(r.messages[1]!.content)!;
      expect(after.action).toBe(before.action);
      const [h0, h1] = before.history as { content: string }[];
      expect((after.history as { content: string }[]).slice(0, 2)).toEqual([h0, h1]);
      const rest = (after.history as { content: string }[]).slice(2);
      if (rest.length > 0 && rest[0]!.content.startsWith('[TRUNCATED')) {
        const kept = rest.slice(1);
        expect(kept).toEqual((before.history as { content: string }[]).slice(-kept.length || Infinity).slice(0, kept.length));
      }
      // Fewer records, still in the env's format; the sections all remain.
      const sections = (s: string) => [...s.matchAll(/^ {2}(\w+) \((\d+) total/gm)].map((m) => `${m[1]} ${m[2]}`);
      expect(sections(r.messages[0]!.content)).toEqual(sections(row.messages[0]!.content));
      expect(r.messages[0]!.content.length).toBeLessThan(row.messages[0]!.content.length);
    }
    expect(shortened).toBeGreaterThan(rows.length / 2);
    // Seeded by content: the same row gives the same cut.
    expect(fitWorldModelRow(rows[3]!, { maxTokens: 3072, count, seed: 0 })).toEqual(fitWorldModelRow(rows[3]!, { maxTokens: 3072, count, seed: 0 }));
  });

  it('drops a row whose fixed parts do not fit, and leaves a row that fits alone', () => {
    expect(fitWorldModelRow(rows[0]!, { maxTokens: 200, count, seed: 0 })).toEqual({ row: undefined, outcome: 'dropped' });
    expect(fitWorldModelRow(rows[0]!, { maxTokens: 100_000, count, seed: 0 })).toEqual({ row: rows[0], outcome: 'fits' });
  });

  it('shapes world-model requests the same way, with the most history that fits', async () => {
    const seen: WorldModelRequest[] = [];
    const inner: WorldModel = { predict: async (req) => (seen.push(req), { text: '{}' }) };
    const wm = new BudgetedWorldModel(inner, { maxPromptTokens: 2500, count, actionEncoding: 'raw' });
    const row = rows[rows.length - 1]!;
    const p = parseWorldModelUserTurn(row.messages[1]!.content)!;
    const req = { system: row.messages[0]!.content, history: p.history as WorldModelRequest['history'], action: p.action };
    await wm.predict(req);
    await wm.predictBatch([req]);
    expect(seen[1]).toEqual(seen[0]);
    const got = seen[0]!;
    expect(got.action).toBe(req.action);
    expect(count(got.system) + count(`State: ${JSON.stringify(got.history)}\n\nAction: ${got.action}`)).toBeLessThanOrEqual(2600);
    // A request that already fits goes through as it is.
    const small = { system: 'S', history: req.history.slice(0, 2), action: 'a' };
    await wm.predict(small);
    expect(seen[2]).toEqual(small);
    // Closing it closes the model it wraps.
    let closed = 0;
    await new BudgetedWorldModel({ ...inner, close: async () => void closed++ }, { maxPromptTokens: 2500, count, actionEncoding: 'raw' }).close();
    expect(closed).toBe(1);
  });
});

describe('checkMemoryBudget', () => {
  it('stays above the peak RSS measured on this machine (CPU, float32)', () => {
    const wm = (seq: number) => ({ what: 'wm', batch: 1, positions: 2 * seq, lossPositions: seq, heads: 2, layers: 2, vocab: 2048, params: 1e5 });
    const policy = (t: number, batch: number) => ({ what: 'policy', batch, positions: t, lossPositions: t, heads: 4, layers: 2, vocab: 2048, params: 4e5 });
    expect(estimateTrainingBytes(wm(2048))).toBeGreaterThan(1.27e9);
    expect(estimateTrainingBytes(wm(4096))).toBeGreaterThan(3.31e9);
    expect(estimateTrainingBytes(policy(1024, 1))).toBeGreaterThan(0.57e9);
    expect(estimateTrainingBytes(policy(2048, 1))).toBeGreaterThan(0.92e9);
    expect(estimateTrainingBytes(policy(1024, 4))).toBeGreaterThan(1.06e9);
  });

  it('refuses the 20k-token AppWorld world model that was OOM-killed, naming the setting; the CPU configs pass', () => {
    const old = { ...config('cpu', 'appworld'), memoryBudgetGB: 21 };
    old.worldModel = { ...old.worldModel, train: { ...old.worldModel.train, seqLength: 20480 } };
    let err: unknown;
    try {
      checkMemoryBudget(old);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExperimentError);
    expect((err as ExperimentError).code).toBe('memory');
    expect((err as ExperimentError).message).toMatch(/world-model training \(worldModel\.train\.seqLength 20480.*over the memory budget of 21\.0 GB/);
    for (const [preset, env] of [
      ['cpu', 'alfworld'],
      ['cpu', 'sciworld'],
      ['cpu', 'appworld'],
      ['micro', 'alfworld'],
    ] as const) {
      const est = checkMemoryBudget(config(preset, env), 6e9);
      expect(Math.max(...est.map((e) => e.bytes)), `${preset} ${env}`).toBeLessThan(6e9);
    }
  });
});
