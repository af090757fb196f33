// The report's warnings: each comparison that carries no information is named, and a world-model
// arm whose transitions the env's responder mostly answered is called what it is.
import { describe, expect, it } from 'vitest';
import { MIN_WORLD_MODEL_SHARE, uninformative } from './pipeline-report.js';

const run = (name: string, o: { skippedSteps?: number; worldModelShare?: number } = {}) => ({
  name,
  steps: 4,
  skippedSteps: o.skippedSteps ?? 0,
  zeroStdShare: 0,
  ...(o.worldModelShare === undefined ? {} : { worldModelShare: o.worldModelShare }),
});

describe('uninformative', () => {
  it('flags a world-model arm the responder mostly answered, and no other when the run carries signal', () => {
    const mostlyResponder = uninformative({ policies: [], episodes: 100, grpoRuns: [run('GRPO in the world model', { worldModelShare: 0.13 }), run('GRPO in the real engine')] });
    expect(mostlyResponder).toEqual([expect.stringMatching(/^GRPO in the world model: the world model answered only 13\.0% of its transitions/)]);
    expect(uninformative({ policies: [], episodes: 100, grpoRuns: [run('GRPO in the world model', { worldModelShare: MIN_WORLD_MODEL_SHARE })] })).toEqual([]);
  });

  it('says when every step of a run had zero variance, and when more than half had', () => {
    const w = uninformative({ policies: [], episodes: 100, grpoRuns: [run('a', { skippedSteps: 4 }), run('b', { skippedSteps: 3 }), run('c', { skippedSteps: 2 })] });
    expect(w).toHaveLength(2);
    expect(w[0]).toMatch(/^a: every one of its 4 steps/);
    expect(w[1]).toBe('b: 3 of 4 steps had no group with reward variance and changed no weight.');
  });
});
