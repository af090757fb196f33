// The agent-evaluation report: one self-contained HTML file (inline SVG charts from Vega-Lite, inline
// CSS, no scripts, no external assets) and a Markdown summary with the same numbers.
import type { EpisodeRecord, EpisodeSummary } from '@diffworld/env-core';
import type { AgentSummary } from '../agent/runner.js';
import type { MetricsRun } from './metrics.js';
import { SeriesColors, type Series, barChartCI, histogram, histogramBins, lineChart } from './charts.js';
import { escapeXml } from './html.js';

export interface ReportInput {
  title?: string;
  /** An agent evaluation: its summary and episode records. */
  agent?: { summary: AgentSummary; records: readonly EpisodeRecord[] };
  /** Training runs whose numeric fields are drawn as curves over `step`. */
  metrics?: readonly MetricsRun[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ci = (s: EpisodeSummary) => `[${pct(s.successCI95[0])}, ${pct(s.successCI95[1])}]`;
const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** Episodes the policy could not finish (EpisodeRecord.truncated), with the first reason; empty when none. */
function truncationNote(records: readonly EpisodeRecord[]): string {
  const cut = records.filter((r) => r.truncated !== undefined);
  return cut.length === 0 ? '' : `${cut.length} of ${records.length} episodes truncated because the policy could not answer (counted as not won; first: ${cut[0]!.truncated})`;
}

function defaultTitle(input: ReportInput): string {
  const s = input.agent?.summary;
  return s ? `DiffWorld agent evaluation: ${s.env} / ${s.split} / ${s.policy}` : 'DiffWorld training metrics';
}

/** One chart per metric field, with a line for every run that logged it (a run keeps its colour in every chart). */
export async function metricCharts(runs: readonly MetricsRun[], colors = new SeriesColors()): Promise<string[]> {
  const fields: string[] = [];
  for (const run of runs) for (const f of Object.keys(run.series)) if (!fields.includes(f)) fields.push(f);
  return Promise.all(
    fields.map((field) => {
      const series: Series[] = runs.filter((r) => r.series[field]?.length).map((r) => ({ name: r.name, points: r.series[field]! }));
      return lineChart(`${field} over training`, series, { yTitle: field, colors });
    }),
  );
}

function summaryRows(summary: AgentSummary): [string, EpisodeSummary][] {
  return [['all', summary.overall], ...Object.entries(summary.byTaskType)];
}

const CSS = `body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1000px;color:#222;padding:0 16px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
.meta{color:#555;font-size:13px}.charts{display:flex;flex-wrap:wrap;gap:12px}figure.chart{margin:8px 0}`;

export async function renderHtmlReport(input: ReportInput): Promise<string> {
  const title = input.title ?? defaultTitle(input);
  const parts: string[] = [`<h1>${escapeXml(title)}</h1>`];
  const agent = input.agent;
  if (agent) {
    const s = agent.summary;
    const truncated = truncationNote(agent.records);
    parts.push(
      `<p class="meta">env <b>${escapeXml(s.env)}</b> · split <b>${escapeXml(s.split)}</b> · policy <b>${escapeXml(s.policy)}</b> · seed ${s.seed} · ${s.overall.episodes} episodes · ${s.workers} worker(s) · ${s.episodesPerSecond.toFixed(2)} episodes/s</p>`,
      ...(truncated ? [`<p class="meta" id="truncated"><b>${escapeXml(truncated)}</b></p>`] : []),
      '<h2>Results</h2>',
      '<table id="summary"><tr><th>task type</th><th>episodes</th><th>success</th><th>95% CI (Wilson)</th><th>mean score</th><th>mean steps</th></tr>',
      ...summaryRows(s).map(
        ([type, x]) => `<tr><td>${escapeXml(type)}</td><td>${x.episodes}</td><td>${pct(x.successRate)}</td><td>${ci(x)}</td><td>${num(x.meanScore)}</td><td>${num(x.meanSteps)}</td></tr>`,
      ),
      '</table>',
      '<h2>Success per task type</h2>',
      await barChartCI(
        'Success rate per task type (whiskers: Wilson 95% interval)',
        Object.entries(s.byTaskType).map(([label, x]) => ({ label, value: x.successRate, ci: x.successCI95, note: `${x.wins}/${x.episodes}` })),
        { xTitle: 'task type' },
      ),
      '<h2>Distributions</h2><div class="charts">',
      await histogram('Final score of each episode', 'scores', histogramBins(agent.records.map((r) => r.score)), { xTitle: 'score', series: s.policy }),
      await histogram('Episode length', 'lengths', histogramBins(agent.records.map((r) => r.steps)), { xTitle: 'steps', series: s.policy }),
      '</div>',
    );
  }
  if (input.metrics && input.metrics.length > 0) {
    parts.push(`<h2>Training curves</h2><p class="meta">runs: ${input.metrics.map((m) => escapeXml(m.name)).join(', ')}</p><div class="charts">`, ...(await metricCharts(input.metrics)), '</div>');
  }
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>${CSS}</style></head><body>\n${parts.join('\n')}\n</body></html>\n`;
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdownReport(input: ReportInput): string {
  const lines: string[] = [`# ${input.title ?? defaultTitle(input)}`, ''];
  const agent = input.agent;
  if (agent) {
    const s = agent.summary;
    const truncated = truncationNote(agent.records);
    lines.push(
      `- env: ${s.env}, split: ${s.split}, policy: ${mdCell(s.policy)}, seed: ${s.seed}`,
      `- episodes: ${s.overall.episodes}, success: **${pct(s.overall.successRate)}** ${ci(s.overall)} (Wilson 95%), mean score: ${num(s.overall.meanScore)}, mean steps: ${num(s.overall.meanSteps)}`,
      ...(truncated ? [`- **${mdCell(truncated)}**`] : []),
      `- throughput: ${s.episodesPerSecond.toFixed(2)} episodes/s with ${s.workers} worker(s)`,
      '',
      '| task type | episodes | success | 95% CI | mean score | mean steps |',
      '|---|---:|---:|---|---:|---:|',
      ...summaryRows(s).map(([type, x]) => `| ${mdCell(type)} | ${x.episodes} | ${pct(x.successRate)} | ${ci(x)} | ${num(x.meanScore)} | ${num(x.meanSteps)} |`),
      '',
    );
  }
  if (input.metrics && input.metrics.length > 0) {
    lines.push('## Training runs (last value of each metric)', '', '| run | metric | last step | last value |', '|---|---|---:|---:|');
    for (const run of input.metrics)
      for (const [field, pts] of Object.entries(run.series)) {
        const last = pts.at(-1)!;
        lines.push(`| ${mdCell(run.name)} | ${mdCell(field)} | ${last[0]} | ${num(last[1])} |`);
      }
    lines.push('');
  }
  return lines.join('\n');
}
