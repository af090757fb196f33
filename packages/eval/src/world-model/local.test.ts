// LocalWorldModel on a tiny AR world model trained in the test: memorised observations come back
// through predict and predictBatch, the prompt is the training row's, options are mapped and checked.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleOptions } from '@diffworld/env-core';
import { trainTinyWorldModel } from '@diffworld/mdlm-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { worldModelPromptMessages, worldModelRowMessages } from '@diffworld/dataset';
import { checkpointLayout, generateOptionsOf, LocalWorldModel, worldModelMessages } from './local.js';
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

  it('close frees the model: a resident one predicts nothing after it', async () => {
    const wm = await LocalWorldModel.load(modelDir, { provider: 'cpu', decoder: 'resident', defaults: { maxNewTokens: 24 } });
    const t = tinyTransitions(N)[3]!;
    expect((await wm.predict(t.request)).text).toBe(t.observation);
    await wm.close();
    await expect(wm.predict(t.request)).rejects.toThrow(/released/);
  });

  it('a model trained on transition rows records that layout and prompts in it', async () => {
    expect(await checkpointLayout(modelDir)).toBe('transition');
    expect((await LocalWorldModel.load(modelDir, { provider: 'cpu' })).layout).toBe('transition');
  });

  it("a model trained on episode rows records the layout; its prompts are the rows' prefixes, windowed to fit", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'local-wm-episode-'));
    const ts = tinyTransitions(8);
    // Episode i: task, open box i (observed), then open box i+1 (the answer to predict).
    const episode = (i: number) => ({
      system: `Room ${i % 3}`,
      history: [
        { role: 'user' as const, content: `Task ${i % 2}` },
        { role: 'assistant' as const, content: `Action: open box ${i}` },
        { role: 'user' as const, content: ts[i]!.observation },
      ],
      action: `open box ${i + 1}`,
    });
    const rows = join(dir, 'rows.jsonl');
    writeRows(
      rows,
      [0, 1, 2, 3, 4, 5, 6].map((i) => ({ messages: worldModelRowMessages(episode(i), ts[i + 1]!.observation, { layout: 'episode' }) })),
    );
    const model = await trainTinyWorldModel({ data: rows, out: join(dir, 'run'), settings: { objective: 'ar', steps: 3 } });
    expect(await checkpointLayout(model)).toBe('episode');
    const wm = await LocalWorldModel.load(model, { provider: 'cpu' });
    expect(wm.layout).toBe('episode');
    const req = episode(2);
    const full = worldModelPromptMessages(req, { layout: 'episode' });
    expect(wm.messages(req, 10_000)).toEqual(full);
    // A prompt budget below the full prompt keeps the latest steps that fit (here: none, only the action).
    const bare = worldModelPromptMessages(req, { layout: 'episode', keepSteps: 0 });
    expect(wm.messages(req, wm.generator.promptIds(bare).length)).toEqual(bare);
    // An explicit layout wins over the checkpoint's.
    expect((await LocalWorldModel.load(model, { provider: 'cpu', layout: 'transition' })).layout).toBe('transition');
  }, 120_000);

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
