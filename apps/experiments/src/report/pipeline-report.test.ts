// The report's warnings: each comparison that carries no information is named, and a world-model
// arm whose transitions the env's responder mostly answered is called what it is.
import { type EpisodeRecord, summarizeEpisodes } from '@diffworld/env-core';
import type { AgentEvaluation } from '@diffworld/eval';
import { describe, expect, it } from 'vitest';
import { resolveExperimentConfig } from '../config/resolve.js';
import { MIN_WORLD_MODEL_SHARE, pipelineSummary, pipelineSummaryLine, renderPipelineMarkdown, uninformative } from './pipeline-report.js';

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

describe('pipelineSummary', () => {
  // A policy's evaluation on games g0…g(n-1): `won` lists the games it won.
  const evaluation = (policy: string, n: number, won: (i: number) => boolean): AgentEvaluation => {
    const records = Array.from(
      { length: n },
      (_, i) =>
        ({ env: 'alfworld', split: 'eval_in_distribution', task_id: `g${i}`, task_type: 'pick', seed: 0, messages: [], actions: [], steps: 1, reward: 0, score: 0, won: won(i) }) as EpisodeRecord,
    );
    const overall = summarizeEpisodes(records);
    return { records, summary: { env: 'alfworld', split: 'eval_in_distribution', policy, seed: 0, overall, byTaskType: { pick: overall }, workers: 1, wallSeconds: 1, episodesPerSecond: n } };
  };
  const config = resolveExperimentConfig({ env: 'alfworld' });

  it('pairs each RL policy with SFT game by game, and says "not run" for an arm that did not run', () => {
    // SFT wins g0–g39; RL in the real engine wins g2–g51: 12 games gained, 2 lost of 140.
    const evals = { sft: evaluation('sft', 140, (i) => i < 40), 'sft+rl(real)': evaluation('sft+rl(real)', 140, (i) => i >= 2 && i < 52) };
    const r = pipelineSummary(config, evals, { timings: {}, grpoRuns: [run('GRPO in the real engine')], worldModel: undefined });
    expect(r.rlGain.worldModel).toBeUndefined();
    expect(r.simToRealGap).toBeUndefined();
    expect(r.rlGain.real).toMatchObject({ pairs: 140, onlyB: 12, onlyA: 2 });
    expect(r.rlGain.real!.difference).toBeCloseTo(10 / 140, 12);
    expect(r.rlGain.real!.ci95[0]).toBeGreaterThan(0);
    const md = renderPipelineMarkdown(r);
    expect(md).toMatch(/world model not run, real engine \+7\.1 pts \[\+[\d.]+, \+[\d.]+\] \(12 won \/ 2 lost of 140 paired\)/);
    expect(md).toContain('World model: none.');
    expect(md).toMatch(/GRPO: \d+ steps × /);
    const sftOnly = renderPipelineMarkdown(pipelineSummary(config, { sft: evals.sft }, { timings: {}, grpoRuns: [], worldModel: undefined }));
    expect(sftOnly).toContain('GRPO: not run (grpo.arms is empty).');
    expect(pipelineSummaryLine(r, 'r.md')).toMatch(/ · RL gain over SFT: real \+7\.1 pts \[\+[\d.]+, \+[\d.]+\] — report r\.md$/);
  });
});
