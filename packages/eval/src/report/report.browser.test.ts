// Renders the HTML report in headless Chromium (shared/DESIGN.md "Browser tests") and checks that
// every chart drew. Chromium is Debian's when installed (.ci/run does), else the one an npm package
// ships (find-chromium.ts). Under CI=true a missing Chromium fails; elsewhere the test skips with the reason.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAgent } from '../agent/runner.js';
import { randomPolicy } from '../agent/policy.js';
import { type HeadlessChromium, launchHeadlessChromium, requireChromium } from './headless-chromium.js';
import { parseMetricsJsonl } from './metrics.js';
import { chartsInPage } from './charts-in-page.js';
import { renderHtmlReport } from './report.js';

describe('HTML report in headless chromium', () => {
  let chromium: HeadlessChromium | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'diffworld-report-'));
    chromium = await launchHeadlessChromium(dir);
  }, 120_000);
  afterAll(async () => {
    if (chromium?.ok) await chromium.browser.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws bars with whiskers per task type, both distributions and the training curves, fetching nothing', async (ctx) => {
    const browser = requireChromium(chromium, ctx);
    const agent = await evaluateAgent({ env: 'alfworld', policy: randomPolicy(0), split: 'eval_in_distribution', limit: 24, seed: 3 });
    const taskTypes = Object.keys(agent.summary.byTaskType);
    expect(taskTypes.length).toBeGreaterThan(3);
    const lines = (f: (s: number) => string) => Array.from({ length: 20 }, (_, s) => f(s)).join('\n');
    const metrics = [
      parseMetricsJsonl(
        lines((s) => `{"step": ${s * 10}, "loss": ${3 / (1 + s)}, "reward": ${s / 20}}`),
        'grpo-a',
      ),
      parseMetricsJsonl(
        lines((s) => `{"step": ${s * 10}, "loss": ${3.5 / (1 + s)}}`),
        'grpo-b',
      ),
    ];
    const path = join(dir, 'report.html');
    writeFileSync(path, await renderHtmlReport({ agent, metrics }));

    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(path).href);

    const charts = await chartsInPage(page);
    expect(charts.map((c) => c.kind)).toEqual(['success', 'scores', 'lengths', 'curve', 'curve']);
    for (const c of charts) {
      expect(c.area, c.title).toBeGreaterThan(0);
      // Every chart says what it shows: a title, a title on both axes, a legend naming its series.
      expect(c.titleText, c.kind).toBe(c.title);
      expect(c.axisTitles.length, c.title).toBe(2);
      expect(
        c.axisTitles.every((t) => t.trim() !== ''),
        c.title,
      ).toBe(true);
      expect(c.legendLabels.length, c.title).toBeGreaterThan(0);
    }
    expect(charts[0]!.axisTitles).toEqual(['task type', 'success rate']);
    expect(charts[3]!.legendLabels).toEqual(['grpo-a', 'grpo-b']);

    const bars = await page.$$eval('figure[data-chart="success"] path[aria-roledescription="bar"]', (els) =>
      els.map((e) => e.getBoundingClientRect()).map((r) => ({ width: r.width, height: r.height })),
    );
    expect(bars).toHaveLength(taskTypes.length);
    for (const b of bars) expect(b.width).toBeGreaterThan(0);
    const whiskers = await page.$$eval('figure[data-chart="success"] .mark-rule.role-mark line', (els) => els.map((e) => e.getBoundingClientRect().height));
    expect(whiskers).toHaveLength(taskTypes.length);
    expect(whiskers.every((h) => h > 0)).toBe(true);
    for (const kind of ['scores', 'lengths']) {
      const heights = await page.$$eval(`figure[data-chart="${kind}"] path[aria-roledescription="bar"]`, (els) => els.map((e) => e.getBoundingClientRect().height));
      expect(heights.length).toBeGreaterThan(0);
      expect(heights.some((h) => h > 10)).toBe(true);
    }
    const curves = await page.$$eval('figure[data-chart="curve"] path[aria-roledescription="line mark"]', (els) =>
      els.map((e) => ({ length: (e as unknown as { getTotalLength(): number }).getTotalLength(), stroke: e.getAttribute('stroke') })),
    );
    expect(curves).toHaveLength(3);
    for (const c of curves) expect(c.length).toBeGreaterThan(100);
    // grpo-a keeps its colour in both loss and reward charts.
    expect(curves[0]!.stroke).toBe(curves[2]!.stroke);
    expect(curves[0]!.stroke).not.toBe(curves[1]!.stroke);

    expect(requests).toEqual([pathToFileURL(path).href]);
    await page.close();
  }, 60_000);
});
