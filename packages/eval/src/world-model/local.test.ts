// LocalWorldModel on a tiny AR world model trained in the test: memorised observations come back
// through predict and predictBatch, the prompt is the training row's, options are mapped and checked.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleOptions } from '@diffworld/env-core';
import { trainTinyWorldModel } from '@diffworld/mdlm-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateOptionsOf, LocalWorldModel, worldModelMessages } from './local.js';
import { tinyRows, tinyTransitions, writeRows } from './testing.js';

let modelDir = '';
const N = 12;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-wm-'));
  const rows = join(dir, 'rows.jsonl');
  writeRows(rows, tinyRows(N));
  modelDir = await trainTinyWorldModel({ data: rows, out: join(dir, 'run'), settings: { objective: 'ar', steps: 250 } });
}, 240_000);

describe('LocalWorldModel', () => {
  it('writes the prompt of a training row', () => {
    const [t] = tinyTransitions(1);
    expect(worldModelMessages(t!.request)).toEqual([
      { role: 'system', content: 'Room 0' },
      { role: 'user', content: 'State: [{"role": "user", "content": "Task 0"}]\n\nAction: open box 0' },
    ]);
    expect(worldModelMessages(t!.request, 'assistant-json')[1]!.content.endsWith('Action: [{"role": "assistant", "content": "open box 0"}]')).toBe(true);
  });

  it('predicts memorised observations, one at a time and batched, with stats', async () => {
    const wm = await LocalWorldModel.load(modelDir, { provider: 'cpu', defaults: { maxNewTokens: 24 } });
    const ts = tinyTransitions(N);
    const batch = await wm.predictBatch(ts.map((t) => t.request));
    expect(batch.map((r) => r.text)).toEqual(ts.map((t) => t.observation));
    const one = await wm.predict(ts[5]!.request);
    expect(one.text).toBe(ts[5]!.observation);
    expect(one.stats!.completionTokens).toBeGreaterThan(3);
    expect(one.stats!.forwardPasses).toBe(one.stats!.completionTokens! + 1);
    expect(one.stats!.promptTokens).toBe(wm.generator.promptIds(worldModelMessages(ts[5]!.request)).length);
    const short = await wm.predict(ts[5]!.request, { maxNewTokens: 2 });
    expect(short.stats!.completionTokens).toBe(2);
  }, 60_000);

  it('maps SampleOptions and rejects malformed values', () => {
    expect(generateOptionsOf({ temperature: 0.7, topP: 0.9, seed: 3, threshold: 0.9, unmasking: 'low_confidence_static', other: 'x' })).toEqual({
      temperature: 0.7,
      topP: 0.9,
      seed: 3,
      threshold: 0.9,
      unmasking: 'low_confidence_static',
    });
    expect(() => generateOptionsOf(JSON.parse('{"temperature": "1"}') as SampleOptions)).toThrow('temperature must be a finite number');
    expect(() => generateOptionsOf({ unmasking: 3 })).toThrow('unmasking must be a strategy name');
  });
});
