// The main job's HTML report as a reader sees it, in headless Chromium: every chart (the success bars
// and each training curve) has a title, both axis titles and a legend, a stage keeps its colour from
// chart to chart, and a run that cannot tell its policies apart says so above the tables.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AgentEvaluation, type HeadlessChromium, chartsInPage, evaluateAgent, launchHeadlessChromium, parseMetricsJsonl, randomPolicy, requireChromium } from '@diffworld/eval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveExperimentConfig } from '../config/resolve.js';
import { POLICY_NAMES } from '../grpo-train.js';
import { pipelineSummary, renderComparisonHtml } from './pipeline-report.js';

describe('the pipeline report in headless chromium', () => {
  let chromium: HeadlessChromium | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'diffworld-pipeline-report-'));
    chromium = await launchHeadlessChromium(dir);
  }, 120_000);
  afterAll(async () => {
    if (chromium?.ok) await chromium.browser.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('titles, labels and legends every chart, keeps stage colours, and warns that all-zero successes compare nothing', async (ctx) => {
    const browser = requireChromium(chromium, ctx);
    const config = resolveExperimentConfig({}, { env: 'alfworld' });
    const evals: Record<string, AgentEvaluation> = {};
    // Random policies on 8 games: every success 0, so the report must say the comparison is empty.
    for (const [i, name] of Object.values(POLICY_NAMES).entries()) evals[name] = await evaluateAgent({ env: 'alfworld', policy: randomPolicy(i), split: 'eval_in_distribution', limit: 8, seed: 1 });
    const report = pipelineSummary(config, evals, {
      timings: { sft: 1.5, 'grpo-real': 2.5 },
      grpoRuns: [
        { name: 'GRPO in the world model', steps: 4, skippedSteps: 4, zeroStdShare: 1, worldModelShare: 0.2 },
        { name: 'GRPO in the real engine', steps: 4, skippedSteps: 1, zeroStdShare: 0.25 },
      ],
      worldModel: { source: 'trained here', objective: 'bd3', evalLoss: 2.5, finalLoss: 2.2, parameters: 120_000 },
    });
    const rows = (n: number, f: (s: number) => string) => Array.from({ length: n }, (_, s) => f(s)).join('\n');
    const curves = [
      parseMetricsJsonl(
        rows(10, (s) => `{"step":${s},"loss":${3 / (1 + s)}}`),
        'sft',
      ),
      parseMetricsJsonl(
        rows(4, (s) => `{"step":${s},"loss":${0.1 * s},"rewardMean":0}`),
        'grpo-world-model',
      ),
      parseMetricsJsonl(
        rows(4, (s) => `{"step":${s},"loss":${0.2 * s},"rewardMean":${s / 8}}`),
        'grpo-real',
      ),
    ];
    const path = join(dir, 'report.html');
    writeFileSync(path, await renderComparisonHtml(report, curves));

    const page = await browser.newPage();
    await page.goto(pathToFileURL(path).href);
    const charts = await chartsInPage(page);
    expect(charts.map((c) => c.kind)).toEqual(['success', 'curve', 'curve']);
    for (const c of charts) {
      expect(c.area, c.title).toBeGreaterThan(0);
      expect(c.titleText, c.kind).toBe(c.title);
      expect(c.axisTitles, c.title).toHaveLength(2);
      expect(
        c.axisTitles.every((t) => t.trim() !== ''),
        c.title,
      ).toBe(true);
      expect(c.legendLabels.length, c.title).toBeGreaterThan(0);
    }
    expect(charts[0]!.legendLabels).toEqual(Object.values(POLICY_NAMES));
    const loss = charts.find((c) => c.title.includes('loss'))!;
    expect(loss.legendLabels).toEqual(['sft', 'grpo-world-model', 'grpo-real']);
    // A stage keeps its colour in the loss and reward charts.
    const strokes = await page.$$eval('figure[data-chart="curve"]', (figs) =>
      figs.map((f) =>
        Object.fromEntries(
          [...f.querySelectorAll('.role-legend-symbol path')].map((p, i) => [f.querySelectorAll('.role-legend-label text')[i]?.textContent ?? '', p.getAttribute('stroke') ?? p.getAttribute('fill')]),
        ),
      ),
    );
    expect(strokes[0]!['grpo-real']).toMatch(/^#[0-9a-f]{6}$/i);
    expect(strokes[1]!['grpo-real']).toBe(strokes[0]!['grpo-real']);
    expect(strokes[0]!['sft']).not.toBe(strokes[0]!['grpo-real']);

    const warnings = await page.$$eval('#warnings li', (els) => els.map((e) => e.textContent ?? ''));
    expect(warnings.some((w) => w.includes('No policy solved any of the 8 held-out games'))).toBe(true);
    expect(warnings.some((w) => w.startsWith('GRPO in the world model: every one of its 4 steps'))).toBe(true);
    expect(warnings.some((w) => w.includes('Only 8 held-out episodes'))).toBe(true);
    expect(warnings.some((w) => w.includes('the world model answered only 20.0% of its transitions'))).toBe(true);
    expect(await page.textContent('body')).toContain('held-out loss 2.500');
    await page.close();
  }, 120_000);
});
