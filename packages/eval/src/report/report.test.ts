import { describe, expect, it } from 'vitest';
import { episodeRecord, summarizeEpisodes, type EpisodeRecord, type TaskRef } from '@diffworld/env-core';
import { summarizeByTaskType, type AgentSummary } from '../agent/runner.js';
import { parseMetricsJsonl } from './metrics.js';
import { renderHtmlReport, renderMarkdownReport } from './report.js';
import { SeriesColors, barChartCI, histogramBins, lineChart } from './charts.js';

function record(taskType: string, won: boolean, steps: number, i: number): EpisodeRecord {
  const task: TaskRef = { env: 'alfworld', split: 'train', id: `${taskType}-${i}`, taskType, seed: i };
  return episodeRecord(task, { messages: [], actions: Array.from({ length: steps }, () => 'look'), reward: won ? 1 : 0, score: won ? 1 : 0, won });
}

function sampleAgent(): { summary: AgentSummary; records: EpisodeRecord[] } {
  const records = [
    record('pick_and_place_simple', true, 6, 0),
    record('pick_and_place_simple', false, 50, 1),
    record('look_at_obj_in_light', true, 4, 2),
    record('pick_clean_then_place_in_recep', false, 50, 3),
  ];
  return {
    records,
    summary: {
      env: 'alfworld',
      split: 'train',
      policy: 'random(seed=0) <&>',
      seed: 0,
      overall: summarizeEpisodes(records),
      byTaskType: summarizeByTaskType(records),
      workers: 1,
      wallSeconds: 1,
      episodesPerSecond: 4,
    },
  };
}

describe('parseMetricsJsonl', () => {
  it('collects numeric fields over step, skipping strings and non-finite values', () => {
    const run = parseMetricsJsonl('{"step": 1, "loss": 2.5, "phase": "sft"}\n\n{"step": 2, "loss": NaN, "lr": 0.001}\n{"step": 3, "loss": 1.5, "lr": Infinity}\n', 'run.jsonl');
    expect(run.series).toEqual({
      loss: [
        [1, 2.5],
        [3, 1.5],
      ],
      lr: [[2, 0.001]],
    });
  });
  it('names the file and line of a bad row', () => {
    expect(() => parseMetricsJsonl('{"step": 1}\n{"loss": 1}\n', 'm.jsonl')).toThrow(/m\.jsonl:2: expected a numeric "step"/);
    expect(() => parseMetricsJsonl('{"step": 1\n', 'm.jsonl')).toThrow(/\[invalid_json\] m\.jsonl:1/);
  });
});

describe('charts', () => {
  it('bins few distinct values one each, many into equal ranges', () => {
    expect(histogramBins([0, 1, 1, 0, 1])).toEqual([
      { label: '0', count: 2 },
      { label: '1', count: 3 },
    ]);
    const bins = histogramBins(
      Array.from({ length: 100 }, (_, i) => i),
      10,
    );
    expect(bins).toHaveLength(10);
    expect(bins.every((b) => b.count === 10)).toBe(true);
  });
  it('draws one bar and one whisker per task type, with a title, axis titles and a legend, escaping labels', async () => {
    const svg = await barChartCI(
      'Success <by type>',
      [
        { label: 'a<b', value: 0.5, ci: [0.2, 0.8] },
        { label: 'c', value: 0, ci: [0, 0.6] },
      ],
      { xTitle: 'task type' },
    );
    expect(svg).toMatch(/^<figure class="chart" data-chart="success" data-title="Success &lt;by type&gt;">/);
    expect(svg.match(/<path [^>]*aria-roledescription="bar"/g)).toHaveLength(2);
    expect(svg).toContain('class="mark-rule role-mark');
    for (const text of ['Success &lt;by type&gt;', 'task type', 'success rate', 'a&lt;b']) expect(svg).toContain(text);
    expect(svg).toContain('role-legend');
    expect(svg).not.toContain('a<b');
  });
  it('keeps a series in one colour across the charts of a report', async () => {
    const colors = new SeriesColors();
    const a = await lineChart(
      'loss',
      [
        {
          name: 'sft',
          points: [
            [1, 2],
            [2, 1],
          ],
        },
        {
          name: 'grpo',
          points: [
            [1, 3],
            [2, 2],
          ],
        },
      ],
      { yTitle: 'loss', colors },
    );
    const b = await lineChart(
      'reward',
      [
        {
          name: 'grpo',
          points: [
            [1, 0],
            [2, 1],
          ],
        },
      ],
      { yTitle: 'reward', colors },
    );
    const stroke = (svg: string) =>
      [...svg.matchAll(/aria-roledescription="line mark"[^>]*stroke="(#[0-9a-f]{6})"|stroke="(#[0-9a-f]{6})"[^>]*aria-roledescription="line mark"/g)].map((m) => m[1] ?? m[2]);
    expect(colors.colour('sft')).not.toBe(colors.colour('grpo'));
    expect(stroke(b)).toEqual([colors.colour('grpo')]);
    expect(stroke(a)).toEqual(expect.arrayContaining([colors.colour('sft'), colors.colour('grpo')]));
  });
});

describe('reports', () => {
  const agent = sampleAgent();
  const metrics = [parseMetricsJsonl('{"step":1,"loss":3}\n{"step":2,"loss":2}\n', 'a'), parseMetricsJsonl('{"step":1,"loss":3.5,"reward":0.1}\n{"step":2,"loss":2.2,"reward":0.3}\n', 'b')];

  it('HTML is self-contained: no scripts, no external references', async () => {
    const html = await renderHtmlReport({ agent, metrics });
    expect(html).not.toMatch(/<script|<link|<img|src=|href=|url\(/i);
    expect(html.match(/<figure class="chart"/g)).toHaveLength(3 + 2);
    expect(html).toContain('random(seed=0) &lt;&amp;&gt;');
  });

  it('Markdown has the overall line and one table row per task type', () => {
    const md = renderMarkdownReport({ agent, metrics });
    expect(md).toContain('success: **50.0%**');
    expect(md.split('\n').filter((l) => /^\| (all|pick|look)/.test(l))).toHaveLength(4);
    expect(md).toContain('| b | reward | 2 | 0.30 |');
  });
});
